//! A matrix multiplication on tensor cores, as Triton's tutorial 03 writes
//! it (with block pointers): each program computes a `BLOCK_M x BLOCK_N`
//! block of `C = A @ B`, walking K in steps of `BLOCK_K`, with programs
//! grouped `GROUP_M` block-rows at a time so that neighbours share tiles
//! of `B` in L2.
//!
//! ```python
//! @triton.jit
//! def matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K,
//!                   stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
//!                   BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
//!                   BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr):
//!     pid = tl.program_id(axis=0)
//!     num_pid_m = tl.cdiv(M, BLOCK_M)
//!     num_pid_n = tl.cdiv(N, BLOCK_N)
//!     num_pid_in_group = GROUP_M * num_pid_n
//!     group_id = pid // num_pid_in_group
//!     first_pid_m = group_id * GROUP_M
//!     group_size_m = min(num_pid_m - first_pid_m, GROUP_M)
//!     pid_m = first_pid_m + ((pid % num_pid_in_group) % group_size_m)
//!     pid_n = (pid % num_pid_in_group) // group_size_m
//!     a_block = tl.make_block_ptr(a_ptr, (M, K), (stride_am, stride_ak),
//!                                 (pid_m * BLOCK_M, 0), (BLOCK_M, BLOCK_K), (1, 0))
//!     b_block = tl.make_block_ptr(b_ptr, (K, N), (stride_bk, stride_bn),
//!                                 (0, pid_n * BLOCK_N), (BLOCK_K, BLOCK_N), (1, 0))
//!     acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
//!     for k in range(0, tl.cdiv(K, BLOCK_K)):
//!         a = tl.load(a_block, boundary_check=(0, 1), padding_option="zero")
//!         b = tl.load(b_block, boundary_check=(0, 1), padding_option="zero")
//!         acc = tl.dot(a, b, acc)
//!         a_block = tl.advance(a_block, (0, BLOCK_K))
//!         b_block = tl.advance(b_block, (BLOCK_K, 0))
//!     c = acc.to(c_ptr.dtype.element_ty)
//!     c_block = tl.make_block_ptr(c_ptr, (M, N), (stride_cm, stride_cn),
//!                                 (pid_m * BLOCK_M, pid_n * BLOCK_N), (BLOCK_M, BLOCK_N), (1, 0))
//!     tl.store(c_block, c, boundary_check=(0, 1))
//! ```
//!
//! Launch `cdiv(M, BLOCK_M) * cdiv(N, BLOCK_N)` programs. Strides are in
//! elements, so transposed operands are passed as strides (a block pointer
//! of `order` (1, 0) still describes them).

use tile_dialect::{DType, InputPrecision, Kernel, Padding, Result, Tile};

/// The tile sizes of one matmul kernel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MatmulConfig {
    /// Rows of `C` per program.
    pub block_m: i64,
    /// Columns of `C` per program.
    pub block_n: i64,
    /// Columns of `A` (rows of `B`) per step of the K loop.
    pub block_k: i64,
    /// Block-rows of programs sharing columns of `B`.
    pub group_m: i64,
    /// The block pointer `order` of `A`: (1, 0) for row-major storage,
    /// (0, 1) for column-major (a virtual transpose).
    pub a_order: [i64; 2],
    /// The block pointer `order` of `B`.
    pub b_order: [i64; 2],
}

impl Default for MatmulConfig {
    /// 128 x 128 x 64 tiles, groups of 8.
    fn default() -> Self {
        MatmulConfig {
            block_m: 128,
            block_n: 128,
            block_k: 64,
            group_m: 8,
            a_order: [1, 0],
            b_order: [1, 0],
        }
    }
}

/// What the product adds before it is stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Epilogue {
    /// `C = A @ B`.
    None,
    /// `C = relu(A @ B + bias)`, `bias` a vector of N (f32) added to
    /// every row.
    BiasRelu,
}

/// `C = A @ B` (or with the [`Epilogue`]) for `A` [M, K] and `B` [K, N] of
/// `inputs` (f16, bf16, f32 or i8), `C` of `output`, accumulating in f32
/// (i32 for i8).
///
/// Arguments: `a_ptr`, `b_ptr`, `c_ptr` (and `bias_ptr` with
/// [`Epilogue::BiasRelu`]), `m`, `n`, `k` (i32), and the six strides (i64,
/// in elements) of A, B and C.
pub fn matmul<'c>(
    context: &'c melior::Context,
    config: MatmulConfig,
    inputs: DType,
    output: DType,
    precision: Option<InputPrecision>,
    epilogue: Epilogue,
) -> Result<Kernel<'c>> {
    let name = match epilogue {
        Epilogue::None => "matmul",
        Epilogue::BiasRelu => "matmul_bias_relu",
    };
    let MatmulConfig {
        block_m,
        block_n,
        block_k,
        a_order,
        b_order,
        ..
    } = config;
    Kernel::build(context, name, |k| {
        let a_ptr = k.arg_ptr("a_ptr", inputs);
        let b_ptr = k.arg_ptr("b_ptr", inputs);
        let c_ptr = k.arg_ptr("c_ptr", output);
        let bias_ptr = (epilogue == Epilogue::BiasRelu).then(|| k.arg_ptr("bias_ptr", DType::F32));
        let m = k.arg("m", DType::I32);
        let n = k.arg("n", DType::I32);
        let kk = k.arg("k", DType::I32);
        let [
            stride_am,
            stride_ak,
            stride_bk,
            stride_bn,
            stride_cm,
            stride_cn,
        ] = [
            "stride_am",
            "stride_ak",
            "stride_bk",
            "stride_bn",
            "stride_cm",
            "stride_cn",
        ]
        .map(|s| k.arg(s, DType::I64));

        let (pid_m, pid_n) = grouped_program(k.program_id(0), m, n, config);
        let a_block = k
            .make_block_ptr(a_ptr)
            .shape([m, kk])
            .strides([stride_am, stride_ak])
            .offsets([pid_m * block_m, k.i32(0)])
            .block_shape([block_m, block_k])
            .order(a_order)
            .build();
        let b_block = k
            .make_block_ptr(b_ptr)
            .shape([kk, n])
            .strides([stride_bk, stride_bn])
            .offsets([k.i32(0), pid_n * block_n])
            .block_shape([block_k, block_n])
            .order(b_order)
            .build();
        let acc_type = if inputs == DType::I8 {
            DType::I32
        } else {
            DType::F32
        };
        let acc = k.zeros(&[block_m, block_n], acc_type);
        let steps = kk.cdiv(block_k as i32);
        let [acc, _, _] = k.for_range(0, steps, 1, [acc, a_block, b_block], |_, [acc, a, b]| {
            let a_tile = k
                .load(a)
                .boundary_check(&[0, 1])
                .padding(Padding::Zero)
                .build();
            let b_tile = k
                .load(b)
                .boundary_check(&[0, 1])
                .padding(Padding::Zero)
                .build();
            let mut product = k.dot(a_tile, b_tile).acc(acc);
            if let Some(p) = precision {
                product = product.input_precision(p);
            }
            [
                product.build(),
                a.advance([0, block_k]),
                b.advance([block_k, 0]),
            ]
        });
        let acc = match bias_ptr {
            Some(bias_ptr) => {
                let cols = pid_n * block_n + k.arange(0, block_n as i32);
                let bias = k.load(bias_ptr + cols).mask(cols.lt(n)).other(0.0).build();
                (acc + bias.expand_dims(0)).maximum(0.0)
            }
            None => acc,
        };
        let c_block = k
            .make_block_ptr(c_ptr)
            .shape([m, n])
            .strides([stride_cm, stride_cn])
            .offsets([pid_m * block_m, pid_n * block_n])
            .block_shape([block_m, block_n])
            .order([1, 0])
            .build();
        k.store(c_block, acc.to(output))
            .boundary_check(&[0, 1])
            .build();
    })
}

/// The program's block-row and block-column, `group_m` block-rows of
/// programs at a time (the tutorial's "grouped ordering").
fn grouped_program<'k>(
    pid: Tile<'k>,
    m: Tile<'k>,
    n: Tile<'k>,
    c: MatmulConfig,
) -> (Tile<'k>, Tile<'k>) {
    let num_pid_m = m.cdiv(c.block_m as i32);
    let num_pid_n = n.cdiv(c.block_n as i32);
    let num_pid_in_group = num_pid_n * c.group_m as i32;
    let group_id = pid / num_pid_in_group;
    let first_pid_m = group_id * c.group_m as i32;
    let group_size_m = (num_pid_m - first_pid_m).minimum(c.group_m as i32);
    let in_group = pid % num_pid_in_group;
    (
        first_pid_m + in_group % group_size_m,
        in_group / group_size_m,
    )
}

/// The configurations [`autotuner`] times: Triton's tutorial 03 list for
/// CUDA (block sizes, warps, stages), and two larger ones.
pub fn tuning_configs() -> Vec<tile::Config> {
    [
        (128, 256, 64, 8, 3),
        (64, 256, 32, 4, 4),
        (128, 128, 32, 4, 4),
        (128, 64, 32, 4, 4),
        (64, 128, 32, 4, 4),
        (128, 32, 32, 4, 4),
        (64, 32, 32, 2, 5),
        (32, 64, 32, 2, 5),
        (256, 128, 64, 8, 3),
        (128, 128, 64, 4, 3),
    ]
    .into_iter()
    .map(|(m, n, k, warps, stages)| {
        tile::Config::new(warps)
            .with("BLOCK_M", m)
            .with("BLOCK_N", n)
            .with("BLOCK_K", k)
            .with_stages(stages)
    })
    .collect()
}

/// The tile sizes of an autotuning configuration (its `BLOCK_M`,
/// `BLOCK_N`, `BLOCK_K`; groups of 8, row-major operands).
pub fn tiles_of(config: &tile::Config) -> MatmulConfig {
    let get = |name: &str, default: i64| config.get(name).unwrap_or(default);
    let d = MatmulConfig::default();
    MatmulConfig {
        block_m: get("BLOCK_M", d.block_m),
        block_n: get("BLOCK_N", d.block_n),
        block_k: get("BLOCK_K", d.block_k),
        ..d
    }
}

/// The matmul (with `epilogue`) autotuned over [`tuning_configs`] with
/// `tile`'s autotuner, as the tutorial's `@triton.autotune(key=["M", "N",
/// "K"])`: launch it with [`autotuned_grid`] and the problem sizes as the
/// key.
pub fn autotuner(
    inputs: DType,
    output: DType,
    epilogue: Epilogue,
    options: tile::Options,
) -> std::result::Result<tile::Autotuner<tile::TileCompiler>, tile::CompileError> {
    let name = match epilogue {
        Epilogue::None => "matmul",
        Epilogue::BiasRelu => "matmul_bias_relu",
    };
    tile::autotuner(name, tuning_configs(), options, move |context, config| {
        matmul(context, tiles_of(config), inputs, output, None, epilogue)
    })
}

/// The grid of configuration `config` on an `m x n` output.
pub fn autotuned_grid(config: &tile::Config, m: usize, n: usize) -> tile::Grid {
    let t = tiles_of(config);
    let programs = m.div_ceil(t.block_m as usize) * n.div_ceil(t.block_n as usize);
    tile::Grid::from(programs as u32)
}
