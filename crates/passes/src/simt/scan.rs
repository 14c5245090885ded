//! `tile.scan` in per-thread code: inclusive running sums, products,
//! maxima and minima along one axis, forwards or in reverse.
//!
//! Along the axis a blocked layout gives each thread runs of registers
//! (`size_per_thread` consecutive elements), lanes and then warps take the
//! next runs, and the pattern repeats in chunks of its cover. The scan
//! follows that structure:
//!
//! 1. **In the thread.** Each run is scanned in register order; its last
//!    value is the thread's total for the chunk.
//! 2. **Across lanes.** A Hillis-Steele scan of the thread totals with
//!    `gpu.shuffle up` (`down` in reverse) over the lane bits that number
//!    the axis; one more shuffle turns it into the exclusive prefix of the
//!    lanes before, and `gpu.shuffle idx` from the last lane gives the
//!    warp's total.
//! 3. **Across warps.** The last lane of each warp writes the warp's total
//!    to shared memory; after a barrier each thread combines, in warp
//!    order, the totals of the warps before its own (its prefix) and of all
//!    warps (the chunk's total).
//! 4. **Across chunks.** The totals of the earlier chunks are carried into
//!    the later ones.
//!
//! Each element is then `carry ∘ warp prefix ∘ lane prefix ∘ run prefix`.
//! Sums and products of f16/bf16 accumulate in f32 and round each result
//! once. Where the layout covers the axis with more threads than it has
//! elements (copies), the copies count as the identity, and the first
//! copies' results are handed to the others through shared memory.
//! Tensors in a tensor-core layout are refused.

use super::builder::{ShuffleMode, Val};
use super::emit::{Emitter, Lowered};
use super::reduce::shuffle;
use super::share;
use crate::pass::{PassError, PassResult};
use melior::dialect::arith::{self, CmpiPredicate};
use melior::ir::operation::OperationLike;
use melior::ir::{OperationRef, Type, Value};
use std::collections::BTreeMap;
use tile_coalesce::{Distribution, Root};
use tile_dialect::view::Scan;
use tile_dialect::{DType, ScanKind};

/// The combining function and types of one scan.
struct Scanner<'c> {
    kind: ScanKind,
    /// Type the values are combined in.
    acc: DType,
    acc_type: Type<'c>,
    reverse: bool,
}

impl<'c> Scanner<'c> {
    /// `a ∘ b`, `a` coming first in scan order.
    fn combine(&self, e: &mut Emitter<'_, 'c>, a: Val, b: Val) -> Val {
        let float = self.acc.is_float();
        match (self.kind, float) {
            (ScanKind::Sum, true) => e.ir.binary(arith::addf, a, b),
            (ScanKind::Sum, false) => e.ir.binary(arith::addi, a, b),
            (ScanKind::Prod, true) => e.ir.binary(arith::mulf, a, b),
            (ScanKind::Prod, false) => e.ir.binary(arith::muli, a, b),
            (ScanKind::Max, false) => e.ir.binary(arith::maxsi, a, b),
            (ScanKind::Min, false) => e.ir.binary(arith::minsi, a, b),
            (ScanKind::Max | ScanKind::Min, true) => {
                let base = if self.kind == ScanKind::Max {
                    "llvm.maxnum"
                } else {
                    "llvm.minnum"
                };
                let name = super::math::overloaded(base, &[self.acc]);
                e.ir.intrinsic(&name, &[a, b], self.acc_type)
            }
        }
    }

    /// `a ∘ b`, where a missing `a` is the identity.
    fn join(&self, e: &mut Emitter<'_, 'c>, a: Option<Val>, b: Val) -> Val {
        match a {
            None => b,
            Some(a) => self.combine(e, a, b),
        }
    }

    /// The identity of the combining function.
    fn identity(&self, e: &mut Emitter<'_, 'c>) -> Val {
        if self.acc.is_float() {
            let v = match self.kind {
                ScanKind::Sum => 0.0,
                ScanKind::Prod => 1.0,
                ScanKind::Max => f64::NEG_INFINITY,
                ScanKind::Min => f64::INFINITY,
            };
            return e.float(self.acc_type, v);
        }
        let unused = 64 - self.acc.bits();
        let v = match self.kind {
            ScanKind::Sum => 0,
            ScanKind::Prod => 1,
            ScanKind::Max => i64::MIN >> unused,
            ScanKind::Min => i64::MAX >> unused,
        };
        e.int(self.acc_type, v)
    }
}

/// A run of registers: the thread's elements of one chunk of one line
/// along the axis (`key` is the register offsets off the axis).
type RunKey = (Vec<i64>, i64);

/// Lowers one `tile.scan`.
pub fn scan<'c>(
    e: &mut Emitter<'_, 'c>,
    op: &OperationRef<'c, '_>,
    view: &Scan<'c, '_>,
) -> PassResult {
    let result: Value = op.result(0).expect("a scan's result").into();
    let axis = view.axis as usize;
    let dist = e.dist(view.src, op)?;
    let src = &dist.0;
    if axis >= src.shape.len() {
        return Err(PassError::at(op, "scans along an axis the tensor lacks"));
    }
    if !matches!(src.root, Root::Blocked(_)) {
        return Err(PassError::at(
            op,
            "scans a tensor in a tensor-core layout; convert it to a blocked layout first",
        ));
    }
    if *e.dist(result, op)? != *dist {
        return Err(PassError::at(
            op,
            "has a result layout other than its source's",
        ));
    }
    let Lowered::Regs(regs) = e.get(view.src, op)? else {
        return Err(PassError::at(op, "expects a tensor operand"));
    };
    let ty = e.dtype(view.src, op)?;
    let acc = match (view.kind, ty) {
        (ScanKind::Sum | ScanKind::Prod, DType::F16 | DType::BF16) => DType::F32,
        _ => ty,
    };
    let sc = Scanner {
        kind: view.kind,
        acc,
        acc_type: e.reg_type(acc),
        reverse: view.reverse,
    };
    let k = src.axes[axis];
    let terms = src.base_terms(k);
    let cover = src.root.cover(k);
    let wraps = src.wraps(axis);

    // The inputs in the accumulator type; copies count as the identity.
    let mut inputs = Vec::with_capacity(regs.len());
    for (r, &v) in regs.iter().enumerate() {
        let mut v = v;
        if acc != ty {
            v = e.ir.cast(arith::extf, v, sc.acc_type);
        }
        if wraps {
            let unwrapped = e.unwrapped_index(src, r, axis);
            let extent = e.i32(src.shape[axis]);
            let first = e.ir.cmpi(CmpiPredicate::Ult, unwrapped, extent);
            let id = sc.identity(e);
            v = e.ir.select(first, v, id);
        }
        inputs.push(v);
    }

    // The runs, each in scan order.
    let mut runs: BTreeMap<RunKey, Vec<(i64, usize)>> = BTreeMap::new();
    for (r, o) in src.offsets.iter().enumerate() {
        let mut key = o.clone();
        key.remove(axis);
        runs.entry((key, o[axis] / cover))
            .or_default()
            .push((o[axis] % cover, r));
    }
    for members in runs.values_mut() {
        members.sort_unstable();
        if sc.reverse {
            members.reverse();
        }
    }

    // Narrow floats scanned in f32 (the scan's own widening, or an
    // `arith.extf` the source comes from): the elements are scanned again
    // from the narrow values once the prefixes are known, so the thread
    // keeps those, not its f32 prefixes, across the exchanges (half the
    // registers).
    let lean = if wraps || acc != DType::F32 {
        None
    } else if acc != ty {
        Some((regs.clone(), ty))
    } else {
        widened_from(e, view.src, &dist, op)?
    };

    // 1. In the thread.
    let mut local: Vec<Option<Val>> = vec![None; regs.len()];
    let mut totals: BTreeMap<RunKey, Val> = BTreeMap::new();
    for (run, members) in &runs {
        let mut acc_v = None;
        for &(_, r) in members {
            acc_v = Some(sc.join(e, acc_v, inputs[r]));
            local[r] = acc_v;
        }
        totals.insert(run.clone(), acc_v.expect("a run is never empty"));
    }

    // 2. Across lanes: each run's exclusive lane prefix, and the warp's
    // total.
    let mut lane_prefix: BTreeMap<RunKey, Option<Val>> = BTreeMap::new();
    let mut warp_totals: BTreeMap<RunKey, Val> = BTreeMap::new();
    for (run, &t) in &totals {
        if terms.threads == 1 {
            lane_prefix.insert(run.clone(), None);
            warp_totals.insert(run.clone(), t);
            continue;
        }
        let (prefix, total) = across_lanes(e, &sc, t, terms.lane_shift, terms.threads);
        lane_prefix.insert(run.clone(), Some(prefix));
        warp_totals.insert(run.clone(), total);
    }

    // 3. Across warps: each run's warp prefix, and the chunk's total.
    let (warp_prefix, chunk_totals) = if terms.warps > 1 {
        across_warps(e, &sc, src, axis, &runs, &warp_totals)?
    } else {
        let none = warp_totals.keys().map(|r| (r.clone(), None)).collect();
        (none, warp_totals)
    };

    // 4. Across chunks, and every element.
    let mut out = vec![None; regs.len()];
    let mut lines: BTreeMap<&Vec<i64>, Vec<i64>> = BTreeMap::new();
    for (key, chunk) in runs.keys() {
        lines.entry(key).or_default().push(*chunk);
    }
    for (key, mut chunks) in lines {
        if sc.reverse {
            chunks.reverse();
        }
        let mut carry: Option<Val> = None;
        for chunk in chunks {
            let run = (key.clone(), chunk);
            let mut prefix = carry;
            if let Some(w) = warp_prefix[&run] {
                prefix = Some(sc.join(e, prefix, w));
            }
            if let Some(l) = lane_prefix[&run] {
                prefix = Some(sc.join(e, prefix, l));
            }
            if let Some((narrow, narrow_ty)) = &lean {
                let mut running = prefix;
                for &(_, r) in &runs[&run] {
                    let x = widened_again(e, narrow[r], *narrow_ty, sc.acc_type);
                    running = Some(sc.join(e, running, x));
                    out[r] = running;
                }
            } else {
                for &(_, r) in &runs[&run] {
                    let mine = local[r].expect("every register is in a run");
                    out[r] = Some(sc.join(e, prefix, mine));
                }
            }
            carry = Some(sc.join(e, carry, chunk_totals[&run]));
        }
    }
    let mut values: Vec<Val> = out
        .into_iter()
        .map(|v| v.expect("every register is in a run"))
        .collect();
    if acc != ty {
        let t = e.reg_type(ty);
        for v in &mut values {
            *v = e.ir.cast(arith::truncf, *v, t);
        }
    }
    if wraps {
        values = super::share::owners_values(e, &dist.0, &dist.1, &values, ty);
    }
    e.set(result, Lowered::Regs(values));
    Ok(())
}

/// The f16 or bf16 registers `src` was widened from, when it is the
/// result of an `arith.extf` lowered in the same layout.
fn widened_from<'c>(
    e: &mut Emitter<'_, 'c>,
    src: Value<'c, '_>,
    dist: &super::emit::Dist,
    op: &OperationRef<'c, '_>,
) -> Result<Option<(Vec<Val>, DType)>, PassError> {
    let Some(ext) = crate::edit::as_result(src).map(|r| r.owner()) else {
        return Ok(None);
    };
    if tile_dialect::view::op_name(&ext) != "arith.extf" {
        return Ok(None);
    }
    let narrow: Value = ext.operand(0).expect("an extf has an operand");
    let ty = e.dtype(narrow, op)?;
    if !matches!(ty, DType::F16 | DType::BF16) || *e.dist(narrow, op)? != **dist {
        return Ok(None);
    }
    match e.get(narrow, op)? {
        Lowered::Regs(regs) => Ok(Some((regs.clone(), ty))),
        _ => Ok(None),
    }
}

/// `x` (an f16 or bf16 register) widened to f32 by a conversion of its
/// own, which neither LLVM nor `ptxas` merges with the first one: the
/// narrow value is what stays live.
fn widened_again<'c>(e: &mut Emitter<'_, 'c>, x: Val, ty: DType, f32_type: Type<'c>) -> Val {
    let asm = match ty {
        DType::BF16 => "cvt.f32.bf16 $0, $1;",
        _ => "cvt.f32.f16 $0, $1;",
    };
    e.ir.inline_asm(asm, "=f,h", &[x], Some(f32_type), true)
        .expect("the conversion has a result")
}

/// Step 2 for one run total `t`: the combination of the totals of the
/// lanes before this one along the axis (the identity in the first), and
/// the total of all of them.
fn across_lanes<'c>(
    e: &mut Emitter<'_, 'c>,
    sc: &Scanner<'c>,
    t: Val,
    shift: u32,
    threads: i64,
) -> (Val, Val) {
    let (_, lane, _) = e.thread();
    let digit = e.digit(lane, shift, threads);
    let mode = if sc.reverse {
        ShuffleMode::Down
    } else {
        ShuffleMode::Up
    };
    // Hillis-Steele: after the step of distance s, each lane holds the
    // combination of the 2s lanes ending at it.
    let mut x = t;
    let mut s = 1;
    while s < threads {
        let offset = e.i32(s << shift);
        let y = shuffle(e, mode, x, sc.acc, offset);
        let has = if sc.reverse {
            let limit = e.i32(threads - s);
            e.ir.cmpi(CmpiPredicate::Ult, digit, limit)
        } else {
            let step = e.i32(s);
            e.ir.cmpi(CmpiPredicate::Uge, digit, step)
        };
        let z = sc.combine(e, y, x);
        x = e.ir.select(has, z, x);
        s *= 2;
    }
    let one = e.i32(1 << shift);
    let before = shuffle(e, mode, x, sc.acc, one);
    let first_digit = e.i32(if sc.reverse { threads - 1 } else { 0 });
    let first = e.ir.cmpi(CmpiPredicate::Eq, digit, first_digit);
    let id = sc.identity(e);
    let prefix = e.ir.select(first, id, before);
    // The last lane (in scan order) of this lane's group holds the total.
    let last_digit = if sc.reverse { 0 } else { threads - 1 };
    let clear = e.i32(!((threads - 1) << shift));
    let kept = e.ir.binary(arith::andi, lane, clear);
    let last = e.i32(last_digit << shift);
    let source = e.ir.binary(arith::ori, kept, last);
    let total = shuffle(e, ShuffleMode::Idx, x, sc.acc, source);
    (prefix, total)
}

/// Per run: the prefix of the warps before this one and the total of all
/// warps along the axis.
type WarpResults = (BTreeMap<RunKey, Option<Val>>, BTreeMap<RunKey, Val>);

/// Step 3: the warps' totals through shared memory, at
/// `[warp digit][line][chunk]`, written by the last lane of each group.
fn across_warps<'c>(
    e: &mut Emitter<'_, 'c>,
    sc: &Scanner<'c>,
    src: &Distribution,
    axis: usize,
    runs: &BTreeMap<RunKey, Vec<(i64, usize)>>,
    warp_totals: &BTreeMap<RunKey, Val>,
) -> Result<WarpResults, PassError> {
    let terms = src.base_terms(src.axes[axis]);
    let chunks = (src.shape[axis] / src.root.cover(src.axes[axis])).max(1);
    let lines: i64 = src
        .shape
        .iter()
        .enumerate()
        .filter(|&(i, _)| i != axis)
        .map(|(_, &n)| n)
        .product();
    let slots = lines * chunks;
    let bytes = sc.acc.bits() as u64 / 8;
    e.reserve_shared((terms.warps * slots) as usize * bytes as usize);
    let base = e.shared_base();
    // Each run's slot: its line's row-major index off the axis, then its
    // chunk.
    let mut slot: BTreeMap<RunKey, Val> = BTreeMap::new();
    for (run, members) in runs {
        let r = members[0].1;
        let mut at: Option<Val> = None;
        for i in 0..src.shape.len() {
            if i == axis {
                continue;
            }
            let idx = e.index(src, r, i);
            at = Some(match at {
                None => idx,
                Some(a) => {
                    let n = e.i32(src.shape[i]);
                    let scaled = e.ir.binary(arith::muli, a, n);
                    e.ir.binary(arith::addi, scaled, idx)
                }
            });
        }
        let line = at.unwrap_or_else(|| e.i32(0));
        let c = e.i32(chunks);
        let scaled = e.ir.binary(arith::muli, line, c);
        let chunk = e.i32(run.1);
        slot.insert(run.clone(), e.ir.binary(arith::addi, scaled, chunk));
    }
    let (_, lane, warp) = e.thread();
    let warp_digit = e.digit(warp, terms.warp_shift, terms.warps);
    let stride = e.i32(slots);
    let row = e.ir.binary(arith::muli, warp_digit, stride);
    let writer = (terms.threads > 1).then(|| {
        let digit = e.digit(lane, terms.lane_shift, terms.threads);
        let last = e.i32(if sc.reverse { 0 } else { terms.threads - 1 });
        e.ir.cmpi(CmpiPredicate::Eq, digit, last)
    });
    // Earlier users of the buffer must be done before it is rewritten.
    e.ir.barrier();
    for (run, &t) in warp_totals {
        let at = e.ir.binary(arith::addi, row, slot[run]);
        let p = e.ir.gep(base, at, sc.acc_type);
        share::store_shared(e, writer, t, p, sc.acc);
    }
    e.ir.barrier();
    let mut prefixes = BTreeMap::new();
    let mut totals = BTreeMap::new();
    let order: Vec<i64> = if sc.reverse {
        (0..terms.warps).rev().collect()
    } else {
        (0..terms.warps).collect()
    };
    for run in warp_totals.keys() {
        let mut prefix = sc.identity(e);
        let mut total: Option<Val> = None;
        for &w in &order {
            let off = e.i32(w * slots);
            let at = e.ir.binary(arith::addi, slot[run], off);
            let p = e.ir.gep(base, at, sc.acc_type);
            let v = e.ir.load(p, sc.acc_type, bytes);
            // Warp w is before this one in scan order.
            let wc = e.i32(w);
            let pred = if sc.reverse {
                CmpiPredicate::Ugt
            } else {
                CmpiPredicate::Ult
            };
            let before = e.ir.cmpi(pred, wc, warp_digit);
            let with = sc.combine(e, prefix, v);
            prefix = e.ir.select(before, with, prefix);
            total = Some(sc.join(e, total, v));
        }
        prefixes.insert(run.clone(), Some(prefix));
        totals.insert(run.clone(), total.expect("at least two warps"));
    }
    Ok((prefixes, totals))
}
