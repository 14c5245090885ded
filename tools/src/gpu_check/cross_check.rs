//! The GPU against the CPU interpreter, launch by launch.
//!
//! Before a GPU launch, every byte its pointer arguments can reach is read
//! back (overlapping arguments share one window); the same launch then
//! runs on a fresh interpreter device over copies of those bytes, and
//! after the GPU is done both memories are compared, element by element in
//! each argument's element type:
//!
//! - kernels that do no float rounding (copies, masks, integer math,
//!   padding) must agree bit for bit, NaN payloads included;
//! - kernels that round floats must agree within [`ulp_bound`] ULPs of the
//!   precision they compute in (f32, or f64 for f64 windows), counted at
//!   the scale of the output, beyond one rounding of the element's own
//!   type: `max(0, |gpu - interpreter| - ulp_T(e)) / ulp_f32(M)`, where `M`
//!   is the largest magnitude in that argument's window, `e` the element's
//!   own magnitude and `T` its type. The GPU's float sums group by layout,
//!   its `exp` is `ex2.approx`, and its compiler may fuse a multiply and an
//!   add; the interpreter rounds every op once, in order. Either may then
//!   round a stored f16 or bf16 element to the other neighbour, one ULP of
//!   that type at the element, and nothing more: the allowance is the same
//!   fraction of the window's scale whatever the stored type (64 ULPs of
//!   bf16 would be half of it). NaN must meet NaN, infinities must match
//!   exactly.
//!
//! Launches whose windows hold more than [`MAX_BYTES`] are not compared
//! (the interpreter would take minutes); nor are launches with a pointer
//! made from a bare address (no extent to copy). Both are counted.

use std::sync::Mutex;
use tile::{Arg, Device, DevicePtr, Grid, Jit};
use tile_dialect::DType;
use tile_dialect::types::Elem;

/// The most bytes a compared launch may reach.
pub const MAX_BYTES: usize = 96 << 20;

/// The bound for kernels that round floats: ULPs at the output's scale.
/// Float sums (a GPU tree against a pairwise tree, over up to thousands of
/// terms) and `ex2.approx` differ from the interpreter by a few ULPs of the
/// largest value; 64 leaves room for the longest rows the check sums.
pub fn ulp_bound(rounds_floats: bool) -> f64 {
    if rounds_floats { 64.0 } else { 0.0 }
}

/// The bound for kernels with float products (`tile.dot`): the
/// interpreter adds the terms one by one, tensor cores a few at a time, and
/// a K loop sums thousands of terms whose partial sums can grow well beyond
/// the result. 2048 f32 ULPs of the largest output (about 2.4e-4 of it),
/// beyond one rounding of a narrower stored type; the differences seen on
/// the H100 reach 324 ULPs for 4097 terms (f32 outputs). The f64
/// reference of each case checks accuracy; this catches gross disagreement.
/// It holds for inputs with 10 significand bits (f16, TF32); see
/// [`dot_ulp_bound`] for coarser ones.
pub const DOT_ULP_BOUND: f64 = 2048.0;

/// The bound for kernels whose coarsest float product input has `bits`
/// significand bits: [`DOT_ULP_BOUND`] scaled by that type's ULP against
/// f16's. A product input the kernel rounds itself (attention's
/// probabilities, rounded to bf16 before `P @ V`) may round to the other
/// neighbour on the GPU (whose `exp` is `ex2.approx`), which moves the
/// product by one ULP of the input type times the term's weight: for bf16
/// 8 times what it moves for f16 (the D=128 bf16 attention over 1000 keys
/// reaches 3072 f32 ULPs of its output's scale; f16 stays below 2048).
pub fn dot_ulp_bound(bits: u32) -> f64 {
    DOT_ULP_BOUND * 2f64.powi(10 - bits.min(10) as i32)
}

/// The comparisons made so far in this process.
#[derive(Clone, Debug, Default)]
pub struct Tally {
    /// Launches compared bit for bit.
    pub exact: usize,
    /// Launches compared within the ULP bound.
    pub bounded: usize,
    /// The largest difference seen in a bounded launch, in ULPs.
    pub max_ulps: f64,
    /// The kernel and size of that launch.
    pub max_ulps_at: String,
    /// Launches not compared: too large.
    pub too_large: usize,
    /// Launches not compared: a pointer with no extent.
    pub no_extent: usize,
    /// Launches where the interpreter disagreed.
    pub disagreed: usize,
}

static TALLY: Mutex<Option<Tally>> = Mutex::new(None);

/// The comparisons made so far.
pub fn tally() -> Tally {
    TALLY.lock().unwrap().clone().unwrap_or_default()
}

fn record(f: impl FnOnce(&mut Tally)) {
    f(TALLY.lock().unwrap().get_or_insert_with(Tally::default));
}

/// What the comparisons so far found, on a GPU with the cross-check on.
pub fn summary(device: &Device) -> Option<String> {
    if device.is_interpreter() || !enabled() {
        return None;
    }
    let t = tally();
    Some(format!(
        "GPU vs CPU interpreter, same inputs: {} launches bit-identical (kernels without float \
         rounding differences), {} within their bound ({} f32 ULPs of the output's scale beyond \
         one rounding of its type, {} with products of 10-bit inputs, {} of bf16; max seen {} ULPs, {}); {} disagreed; not \
         compared: {} over {} MiB, {} with a bare pointer",
        t.exact,
        t.bounded,
        ulp_bound(true),
        DOT_ULP_BOUND,
        dot_ulp_bound(7),
        t.max_ulps,
        if t.max_ulps_at.is_empty() {
            "-"
        } else {
            &t.max_ulps_at
        },
        t.disagreed,
        t.too_large,
        MAX_BYTES >> 20,
        t.no_extent
    ))
}

/// Whether the GPU check compares with the interpreter
/// (`TILE_CHECK_INTERPRETER=0` turns it off).
pub fn enabled() -> bool {
    std::env::var("TILE_CHECK_INTERPRETER").map_or(true, |v| v != "0")
}

/// One window of device memory: where it starts, and its bytes before the
/// launch.
struct Window {
    start: u64,
    bytes: Vec<u8>,
    /// The element type of the first argument that points into it.
    dtype: DType,
}

/// What a launch's pointer arguments can reach, read before the launch.
pub struct Before {
    windows: Vec<Window>,
    /// For each argument, its window (pointers only).
    arg_window: Vec<Option<usize>>,
}

/// Reads what `args` can reach on `device`, or `None` (counted) when the
/// launch will not be compared.
pub fn before(device: &Device, jit: &Jit, args: &[Arg]) -> Result<Option<Before>, String> {
    let program = jit.source().interpreter().map_err(|e| e.to_string())?;
    let params = &program.program().params;
    let mut spans: Vec<(u64, u64, usize)> = Vec::new();
    for (i, a) in args.iter().enumerate() {
        if let Arg::Ptr {
            ptr, extent_bytes, ..
        } = a
        {
            let Some(extent) = extent_bytes else {
                record(|t| t.no_extent += 1);
                return Ok(None);
            };
            spans.push((ptr.0, ptr.0 + extent, i));
        }
    }
    let total: u64 = spans.iter().map(|s| s.1 - s.0).sum();
    if total as usize > MAX_BYTES {
        record(|t| t.too_large += 1);
        return Ok(None);
    }
    spans.sort();
    // Merge overlapping spans into windows.
    let mut merged: Vec<(u64, u64, Vec<usize>)> = Vec::new();
    for (lo, hi, i) in spans {
        match merged.last_mut() {
            Some(last) if lo < last.1 => {
                last.1 = last.1.max(hi);
                last.2.push(i);
            }
            _ => merged.push((lo, hi, vec![i])),
        }
    }
    let mut arg_window = vec![None; args.len()];
    let mut windows = Vec::new();
    for (w, (lo, hi, members)) in merged.into_iter().enumerate() {
        for &i in &members {
            arg_window[i] = Some(w);
        }
        let dtype = params
            .get(members[0])
            .and_then(|p| p.ty.elem())
            .and_then(Elem::pointee)
            .unwrap_or(DType::I8);
        let bytes = device
            .read_bytes(DevicePtr(lo), (hi - lo) as usize)
            .map_err(|e| e.to_string())?;
        windows.push(Window {
            start: lo,
            bytes,
            dtype,
        });
    }
    Ok(Some(Before {
        windows,
        arg_window,
    }))
}

/// Runs the launch on the interpreter over the bytes read `before`, and
/// compares its memory with the GPU's after the GPU launch.
pub fn compare(
    device: &Device,
    jit: &Jit,
    grid: Grid,
    args: &[Arg],
    before: Before,
) -> Result<(), String> {
    let interpreter = jit.source().interpreter().map_err(|e| e.to_string())?;
    let rounds = interpreter.program().rounds_floats();
    let host = Device::interpreter();
    let mut buffers = Vec::new();
    for w in &before.windows {
        buffers.push(host.upload(&w.bytes).map_err(|e| e.to_string())?);
    }
    let moved: Vec<Arg> = args
        .iter()
        .zip(&before.arg_window)
        .map(|(a, w)| match (a, w) {
            (
                Arg::Ptr {
                    ptr,
                    extent_bytes,
                    elem,
                    ..
                },
                Some(w),
            ) => Arg::Ptr {
                ptr: DevicePtr(buffers[*w].ptr().0 + (ptr.0 - before.windows[*w].start)),
                extent_bytes: *extent_bytes,
                owner: Some(host.id()),
                elem: *elem,
            },
            _ => *a,
        })
        .collect();
    jit.launch(&host, grid, &moved)
        .map_err(|e| format!("interpreter: {e}"))?;
    let bound = match interpreter.program().coarsest_float_dot_input() {
        None => ulp_bound(rounds),
        Some((_, bits)) => dot_ulp_bound(bits),
    };
    let mut worst = 0f64;
    for (w, buffer) in before.windows.iter().zip(&buffers) {
        let gpu = device
            .read_bytes(DevicePtr(w.start), w.bytes.len())
            .map_err(|e| e.to_string())?;
        let cpu = host.download(buffer).map_err(|e| e.to_string())?;
        let ulps = difference(&gpu, &cpu, w.dtype, rounds).map_err(|e| {
            record(|t| t.disagreed += 1);
            format!("GPU and interpreter disagree in `{}`: {e}", jit.name())
        })?;
        worst = worst.max(ulps);
    }
    if worst > bound {
        record(|t| t.disagreed += 1);
        return Err(format!(
            "GPU and interpreter differ by {worst} ULPs in `{}` (bound {bound})",
            jit.name()
        ));
    }
    record(|t| {
        if rounds {
            t.bounded += 1;
            if worst > t.max_ulps || t.max_ulps_at.is_empty() {
                t.max_ulps = worst.max(t.max_ulps);
                t.max_ulps_at = format!("{} on grid {grid}", jit.name());
            }
        } else {
            t.exact += 1;
        }
    });
    Ok(())
}

/// The value of element `i` of a window of floats of type `d`.
fn float_at(bytes: &[u8], d: DType, i: usize) -> f64 {
    let size = d.bits() as usize / 8;
    tile::interpreter::float::float_from_bytes(d, &bytes[i * size..(i + 1) * size])
}

/// The spacing of floats of type `d` at magnitude `x`.
fn ulp(x: f64, d: DType) -> f64 {
    let (mantissa, emin) = match d {
        DType::F64 => (52, -1022),
        DType::F32 => (23, -126),
        DType::BF16 => (7, -126),
        DType::F8E4M3 => (3, -6),
        DType::F8E5M2 => (2, -14),
        _ => (10, -14),
    };
    let e = if x == 0.0 || !x.is_finite() {
        emin
    } else {
        (x.abs().log2().floor() as i32).max(emin)
    };
    2f64.powi(e - mantissa)
}

/// The largest difference between `gpu` and `cpu` beyond one rounding of
/// the element's type, in ULPs of the computing precision at the window's
/// scale (0 when bit-identical); an error for bytes that differ where they
/// must not (integers, exact kernels, NaN against a number, infinities).
fn difference(gpu: &[u8], cpu: &[u8], d: DType, rounds: bool) -> Result<f64, String> {
    if gpu == cpu {
        return Ok(0.0);
    }
    let first_diff = gpu.iter().zip(cpu).position(|(a, b)| a != b).unwrap_or(0);
    let size = (d.bits() as usize / 8).max(1);
    if !rounds || !d.is_float() || !gpu.len().is_multiple_of(size) {
        let i = first_diff / size;
        let count = gpu
            .chunks(size)
            .zip(cpu.chunks(size))
            .filter(|(a, b)| a != b)
            .count();
        return Err(format!(
            "{count} elements differ (kernel must be exact), first at element {i} of the \
             window ({d}): GPU {:02x?}, interpreter {:02x?}",
            &gpu[i * size..((i + 1) * size).min(gpu.len())],
            &cpu[i * size..((i + 1) * size).min(cpu.len())]
        ));
    }
    let n = gpu.len() / size;
    let scale = (0..n)
        .map(|i| float_at(cpu, d, i).abs())
        .filter(|x| x.is_finite())
        .fold(0f64, f64::max);
    // The precision kernels compute in, and what one rounding of a stored
    // element narrower than it may move.
    let computing = if d == DType::F64 {
        DType::F64
    } else {
        DType::F32
    };
    let unit = ulp(scale, computing);
    let mut worst = 0f64;
    for i in 0..n {
        let (g, c) = (float_at(gpu, d, i), float_at(cpu, d, i));
        if g.to_bits() == c.to_bits() || (g.is_nan() && c.is_nan()) {
            continue;
        }
        if g.is_nan() || c.is_nan() || g.is_infinite() || c.is_infinite() {
            return Err(format!("element {i}: GPU {g}, interpreter {c}"));
        }
        let stored = if d == computing {
            0.0
        } else {
            ulp(g.abs().max(c.abs()), d)
        };
        worst = worst.max(((g - c).abs() - stored).max(0.0) / unit);
    }
    Ok(worst)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bytes(v: &[f32]) -> Vec<u8> {
        v.iter().flat_map(|x| x.to_le_bytes()).collect()
    }

    #[test]
    fn exact_kernels_must_match_bit_for_bit() {
        let a = bytes(&[1.0, 2.0]);
        let b = bytes(&[1.0, f32::from_bits(2f32.to_bits() + 1)]);
        assert_eq!(difference(&a, &a, DType::F32, false), Ok(0.0));
        assert!(
            difference(&a, &b, DType::F32, false)
                .unwrap_err()
                .contains("element 1")
        );
    }

    #[test]
    fn rounding_kernels_are_measured_at_the_output_scale() {
        // 1 ULP at 1.0 is 2^-23; at the window's largest value 4.0 it is 2^-21.
        let a = bytes(&[4.0, 1.0]);
        let b = bytes(&[4.0, 1.0 + 2f32.powi(-21) * 3.0]);
        assert_eq!(difference(&a, &b, DType::F32, true), Ok(3.0));
        let nan = bytes(&[4.0, f32::NAN]);
        assert!(difference(&a, &nan, DType::F32, true).is_err());
        assert_eq!(difference(&nan, &nan, DType::F32, true), Ok(0.0));
        assert_eq!(ulp(1.0, DType::BF16), 2f64.powi(-7));
    }

    fn bf16_bytes(v: &[f32]) -> Vec<u8> {
        v.iter()
            .flat_map(|&x| half::bf16::from_f32(x).to_le_bytes())
            .collect()
    }

    #[test]
    fn a_narrow_element_may_round_to_its_other_neighbour_and_no_further() {
        // One bf16 ULP at 1.0 (2^-7) is one rounding: no excess.
        let a = bf16_bytes(&[4.0, 1.0]);
        let b = bf16_bytes(&[4.0, 1.0 + 2f32.powi(-7)]);
        assert_eq!(difference(&a, &b, DType::BF16, true), Ok(0.0));
        // Two bf16 ULPs: one ULP past the rounding, 2^-7 at a window whose
        // largest value is 4.0, is 2^16 f32 ULPs of 4.0 (2^-21): far past
        // the bound, where 64 bf16 ULPs of 4.0 (2.0) used to pass it.
        let c = bf16_bytes(&[4.0, 1.0 + 2f32.powi(-6)]);
        let excess = difference(&a, &c, DType::BF16, true).unwrap();
        assert_eq!(excess, 2f64.powi(14));
        assert!(excess > ulp_bound(true));
    }
}

#[cfg(test)]
mod launch_tests {
    use super::*;
    use tile::Options;
    use tile_examples::vector_add;

    /// The comparison runs on any device; with an interpreter standing in
    /// for the GPU it must agree with itself, and catch a changed result.
    #[test]
    fn a_launch_is_compared_and_a_changed_result_is_caught() {
        let context = tile::context().unwrap();
        let kernel = vector_add::safe_kernel(&context, 128).unwrap();
        let jit = tile::jit(&kernel, Options::default()).unwrap();
        let device = Device::interpreter();
        let n = 300;
        let x = device.upload(&super::super::inputs(n, 1)).unwrap();
        let y = device.upload(&super::super::inputs(n, 2)).unwrap();
        let mut out = device.upload(&vec![0f32; n]).unwrap();
        let args = [
            Arg::from(&x),
            Arg::from(&y),
            Arg::from(&out),
            Arg::I32(n as i32),
        ];
        let grid = Grid::from(3u32);
        let b = before(&device, &jit, &args)
            .unwrap()
            .expect("small enough to compare");
        assert_eq!(b.windows.len(), 3);
        jit.launch(&device, grid, &args).unwrap();
        compare(&device, &jit, grid, &args, b).unwrap();

        let b = before(&device, &jit, &args).unwrap().unwrap();
        jit.launch(&device, grid, &args).unwrap();
        let mut got = device.download(&out).unwrap();
        got[7] += 1.0;
        device.write(&mut out, &got).unwrap();
        let e = compare(&device, &jit, grid, &args, b).unwrap_err();
        assert!(e.contains("differ"), "{e}");
    }
}
