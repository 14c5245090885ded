//! The accuracy of the math computed without libdevice, measured: `tanh`,
//! `erf` and `sigmoid` on the GPU over 2^22 f32 inputs against the
//! correctly rounded value (the f64 function rounded to f32), as the
//! largest distance in ULP; and the GELU kernels (exact and tanh forms)
//! against PyTorch's definition in f64.

use crate::gpu_check::Outcome;
use tile::{Arg, DType, Device, Kernel, Options, Tile};
use tile_examples::gelu::{self, Gelu};

/// Elements per program of the kernels.
const BLOCK: i32 = 1024;

/// One function: its name, the builder call, the f64 reference, and the
/// bound in ULP allowed at `x`.
type Function = (
    &'static str,
    for<'k> fn(Tile<'k>) -> Tile<'k>,
    fn(f64) -> f64,
    fn(f32) -> f64,
);

/// The functions and their documented bounds: tanh and erf 4 ulp;
/// sigmoid is `1 / (exp(-x) + 1)`, whose `exp` rounds `x log2 e` first,
/// which costs about `|x|` ulp more as `|x|` grows.
fn functions() -> [Function; 3] {
    [
        ("tanh", |x| x.tanh(), f64::tanh, |_| 4.0),
        ("erf", |x| x.erf(), libm::erf, |_| 4.0),
        (
            "sigmoid",
            |x| x.sigmoid(),
            |x| 1.0 / (1.0 + (-x).exp()),
            |x| 4.0 + 1.5 * f64::from(x.abs()),
        ),
    ]
}

/// `op` applied to `n` f32s.
fn unary_kernel<'c>(
    context: &'c melior::Context,
    name: &str,
    op: for<'k> fn(Tile<'k>) -> Tile<'k>,
) -> Result<Kernel<'c>, tile::IrError> {
    Kernel::build(context, name, |k| {
        let x = k.arg_ptr("x", DType::F32);
        let y = k.arg_ptr("y", DType::F32);
        let n = k.arg("n", DType::I32);
        let offs = k.program_id(0) * BLOCK + k.arange(0, BLOCK);
        let m = offs.lt(n);
        let v = k.load(x + offs).mask(m).build();
        k.store(y + offs, op(v)).mask(m).build();
    })
}

/// The sweep's inputs: 2^21 evenly spaced over [-12, 12], 2^21 of
/// geometrically spaced magnitudes from 2^-30 to 12 of both signs, and the
/// special values (zeros, infinities, NaN, the branch points and their
/// neighbours).
fn sweep() -> Vec<f32> {
    let half = 1usize << 21;
    let mut x: Vec<f32> = (0..half)
        .map(|i| -12.0 + 24.0 * i as f32 / (half - 1) as f32)
        .collect();
    let (lo, hi) = (2f64.powi(-30).ln(), 12f64.ln());
    x.extend((0..half).map(|i| {
        let m = (lo + (hi - lo) * i as f64 / (half - 1) as f64).exp() as f32;
        if i % 2 == 0 { m } else { -m }
    }));
    for b in [0.625f32, 0.875, 4.0, 10.0] {
        for v in [
            b,
            f32::from_bits(b.to_bits() - 1),
            f32::from_bits(b.to_bits() + 1),
        ] {
            x.extend([v, -v]);
        }
    }
    x.extend([
        0.0,
        -0.0,
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::NAN,
        1e-38,
        -1e-38,
    ]);
    x
}

/// The distance in ULP of f32 `got` from `want` (f64), counted in
/// representable f32s between them (NaN must meet NaN).
fn ulps(got: f32, want: f64) -> f64 {
    let want32 = want as f32;
    if want32.is_nan() || got.is_nan() {
        return if want32.is_nan() && got.is_nan() {
            0.0
        } else {
            f64::INFINITY
        };
    }
    let ordered = |v: f32| {
        let b = v.to_bits() as i64;
        if b < 0x8000_0000 { b } else { 0x8000_0000 - b }
    };
    // Against the rounded value, plus how far that is from the exact one.
    let spacing = f64::from(f32::from_bits(want32.abs().to_bits() + 1) - want32.abs())
        .max(f64::from(f32::from_bits(1)));
    (ordered(got) - ordered(want32)).unsigned_abs() as f64
        + (f64::from(want32) - want).abs() / spacing
}

/// Runs `kernel` (one pointer per input, the output's, then `n`) over
/// `inputs` (of one length) on `device`; returns the output.
fn run(device: &Device, kernel: &Kernel, inputs: &[&[f32]]) -> Result<Vec<f32>, String> {
    let err = |e: tile::RuntimeError| e.to_string();
    let n = inputs[0].len();
    let jit = tile::jit(kernel, Options::default()).map_err(|e| e.to_string())?;
    let buffers = inputs
        .iter()
        .map(|x| device.upload(x))
        .collect::<Result<Vec<_>, _>>()
        .map_err(err)?;
    let out = device.upload(&vec![f32::NAN; n]).map_err(err)?;
    let mut args: Vec<Arg> = buffers.iter().map(Arg::from).collect();
    args.extend([Arg::from(&out), Arg::from(n as i32)]);
    jit.launch(device, n.div_ceil(BLOCK as usize) as u32, &args)
        .map_err(err)?;
    device.download(&out).map_err(err)
}

/// `pow(x, y)` over 2^20 pairs: |x| from 2^-8 to 2^8 (geometric), y on
/// [-6, 6], negative x with integer y (odd and even) and not, and the
/// special cases; within `4 + 6 |y| + 1.5 |y log2 |x||` ulp of the
/// correctly rounded value (NaN where C's `pow` is NaN). The exponent
/// `y log2 |x|` carries `lg2.approx`'s absolute error (about 2^-22) times
/// `|y|` and its own rounding (2^-24 relative); an absolute error `e` in
/// the exponent is a relative error `e ln 2` in the result, which is up to
/// `2 e ln 2 / 2^-24` ulp near the bottom of a binade.
fn pow_case(context: &melior::Context, device: &Device) -> Outcome {
    let kernel = Kernel::build(context, "pow", |k| {
        let x = k.arg_ptr("x", DType::F32);
        let y = k.arg_ptr("y", DType::F32);
        let out = k.arg_ptr("out", DType::F32);
        let n = k.arg("n", DType::I32);
        let offs = k.program_id(0) * BLOCK + k.arange(0, BLOCK);
        let m = offs.lt(n);
        let a = k.load(x + offs).mask(m).build();
        let b = k.load(y + offs).mask(m).build();
        k.store(out + offs, a.pow(b)).mask(m).build();
    })
    .map_err(|e| e.to_string())?;
    let count = 1usize << 20;
    let mut xs = Vec::with_capacity(count + 16);
    let mut ys = Vec::with_capacity(count + 16);
    for i in 0..count {
        let t = i as f64 / count as f64;
        let magnitude = (2f64.powf(-8.0 + 16.0 * t)) as f32;
        let y = -6.0 + 12.0 * ((i * 7919) % count) as f32 / count as f32;
        let (x, y) = match i % 4 {
            // A negative base with an integer exponent, odd or even.
            0 => (-magnitude, y.round()),
            _ => (magnitude, y),
        };
        xs.push(x);
        ys.push(y);
    }
    for (x, y) in [
        (0.0f32, 2.0f32),
        (0.0, -1.0),
        (2.0, 0.0),
        (f32::NAN, 0.0),
        (1.0, f32::NAN),
        (-2.0, 0.5),
        (-2.0, 3.0),
        (f32::INFINITY, 0.5),
        (f32::INFINITY, -1.0),
        (0.5, f32::INFINITY),
    ] {
        xs.push(x);
        ys.push(y);
    }
    let got = run(device, &kernel, &[&xs, &ys])?;
    let mut worst = (0.0f64, 0.0f32, 0.0f32);
    let mut over = 0usize;
    for ((&x, &y), &g) in xs.iter().zip(&ys).zip(&got) {
        let want = f64::from(x).powf(f64::from(y));
        let u = ulps(g, want);
        let bound =
            4.0 + 6.0 * f64::from(y.abs()) + 1.5 * (f64::from(y) * f64::from(x.abs()).log2()).abs();
        if u > bound || (u.is_infinite() && !want.is_nan()) {
            over += 1;
        }
        if u.is_finite() && u > worst.0 {
            worst = (u, x, y);
        }
    }
    let (u, x, y) = worst;
    let line = format!("max {u:.2} ulp at pow({x:e}, {y:e}); {over} over the bound");
    println!("  pow: {line}");
    if over == 0 { Ok(()) } else { Err(line) }
}

/// Every case: `(case, outcome)`; each outcome says the largest error seen.
pub fn cases(device: &Device) -> Vec<(String, Outcome)> {
    let mut out = Vec::new();
    let context = match tile::context() {
        Ok(c) => c,
        Err(e) => return vec![("context".into(), Err(e.to_string()))],
    };
    let x = sweep();
    for (name, op, reference, bound) in functions() {
        let outcome = unary_kernel(&context, name, op)
            .map_err(|e| e.to_string())
            .and_then(|k| run(device, &k, &[&x]))
            .and_then(|got| {
                let mut worst = (0.0f64, 0.0f32, 0.0f32);
                let mut over = 0usize;
                for (&xi, &g) in x.iter().zip(&got) {
                    let u = ulps(g, reference(f64::from(xi)));
                    if u > bound(xi) {
                        over += 1;
                    }
                    if u > worst.0 {
                        worst = (u, xi, g);
                    }
                }
                let (u, at, g) = worst;
                let line =
                    format!("max {u:.2} ulp at x = {at:e} (got {g:e}); {over} over the bound");
                println!("  {name}: {line}");
                if over == 0 { Ok(()) } else { Err(line) }
            });
        out.push((format!("{name} f32 over {} inputs", x.len()), outcome));
    }
    out.push((
        "pow f32 over (x, y) pairs".into(),
        pow_case(&context, device),
    ));
    for form in [Gelu::Erf, Gelu::Tanh] {
        let n = 1_000_003usize;
        let xs: Vec<f32> = (0..n)
            .map(|i| -8.0 + 16.0 * i as f32 / (n - 1) as f32)
            .collect();
        let outcome = gelu::gelu(&context, form, gelu::BLOCK, DType::F32)
            .map_err(|e| e.to_string())
            .and_then(|k| run(device, &k, &[&xs]))
            .and_then(|got| {
                // The f32 formula's own rounding (1 + erf cancels for
                // negative x) stays within 1e-6 of x's scale.
                let bad = xs
                    .iter()
                    .zip(&got)
                    .filter(|&(&x, &g)| {
                        let want = form.reference(f64::from(x));
                        (f64::from(g) - want).abs() > 1e-6 * f64::from(x.abs()).max(1.0)
                    })
                    .count();
                if bad == 0 {
                    Ok(())
                } else {
                    Err(format!("{bad} of {n} beyond 1e-6 of max(|x|, 1)"))
                }
            });
        out.push((format!("{} f32 n={n}", form.name()), outcome));
    }
    out
}

/// The GELU inputs written by [`gelu_dump`]: 1,000,003 points evenly over
/// [-8, 8], then 2^16 points near 0 (|x| from 2^-20 up).
fn gelu_inputs() -> Vec<f32> {
    let n = 1_000_003usize;
    let mut xs: Vec<f32> = (0..n)
        .map(|i| -8.0 + 16.0 * i as f32 / (n - 1) as f32)
        .collect();
    xs.extend((0..1 << 16).map(|i: i32| {
        let m = 2f32.powf(-20.0 + 20.0 * (i >> 1) as f32 / 32768.0);
        if i & 1 == 1 { -m } else { m }
    }));
    xs
}

/// Runs both GELU kernels on the GELU inputs (1,000,003 points over
/// `[-8, 8]` and 2^16 near 0) and writes the inputs and
/// outputs as little-endian f32 files in `dir` (`x.f32`, `gelu_erf.f32`,
/// `gelu_tanh.f32`), for `bench/gelu_vs_torch.py` to compare with
/// PyTorch's `F.gelu` on the same GPU.
pub fn gelu_dump(device: &Device, dir: &std::path::Path) -> Outcome {
    let context = tile::context().map_err(|e| e.to_string())?;
    let xs = gelu_inputs();
    let write = |name: &str, v: &[f32]| {
        let bytes: Vec<u8> = v.iter().flat_map(|x| x.to_le_bytes()).collect();
        std::fs::write(dir.join(name), bytes).map_err(|e| format!("{name}: {e}"))
    };
    std::fs::create_dir_all(dir).map_err(|e| e.to_string())?;
    write("x.f32", &xs)?;
    for form in [Gelu::Erf, Gelu::Tanh] {
        let kernel =
            gelu::gelu(&context, form, gelu::BLOCK, DType::F32).map_err(|e| e.to_string())?;
        let got = run(device, &kernel, &[&xs])?;
        write(&format!("{}.f32", form.name()), &got)?;
        println!("  wrote {} values of {}", got.len(), form.name());
    }
    Ok(())
}
