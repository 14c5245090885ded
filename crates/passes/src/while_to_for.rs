//! `tile-while-to-for`: a `while` loop that counts becomes the `scf.for`
//! it is, so that every analysis and transformation written for `for`
//! loops (the axis analysis of the induction variable, the loop's address
//! slice, software pipelining of the loads feeding `dot`) applies to it.
//!
//! A loop counts when it carries an integer `i` such that:
//!
//! - its condition block holds only `i < n` (`arith.cmpi slt`, or
//!   `n > i`), with `n` defined outside the loop, and forwards its
//!   arguments unchanged;
//! - its body yields `i + c` for `i`, `c` a positive constant;
//! - nothing uses `i`'s value after the loop.
//!
//! Then `scf.while (i = lo, ...) { i < n } do { body; yield i + c, ... }`
//! runs exactly as `scf.for i = lo to n step c iter_args(...) { body }`:
//! both stop before the first `i` not below `n` (signed), and both step
//! by the same wrapping addition. The body moves into the `for` as it is;
//! the other carried values become its `iter_args` in order. Loops of
//! any other shape are left alone (the lowering handles `scf.while`
//! generally).
//!
//! ```text
//! scf.while (%k = %c0, %acc = %z) : (i32, T) -> (i32, T) {
//!   %go = arith.cmpi slt, %k, %n : i32
//!   scf.condition(%go) %k, %acc : i32, T
//! } do {
//! ^bb0(%k: i32, %acc: T):
//!   ...
//!   %next = arith.addi %k, %c64 : i32
//!   scf.yield %next, %acc2 : i32, T
//! }
//! // becomes
//! scf.for %k = %c0 to %n step %c64 iter_args(%acc = %z) -> (T) : i32 { ...; scf.yield %acc2 : T }
//! ```

use crate::edit;
use crate::pass::{PassId, PassInfo, PassResult, kernel_pass};
use melior::dialect::arith;
use melior::ir::block::BlockLike;
use melior::ir::operation::{OperationBuilder, OperationLike, WalkOrder, WalkResult};
use melior::ir::{Block, Operation, OperationRef, Region, RegionLike, Type, Value, ValueLike};
use melior::pass::Pass;
use tile_dialect::view::{Constant, WhileLoop, op_name};

static PASS_ID: PassId = PassId;

/// The flag of this pass.
pub const FLAG: &str = "tile-while-to-for";

/// What `--help` says of it.
pub const INFO: PassInfo = PassInfo {
    name: "TileWhileToFor",
    flag: FLAG,
    summary: "rewrite while loops that count (i < n, i += c) as scf.for",
};

/// Creates the `tile-while-to-for` pass (on kernels).
pub fn create() -> Pass {
    kernel_pass(&PASS_ID, &INFO, while_to_for)
}

/// `arith.cmpi`'s predicates `slt` and `sgt`.
const SLT: i64 = 2;
const SGT: i64 = 4;

/// Rewrites the counting `while` loops of the kernel `func`, innermost
/// first.
pub fn while_to_for(func: &OperationRef) -> PassResult {
    let mut loops = Vec::new();
    func.walk(WalkOrder::PostOrder, |op| {
        if op_name(&op) == "scf.while" {
            loops.push(op.to_raw());
        }
        WalkResult::Advance
    });
    for raw in loops {
        // SAFETY: the loops collected are live: each rewrite erases only
        // the loop it rewrites, and inner loops come first.
        let op = unsafe { OperationRef::from_raw(raw) };
        let Ok(Some(w)) = WhileLoop::read(&op) else {
            continue;
        };
        if let Some(counter) = counter(&op, &w) {
            rewrite(&op, &w, counter);
        }
    }
    Ok(())
}

/// What makes a `while` loop a `for` loop.
#[derive(Clone, Copy)]
struct Counter<'c, 'a> {
    /// The position of the counter among the carried values.
    index: usize,
    /// The bound it stays below.
    bound: Value<'c, 'a>,
    /// The constant step, the value holding it when the loop can read it
    /// from outside, and the op adding it (in the body).
    step: i64,
    step_value: Option<Value<'c, 'a>>,
    add: OperationRef<'c, 'a>,
}

/// The counter of `w` (the loop `op`), if the loop counts (see the module
/// docs).
fn counter<'c, 'a>(op: &OperationRef<'c, 'a>, w: &WhileLoop<'c, 'a>) -> Option<Counter<'c, 'a>> {
    // The condition block: one comparison, then the arguments forwarded
    // unchanged.
    let ops = edit::ops_of(&w.before);
    if ops.len() != 2 || w.forwarded.len() != w.before_args.len() {
        return None;
    }
    if w.forwarded.iter().zip(&w.before_args).any(|(f, a)| f != a) {
        return None;
    }
    let compare = edit::as_result(w.condition)?.owner();
    if op_name(&compare) != "arith.cmpi" || compare.to_raw().ptr != ops[0].to_raw().ptr {
        return None;
    }
    let predicate = tile_dialect::view::attr::int(&compare, "predicate").ok()?;
    let (lhs, rhs) = (compare.operand(0).ok()?, compare.operand(1).ok()?);
    let (counted, bound) = match predicate {
        SLT => (lhs, rhs),
        SGT => (rhs, lhs),
        _ => return None,
    };
    // An operand of `arith.cmpi` whose result is the scalar condition: a
    // signless integer or an index, as `scf.for` wants.
    let index = w.before_args.iter().position(|&a| a == counted)?;
    if !defined_outside(bound, op) {
        return None;
    }
    // Nothing reads the counter after the loop.
    if edit::has_uses(w.results[index]) {
        return None;
    }
    // The body steps it by a positive constant.
    let counter = w.after_args[index];
    let add = edit::as_result(w.yielded[index])?.owner();
    if op_name(&add) != "arith.addi" || add.block()?.to_raw().ptr != w.after.to_raw().ptr {
        return None;
    }
    let (x, y) = (add.operand(0).ok()?, add.operand(1).ok()?);
    let other = match (x == counter, y == counter) {
        (true, false) => y,
        (false, true) => x,
        _ => return None,
    };
    let step = Constant::of_value(other)?.as_i64();
    if step <= 0 || edit::use_count(add.result(0).ok()?) != 1 {
        return None;
    }
    Some(Counter {
        index,
        bound,
        step,
        step_value: defined_outside(other, op).then_some(other),
        add,
    })
}

/// True when `v` is defined outside `op` (not in any of its regions).
fn defined_outside<'c>(v: Value<'c, '_>, op: &OperationRef<'c, '_>) -> bool {
    let block = match edit::as_result(v) {
        Some(r) => r.owner().block(),
        // SAFETY: `v` is a live block argument.
        None => unsafe {
            let owner = mlir_sys::mlirBlockArgumentGetOwner(v.to_raw());
            (!owner.ptr.is_null()).then(|| melior::ir::BlockRef::from_raw(owner))
        },
    };
    let mut parent = block.and_then(|b| b.parent_operation());
    while let Some(p) = parent {
        if p.to_raw().ptr == op.to_raw().ptr {
            return false;
        }
        parent = p.parent_operation();
    }
    true
}

/// Replaces the loop `op` by the `scf.for` that `counter` makes of it.
fn rewrite<'c, 'a>(op: &OperationRef<'c, 'a>, w: &WhileLoop<'c, 'a>, counter: Counter<'c, 'a>) {
    let context = tile_dialect::context_of(op.context());
    let location = op.location();
    let i = counter.index;
    let counted = w.inits[i];
    let step = counter.step_value.unwrap_or_else(|| {
        let constant = edit::insert_before(
            op,
            arith::constant(
                context,
                melior::ir::attribute::IntegerAttribute::new(counted.r#type(), counter.step).into(),
                location,
            ),
        );
        constant.result(0).expect("a constant's result").into()
    });
    let others = |values: &[Value<'c, 'a>]| -> Vec<Value<'c, 'a>> {
        values
            .iter()
            .enumerate()
            .filter(|&(j, _)| j != i)
            .map(|(_, &v)| v)
            .collect()
    };
    let carried = others(&w.inits);
    let types: Vec<Type> = carried.iter().map(|v| v.r#type()).collect();

    // The body: the counter first, then the other carried values; the
    // while's body moves in as it is.
    let mut arguments = vec![(counted.r#type(), location)];
    arguments.extend(types.iter().map(|&t| (t, location)));
    let body = Block::new(&arguments);
    let yielded = others(&w.yielded);
    let terminator = w.after.terminator().expect("a loop body ends in scf.yield");
    for moved in edit::ops_of(&w.after) {
        if moved.to_raw().ptr == terminator.to_raw().ptr {
            break;
        }
        // SAFETY: `moved` is live and in the while's body; once removed it
        // is owned here and appended to the new body at once.
        let owned = unsafe {
            mlir_sys::mlirOperationRemoveFromParent(moved.to_raw());
            Operation::from_raw(moved.to_raw())
        };
        body.append_operation(owned);
    }
    edit::replace_all_uses(
        w.after_args[i],
        body.argument(0).expect("the counter").into(),
    );
    for (k, &old) in others(&w.after_args).iter().enumerate() {
        edit::replace_all_uses(old, body.argument(k + 1).expect("a carried value").into());
    }
    body.append_operation(
        OperationBuilder::new("scf.yield", location)
            .add_operands(&yielded)
            .build()
            .expect("scf.yield takes any operands"),
    );
    let region = Region::new();
    region.append_block(body);

    let mut operands = vec![counted, counter.bound, step];
    operands.extend(&carried);
    let new = edit::insert_before(
        op,
        OperationBuilder::new("scf.for", location)
            .add_operands(&operands)
            .add_results(&types)
            .add_regions([region])
            .build()
            .expect("ops without result type inference are always created"),
    );
    for (k, &old) in others(&w.results).iter().enumerate() {
        edit::replace_all_uses(old, new.result(k).expect("a loop result").into());
    }
    // The old terminator, the step it yielded (now in the new body and
    // used by nothing else), then the loop.
    edit::erase(terminator);
    edit::erase(counter.add);
    edit::erase(*op);
}
