//! `tile.print` and `tile.assert` in per-thread code.
//!
//! A print becomes one `gpu.printf` (CUDA's `vprintf`) per element a
//! thread holds, under the owner's guard, so every element prints once:
//! `pid (x, y, z) idx (i, j) prefix: value`. A scalar prints from thread 0,
//! without `idx`. Floats widen to f64 for `%f`; narrow integers widen to
//! i32 (sign-extended, or zero-extended for hex); i64 prints with `%lld`.
//!
//! An assertion becomes one `cf.assert` of the conjunction of the thread's
//! registers, which `convert-gpu-to-nvvm` turns into a call of CUDA's
//! `__assertfail` with the op's file and line. It is compiled only where
//! the module carries [`DEBUG_ATTR`]; elsewhere it is dropped.
//!
//! [`DEBUG_ATTR`]: tile_dialect::ops::DEBUG_ATTR

use super::builder::Val;
use super::emit::Emitter;
use crate::pass::{PassError, PassResult};
use melior::dialect::arith;
use melior::ir::attribute::StringAttribute;
use melior::ir::{Identifier, OperationRef, Value};
use tile_dialect::DType;
use tile_dialect::view::{Assert, Print};

/// The `printf` conversion of an element of `d`.
fn conversion(d: DType, hex: bool) -> &'static str {
    match (d.is_float(), d.bits(), hex) {
        (true, _, _) => "%f",
        (false, 64, false) => "%lld",
        (false, 64, true) => "0x%llx",
        (false, _, false) => "%d",
        (false, _, true) => "0x%x",
    }
}

/// `v` (an element of `d`) as `printf` takes it: f64, i32 or i64.
fn widen(e: &mut Emitter, v: Val, d: DType, hex: bool) -> Val {
    if d.is_float() {
        if d == DType::F64 {
            return v;
        }
        let f64 = e.reg_type(DType::F64);
        return e.ir.cast(arith::extf, v, f64);
    }
    if d.bits() >= 32 {
        return v;
    }
    let i32 = e.ir.int_type(32);
    // An i1 is 0 or 1, never -1.
    if hex || d == DType::I1 {
        e.ir.cast(arith::extui, v, i32)
    } else {
        e.ir.cast(arith::extsi, v, i32)
    }
}

/// The format of one line: `pid (%d, %d, %d)[ idx (%d, ..)] <label>: <v>`.
fn format(rank: usize, label: &str, conversion: &str) -> String {
    let mut f = String::from("pid (%d, %d, %d)");
    if rank > 0 {
        f.push_str(" idx (");
        f.push_str(&vec!["%d"; rank].join(", "));
        f.push(')');
    }
    // The user's text is data, not format: a `%` in it prints as itself.
    f.push_str(&format!(" {}: {conversion}\n", label.replace('%', "%%")));
    f
}

/// `gpu.printf format args`, inside `if guard` when there is one.
fn printf(e: &mut Emitter, guard: Option<Val>, format: &str, args: &[Val]) {
    let context = e.types.context();
    let attrs = [(
        Identifier::new(context, "format"),
        StringAttribute::new(context, format).into(),
    )];
    match guard {
        None => {
            e.ir.generic("gpu.printf", args, &[], &attrs);
        }
        Some(g) => {
            e.ir.open_block(&[]);
            e.ir.generic("gpu.printf", args, &[], &attrs);
            let then = e.ir.close_block(&[]);
            e.ir.if_then(g, then);
        }
    }
}

/// Lowers `tile.print`.
pub fn print<'c>(
    e: &mut Emitter<'_, 'c>,
    op: &OperationRef<'c, '_>,
    p: &Print<'c, '_>,
) -> PassResult {
    let pid: Vec<Val> = (0..3).map(|axis| e.ir.block_query(axis, false)).collect();
    match p.value {
        Some(v) => {
            let d = e.dtype(v, op)?;
            print_value(e, op, v, d, &pid, &p.prefix, p.hex)
        }
        None => {
            let first = first_thread(e);
            let text = format!("pid (%d, %d, %d) {}\n", p.prefix.replace('%', "%%"));
            printf(e, Some(first), &text, &pid);
            Ok(())
        }
    }
}

/// True in thread 0.
fn first_thread(e: &mut Emitter) -> Val {
    let (tid, _, _) = e.thread();
    let zero = e.i32(0);
    e.ir.cmpi(arith::CmpiPredicate::Eq, tid, zero)
}

fn print_value<'c>(
    e: &mut Emitter<'_, 'c>,
    op: &OperationRef<'c, '_>,
    v: Value<'c, '_>,
    d: DType,
    pid: &[Val],
    label: &str,
    hex: bool,
) -> PassResult {
    let conversion = conversion(d, hex);
    let Some(n) = e.registers(v, op)? else {
        let first = first_thread(e);
        let x = e.reg(v, 0, op)?;
        let x = widen(e, x, d, hex);
        let mut args = pid.to_vec();
        args.push(x);
        printf(e, Some(first), &format(0, label, conversion), &args);
        return Ok(());
    };
    let dist = e.dist(v, op)?;
    let owner = e.owner(&dist.0, &dist.1);
    let rank = dist.0.shape.len();
    let line = format(rank, label, conversion);
    for r in 0..n {
        let mut args = pid.to_vec();
        for i in 0..rank {
            args.push(e.index(&dist.0, r, i));
        }
        let x = e.reg(v, r, op)?;
        args.push(widen(e, x, d, hex));
        printf(e, owner, &line, &args);
    }
    Ok(())
}

/// Lowers `tile.assert` (a debug build only: see the module's
/// documentation).
pub fn assert<'c>(
    e: &mut Emitter<'_, 'c>,
    op: &OperationRef<'c, '_>,
    a: &Assert<'c, '_>,
) -> PassResult {
    if !e.debug {
        return Ok(());
    }
    let n = e.registers(a.condition, op)?.unwrap_or(1);
    let mut all: Option<Val> = None;
    for r in 0..n {
        let c = e.reg(a.condition, r, op)?;
        all = Some(match all {
            None => c,
            Some(acc) => e.ir.binary(arith::andi, acc, c),
        });
    }
    let all = all.ok_or_else(|| PassError::at(op, "asserts nothing"))?;
    let context = e.types.context();
    e.ir.generic(
        "cf.assert",
        &[all],
        &[],
        &[(
            Identifier::new(context, "msg"),
            StringAttribute::new(context, &a.message).into(),
        )],
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_name_the_program_the_element_and_escape_the_prefix() {
        assert_eq!(format(0, "n", "%d"), "pid (%d, %d, %d) n: %d\n");
        assert_eq!(
            format(2, "x 5%", "%f"),
            "pid (%d, %d, %d) idx (%d, %d) x 5%%: %f\n"
        );
        assert_eq!(conversion(DType::I64, true), "0x%llx");
        assert_eq!(conversion(DType::I8, false), "%d");
        assert_eq!(conversion(DType::BF16, true), "%f");
    }
}
