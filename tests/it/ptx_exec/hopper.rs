//! The sm_90 path we ship on H100/H200, executed: the tutorial matmul in
//! every input type, with transposed operands and 1 to 3 stages, the
//! matmul styles and the flash-attention forward, compiled for sm_90
//! (`wgmma.mma_async` on swizzled shared tiles through matrix
//! descriptors, `wgmma.fence`/`commit_group`/`wait_group`,
//! `fence.proxy.async`), run by the PTX executor and the interpreter.
//!
//! The block sizes choose the swizzle: a 64-row tile of f16 with 16, 32 or
//! 64 columns of K has rows of 32, 64 or 128 bytes (the 32-, 64- and
//! 128-byte swizzles); `B` stored row-major is read N-major
//! (`imm-trans-b` 1), transposed K-major; `A` transposed with order
//! `(0, 1)` M-major. Inputs are small integers in [-4, 4): every sum is
//! exact, so the products agree bit for bit, and a wrong descriptor,
//! swizzle or wait moves an output by whole terms or is reported by the
//! executor (a register read while its product is in flight, shared memory
//! overwritten before the wait that frees it).

use super::matmul::{operand, tutorial_inputs, tutorial_inputs_split};
use super::{In, Outputs, try_run_compiled};
use tile::{Arg, DType, Options};
use tile_dialect::InputPrecision;
use tile_examples::matmul::{self, Epilogue, MatmulConfig};
use tile_examples::matmul_styles::{self, Style, StyleConfig};

/// The options of these tests: sm_90, no fusion.
fn sm_90(num_warps: u32, num_stages: u32) -> Options {
    Options {
        chip: "sm_90".into(),
        num_warps,
        num_stages,
        fp_fusion: false,
        ..Options::default()
    }
}

/// Bit-for-bit agreement, or the executor's fault, as a message.
fn agree(case: &str, o: Result<Outputs, String>) -> Result<(), String> {
    let o = o.map_err(|e| format!("{case}: {e}"))?;
    for (k, (a, b)) in o.interpreted.iter().zip(&o.executed).enumerate() {
        if let Some(i) = a.iter().zip(b).position(|(x, y)| x != y) {
            let w = i / 4 * 4;
            return Err(format!(
                "{case}: buffer {k} differs first at word {}: interpreter {:?}, PTX {:?}",
                i / 4,
                &a[w..(w + 4).min(a.len())],
                &b[w..(w + 4).min(b.len())]
            ));
        }
    }
    Ok(())
}

/// Panics with every failing case's message.
fn all_agree(failures: Vec<String>) {
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// One launch of the tutorial matmul on 4 warps (one warpgroup).
#[derive(Clone, Copy)]
struct Case {
    inputs: DType,
    precision: Option<InputPrecision>,
    /// The tile's M and N (64 x 32 unless a case says otherwise).
    block_mn: (i64, i64),
    block_k: i64,
    stages: u32,
    num_warps: u32,
    /// A stored column-major and described with order (0, 1).
    a_t: bool,
    /// B stored column-major (K contiguous).
    b_t: bool,
}

impl Case {
    fn new(inputs: DType, block_k: i64, stages: u32) -> Case {
        Case {
            inputs,
            precision: (inputs == DType::F32).then_some(InputPrecision::Tf32),
            block_mn: (64, 32),
            block_k,
            stages,
            num_warps: 4,
            a_t: false,
            b_t: false,
        }
    }

    fn run(&self, (m, n, k): (usize, usize, usize)) -> Result<(), String> {
        let context = tile::context().unwrap();
        let order = |t: bool| if t { [0, 1] } else { [1, 0] };
        let (block_m, block_n) = self.block_mn;
        let config = MatmulConfig {
            block_m,
            block_n,
            block_k: self.block_k,
            group_m: 2,
            a_order: order(self.a_t),
            b_order: [1, 0],
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
            Epilogue::None,
        )
        .unwrap();
        let inputs = if self.precision == Some(InputPrecision::Tf32x3) {
            tutorial_inputs_split((m, n, k), [self.a_t, self.b_t])
        } else {
            tutorial_inputs(self.inputs, (m, n, k), [self.a_t, self.b_t], false)
        };
        let grid = (m.div_ceil(block_m as usize) * n.div_ceil(block_n as usize)) as u32;
        let case = format!(
            "sm_90 matmul {m}x{n}x{k} {}{} {block_m}x{block_n}x{} warps={} stages={}{}{}",
            self.inputs,
            self.precision.map_or(String::new(), |p| format!(" {p}")),
            self.block_k,
            self.num_warps,
            self.stages,
            if self.a_t { " A^T" } else { "" },
            if self.b_t { " B^T" } else { "" },
        );
        let options = sm_90(self.num_warps, self.stages);
        let o = try_run_compiled(&kernel, options, true, [grid, 1, 1], &inputs);
        agree(&case, o)
    }
}

/// f16 with rows of 32, 64 and 128 bytes (each swizzle) and 1 to 3
/// stages; bf16, tf32 and i8.
#[test]
fn sm_90_tutorial_matmul_agrees_in_every_swizzle_and_input_type() {
    let mut failures = Vec::new();
    let mut cases = vec![
        Case::new(DType::F16, 16, 1),
        Case::new(DType::F16, 32, 2),
        Case::new(DType::F16, 64, 3),
        Case::new(DType::BF16, 32, 3),
        Case::new(DType::F32, 32, 2),
        Case::new(DType::I8, 32, 2),
    ];
    cases.push(Case::new(DType::I8, 64, 3));
    for case in cases {
        if let Err(e) = case.run((40, 50, 70)) {
            failures.push(e);
        }
    }
    all_agree(failures);
}

/// Tiles that take more than one descriptor of an operand: K crossing
/// from one 128-byte swizzle block to the next (`BLOCK_K` 128 of f16, 64
/// of TF32), two 64-row blocks of `A` on one warpgroup, two warpgroups
/// along M, warps along N (each reading `B` from its own column, the
/// second half of a 128-byte block of an N-major `B`), two i8 instructions
/// along N a warp, and TF32x3's products of the low parts (inputs with
/// nonzero low parts: [`super::matmul::split_operand`]). A wrong offset of any descriptor but the
/// first moves whole terms of the output.
#[test]
fn sm_90_tutorial_matmul_agrees_across_descriptor_blocks() {
    let mut failures = Vec::new();
    let sized = |inputs, (bm, bn, bk), warps, stages| Case {
        block_mn: (bm, bn),
        num_warps: warps,
        ..Case::new(inputs, bk, stages)
    };
    let cases = [
        sized(DType::F16, (64, 32, 128), 4, 2),
        sized(DType::F32, (64, 32, 64), 4, 1),
        sized(DType::F16, (128, 32, 32), 4, 2),
        sized(DType::BF16, (128, 32, 32), 8, 1),
        sized(DType::F16, (64, 128, 32), 8, 2),
        // i8's instructions are at most 128 wide: two along N a warp,
        // then with two warps along N as well.
        Case {
            b_t: true,
            ..sized(DType::I8, (64, 256, 32), 4, 2)
        },
        Case {
            b_t: true,
            ..sized(DType::I8, (64, 512, 32), 8, 1)
        },
        // Two instructions along both M and N.
        Case {
            b_t: true,
            ..sized(DType::I8, (128, 256, 32), 4, 1)
        },
        Case {
            precision: Some(InputPrecision::Tf32x3),
            ..sized(DType::F32, (128, 32, 32), 4, 2)
        },
    ];
    for case in cases {
        // N reaching into the last block of N of the tile.
        let n = (case.block_mn.1 as usize * 3 / 4).max(130);
        if let Err(e) = case.run((70, n, 150)) {
            failures.push(e);
        }
    }
    all_agree(failures);
}

/// A read M-major and B read K-major (`imm-trans-a` 1, `imm-trans-b` 0),
/// and both; copied by the pipelined loop (2 stages), or with 1 stage
/// loaded into registers and staged by the product itself (A^T then goes
/// to shared memory M-major from registers that run along M).
#[test]
fn sm_90_tutorial_matmul_agrees_with_transposed_operands() {
    let mut failures = Vec::new();
    for (a_t, b_t, inputs, stages) in [
        (true, false, DType::F16, 2),
        (false, true, DType::BF16, 2),
        (true, true, DType::F16, 2),
        (false, true, DType::F32, 2),
        (true, false, DType::F16, 1),
        (true, true, DType::BF16, 1),
    ] {
        let case = Case {
            a_t,
            b_t,
            ..Case::new(inputs, 32, stages)
        };
        if let Err(e) = case.run((40, 48, 80)) {
            failures.push(e);
        }
    }
    all_agree(failures);
}

/// Every matmul style at 64 x 32 x 32 tiles, f16 with 3 stages and bf16
/// with 2, each agreeing bit for bit and free of shared-memory races (the
/// persistent style raced until its pipelined loop got a barrier before
/// its first copies; see `matmul.rs`).
#[test]
fn sm_90_matmul_styles_agree() {
    let mut failures = Vec::new();
    for style in Style::ALL {
        for (inputs, size, stages) in [
            (DType::F16, (40, 50, 70), 3),
            (DType::BF16, (40, 48, 80), 2),
        ] {
            failures.extend(style_case(style, inputs, size, stages).err());
        }
    }
    all_agree(failures);
}

/// The forms whose operands reach the tensor cores in other ways in TF32
/// and i8, which `wgmma` reads only K-major: A copied ahead as it lies (K
/// contiguous), B (N contiguous) loaded into registers a thread holding
/// runs of K and staged K-major; `A @ B^T` with both copied ahead; the
/// `while` K loop made a `for` loop and pipelined.
#[test]
fn sm_90_matmul_styles_agree_in_tf32_and_i8() {
    let mut failures = Vec::new();
    for style in [Style::Pointers, Style::TransposedB, Style::WhileK] {
        for inputs in [DType::F32, DType::I8] {
            failures.extend(style_case(style, inputs, (40, 48, 80), 3).err());
        }
    }
    all_agree(failures);
}

/// One style at 64 x 32 x 32 tiles on 4 warps, run on the executor and
/// the interpreter (see [`sm_90_matmul_styles_agree`]).
fn style_case(
    style: Style,
    inputs: DType,
    (m, n, k): (usize, usize, usize),
    stages: u32,
) -> Result<(), String> {
    let context = tile::context().unwrap();
    let config = StyleConfig {
        block_m: 64,
        block_n: 32,
        block_k: 32,
        group_m: 2,
    };
    let (batch, splits, programs) = (2usize, 3u32, 3u32);
    let kernel = matmul_styles::kernel(&context, style, config, inputs).unwrap();
    let b_count = if style == Style::Batched { batch } else { 1 };
    let output = matmul_styles::output_type(style, inputs);
    let s_b0 = if style == Style::TransposedB { k } else { n };
    let out_bytes = if output == DType::F32 || output == DType::I32 {
        4
    } else {
        2
    };
    let mut args = vec![
        operand(inputs, b_count * m * k, (m * 31 + k) as u64),
        operand(inputs, b_count * k * n, (k * 17 + n) as u64),
        In::Buf(vec![0; b_count * m * n * out_bytes]),
    ];
    args.extend([m, n, k, k, 1, s_b0, 1, n, 1].map(|x| In::Scalar(Arg::from(x as i32))));
    if style == Style::Batched {
        args.extend([m * k, k * n, m * n].map(|x| In::Scalar(Arg::from(x as i32))));
    }
    let (gx, gy) = matmul_styles::grid(style, &config, (m, n), batch as u32, splits, programs);
    let case = format!(
        "sm_90 {} {m}x{n}x{k} {inputs} stages={stages}",
        style.name()
    );
    let o = try_run_compiled(&kernel, sm_90(4, stages), true, [gx, gy, 1], &args);
    agree(&case, o)
}

/// The flash-attention forward (f16, d = 16, h = 2, 64 x 16 and 128 x 16
/// blocks, plain and causal, 2 stages) on sm_90, within the bounds of the
/// sm_80 test (`attention.rs`): outputs 2^-13 absolute, log-sum-exp 2^-20
/// relative.
#[test]
fn sm_90_flash_attention_forward_agrees_within_bounds() {
    // 128 rows: two blocks of 64 for the warpgroup, p from registers.
    for block_m in [64, 128] {
        super::attention::forward_agrees_within_bounds(block_m, sm_90(4, 2));
    }
}
