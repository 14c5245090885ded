//! `tile-tools fuzz --programs`: random programs through the Rust builder,
//! compiled with random options and launched on the device the machine has
//! (`tile::device_or_skip` finds the GPU; without one, the CPU
//! interpreter). On a GPU every launch is also run on the interpreter over
//! the same inputs, and both outputs are judged against the reference.
//!
//! Each program loads two masked f32 vectors (`x`, `y`, with a random
//! `other`), computes a random expression of them (arithmetic, fused
//! multiply-adds, minimum and maximum, comparisons and `where`, square
//! roots of absolute values, `exp2` of bounded arguments (at the root
//! only: see `Expr::random`), rounding through
//! f16, a remainder by a literal, a counted loop accumulating it), and
//! stores it masked. Block sizes, warps, stages, loop steps, divisors,
//! literals and targets are mostly valid and sometimes not (blocks of 0, 3
//! or 2^21 elements, 64 warps, steps of 0 or -1, a divisor of 0, an f16
//! literal of 1e10, chip `""` or `sm_75`, `+ptx60`, 0 or 9 stages for
//! the module or the loop): those must be refused
//! with a typed error ([`Program::invalid`] says which, so a valid program
//! refused or an invalid one accepted is a finding). Every element a
//! launch stores is judged against a plain Rust evaluation of the program
//! with a bound carried element by element ([`judge`](super::judge)), and
//! the 64 elements past `n` must keep their poison. Before each program
//! its number is written to `OUT/current` so that an abort leaves the
//! culprit named.

use super::judge::Bounded;
use crate::gpu_check::Specializing;
use half::f16;
use std::path::Path;
use tile::{Arg, Device, Options};
use tile_dialect::{DType, Kernel, KernelBuilder, Tile};

/// A random expression over the two loaded tiles.
#[derive(Clone, Debug)]
enum Expr {
    X,
    Y,
    Literal(f32),
    Add(Box<Expr>, Box<Expr>),
    Sub(Box<Expr>, Box<Expr>),
    Mul(Box<Expr>, Box<Expr>),
    Min(Box<Expr>, Box<Expr>),
    Max(Box<Expr>, Box<Expr>),
    Fma(Box<Expr>, Box<Expr>, Box<Expr>),
    /// `a < b ? c : d`.
    Select(Box<Expr>, Box<Expr>, Box<Expr>, Box<Expr>),
    /// `exp2` of the argument clamped to [-8, 8].
    Exp2(Box<Expr>),
    /// `sqrt(|a|)`.
    Sqrt(Box<Expr>),
    /// Rounded to f16 and back.
    F16(Box<Expr>),
}

impl Expr {
    fn random(rng: &mut fastrand::Rng, depth: u32) -> Expr {
        let leaf = depth == 0 || rng.u8(..4) == 0;
        if leaf {
            return match rng.u8(..3) {
                0 => Expr::X,
                1 => Expr::Y,
                _ => Expr::Literal([0.0, 1.0, -0.5, 2.0, 0.1][rng.usize(..5)]),
            };
        }
        // exp2 (ex2.approx, 2 ulp: float_math.rs) only at the root, from
        // Program::random: inside, a comparison, an f16 rounding or a
        // cancellation would turn its documented error into any
        // difference at all (every disagreement of the first GPU
        // campaign, 20 in 36,000 programs, was such an amplification).
        let which = rng.u8(..9);
        let mut sub = || Box::new(Expr::random(rng, depth - 1));
        let (a, b) = (sub(), sub());
        match which {
            0 => Expr::Add(a, b),
            1 => Expr::Sub(a, b),
            2 => Expr::Mul(a, b),
            3 => Expr::Min(a, b),
            4 => Expr::Max(a, b),
            5 => Expr::Fma(a, b, sub()),
            6 => {
                let c = sub();
                Expr::Select(a, b, c, sub())
            }
            7 => Expr::Sqrt(a),
            _ => Expr::F16(a),
        }
    }

    /// The expression at one element, by the reference (see [`judge`](super::judge)).
    fn eval(&self, x: f32, y: f32) -> Bounded {
        let e = |v: &Expr| v.eval(x, y);
        let fusable = |a: &Expr, b: &Expr| [a.is_product(), b.is_product()];
        match self {
            Expr::X => Bounded::exact(x),
            Expr::Y => Bounded::exact(y),
            Expr::Literal(v) => Bounded::exact(*v),
            Expr::Add(a, b) => e(a).add(e(b), 1.0, fusable(a, b)),
            Expr::Sub(a, b) => e(a).add(e(b), -1.0, fusable(a, b)),
            Expr::Mul(a, b) => e(a).mul(e(b)),
            Expr::Min(a, b) => e(a).extreme(e(b), true),
            Expr::Max(a, b) => e(a).extreme(e(b), false),
            Expr::Fma(a, b, c) => e(a).fma(e(b), e(c)),
            Expr::Select(a, b, c, d) => Bounded::select(e(a), e(b), e(c), e(d)),
            Expr::Exp2(a) => e(a).exp2_clamped(),
            Expr::Sqrt(a) => e(a).sqrt_abs(),
            Expr::F16(a) => e(a).through_f16(),
        }
    }

    /// A product (which the GPU may fuse into the sum that takes it).
    fn is_product(&self) -> bool {
        matches!(self, Expr::Mul(..))
    }

    fn emit<'k>(&self, k: &'k KernelBuilder<'k>, x: Tile<'k>, y: Tile<'k>) -> Tile<'k> {
        let e = |v: &Expr| v.emit(k, x, y);
        match self {
            Expr::X => x,
            Expr::Y => y,
            Expr::Literal(v) => x * 0.0f32 + *v,
            Expr::Add(a, b) => e(a) + e(b),
            Expr::Sub(a, b) => e(a) - e(b),
            Expr::Mul(a, b) => e(a) * e(b),
            Expr::Min(a, b) => e(a).minimum(e(b)),
            Expr::Max(a, b) => e(a).maximum(e(b)),
            Expr::Fma(a, b, c) => e(a).fma(e(b), e(c)),
            Expr::Select(a, b, c, d) => k.where_(e(a).lt(e(b)), e(c), e(d)),
            Expr::Exp2(a) => e(a).maximum(-8.0f32).minimum(8.0f32).exp2(),
            Expr::Sqrt(a) => e(a).abs().sqrt(),
            Expr::F16(a) => e(a).to(DType::F16).to(DType::F32),
        }
    }
}

/// One random program and how it is compiled and launched.
#[derive(Clone, Debug)]
struct Program {
    block: i32,
    other: f32,
    expr: Expr,
    /// `z + (offs % divisor)` when set.
    divisor: Option<i32>,
    /// `for i in (0..trips).step_by(step)`: `z = z * 0.5 + 1` when set.
    loop_: Option<(i32, i32)>,
    /// The loop's own stages (`for_range_staged`) when set: 1 to 8, rarely
    /// 0 or 9 (refused).
    loop_stages: Option<u32>,
    /// An f16 literal added to the result (1e10 must be refused).
    f16_literal: Option<f64>,
    warps: u32,
    stages: u32,
    chip: &'static str,
    features: &'static str,
    n: usize,
}

impl Program {
    fn random(rng: &mut fastrand::Rng) -> Program {
        let block = match rng.u8(..20) {
            0 => [0, 3, 1 << 21, -4][rng.usize(..4)],
            _ => 1 << rng.u32(0..=12),
        };
        let warps = match rng.u8(..20) {
            0 => [0, 3, 64][rng.usize(..3)],
            _ => 1 << rng.u32(0..=3),
        };
        let depth = rng.u32(0..=5);
        let rare = |rng: &mut fastrand::Rng| rng.u8(..40) == 0;
        let divisor = (rng.u8(..4) == 0).then(|| if rare(rng) { 0 } else { rng.i32(1..8) });
        let loop_ = (rng.u8(..4) == 0).then(|| {
            let step = if rare(rng) {
                [0, -1][rng.usize(..2)]
            } else {
                rng.i32(1..4)
            };
            (rng.i32(0..6), step)
        });
        let loop_stages = (loop_.is_some() && rng.u8(..3) == 0).then(|| {
            if rare(rng) {
                [0, 9][rng.usize(..2)]
            } else {
                rng.u32(1..=8)
            }
        });
        let stages = if rare(rng) {
            [0, 9, 64][rng.usize(..3)]
        } else {
            rng.u32(1..=4)
        };
        let f16_literal = (rng.u8(..4) == 0).then(|| if rare(rng) { 1e10 } else { 0.25 });
        let (chip, features) = match rng.u8(..60) {
            0 => ("", "+ptx80"),
            1 => ("sm_75", ""),
            2 => ("sm_90", "+ptx60"),
            3 => ("sm_80", ""),
            _ => ("sm_90", "+ptx80"),
        };
        Program {
            block,
            other: [0.0, 1.0, -3.0, f32::INFINITY][rng.usize(..4)],
            expr: match rng.u8(..5) {
                0 => Expr::Exp2(Box::new(Expr::random(rng, depth))),
                _ => Expr::random(rng, depth),
            },
            divisor,
            loop_,
            loop_stages,
            f16_literal,
            warps,
            stages,
            chip,
            features,
            n: rng.usize(0..5000),
        }
    }

    /// Why the program must be refused, or `None` when it must run: the
    /// generator's own invalid choices, listed where it makes them.
    fn invalid(&self) -> Option<&'static str> {
        if self.block < 1 || self.block.count_ones() != 1 {
            return Some("the block is not a positive power of two");
        }
        if self.block > 1 << 12 {
            return Some("the block is past the tile-size limit");
        }
        if !matches!(self.warps, 1 | 2 | 4 | 8) {
            return Some("the warps are not a power of two in 1..=32 that the block allows");
        }
        if self.chip != "sm_80" && self.chip != "sm_90" {
            return Some("the chip is not one we generate for");
        }
        if self.features == "+ptx60" {
            return Some("PTX 6.0 cannot target the chip");
        }
        if self.divisor == Some(0) {
            return Some("a remainder by 0");
        }
        if matches!(self.loop_, Some((_, step)) if step < 1) {
            return Some("a loop step that is not positive");
        }
        if !(1..=8).contains(&self.stages) {
            return Some("num_stages outside 1 to 8");
        }
        if self.loop_stages.is_some_and(|s| !(1..=8).contains(&s)) {
            return Some("a loop's stages outside 1 to 8");
        }
        if self.f16_literal.is_some_and(|v| v > f64::from(f16::MAX)) {
            return Some("an f16 literal past the f16 range");
        }
        None
    }

    /// Element `i` of the output by the reference, from the inputs at `i`.
    fn expected(&self, i: usize, x: f32, y: f32) -> Bounded {
        let mut z = self.expr.eval(x, y);
        if let Some(d) = self.divisor {
            let r = Bounded::exact((i as i32 % d) as f32);
            z = z.add(r, 1.0, [self.expr.is_product(), false]);
        }
        if let Some((trips, step)) = self.loop_ {
            for _ in (0..trips).step_by(step.max(1) as usize) {
                z = z
                    .mul(Bounded::exact(0.5))
                    .add(Bounded::exact(1.0), 1.0, [true, false]);
            }
        }
        if let Some(v) = self.f16_literal {
            let fused = self.loop_.is_none() && self.divisor.is_none() && self.expr.is_product();
            z = z.add(Bounded::exact(v as f32), 1.0, [fused, false]);
        }
        z
    }

    fn build<'c>(&self, context: &'c melior::Context) -> tile_dialect::Result<Kernel<'c>> {
        Kernel::build(context, "fuzzed", |k| {
            let x_ptr = k.arg_ptr("x", DType::F32);
            let y_ptr = k.arg_ptr("y", DType::F32);
            let out_ptr = k.arg_ptr("out", DType::F32);
            let n = k.arg("n", DType::I32);
            let offs = k.program_id(0) * self.block + k.arange(0, self.block);
            let m = offs.lt(n);
            let x = k.load(x_ptr + offs).mask(m).other(self.other).build();
            let y = k.load(y_ptr + offs).mask(m).other(self.other).build();
            let mut z = self.expr.emit(k, x, y);
            if let Some(d) = self.divisor {
                z += (offs % d).to(DType::F32);
            }
            if let Some((trips, step)) = self.loop_ {
                [z] = match self.loop_stages {
                    Some(s) => {
                        k.for_range_staged(s, 0, trips, step, [z], |_, [z]| [z * 0.5f32 + 1.0f32])
                    }
                    None => k.for_range(0, trips, step, [z], |_, [z]| [z * 0.5f32 + 1.0f32]),
                };
            }
            if let Some(v) = self.f16_literal {
                let c = k.full(&[i64::from(self.block.max(1))], v, DType::F16);
                z += c.to(DType::F32);
            }
            k.store(out_ptr + offs, z).mask(m).build();
        })
    }
}

/// What became of one program.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Fate {
    /// A valid program built, compiled and launched, every stored element
    /// within the reference's bound, the elements past `n` untouched (and,
    /// on a GPU, the interpreter agreed).
    Ran,
    /// An invalid program refused with a typed error.
    Refused,
    /// A valid program refused: a finding.
    WronglyRefused,
    /// An invalid program that ran: a finding.
    WronglyAccepted,
    /// An element outside the reference's bound, or one past `n` written,
    /// on the device or (on a GPU) on the interpreter: a finding.
    Wrong,
    /// A Rust panic (caught): a finding.
    Panicked,
}

/// Runs `count` random programs from `seed`; true when any panicked or
/// was judged wrong. `out` receives `current` (the program being run) and a
/// `finding-<n>.txt` per finding.
pub fn campaign(count: usize, seed: u64, out: &Path) -> Result<bool, String> {
    let device = match Device::count() {
        0 => Device::interpreter(),
        _ => Device::new(0).map_err(|e| e.to_string())?,
    };
    println!(
        "fuzz --programs on {}",
        device.name().unwrap_or_else(|e| e.to_string())
    );
    let context = tile::context().map_err(|e| e.to_string())?;
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut fates: std::collections::BTreeMap<Fate, usize> = Default::default();
    let mut bad = false;
    let mut refusals: std::collections::BTreeMap<String, usize> = Default::default();
    let mut slowest = std::time::Duration::ZERO;
    for i in 0..count {
        let program = Program::random(&mut rng);
        let current = out.join("current");
        std::fs::write(
            &current,
            format!("seed {seed}, program {i}: {program:#?}\n"),
        )
        .map_err(|e| format!("{}: {e}", current.display()))?;
        let started = std::time::Instant::now();
        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            run(&device, &context, &program)
        }));
        slowest = slowest.max(started.elapsed());
        let invalid = program.invalid();
        let fate = match &outcome {
            Err(_) => Fate::Panicked,
            Ok(Err(Failure::Wrong(_))) => Fate::Wrong,
            Ok(Err(Failure::Refused(_))) if invalid.is_some() => Fate::Refused,
            Ok(Err(Failure::Refused(_))) => Fate::WronglyRefused,
            Ok(Ok(())) if invalid.is_some() => Fate::WronglyAccepted,
            Ok(Ok(())) => Fate::Ran,
        };
        *fates.entry(fate).or_default() += 1;
        if let (Fate::Refused, Ok(Err(Failure::Refused(e)))) = (fate, &outcome) {
            // What refused it, without the numbers that vary.
            let kind: String = e.chars().filter(|c| !c.is_ascii_digit()).take(90).collect();
            *refusals.entry(kind).or_default() += 1;
        }
        if (i + 1) % 1000 == 0 {
            println!("{} programs, slowest {slowest:.2?}: {fates:?}", i + 1);
        }
        if !matches!(fate, Fate::Ran | Fate::Refused) {
            bad = true;
            let path = out.join(format!("finding-{i}.txt"));
            let what = match outcome {
                Ok(Err(Failure::Refused(e) | Failure::Wrong(e))) => e,
                Ok(Ok(())) => format!("ran, but {}", invalid.unwrap_or("it is invalid")),
                Err(_) => "panicked".into(),
            };
            std::fs::write(&path, format!("{fate:?}: {what}\n{program:#?}\n"))
                .map_err(|e| format!("{}: {e}", path.display()))?;
            println!("{fate:?}: {}", path.display());
        }
    }
    for (kind, n) in &refusals {
        println!("  refused {n}x: {kind}");
    }
    println!("fuzz --programs: {count} programs (seed {seed}), slowest {slowest:.2?}: {fates:?}");
    Ok(bad)
}

/// Why a program did not run as it must.
enum Failure {
    /// A typed error building, compiling or launching it.
    Refused(String),
    /// It ran, and an element is outside the reference's bound or one past
    /// `n` was written.
    Wrong(String),
}

/// Elements after the `n` a program may store, which must keep [`POISON`].
const GUARD: usize = 64;
/// What the output holds before the launch.
const POISON: f32 = -1234.5;

/// Builds, compiles and launches `program` over fresh inputs, then judges
/// every element against the reference: on the device, and on a GPU also
/// on the interpreter (each against the reference's per-element bound, not
/// against each other: where a fused product moves an f16 rounding or a
/// comparison, both may be right and differ by far more than an ulp).
fn run(device: &Device, context: &melior::Context, program: &Program) -> Result<(), Failure> {
    let kernel = program
        .build(context)
        .map_err(|e| Failure::Refused(e.to_string()))?;
    let options = Options {
        num_stages: program.stages,
        chip: program.chip.into(),
        features: program.features.into(),
        dump: None,
        ..Options::with_warps(program.warps)
    };
    let loaded = Specializing::with_options(device, &kernel, options);
    let n = program.n;
    let xs: Vec<f32> = (0..n)
        .map(|i| ((i * 37 % 101) as f32 - 50.0) / 16.0)
        .collect();
    let ys: Vec<f32> = (0..n)
        .map(|i| ((i * 53 % 97) as f32 - 48.0) / 12.0)
        .collect();
    let got = launch(device, &loaded, program, &xs, &ys)?;
    check_output(program, &xs, &ys, &got)?;
    if !device.is_interpreter() {
        let interpreter = Device::interpreter();
        let got = launch(&interpreter, &loaded, program, &xs, &ys)?;
        check_output(program, &xs, &ys, &got).map_err(|e| match e {
            Failure::Wrong(e) => Failure::Wrong(format!("on the interpreter: {e}")),
            refused => refused,
        })?;
    }
    Ok(())
}

/// One launch of the compiled program on `device` over `xs` and `ys`; the
/// output with its guard.
fn launch(
    device: &Device,
    loaded: &Specializing<'_>,
    program: &Program,
    xs: &[f32],
    ys: &[f32],
) -> Result<Vec<f32>, Failure> {
    let refused = |e: String| Failure::Refused(e);
    let n = xs.len();
    let up = |v: &[f32]| device.upload(v).map_err(|e| refused(e.to_string()));
    let (x, y, out) = (up(xs)?, up(ys)?, up(&vec![POISON; n + GUARD])?);
    let block = program.block.max(1) as usize;
    let grid = n.div_ceil(block).max(1) as u32;
    let args = [
        Arg::from(&x),
        Arg::from(&y),
        Arg::from(&out),
        Arg::from(n as i32),
    ];
    loaded
        .jit()
        .map_err(refused)?
        .launch(device, grid, &args)
        .map_err(|e| refused(e.to_string()))?;
    device.download(&out).map_err(|e| refused(e.to_string()))
}

/// Every stored element against the reference, and the guard untouched.
fn check_output(program: &Program, xs: &[f32], ys: &[f32], got: &[f32]) -> Result<(), Failure> {
    let n = xs.len();
    for (i, &g) in got.iter().enumerate() {
        if i >= n {
            if g.to_bits() != POISON.to_bits() {
                return Err(Failure::Wrong(format!(
                    "element {i} past n = {n} was written: {g:e}"
                )));
            }
            continue;
        }
        let want = program.expected(i, xs[i], ys[i]);
        if !want.admits(g) {
            return Err(Failure::Wrong(format!(
                "element {i} of {n}: got {g:e}, the reference {:e} within {:e} \
                 (x = {:e}, y = {:e})",
                want.v, want.err, xs[i], ys[i]
            )));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests;
