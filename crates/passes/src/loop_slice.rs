//! The address slice of a loop: the ops of an `scf.for` body that compute
//! some of its values (a load's pointers and mask) from the induction
//! variable, loop-carried values and values defined before the loop,
//! closed under the carried values they read (a carried pointer brings
//! the op that advances it). Such a slice can be evaluated for any
//! iteration ahead of the one running, which is what lets a pipelined
//! loop issue the copies of later iterations: tutorial 03's pointer
//! tensors advanced by `addptr` each step, offsets recomputed from the
//! loop index, and masks on `K - k * BLOCK_K` all qualify.
//!
//! Only ops without memory effects or regions that lower to per-thread
//! arithmetic in registers belong to a slice (`arith`, `math`, `splat`,
//! `broadcast`, `expand_dims`, `addptr`, `arange`, program ids and
//! constants); anything else (a load, a product, a layout conversion
//! through shared memory) makes the values unreachable ahead of time.

use crate::edit::{as_result, key};
use melior::ir::operation::OperationLike;
use melior::ir::{BlockLike, OperationRef, Value};
use std::collections::{BTreeSet, HashSet};
use tile_dialect::view::{ForLoop, op_name};

/// The slice computing some values of a loop body.
#[derive(Clone, Debug)]
pub struct Slice<'c, 'a> {
    /// The ops, in body order.
    pub ops: Vec<OperationRef<'c, 'a>>,
    /// The carried values (their indices among the loop's `iter_args`) the
    /// slice reads; the slice also computes what the body yields for each.
    pub carried: Vec<usize>,
}

/// True when `op` may be evaluated ahead of its iteration: pure register
/// arithmetic with no regions.
fn evaluable(op: &OperationRef) -> bool {
    if op.regions().next().is_some() {
        return false;
    }
    let name = op_name(op);
    matches!(
        name,
        "tile.splat"
            | "tile.broadcast"
            | "tile.expand_dims"
            | "tile.addptr"
            | "tile.arange"
            | "tile.program_id"
            | "tile.num_programs"
    ) || name.starts_with("arith.")
        || name.starts_with("math.")
}

/// The slice of `l`'s body computing `values`, or `None` when one of them
/// depends on an op that cannot be evaluated ahead (see the module docs).
pub fn of<'c, 'a>(l: &ForLoop<'c, 'a>, values: &[Value<'c, 'a>]) -> Option<Slice<'c, 'a>> {
    let body = l.body.to_raw().ptr;
    let mut in_slice: HashSet<usize> = HashSet::new();
    let mut carried: BTreeSet<usize> = BTreeSet::new();
    let mut work: Vec<Value<'c, 'a>> = values.to_vec();
    while let Some(v) = work.pop() {
        if v == l.induction {
            continue;
        }
        if let Some(j) = l.iter_args.iter().position(|&a| a == v) {
            if carried.insert(j) {
                work.push(l.yielded[j]);
            }
            continue;
        }
        let Some(result) = as_result(v) else {
            // An argument of some other block: defined outside the loop.
            continue;
        };
        let owner = result.owner();
        if owner.block().map(|b| b.to_raw().ptr) != Some(body) {
            // Defined before the loop (values of nested regions cannot
            // reach the body's ops).
            continue;
        }
        if !evaluable(&owner) {
            return None;
        }
        if in_slice.insert(owner.to_raw().ptr as usize) {
            work.extend(owner.operands());
        }
    }
    let ops = crate::edit::ops_of(&l.body)
        .into_iter()
        .filter(|op| in_slice.contains(&(op.to_raw().ptr as usize)))
        .collect();
    Some(Slice {
        ops,
        carried: carried.into_iter().collect(),
    })
}

/// The keys ([`crate::edit::key`]) of every value a slice defines: its
/// ops' results.
pub fn defined_keys(slice: &Slice) -> Vec<usize> {
    slice
        .ops
        .iter()
        .flat_map(|op| op.results().map(key).collect::<Vec<_>>())
        .collect()
}
