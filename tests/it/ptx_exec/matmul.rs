//! Products on tensor cores: the tutorial matmul (`tile.dot` in every
//! input type, transposed operands, the epilogue, other warps) and the
//! matmul styles, compiled for sm_80 with pipelined K loops (2 and 3
//! stages: `cp.async` into shared memory, `mma.sync` on the tiles), at
//! ragged sizes whose rows, columns and K end inside a tile, through the
//! interpreter and the PTX executor.
//!
//! Inputs are small integers (in [-4, 4)), so every product and every sum
//! of them is exact in f32 whatever the order of accumulation: tensor
//! cores, split-K atomics and the interpreter agree bit for bit, and a
//! wrong fragment, stage, mask or bound moves an output by a whole term.

use super::{In, Outputs, run_compiled, same_bits, sm_80, try_run_compiled, zeros};
use tile::{Arg, DType};
use tile_dialect::InputPrecision;
use tile_examples::matmul::{self, Epilogue, MatmulConfig};
use tile_examples::matmul_styles::{self, Style, StyleConfig};

/// `n` small integers in [-4, 4) stored as `dtype` (f32 for tf32).
pub(super) fn operand(dtype: DType, n: usize, seed: u64) -> In {
    let mut s = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    let ints: Vec<i8> = (0..n)
        .map(|_| {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            (s % 8) as i8 - 4
        })
        .collect();
    In::Buf(match dtype {
        DType::F16 => ints
            .iter()
            .flat_map(|&v| half::f16::from_f32(f32::from(v)).to_le_bytes())
            .collect(),
        DType::BF16 => ints
            .iter()
            .flat_map(|&v| half::bf16::from_f32(f32::from(v)).to_le_bytes())
            .collect(),
        DType::F32 => ints
            .iter()
            .flat_map(|&v| f32::from(v).to_le_bytes())
            .collect(),
        DType::I8 => ints.iter().map(|&v| v as u8).collect(),
        other => panic!("no operand of {other}"),
    })
}

/// `n` f32 values whose TF32 split has a nonzero low part: an integer of
/// magnitude 2 to 4 plus up to three `2^-12` of the same sign, below half
/// a TF32 unit of the integer's binade, so `tf32x3`'s high part is the
/// integer and its low part the rest (small integers alone have zero low
/// parts, and the products with the low parts would go unchecked). A K of
/// up to 255 such terms sums exactly in f32 (integer parts below `2^12`,
/// the rest multiples of `2^-12`: 24 bits), so every order of addition
/// agrees.
pub(super) fn split_operand(n: usize, seed: u64) -> In {
    let mut s = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    let mut next = move || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        s
    };
    let values: Vec<f32> = (0..n)
        .map(|_| {
            let high: f32 = [-4.0, -3.0, -2.0, 2.0, 3.0, 4.0][(next() % 6) as usize];
            let low = (next() % 4) as f32 * 2f32.powi(-12);
            high + high.signum() * low
        })
        .collect();
    In::Buf(values.iter().flat_map(|v| v.to_le_bytes()).collect())
}

/// [`tutorial_inputs`] with A and B from [`split_operand`] (f32 only).
pub(super) fn tutorial_inputs_split(
    (m, n, k): (usize, usize, usize),
    transposed: [bool; 2],
) -> Vec<In> {
    let mut inputs = tutorial_inputs(DType::F32, (m, n, k), transposed, false);
    inputs[0] = split_operand(m * k, (m * 31 + k) as u64);
    inputs[1] = split_operand(k * n, (k * 17 + n) as u64);
    inputs
}

/// The tutorial matmul's arguments at `m x n x k`: A and B of small
/// integers in `dtype` (each transposed where `transposed` says), a zeroed
/// f32/i32 C, the bias when `bias`, then the sizes and strides.
pub(super) fn tutorial_inputs(
    dtype: DType,
    (m, n, k): (usize, usize, usize),
    transposed: [bool; 2],
    bias: bool,
) -> Vec<In> {
    let strides = |t: bool, rows: usize, cols: usize| {
        if t {
            [1, rows as i64]
        } else {
            [cols as i64, 1]
        }
    };
    let [sam, sak] = strides(transposed[0], m, k);
    let [sbk, sbn] = strides(transposed[1], k, n);
    let mut inputs = vec![
        operand(dtype, m * k, (m * 31 + k) as u64),
        operand(dtype, k * n, (k * 17 + n) as u64),
        zeros(m * n),
    ];
    if bias {
        inputs.push(operand(DType::F32, n, 5));
    }
    inputs.extend([m, n, k].map(|x| In::Scalar(Arg::from(x as i32))));
    inputs.extend([sam, sak, sbk, sbn, n as i64, 1].map(|x| In::Scalar(Arg::from(x))));
    inputs
}

/// Bytes of one element of `dtype`.
fn size(dtype: DType) -> usize {
    match dtype {
        DType::I8 => 1,
        DType::F16 | DType::BF16 => 2,
        _ => 4,
    }
}

/// Small tiles: 32 x 32 x 32 (16 x 16 x 32 for one warp).
fn tiles(warps: u32) -> MatmulConfig {
    let side = if warps == 1 { 16 } else { 32 };
    MatmulConfig {
        block_m: side,
        block_n: side,
        block_k: 32,
        group_m: 2,
        a_order: [1, 0],
        b_order: [1, 0],
    }
}

/// One launch of the tutorial matmul.
struct Case {
    m: usize,
    n: usize,
    k: usize,
    inputs: DType,
    precision: Option<InputPrecision>,
    /// A and B stored column-major (strides), and described with order
    /// (0, 1) when `order01`.
    a_t: bool,
    b_t: bool,
    order01: bool,
    epilogue: Epilogue,
    warps: u32,
    stages: u32,
    /// The tile's M, N and K ([`tiles`]' unless given).
    block: Option<[i64; 3]>,
}

impl Case {
    fn new(m: usize, n: usize, k: usize, inputs: DType) -> Case {
        Case {
            m,
            n,
            k,
            inputs,
            precision: None,
            a_t: false,
            b_t: false,
            order01: false,
            epilogue: Epilogue::None,
            warps: 4,
            stages: 3,
            block: None,
        }
    }

    fn name(&self) -> String {
        format!(
            "matmul {}x{}x{} {}{} A{} B{}{} warps={} stages={}{}",
            self.m,
            self.n,
            self.k,
            self.inputs,
            self.precision.map_or(String::new(), |p| format!(" {p}")),
            if self.a_t { "^T" } else { "" },
            if self.b_t { "^T" } else { "" },
            if self.order01 { " order01" } else { "" },
            self.warps,
            self.stages,
            if self.epilogue == Epilogue::BiasRelu {
                " +bias,relu"
            } else {
                ""
            }
        )
    }

    fn run(&self) -> Outputs {
        let context = tile::context().unwrap();
        let order = |t: bool| if t && self.order01 { [0, 1] } else { [1, 0] };
        let config = MatmulConfig {
            a_order: order(self.a_t),
            b_order: order(self.b_t),
            ..match self.block {
                Some([block_m, block_n, block_k]) => MatmulConfig {
                    block_m,
                    block_n,
                    block_k,
                    ..tiles(self.warps)
                },
                None => tiles(self.warps),
            }
        };
        let output = if self.inputs == DType::I8 {
            DType::I32
        } else {
            DType::F32
        };
        let kernel = matmul::matmul(
            &context,
            config,
            self.inputs,
            output,
            self.precision,
            self.epilogue,
        )
        .unwrap();
        let (m, n, k) = (self.m, self.n, self.k);
        let bias = self.epilogue == Epilogue::BiasRelu;
        let inputs = if self.precision == Some(InputPrecision::Tf32x3) {
            tutorial_inputs_split((m, n, k), [self.a_t, self.b_t])
        } else {
            tutorial_inputs(self.inputs, (m, n, k), [self.a_t, self.b_t], bias)
        };
        let grid =
            (m.div_ceil(config.block_m as usize) * n.div_ceil(config.block_n as usize)) as u32;
        run_compiled(
            &kernel,
            sm_80(self.warps, self.stages),
            true,
            [grid, 1, 1],
            &inputs,
        )
    }
}

/// Sizes ending inside a tile on every axis: odd strides (no 16-byte
/// copies) and strides divisible by 16 (16-byte `cp.async` with the tails
/// zero-filled by their src-size).
const SIZES: [(usize, usize, usize); 2] = [(40, 50, 70), (40, 48, 80)];

#[test]
fn tutorial_matmul_agrees_bit_for_bit_in_every_input_type() {
    for (m, n, k) in SIZES {
        for (inputs, precision) in [
            (DType::F16, None),
            (DType::BF16, None),
            (DType::F32, Some(InputPrecision::Tf32)),
            (DType::F32, Some(InputPrecision::Tf32x3)),
            (DType::I8, None),
        ] {
            {
                let stages = if inputs == DType::F16 { 3 } else { 2 };
                let case = Case {
                    precision,
                    stages,
                    ..Case::new(m, n, k, inputs)
                };
                same_bits(&case.name(), &case.run());
            }
        }
    }
}

/// Tiles at the edges of what mma.sync's lowering handles: i8 with a K of
/// 16 (16 bytes, half of an instruction's 32, padded with zeros in shared
/// memory), and more warps along N or M than blocks of the tile (16
/// columns over 4 warps, 32 rows over 4: each warp's first column or row
/// wraps around the tile).
#[test]
fn tutorial_matmul_agrees_at_small_tiles() {
    for (inputs, block, warps) in [
        (DType::I8, [32, 32, 16], 4),
        (DType::F16, [32, 16, 32], 8),
        (DType::F16, [16, 32, 32], 8),
        (DType::F16, [32, 32, 32], 16),
    ] {
        let case = Case {
            block: Some(block),
            warps,
            stages: 2,
            ..Case::new(40, 48, 80, inputs)
        };
        same_bits(&format!("{} {block:?}", case.name()), &case.run());
    }
}

#[test]
fn tutorial_matmul_agrees_with_transposed_operands_warps_and_epilogue() {
    let (m, n, k) = (40, 48, 80);
    let mut cases = Vec::new();
    for (a_t, b_t, order01) in [
        (true, false, false),
        (false, true, false),
        (true, true, true),
        (false, true, true),
    ] {
        for inputs in [DType::F16, DType::BF16] {
            cases.push(Case {
                a_t,
                b_t,
                order01,
                ..Case::new(m, n, k, inputs)
            });
        }
    }
    // Without stages the loads stay in registers and the product stages
    // them itself: a transposed operand described as such (its registers
    // running along M or N) goes to shared memory MN-major.
    for (a_t, b_t) in [(true, false), (false, true)] {
        cases.push(Case {
            a_t,
            b_t,
            order01: true,
            stages: 1,
            ..Case::new(m, n, k, DType::F16)
        });
    }
    for warps in [1, 8] {
        cases.push(Case {
            warps,
            stages: 2,
            ..Case::new(m, n, k, DType::BF16)
        });
    }
    cases.push(Case {
        epilogue: Epilogue::BiasRelu,
        ..Case::new(40, 50, 70, DType::F16)
    });
    for case in cases {
        same_bits(&case.name(), &case.run());
    }
}

const STYLE_TILES: StyleConfig = StyleConfig {
    block_m: 32,
    block_n: 32,
    block_k: 32,
    group_m: 2,
};

/// Every matmul style (pointers with masks, `A @ B^T`, batched, split K,
/// persistent, `while` K loop, block pointers, recomputed offsets). The
/// persistent one raced in shared memory until the pipelined loop put a
/// barrier before its first copies: each program's epilogue converts C's
/// layout through shared memory (`st.shared`, `bar.sync`, `ld.shared`),
/// then the next tile's prologue `cp.async` wrote the same bytes with no
/// barrier after those reads (found by this executor, which runs lanes one
/// at a time; PTX orders lanes only through barriers).
#[test]
fn matmul_styles_agree_bit_for_bit() {
    for style in Style::ALL {
        run_style(style, |case, o| same_bits(case, &o.expect("runs")));
    }
}

/// Runs `style` in f16 at the odd strides with 3 stages and in bf16 at
/// the strides divisible by 16 with 2, handing each outcome to `check`.
fn run_style(style: Style, check: impl Fn(&str, Result<Outputs, String>)) {
    let context = tile::context().unwrap();
    let config = STYLE_TILES;
    let (batch, splits, programs) = (2usize, 3u32, 3u32);
    {
        for (inputs, (m, n, k)) in [(DType::F16, SIZES[0]), (DType::BF16, SIZES[1])] {
            let kernel = matmul_styles::kernel(&context, style, config, inputs).unwrap();
            let b_count = if style == Style::Batched { batch } else { 1 };
            let output = matmul_styles::output_type(style, inputs);
            let (s_b0, s_b1) = if style == Style::TransposedB {
                (k, 1)
            } else {
                (n, 1)
            };
            let mut args = vec![
                operand(inputs, b_count * m * k, (m * 31 + k) as u64),
                operand(inputs, b_count * k * n, (k * 17 + n) as u64),
                In::Buf(vec![0; b_count * m * n * size(output)]),
            ];
            args.extend([m, n, k, k, 1, s_b0, s_b1, n, 1].map(|x| In::Scalar(Arg::from(x as i32))));
            if style == Style::Batched {
                args.extend([m * k, k * n, m * n].map(|x| In::Scalar(Arg::from(x as i32))));
            }
            let (gx, gy) =
                matmul_styles::grid(style, &config, (m, n), batch as u32, splits, programs);
            {
                let stages = if inputs == DType::F16 { 3 } else { 2 };
                let case = format!("{} {m}x{n}x{k} {inputs} stages={stages}", style.name());
                let o = try_run_compiled(&kernel, sm_80(4, stages), true, [gx, gy, 1], &args);
                check(&case, o);
            }
        }
    }
}
