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
//! `broadcast`, `expand_dims`, `addptr`, `arange`, program ids, block
//! pointers and their `advance`, constants); anything else (a load, a
//! product, a layout conversion through shared memory) makes the values
//! unreachable ahead of time.

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
            | "tile.advance"
            | "tile.make_block_ptr"
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

/// True when `v` (a value of `l`'s body, or one defined before the loop)
/// changes by the same amount from each iteration to the next: an affine
/// function of the iteration number. Invariants, the induction variable
/// and carried values that the body advances by an invariant amount
/// (`addptr`, `addi`) are; sums, differences and `addptr`s of such values,
/// their products with invariants, and their splats, broadcasts,
/// `expand_dims` and sign extensions are too. Anything else (remainders,
/// quotients, comparisons, selections, loads) is not. Offsets are taken
/// not to wrap, as for any address.
pub fn affine<'c, 'a>(l: &ForLoop<'c, 'a>, v: Value<'c, 'a>) -> bool {
    let mut kinds = Kinds {
        l,
        known: std::collections::HashMap::new(),
    };
    !matches!(kinds.of(v), Kind::Other)
}

/// How a value varies with the iteration number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// The same in every iteration.
    Invariant,
    /// Changes by the same (invariant) amount each iteration.
    Affine,
    /// Anything else.
    Other,
}

/// The kinds of a loop's values, each found once (a value being looked
/// at counts as `Other` until it is known, which ends cycles through
/// carried values).
struct Kinds<'l, 'c, 'a> {
    l: &'l ForLoop<'c, 'a>,
    known: std::collections::HashMap<usize, Kind>,
}

impl<'c, 'a> Kinds<'_, 'c, 'a> {
    fn of(&mut self, v: Value<'c, 'a>) -> Kind {
        let k = crate::edit::key(v);
        if let Some(&known) = self.known.get(&k) {
            return known;
        }
        self.known.insert(k, Kind::Other);
        let found = self.find(v);
        self.known.insert(k, found);
        found
    }

    fn find(&mut self, v: Value<'c, 'a>) -> Kind {
        let l = self.l;
        if v == l.induction {
            return Kind::Affine;
        }
        if let Some(j) = l.iter_args.iter().position(|&a| a == v) {
            return self.carried(j);
        }
        let Some(result) = as_result(v) else {
            return Kind::Invariant;
        };
        let op = result.owner();
        if op.block().map(|b| b.to_raw().ptr) != Some(l.body.to_raw().ptr) {
            return Kind::Invariant;
        }
        let operands: Vec<Value<'c, 'a>> = op.operands().collect();
        let kinds: Vec<Kind> = operands.iter().map(|&x| self.of(x)).collect();
        let sum = |a: Kind, b: Kind| match (a, b) {
            (Kind::Other, _) | (_, Kind::Other) => Kind::Other,
            (Kind::Invariant, Kind::Invariant) => Kind::Invariant,
            _ => Kind::Affine,
        };
        match (op_name(&op), &kinds[..]) {
            ("tile.splat" | "tile.broadcast" | "tile.expand_dims" | "arith.extsi", [k]) => *k,
            ("tile.addptr" | "arith.addi" | "arith.subi", [a, b]) => sum(*a, *b),
            ("arith.muli", [a, b]) => match (a, b) {
                (Kind::Invariant, Kind::Invariant) => Kind::Invariant,
                (Kind::Affine, Kind::Invariant) | (Kind::Invariant, Kind::Affine) => Kind::Affine,
                _ => Kind::Other,
            },
            _ if evaluable(&op) && kinds.iter().all(|&k| k == Kind::Invariant) => Kind::Invariant,
            _ => Kind::Other,
        }
    }

    /// A carried value is affine when the body yields it advanced by an
    /// invariant amount (`addptr(x, d)`, `addi(x, d)`, `addi(d, x)`), and
    /// invariant when yielded unchanged.
    fn carried(&mut self, j: usize) -> Kind {
        let (arg, y) = (self.l.iter_args[j], self.l.yielded[j]);
        if y == arg {
            return Kind::Invariant;
        }
        let Some(result) = as_result(y) else {
            return Kind::Other;
        };
        let op = result.owner();
        let name = op_name(&op);
        let operands: Vec<Value<'c, 'a>> = op.operands().collect();
        let step = match (name, &operands[..]) {
            ("tile.addptr" | "arith.addi", [x, d]) if *x == arg => *d,
            ("arith.addi", [d, x]) if *x == arg => *d,
            _ => return Kind::Other,
        };
        if self.of(step) == Kind::Invariant {
            Kind::Affine
        } else {
            Kind::Other
        }
    }
}
