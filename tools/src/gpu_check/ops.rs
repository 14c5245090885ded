//! Every op the builder offers, in every element type it accepts: built,
//! compiled through the whole pipeline to PTX, run on a device (the GPU,
//! or the CPU interpreter in CI) and compared with a plain-Rust reference.
//!
//! Each case is one kernel over a 1-D tile of [`BLOCK`] elements, masked
//! to the first [`N`] (masked-off lanes read 1, so a divisor there is not
//! zero), reading its inputs from pointers of the element type and storing
//! the result; reductions use a 2-D tile. The references compute in i128
//! or f64 and round to the element type once per op, as the semantics say
//! (wrapping integers, floats rounded after every op, saturating float to
//! integer casts). Transcendentals are correctly rounded on the
//! interpreter and PTX approximations on the GPU; [`Accuracy`] says which
//! bound applies (the table of `tile_dialect::float_math`).

mod argmax;
mod arith;
mod atomic;
mod binary;
mod control;
mod convert;
mod float_unary;
mod fp8;
mod rearrange;
mod reduce_warps;
mod scan;

use super::Outcome;
use half::{bf16, f16};
use tile::{Arg, DType, Device, Kernel, KernelBuilder, Options, Tile};

/// Elements of each 1-D tile.
pub const BLOCK: i32 = 128;
/// Elements the mask keeps.
pub const N: usize = 100;

/// Element types in the order the sweep takes them.
const DTYPES: [DType; 9] = DType::ARITHMETIC;

/// A sweep: its cases on a device, with transcendentals to `Accuracy`.
type Sweep = fn(&melior::Context, &Device, Accuracy) -> Vec<(String, Outcome)>;

/// The sweeps, by group name.
const SWEEPS: [(&str, Sweep); 15] = [
    ("float_unary", float_unary::float_unary_ops),
    ("binary", binary::binary_ops),
    ("nan", |c, d, _| binary::nan_handling(c, d)),
    ("approximate", |c, d, a| {
        let mut cases = binary::approximate_division(c, d, a);
        cases.extend(binary::approximate_tanh(c, d, a));
        cases.extend(binary::approximate_sqrt(c, d, a));
        cases
    }),
    ("compare", |c, d, _| arith::comparisons(c, d)),
    ("fma", |c, d, _| arith::fused_multiply_add(c, d)),
    ("integer_neg_abs", |c, d, _| arith::integer_neg_abs(c, d)),
    ("cast", |c, d, _| convert::casts(c, d)),
    ("reduce", |c, d, _| {
        let mut cases = convert::reductions(c, d);
        cases.extend(reduce_warps::partials_by_lanes(c, d));
        cases
    }),
    ("argmax", |c, d, _| argmax::arg_reductions(c, d)),
    ("scan", |c, d, _| scan::scans(c, d)),
    ("atomic", |c, d, _| atomic::atomics(c, d)),
    ("control", |c, d, _| control::control_flow(c, d)),
    ("shape", |c, d, _| rearrange::moves(c, d)),
    ("fp8", |c, d, _| fp8::conversions(c, d)),
];

/// The names of the sweeps, as [`ops_of`] takes them.
pub fn groups() -> impl Iterator<Item = &'static str> {
    SWEEPS.iter().map(|(name, _)| *name)
}

/// Every case of every sweep on `device`: `(group, case, outcome)`.
pub fn every_op(device: &Device, accuracy: Accuracy) -> Vec<(&'static str, String, Outcome)> {
    ops_of(device, accuracy, None)
}

/// The cases of the sweep named `group` (all of them for `None`).
pub fn ops_of(
    device: &Device,
    accuracy: Accuracy,
    group: Option<&str>,
) -> Vec<(&'static str, String, Outcome)> {
    if let Some(g) = group
        && !groups().any(|name| name == g)
    {
        let known: Vec<&str> = groups().collect();
        let e = format!("no sweep is named {g}; the sweeps: {}", known.join(", "));
        return vec![("ops", "group".into(), Err(e))];
    }
    let context = match tile::context() {
        Ok(c) => c,
        Err(e) => return vec![("ops", "context".into(), Err(e.to_string()))],
    };
    SWEEPS
        .iter()
        .filter(|(name, _)| group.is_none_or(|g| g == *name))
        .flat_map(|(name, sweep)| {
            sweep(&context, device, accuracy)
                .into_iter()
                .map(move |(c, o)| (*name, c, o))
        })
        .collect()
}

/// How the CPU tests split the `scan` sweep's 768 cases: the PTX
/// executor's run one in this many ([`scans_sampled`]), the interpreter's
/// the others ([`scans_unsampled`]), so each case runs once.
pub const SCAN_SAMPLE: usize = 3;

/// One case in `one_in` of the `scan` sweep: those whose index in the
/// sweep's order is a multiple of `one_in` (the others are neither
/// compiled nor run), for a device that runs all 768 too slowly (the PTX
/// executor's tests, on the CPU). With `one_in` prime to the 16 cases of
/// each shape and type (4 kinds x 2 axes x 2 directions), every kind,
/// axis and direction still runs in each shape, in some of the types.
pub fn scans_sampled(device: &Device, one_in: usize) -> Vec<(String, Outcome)> {
    match tile::context() {
        Ok(context) => scan::scans_sampled(&context, device, one_in),
        Err(e) => vec![("context".into(), Err(e.to_string()))],
    }
}

/// The cases of the `scan` sweep that [`scans_sampled`] leaves out: with
/// it, every case once (the interpreter's tests run these, the PTX
/// executor's the sample).
pub fn scans_unsampled(device: &Device, one_in: usize) -> Vec<(String, Outcome)> {
    match tile::context() {
        Ok(context) => scan::scans_unsampled(&context, device, one_in),
        Err(e) => vec![("context".into(), Err(e.to_string()))],
    }
}

/// Where transcendentals come from, and so how close they must be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Accuracy {
    /// Correctly rounded (the interpreter): within 1 ulp.
    Exact,
    /// PTX approximations (the GPU): within their documented bounds.
    Approximate,
}

/// A value of any element type, wide enough for the reference.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Num {
    /// An integer.
    Int(i128),
    /// A float.
    Float(f64),
}

impl Num {
    pub(super) fn f(self) -> f64 {
        match self {
            Num::Int(v) => v as f64,
            Num::Float(v) => v,
        }
    }

    pub(super) fn i(self) -> i128 {
        match self {
            Num::Int(v) => v,
            Num::Float(v) => v as i128,
        }
    }
}

/// `v` wrapped (integers) or rounded (floats) to `d`.
pub(super) fn round(d: DType, v: Num) -> Num {
    match d {
        DType::F16 => Num::Float(f16::from_f64(v.f()).to_f64()),
        DType::BF16 => Num::Float(bf16::from_f64(v.f()).to_f64()),
        DType::F32 => Num::Float(v.f() as f32 as f64),
        DType::F64 => Num::Float(v.f()),
        DType::I1 => Num::Int(v.i() & 1),
        d => {
            let bits = d.bits();
            let x = v.i() & ((1i128 << bits) - 1);
            Num::Int(if x >> (bits - 1) == 1 {
                x - (1 << bits)
            } else {
                x
            })
        }
    }
}

/// Bytes of one element of `d` in memory.
pub(super) fn size(d: DType) -> usize {
    d.bits().div_ceil(8) as usize
}

pub(super) fn encode(d: DType, values: &[Num]) -> Vec<u8> {
    let mut out = Vec::with_capacity(values.len() * size(d));
    for &v in values {
        match d {
            DType::F16 => out.extend(f16::from_f64(v.f()).to_bits().to_le_bytes()),
            DType::BF16 => out.extend(bf16::from_f64(v.f()).to_bits().to_le_bytes()),
            DType::F32 => out.extend((v.f() as f32).to_le_bytes()),
            DType::F64 => out.extend(v.f().to_le_bytes()),
            d => out.extend(&(v.i() as i64).to_le_bytes()[..size(d)]),
        }
    }
    out
}

pub(super) fn decode(d: DType, bytes: &[u8]) -> Vec<Num> {
    bytes
        .chunks(size(d))
        .map(|b| match d {
            DType::F16 => Num::Float(f16::from_bits(u16::from_le_bytes([b[0], b[1]])).to_f64()),
            DType::BF16 => Num::Float(bf16::from_bits(u16::from_le_bytes([b[0], b[1]])).to_f64()),
            DType::F32 => Num::Float(f32::from_le_bytes(b.try_into().unwrap()) as f64),
            DType::F64 => Num::Float(f64::from_le_bytes(b.try_into().unwrap())),
            DType::I1 => Num::Int(i128::from(b[0] != 0)),
            d => {
                let mut wide = [0u8; 8];
                wide[..b.len()].copy_from_slice(b);
                round(d, Num::Int(i128::from(i64::from_le_bytes(wide))))
            }
        })
        .collect()
}

/// Inputs of `d` for operand `which`: varied, representable, and (for
/// the second operand) never zero, so integer division is defined.
pub(super) fn inputs(d: DType, which: usize, count: usize) -> Vec<Num> {
    (0..count)
        .map(|i| {
            let k = i as i64 * (3 + which as i64 * 4) + 5 * which as i64 + 1;
            let v = match d {
                DType::I1 => Num::Int(i128::from((k % 3) != 0)),
                d if d.is_float() => {
                    let x = ((k % 41) - 20) as f64 * 0.37 + 0.11 * which as f64;
                    Num::Float(if x == 0.0 { 0.5 } else { x })
                }
                DType::I8 => Num::Int(i128::from((k % 23 - 11) | 1)),
                _ => Num::Int(i128::from((k * 7919 % 2001 - 1000) | 1)),
            };
            round(d, v)
        })
        .collect()
}

/// Runs `kernel` (pointers to each input, then the output, then `n`) on
/// `device`, after compiling it to PTX; returns the output.
pub(super) fn run(
    device: &Device,
    kernel: &Kernel,
    ins: &[(DType, Vec<Num>)],
    out: DType,
    len: usize,
) -> Result<Vec<Num>, String> {
    run_on_warps(device, kernel, ins, out, len, Options::default().num_warps)
}

/// [`run`] with `warps` warps.
pub(super) fn run_on_warps(
    device: &Device,
    kernel: &Kernel,
    ins: &[(DType, Vec<Num>)],
    out: DType,
    len: usize,
    warps: u32,
) -> Result<Vec<Num>, String> {
    let options = Options::with_warps(warps);
    // On the interpreter, which does not compile: unspecialized (scalar
    // accesses). The specialization the GPU's JIT makes on these launches
    // (16-byte aligned buffers) is compiled and run by the same sweep on
    // the PTX executor device (`tests/it/ptx_exec/ops.rs`, every case,
    // scans one in three), so a lowering that fails only on wider accesses
    // fails there. On a GPU the launch below compiles the specialization.
    if device.is_interpreter() {
        let compiled = tile::compile(kernel, &options).map_err(|e| e.to_string())?;
        if !compiled.ptx.contains(".entry") {
            return Err("no kernel in the PTX".into());
        }
    }
    let jit = tile::jit(kernel, options).map_err(|e| e.to_string())?;
    let buffers = ins
        .iter()
        .map(|(d, v)| device.upload(&encode(*d, v)))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| e.to_string())?;
    // Poisoned, so lanes a kernel does not write show.
    let result = device
        .upload(&vec![0xA5u8; len * size(out)])
        .map_err(|e| e.to_string())?;
    let mut args: Vec<Arg> = buffers.iter().map(Arg::from).collect();
    args.push(Arg::from(&result));
    args.push(Arg::I32(N as i32));
    jit.launch(device, 1, &args).map_err(|e| e.to_string())?;
    let bytes = device.download(&result).map_err(|e| e.to_string())?;
    Ok(decode(out, &bytes))
}

/// How far a result may be from the reference: `ulps` units in the last
/// place of the element type (of the larger magnitude) plus `abs`.
#[derive(Clone, Copy, Debug)]
pub(super) struct Tolerance {
    pub(super) ulps: f64,
    pub(super) abs: f64,
}

pub(super) const EXACT: Tolerance = Tolerance {
    ulps: 0.0,
    abs: 0.0,
};

/// The unit in the last place of `d` at 1.
pub(super) fn epsilon(d: DType) -> f64 {
    match d {
        DType::F16 => 2f64.powi(-10),
        DType::BF16 => 2f64.powi(-7),
        DType::F32 => 2f64.powi(-23),
        _ => 2f64.powi(-52),
    }
}

/// Close enough: exactly equal for integers, within `t` for floats.
pub(super) fn close(d: DType, got: Num, want: Num, t: Tolerance) -> bool {
    match (got, want) {
        (Num::Int(a), Num::Int(b)) => a == b,
        (a, b) => {
            let (a, b) = (a.f(), b.f());
            if a == b {
                return true;
            }
            if a.is_nan() || b.is_nan() {
                return a.is_nan() && b.is_nan();
            }
            (a - b).abs() <= t.ulps * epsilon(d) * a.abs().max(b.abs()) + t.abs
        }
    }
}

pub(super) fn check(d: DType, got: &[Num], want: &[Num], t: Tolerance) -> Outcome {
    let bad: Vec<String> = got
        .iter()
        .zip(want)
        .enumerate()
        .filter(|(_, (g, w))| !close(d, **g, **w, t))
        .take(3)
        .map(|(i, (g, w))| format!("[{i}] = {g:?}, want {w:?}"))
        .collect();
    if bad.is_empty() {
        Ok(())
    } else {
        Err(bad.join("; "))
    }
}

/// The masked 1-D frame: loads every input (masked to `n`), applies
/// `body`, stores the result (masked).
pub(super) fn elementwise<'c>(
    context: &'c melior::Context,
    name: &str,
    ins: &[DType],
    out: DType,
    body: impl for<'k> Fn(&'k KernelBuilder<'k>, &[Tile<'k>]) -> Tile<'k>,
) -> Result<Kernel<'c>, tile::IrError> {
    Kernel::build(context, name, |k| {
        let ptrs: Vec<Tile> = (0..ins.len())
            .map(|i| k.arg_ptr(&format!("in{i}"), ins[i]))
            .collect();
        let o = k.arg_ptr("out", out);
        let n = k.arg("n", DType::I32);
        let offs = k.arange(0, BLOCK);
        let m = offs.lt(n);
        // Masked-off lanes read 1: a divisor there is not zero (the
        // interpreter faults on an integer division by zero in any lane).
        let values: Vec<Tile> = ptrs
            .iter()
            .map(|&p| k.load(p + offs).mask(m).other(1).build())
            .collect();
        let r = body(k, &values);
        k.store(o + offs, r).mask(m).build();
    })
}
