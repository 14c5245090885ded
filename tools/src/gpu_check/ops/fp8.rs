//! The 8-bit floats: every bit pattern of each converted to every wider
//! float, exactly; and values of every wider float converted to each,
//! against a brute-force reference (the nearest of the 256 patterns,
//! ties to the even one, saturating at the largest finite value, NaN to
//! NaN). The inputs hit every value, every halfway point and the floats
//! just beside it, the overflow, subnormal and zero ranges, infinities,
//! NaN, and for `f64` the points just off halfway that a rounding through
//! `f32` to nearest would move onto it. The kernel loads under a mask
//! (the tail of the last program is not written) and stores the
//! conversion.

use super::size;
use crate::gpu_check::Outcome;
use half::{bf16, f16};
use tile::{Arg, DType, Device, Kernel};

/// Elements a program converts.
const BLOCK: i32 = 1024;
/// What the output holds before the launch.
const POISON: u8 = 0xA5;
/// The wider floats.
const WIDE: [DType; 4] = [DType::F16, DType::BF16, DType::F32, DType::F64];
/// The 8-bit floats.
const NARROW: [DType; 2] = [DType::F8E4M3, DType::F8E5M2];

/// Every case: `(case, outcome)`.
pub fn conversions(context: &melior::Context, device: &Device) -> Vec<(String, Outcome)> {
    let mut out = Vec::new();
    for d in NARROW {
        let codes: Vec<f64> = (0..=255u8).map(|b| value(d, b)).collect();
        for to in WIDE
            .into_iter()
            .chain(NARROW.into_iter().filter(|&o| o != d))
        {
            let outcome = run(context, device, d, to, &codes);
            out.push((format!("{d} to {to} (every pattern)"), outcome));
        }
        for from in WIDE {
            let inputs: Vec<f64> = probes(d, from == DType::F64)
                .into_iter()
                .map(|x| representable(from, x))
                .collect();
            let outcome = run(context, device, from, d, &inputs);
            out.push((format!("{from} to {d} ({} values)", inputs.len()), outcome));
        }
    }
    out
}

/// Converts `inputs` (values of `from`) to `to` on `device` and checks
/// every output against the reference, and that the lanes past the end
/// keep their poison.
fn run(
    context: &melior::Context,
    device: &Device,
    from: DType,
    to: DType,
    inputs: &[f64],
) -> Outcome {
    let kernel = kernel(context, from, to).map_err(|e| e.to_string())?;
    if device.is_interpreter() {
        // The interpreter does not compile: without this CI would not see
        // a conversion the lowering refuses.
        let compiled =
            tile::compile(&kernel, &tile::Options::default()).map_err(|e| e.to_string())?;
        if !compiled.ptx.contains("cvt.rn") {
            return Err("no conversion in the PTX".into());
        }
    }
    let jit = tile::jit(&kernel, tile::Options::default()).map_err(|e| e.to_string())?;
    let n = inputs.len();
    let programs = n.div_ceil(BLOCK as usize);
    let padded = programs * BLOCK as usize;
    let x = device
        .upload(
            &inputs
                .iter()
                .flat_map(|&v| bytes(from, v))
                .collect::<Vec<u8>>(),
        )
        .map_err(|e| e.to_string())?;
    let width = size(to);
    let y = device
        .upload(&vec![POISON; padded * width])
        .map_err(|e| e.to_string())?;
    let args = [Arg::from(&x), Arg::from(&y), Arg::I32(n as i32)];
    jit.launch(device, programs as u32, &args)
        .map_err(|e| e.to_string())?;
    let got = device.download(&y).map_err(|e| e.to_string())?;
    if let Some(i) = got[n * width..].iter().position(|&b| b != POISON) {
        return Err(format!("wrote past the end, at byte {}", n * width + i));
    }
    for (i, (&x, bytes)) in inputs.iter().zip(got.chunks(width)).enumerate() {
        let want = if to.is_fp8() { nearest(to, x) } else { x };
        let got = read(to, bytes);
        let same = if want.is_nan() {
            got.is_nan()
        } else {
            got.to_bits() == want.to_bits()
        };
        if !same {
            return Err(format!(
                "element {i}: {from} {x:e} ({x:?}) gave {got:e} ({got:?}), want {want:e} ({want:?})"
            ));
        }
    }
    Ok(())
}

/// `y[i] = x[i].to(to)` for `i < n`, a program per `BLOCK`.
fn kernel<'c>(
    context: &'c melior::Context,
    from: DType,
    to: DType,
) -> Result<Kernel<'c>, tile::IrError> {
    Kernel::build(context, &format!("fp8_{from}_to_{to}"), |k| {
        let x = k.arg_ptr("x", from);
        let y = k.arg_ptr("y", to);
        let n = k.arg("n", DType::I32);
        let offs = k.program_id(0) * BLOCK + k.arange(0, BLOCK);
        let mask = offs.lt(n);
        let v = k.load(x + offs).mask(mask).other(0.0).build();
        k.store(y + offs, v.to(to)).mask(mask).build();
    })
}

/// The value of the 8-bit float `d` with bits `b`, read field by field.
fn value(d: DType, b: u8) -> f64 {
    let (exp_bits, bias) = if d == DType::F8E4M3 { (4, 7) } else { (5, 15) };
    let man_bits = 7 - exp_bits;
    let e = i32::from(b >> man_bits) & ((1 << exp_bits) - 1);
    let m = f64::from(b & ((1 << man_bits) - 1));
    let s = if b >> 7 == 1 { -1.0 } else { 1.0 };
    let all_ones = (1 << exp_bits) - 1;
    if d == DType::F8E4M3 && e == all_ones && m == f64::from((1u8 << man_bits) - 1) {
        return f64::NAN;
    }
    if d == DType::F8E5M2 && e == all_ones {
        return if m == 0.0 {
            s * f64::INFINITY
        } else {
            f64::NAN
        };
    }
    let scale = f64::from(1u32 << man_bits);
    if e == 0 {
        s * (m / scale) * 2f64.powi(1 - bias)
    } else {
        s * (1.0 + m / scale) * 2f64.powi(e - bias)
    }
}

/// The reference conversion: the nearest finite pattern of `d` (ties to
/// the one with an even last bit), the largest finite value beyond it,
/// NaN for NaN; a zero keeps `x`'s sign.
fn nearest(d: DType, x: f64) -> f64 {
    if x.is_nan() {
        return f64::NAN;
    }
    let largest = (0..=255u8)
        .map(|b| value(d, b))
        .filter(|v| v.is_finite())
        .fold(0.0, f64::max);
    if x.abs() >= largest {
        return largest.copysign(x);
    }
    let mut best: Option<(f64, u8)> = None;
    for b in 0..=255u8 {
        let v = value(d, b);
        if !v.is_finite() {
            continue;
        }
        let dist = (v - x).abs();
        best = match best {
            None => Some((v, b)),
            Some((bv, bb)) => {
                let bd = (bv - x).abs();
                if dist < bd || (dist == bd && b & 1 == 0 && bb & 1 == 1) {
                    Some((v, b))
                } else {
                    Some((bv, bb))
                }
            }
        };
    }
    let v = best.expect("finite patterns").0;
    if v == 0.0 { 0f64.copysign(x) } else { v }
}

/// The inputs for conversions to `d`: every finite value, every halfway
/// point between neighbours and the floats just beside it, the ranges
/// past the largest value and below the smallest, specials, and a spread
/// of other values. `fine` adds the points off halfway by less than an
/// `f32` can tell (for `f64`).
fn probes(d: DType, fine: bool) -> Vec<f64> {
    let mut finite: Vec<f64> = (0..=255u8)
        .map(|b| value(d, b))
        .filter(|v| v.is_finite())
        .collect();
    finite.sort_by(f64::total_cmp);
    finite.dedup();
    let mut out = finite.clone();
    for w in finite.windows(2) {
        let mid = (w[0] + w[1]) / 2.0;
        let step = (w[1] - w[0]).abs();
        out.push(mid);
        for k in [2f64.powi(-20), -(2f64.powi(-20))] {
            out.push(mid + k * step);
        }
        if fine {
            for k in [2f64.powi(-40), -(2f64.powi(-40))] {
                out.push(mid + k * step);
            }
        }
    }
    let max = finite.last().copied().unwrap_or(0.0);
    for x in [
        max * 1.0625,
        max * 1.5,
        max * 4.0,
        1.0e30,
        f64::from(f32::MAX),
    ] {
        out.push(x);
        out.push(-x);
    }
    out.extend([
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NAN,
        2f64.powi(-30),
        -(2f64.powi(-30)),
    ]);
    // A spread over the exponent range, deterministic.
    let mut s: u64 = 0x9e37_79b9_7f4a_7c15;
    for _ in 0..4096 {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        let unit = (s >> 11) as f64 / (1u64 << 53) as f64;
        let exponent = (unit * 40.0) as i32 - 24;
        let sign = if s & 1 == 0 { 1.0 } else { -1.0 };
        out.push(sign * (1.0 + unit) * 2f64.powi(exponent));
    }
    out
}

/// `x` as the nearest value of the wide float `d` (the probes are made in
/// `f64`; a narrower source holds what it can).
fn representable(d: DType, x: f64) -> f64 {
    match d {
        DType::F16 => f16::from_f64(x).to_f64(),
        DType::BF16 => bf16::from_f64(x).to_f64(),
        DType::F32 => x as f32 as f64,
        _ => x,
    }
}

/// `x` (representable in `d`) as the bytes of a `d`.
fn bytes(d: DType, x: f64) -> Vec<u8> {
    match d {
        DType::F16 => f16::from_f64(x).to_le_bytes().to_vec(),
        DType::BF16 => bf16::from_f64(x).to_le_bytes().to_vec(),
        DType::F32 => (x as f32).to_le_bytes().to_vec(),
        DType::F64 => x.to_le_bytes().to_vec(),
        _ => {
            let b = (0..=255u8)
                .find(|&b| {
                    let v = value(d, b);
                    v.to_bits() == x.to_bits() || (v.is_nan() && x.is_nan())
                })
                .expect("an 8-bit float value");
            vec![b]
        }
    }
}

/// The value of a `d` stored as `b`.
fn read(d: DType, b: &[u8]) -> f64 {
    match d {
        DType::F16 => f16::from_le_bytes([b[0], b[1]]).to_f64(),
        DType::BF16 => bf16::from_le_bytes([b[0], b[1]]).to_f64(),
        DType::F32 => f32::from_le_bytes(b.try_into().expect("4 bytes")) as f64,
        DType::F64 => f64::from_le_bytes(b.try_into().expect("8 bytes")),
        _ => value(d, b[0]),
    }
}
