//! Every op the builder offers, in every element type it accepts: built,
//! compiled through the whole pipeline to PTX, and run on the CPU
//! interpreter against a plain-Rust reference. Ops the GPU path cannot
//! compile (float math that would need libdevice) are refused by the
//! builder, naming the op and the line.
//!
//! Each case is one kernel over a 1-D tile of [`BLOCK`] elements, masked
//! to the first [`N`], reading inputs from pointers of the element type
//! and storing the result; reductions use a 2-D tile. The references
//! compute in i128 or f64 and round to the element type once per op, as
//! the interpreter's semantics say (wrapping integers, floats rounded after
//! every op, saturating float-to-integer casts).

use half::{bf16, f16};
use tile::{Arg, DType, Device, Kernel, KernelBuilder, Options, ReduceKind, Tile};

const BLOCK: i32 = 128;
const N: usize = 100;

/// Element types in the order the tests sweep them.
const DTYPES: [DType; 9] = DType::ALL;

/// A value of any element type, wide enough for the reference.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Num {
    Int(i128),
    Float(f64),
}

impl Num {
    fn f(self) -> f64 {
        match self {
            Num::Int(v) => v as f64,
            Num::Float(v) => v,
        }
    }

    fn i(self) -> i128 {
        match self {
            Num::Int(v) => v,
            Num::Float(v) => v as i128,
        }
    }
}

/// `v` wrapped (integers) or rounded (floats) to `d`.
fn round(d: DType, v: Num) -> Num {
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
fn size(d: DType) -> usize {
    d.bits().div_ceil(8) as usize
}

fn encode(d: DType, values: &[Num]) -> Vec<u8> {
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

fn decode(d: DType, bytes: &[u8]) -> Vec<Num> {
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
fn inputs(d: DType, which: usize, count: usize) -> Vec<Num> {
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
/// the interpreter, after compiling it to PTX; returns the output.
fn run(kernel: &Kernel, ins: &[(DType, Vec<Num>)], out: DType, len: usize) -> Vec<Num> {
    let compiled = tile::compile(kernel, &Options::default())
        .unwrap_or_else(|e| panic!("{}: {e}", kernel.name()));
    assert!(compiled.ptx.contains(".entry"), "{}", kernel.name());
    let jit = tile::jit(kernel, Options::default()).unwrap();
    let device = Device::interpreter();
    let buffers: Vec<_> = ins
        .iter()
        .map(|(d, v)| device.upload(&encode(*d, v)).unwrap())
        .collect();
    // Poisoned, so lanes a kernel does not write show.
    let result = device.upload(&vec![0xA5u8; len * size(out)]).unwrap();
    let mut args: Vec<Arg> = buffers.iter().map(Arg::from).collect();
    args.push(Arg::from(&result));
    args.push(Arg::I32(N as i32));
    jit.launch(&device, 1, &args)
        .unwrap_or_else(|e| panic!("{}: {e}", kernel.name()));
    decode(out, &device.download(&result).unwrap())
}

/// Close enough: exactly equal for integers, within `ulps` units in the
/// last place of `d` (relative to the larger magnitude) for floats.
fn close(d: DType, got: Num, want: Num, ulps: f64) -> bool {
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
            let eps = match d {
                DType::F16 => 2f64.powi(-10),
                DType::BF16 => 2f64.powi(-7),
                DType::F32 => 2f64.powi(-23),
                _ => 2f64.powi(-52),
            };
            (a - b).abs() <= ulps * eps * a.abs().max(b.abs()).max(f64::MIN_POSITIVE)
        }
    }
}

fn check(name: &str, d: DType, got: &[Num], want: &[Num], ulps: f64) {
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        assert!(
            close(d, *g, *w, ulps),
            "{name} on {d}: element {i}: got {g:?}, want {w:?}"
        );
    }
}

/// The masked 1-D frame: loads every input (masked to `n`), applies
/// `body`, stores the result (masked).
fn elementwise<'c>(
    context: &'c melior::Context,
    name: &str,
    ins: &[DType],
    out: DType,
    body: impl for<'k> Fn(&'k KernelBuilder<'k>, &[Tile<'k>]) -> Tile<'k>,
) -> Result<Kernel<'c>, tile::Error> {
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

type Unary = (
    &'static str,
    fn(Tile) -> Tile,
    fn(DType, Num) -> Option<Num>,
    f64,
);

/// Float unary ops: builder method, reference (`None`: refused for the
/// type), tolerance in ulps.
fn float_unary() -> Vec<Unary> {
    fn approx(d: DType, v: f64) -> Option<Num> {
        (d != DType::F64).then_some(Num::Float(v))
    }
    vec![
        ("neg", |x| -x, |_, x| Some(Num::Float(-x.f())), 0.0),
        (
            "abs",
            |x| x.abs(),
            |_, x| Some(Num::Float(x.f().abs())),
            0.0,
        ),
        (
            "floor",
            |x| x.floor(),
            |_, x| Some(Num::Float(x.f().floor())),
            0.0,
        ),
        (
            "ceil",
            |x| x.ceil(),
            |_, x| Some(Num::Float(x.f().ceil())),
            0.0,
        ),
        (
            "sqrt",
            |x| x.abs().sqrt(),
            |_, x| Some(Num::Float(x.f().abs().sqrt())),
            0.0,
        ),
        ("exp", |x| x.exp(), |d, x| approx(d, x.f().exp()), 1.0),
        ("exp2", |x| x.exp2(), |d, x| approx(d, x.f().exp2()), 1.0),
        (
            "log",
            |x| x.abs().log(),
            |d, x| approx(d, x.f().abs().ln()),
            1.0,
        ),
        (
            "log2",
            |x| x.abs().log2(),
            |d, x| approx(d, x.f().abs().log2()),
            1.0,
        ),
        (
            "rsqrt",
            |x| x.abs().rsqrt(),
            |d, x| approx(d, 1.0 / x.f().abs().sqrt()),
            1.0,
        ),
        ("sin", |x| x.sin(), |d, x| approx(d, x.f().sin()), 1.0),
        ("cos", |x| x.cos(), |d, x| approx(d, x.f().cos()), 1.0),
    ]
}

#[test]
fn every_float_unary_op_in_every_float_type() {
    let context = tile::context().unwrap();
    for d in DTYPES.into_iter().filter(|d| d.is_float()) {
        let x = inputs(d, 0, BLOCK as usize);
        for (name, op, reference, ulps) in float_unary() {
            // Each step of the reference is rounded to `d`, as the kernel's
            // (`abs` before `sqrt`, `log` and `rsqrt`).
            let want: Option<Vec<Num>> = x[..N]
                .iter()
                .map(|&v| reference(d, v).map(|r| round(d, r)))
                .collect();
            let kernel = elementwise(&context, name, &[d], d, |_, v| op(v[0]));
            match (want, kernel) {
                (Some(want), Ok(kernel)) => {
                    let got = run(&kernel, &[(d, x.clone())], d, BLOCK as usize);
                    check(name, d, &got[..N], &want, ulps);
                }
                (None, Err(e)) => {
                    let text = e.to_string();
                    assert!(
                        text.contains("would need NVIDIA's libdevice"),
                        "{name} on {d}: {text}"
                    );
                    assert!(
                        text.contains(file!()),
                        "{name} on {d} names the line: {text}"
                    );
                }
                (Some(_), Err(e)) => panic!("{name} on {d} refused: {e}"),
                (None, Ok(_)) => panic!("{name} on {d} accepted, but cannot be compiled"),
            }
        }
    }
}

#[test]
fn ops_that_need_libdevice_are_refused_by_the_builder() {
    let context = tile::context().unwrap();
    for d in [DType::F16, DType::BF16, DType::F32, DType::F64] {
        let tanh = elementwise(&context, "tanh", &[d], d, |_, v| v[0].tanh());
        let rem = elementwise(&context, "remf", &[d, d], d, |_, v| v[0] % v[1]);
        for (what, k) in [("math.tanh", tanh), ("arith.remf", rem)] {
            let e = k.err().unwrap_or_else(|| panic!("{what} on {d} accepted"));
            let text = e.to_string();
            assert!(text.contains(what) && text.contains("libdevice"), "{text}");
        }
    }
}

type Binary = (
    &'static str,
    for<'k> fn(Tile<'k>, Tile<'k>) -> Tile<'k>,
    fn(DType, Num, Num) -> Option<Num>,
);

fn binary_ops() -> Vec<Binary> {
    fn int_or_float(
        d: DType,
        a: Num,
        b: Num,
        i: fn(i128, i128) -> i128,
        f: fn(f64, f64) -> f64,
    ) -> Option<Num> {
        Some(if d.is_float() {
            Num::Float(f(a.f(), b.f()))
        } else {
            Num::Int(i(a.i(), b.i()))
        })
    }
    fn ints(d: DType, v: Num) -> Option<Num> {
        (!d.is_float()).then_some(v)
    }
    vec![
        (
            "add",
            |a, b| a + b,
            |d, a, b| int_or_float(d, a, b, |x, y| x + y, |x, y| x + y),
        ),
        (
            "sub",
            |a, b| a - b,
            |d, a, b| int_or_float(d, a, b, |x, y| x - y, |x, y| x - y),
        ),
        (
            "mul",
            |a, b| a * b,
            |d, a, b| int_or_float(d, a, b, |x, y| x * y, |x, y| x * y),
        ),
        (
            "div",
            |a, b| a / b,
            |d, a, b| int_or_float(d, a, b, |x, y| x / y, |x, y| x / y),
        ),
        (
            "rem",
            |a, b| a % b,
            |d, a, b| ints(d, Num::Int(a.i() % b.i())),
        ),
        (
            "and",
            |a, b| a & b,
            |d, a, b| ints(d, Num::Int(a.i() & b.i())),
        ),
        (
            "or",
            |a, b| a | b,
            |d, a, b| ints(d, Num::Int(a.i() | b.i())),
        ),
        (
            "xor",
            |a, b| a ^ b,
            |d, a, b| ints(d, Num::Int(a.i() ^ b.i())),
        ),
        (
            "maximum",
            |a, b| a.maximum(b),
            |d, a, b| int_or_float(d, a, b, i128::max, f64::max),
        ),
        (
            "minimum",
            |a, b| a.minimum(b),
            |d, a, b| int_or_float(d, a, b, i128::min, f64::min),
        ),
        (
            "cdiv",
            |a, b| a.cdiv(b),
            |d, a, b| {
                let (x, y) = (a.i(), b.i());
                let q = x / y;
                ints(
                    d,
                    Num::Int(if (x % y != 0) && ((x < 0) == (y < 0)) {
                        q + 1
                    } else {
                        q
                    }),
                )
            },
        ),
    ]
}

#[test]
fn every_binary_op_in_every_type() {
    let context = tile::context().unwrap();
    for d in DTYPES.into_iter().filter(|&d| d != DType::I1) {
        let (a, b) = (inputs(d, 0, BLOCK as usize), inputs(d, 1, BLOCK as usize));
        for (name, op, reference) in binary_ops() {
            let want: Option<Vec<Num>> = (0..N)
                .map(|i| reference(d, a[i], b[i]).map(|r| round(d, r)))
                .collect();
            let kernel = elementwise(&context, name, &[d, d], d, |_, v| op(v[0], v[1]));
            match (want, kernel) {
                (Some(want), Ok(kernel)) => {
                    let got = run(
                        &kernel,
                        &[(d, a.clone()), (d, b.clone())],
                        d,
                        BLOCK as usize,
                    );
                    check(name, d, &got[..N], &want, 0.0);
                }
                (None, Err(_)) => {}
                (Some(_), Err(e)) => panic!("{name} on {d} refused: {e}"),
                (None, Ok(_)) => panic!("{name} on {d} accepted, but has no meaning"),
            }
        }
    }
}

#[test]
fn boolean_ops_and_comparisons_in_every_type() {
    let context = tile::context().unwrap();
    type Compare = (
        &'static str,
        for<'k> fn(Tile<'k>, Tile<'k>) -> Tile<'k>,
        fn(f64, f64) -> bool,
    );
    let compares: [Compare; 6] = [
        ("lt", |a, b| a.lt(b), |x, y| x < y),
        ("le", |a, b| a.le(b), |x, y| x <= y),
        ("gt", |a, b| a.gt(b), |x, y| x > y),
        ("ge", |a, b| a.ge(b), |x, y| x >= y),
        ("eq", |a, b| a.eq(b), |x, y| x == y),
        ("ne", |a, b| a.ne(b), |x, y| x != y),
    ];
    for d in DTYPES {
        let (a, mut b) = (inputs(d, 0, BLOCK as usize), inputs(d, 1, BLOCK as usize));
        // Some equal pairs, so eq and ne see both answers.
        for i in (0..BLOCK as usize).step_by(7) {
            b[i] = a[i];
        }
        for (name, op, reference) in compares {
            let kernel = elementwise(&context, name, &[d, d], DType::I1, |_, v| op(v[0], v[1]))
                .unwrap_or_else(|e| panic!("{name} on {d}: {e}"));
            let got = run(
                &kernel,
                &[(d, a.clone()), (d, b.clone())],
                DType::I1,
                BLOCK as usize,
            );
            let want: Vec<Num> = (0..N)
                .map(|i| Num::Int(i128::from(reference(a[i].f(), b[i].f()))))
                .collect();
            check(name, DType::I1, &got[..N], &want, 0.0);
        }
        // where(a < b, a, b) is the minimum; !(a < b) its negation.
        let kernel = elementwise(&context, "where", &[d, d], d, |k, v| {
            k.where_(v[0].lt(v[1]), v[0], v[1])
        })
        .unwrap_or_else(|e| panic!("where on {d}: {e}"));
        let got = run(
            &kernel,
            &[(d, a.clone()), (d, b.clone())],
            d,
            BLOCK as usize,
        );
        let want: Vec<Num> = (0..N)
            .map(|i| if a[i].f() < b[i].f() { a[i] } else { b[i] })
            .collect();
        check("where", d, &got[..N], &want, 0.0);
        let kernel = elementwise(&context, "not", &[d, d], DType::I1, |_, v| !v[0].lt(v[1]))
            .unwrap_or_else(|e| panic!("not on {d}: {e}"));
        let got = run(
            &kernel,
            &[(d, a.clone()), (d, b.clone())],
            DType::I1,
            BLOCK as usize,
        );
        let want: Vec<Num> = (0..N)
            .map(|i| Num::Int(i128::from(a[i].f() >= b[i].f())))
            .collect();
        check("not", DType::I1, &got[..N], &want, 0.0);
    }
}

#[test]
fn integer_negation_and_abs_wrap() {
    let context = tile::context().unwrap();
    for d in [DType::I8, DType::I16, DType::I32, DType::I64] {
        let mut x = inputs(d, 0, BLOCK as usize);
        // The most negative value: its negation and absolute value are itself.
        x[3] = round(d, Num::Int(1i128 << (d.bits() - 1)));
        for (name, op, reference) in [
            (
                "neg",
                (|v: Tile| -v) as fn(Tile) -> Tile,
                (|v: i128| -v) as fn(i128) -> i128,
            ),
            ("abs", |v: Tile| v.abs(), |v: i128| v.abs()),
        ] {
            let kernel = elementwise(&context, name, &[d], d, |_, v| op(v[0]))
                .unwrap_or_else(|e| panic!("{name} on {d}: {e}"));
            let got = run(&kernel, &[(d, x.clone())], d, BLOCK as usize);
            let want: Vec<Num> = x[..N]
                .iter()
                .map(|v| round(d, Num::Int(reference(v.i()))))
                .collect();
            check(name, d, &got[..N], &want, 0.0);
        }
    }
}

/// The reference of `to(to)` on a value of type `from`.
fn cast(from: DType, to: DType, v: Num) -> Num {
    match (from.is_float(), to.is_float()) {
        _ if to == DType::I1 => Num::Int(i128::from(v.f() != 0.0)),
        (true, true) => v,
        (false, true) if from == DType::I1 => Num::Float(v.i() as f64),
        (false, true) => Num::Float(v.i() as f64),
        (true, false) => {
            // Towards zero, saturating; NaN gives 0.
            let bits = to.bits();
            let (lo, hi) = (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1);
            let x = v.f();
            Num::Int(if x.is_nan() {
                0
            } else {
                (x.trunc() as i128).clamp(lo, hi)
            })
        }
        (false, false) => v,
    }
}

#[test]
fn every_cast_between_every_pair_of_types() {
    let context = tile::context().unwrap();
    for from in DTYPES {
        let mut x = inputs(from, 0, BLOCK as usize);
        if from.is_float() {
            // Out of every integer range: saturation.
            x[1] = round(from, Num::Float(1.0e30_f64.min(f64::from(f32::MAX))));
            x[2] = round(from, Num::Float(-3.0e4));
        }
        for to in DTYPES {
            let kernel = elementwise(&context, "cast", &[from], to, |_, v| v[0].to(to))
                .unwrap_or_else(|e| panic!("{from} to {to}: {e}"));
            let got = run(&kernel, &[(from, x.clone())], to, BLOCK as usize);
            let want: Vec<Num> = x[..N]
                .iter()
                .map(|&v| round(to, cast(from, to, v)))
                .collect();
            check(&format!("cast from {from}"), to, &got[..N], &want, 0.0);
        }
    }
}

#[test]
fn every_reduction_along_every_axis_in_every_type() {
    let context = tile::context().unwrap();
    let (rows, cols) = (16usize, 32usize);
    for d in DTYPES.into_iter().filter(|&d| d != DType::I1) {
        let x = inputs(d, 0, rows * cols);
        for kind in [ReduceKind::Sum, ReduceKind::Max, ReduceKind::Min] {
            for axis in [0usize, 1] {
                for keep_dims in [false, true] {
                    let name = format!("{kind}_{axis}_{keep_dims}");
                    let kernel = Kernel::build(&context, &name, |k| {
                        let p = k.arg_ptr("x", d);
                        let o = k.arg_ptr("out", d);
                        let _n = k.arg("n", DType::I32);
                        let r = k.arange(0, rows as i32).expand_dims(1);
                        let c = k.arange(0, cols as i32).expand_dims(0);
                        let t = k.load(p + (r * cols as i32 + c)).build();
                        let s = t.reduce(kind, axis as i64, keep_dims);
                        let out_offs = if axis == 0 {
                            k.arange(0, cols as i32)
                        } else {
                            k.arange(0, rows as i32)
                        };
                        let out_offs = if keep_dims {
                            out_offs.expand_dims(axis as i64)
                        } else {
                            out_offs
                        };
                        k.store(o + out_offs, s).build();
                    })
                    .unwrap_or_else(|e| panic!("{name} on {d}: {e}"));
                    let len = if axis == 0 { cols } else { rows };
                    let got = run(&kernel, &[(d, x.clone())], d, len);
                    let want: Vec<Num> = (0..len)
                        .map(|j| {
                            let items = (0..if axis == 0 { rows } else { cols }).map(|i| {
                                if axis == 0 {
                                    x[i * cols + j]
                                } else {
                                    x[j * cols + i]
                                }
                            });
                            let v = match (kind, d.is_float()) {
                                (ReduceKind::Sum, true) => Num::Float(items.map(Num::f).sum()),
                                (ReduceKind::Sum, false) => Num::Int(items.map(Num::i).sum()),
                                (ReduceKind::Max, _) => items
                                    .fold(None, |m: Option<Num>, v| {
                                        Some(m.map_or(v, |m| if v.f() > m.f() { v } else { m }))
                                    })
                                    .unwrap(),
                                (ReduceKind::Min, _) => items
                                    .fold(None, |m: Option<Num>, v| {
                                        Some(m.map_or(v, |m| if v.f() < m.f() { v } else { m }))
                                    })
                                    .unwrap(),
                            };
                            round(d, v)
                        })
                        .collect();
                    if kind == ReduceKind::Sum && d.is_float() {
                        // Pairwise sums (f16 and bf16 accumulated in f32):
                        // within a few ulps of the sum of magnitudes.
                        let magnitude: f64 = x.iter().map(|v| v.f().abs()).sum();
                        let eps = if d == DType::F64 {
                            2f64.powi(-52)
                        } else {
                            2f64.powi(-7)
                        };
                        for (j, (g, w)) in got.iter().zip(&want).enumerate() {
                            assert!(
                                (g.f() - w.f()).abs()
                                    <= 4.0 * eps * magnitude / len as f64 + 2.0 * eps * w.f().abs(),
                                "{name} on {d}: element {j}: got {g:?}, want {w:?}"
                            );
                        }
                    } else {
                        check(&name, d, &got, &want, 0.0);
                    }
                }
            }
        }
    }
}
