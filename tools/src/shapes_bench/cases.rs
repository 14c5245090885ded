//! The cases of `shapes-bench`, defined once: kernel, type and size
//! ([`Case`]), the tile shapes and warps each runs in ([`configs_for`]),
//! the bytes each must move, and the targets its rows are judged by
//! ([`Target`]). The script gets the same cases and configurations on its
//! command line ([`super::baselines::script_args`]).

use crate::timing::{config_text, parse_config_text};
use tile_dialect::DType;
use tile_examples::tile_shapes::{Cover, ShapeKernel, Tiles, block_n};

/// One case: a kernel on one input type and size (`[M, N]`, row-major).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Case {
    /// The kernel.
    pub kernel: ShapeKernel,
    /// The input's type (f32, f16 or bf16).
    pub dtype: DType,
    /// Rows.
    pub m: usize,
    /// Columns.
    pub n: usize,
}

/// The bytes of one element of `d`.
pub fn elem_bytes(d: DType) -> u64 {
    u64::from(d.bits() / 8)
}

impl Case {
    /// `MxN`.
    pub fn size(&self) -> String {
        format!("{}x{}", self.m, self.n)
    }

    /// The type as the script takes it: `f32`, `f16`, `bf16`.
    pub fn dtype_name(&self) -> &'static str {
        dtype_name(self.dtype)
    }

    /// `KERNEL DTYPE MxN`, for logs.
    pub fn label(&self) -> String {
        format!(
            "{} {} {}",
            self.kernel.name(),
            self.dtype_name(),
            self.size()
        )
    }

    /// The bytes the kernel must move: every input read once, every output
    /// written once (per-row and per-column vectors included; Mean, Rstd
    /// and the column sums are f32).
    pub fn bytes(&self) -> u64 {
        let (m, n, s) = (self.m as u64, self.n as u64, elem_bytes(self.dtype));
        match self.kernel {
            ShapeKernel::Softmax
            | ShapeKernel::Transpose
            | ShapeKernel::TransposeBlock
            | ShapeKernel::TransposeOrder
            | ShapeKernel::ChunkCumsum
            | ShapeKernel::ChunkCumsumPtrs
            | ShapeKernel::ChunkCumsumRev
            | ShapeKernel::RowCumsum
            | ShapeKernel::SoftmaxOnline => 2 * m * n * s,
            ShapeKernel::LayerNorm | ShapeKernel::LayerNormLoop => {
                2 * m * n * s + 2 * n * s + 2 * m * 4
            }
            ShapeKernel::RowSumLoop => m * n * s + m * 4,
            ShapeKernel::LayerNormY | ShapeKernel::LayerNormBlock => 2 * m * n * s + 2 * n * s,
            ShapeKernel::ScaleBias => 2 * m * n * s + (m + n) * s,
            ShapeKernel::ColSumStep
            | ShapeKernel::ColSumEnd
            | ShapeKernel::ColSumStaged
            | ShapeKernel::ColSumPtrs
            | ShapeKernel::ColSumBlock => m * n * s + n * 4,
            ShapeKernel::Gelu | ShapeKernel::GeluFast => 2 * m * n * s + n * s,
        }
    }

    /// The bytes of the `[M, N]` input: a device-to-device copy of as many
    /// moves what a transpose moves.
    pub fn tensor_bytes(&self) -> u64 {
        self.m as u64 * self.n as u64 * elem_bytes(self.dtype)
    }

    /// What its rows must reach.
    pub fn target(&self) -> Target {
        Target::of(self.kernel)
    }
}

/// The type's name on command lines: `f32`, `f16`, `bf16`.
pub fn dtype_name(d: DType) -> &'static str {
    match d {
        DType::F16 => "f16",
        DType::BF16 => "bf16",
        _ => "f32",
    }
}

/// The type named `f32`, `f16` or `bf16`.
pub fn parse_dtype(name: &str) -> Option<DType> {
    match name {
        "f32" => Some(DType::F32),
        "f16" => Some(DType::F16),
        "bf16" => Some(DType::BF16),
        _ => None,
    }
}

/// What a row must reach to pass.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Target {
    /// The largest ours/Triton time ratio.
    pub vs_triton: f64,
    /// The largest ours/copy time ratio, where one applies (transposes:
    /// a copy of the same bytes).
    pub vs_copy: Option<f64>,
}

impl Target {
    /// 1.05 of Triton's time; transposes also 1.10 of a copy's; the fast
    /// GELU 1.00 of Triton's fast one (`tanh.approx.f32` on both sides).
    pub fn of(kernel: ShapeKernel) -> Target {
        match kernel {
            k if k.is_transpose() => Target {
                vs_triton: 1.05,
                vs_copy: Some(1.10),
            },
            ShapeKernel::GeluFast => Target {
                vs_triton: 1.00,
                vs_copy: None,
            },
            _ => Target {
                vs_triton: 1.05,
                vs_copy: None,
            },
        }
    }

    /// `<= 1.05`, `<= 1.05, copy <= 1.10`.
    pub fn text(&self) -> String {
        match self.vs_copy {
            Some(c) => format!("<= {:.2}, copy <= {c:.2}", self.vs_triton),
            None => format!("<= {:.2}", self.vs_triton),
        }
    }
}

/// One configuration: the tile, the warps and the pipeline stages (the
/// default 3 of both compilers; no kernel here has a product to
/// pipeline, Triton's may pipeline the column sums' loads).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Config {
    /// `[BM, BN]` (`BN` is `BLOCK_N` for the row kernels).
    pub tiles: Tiles,
    /// Warps per program.
    pub warps: u32,
    /// Pipeline stages.
    pub stages: u32,
}

/// The pipeline stages of every default configuration (both compilers'
/// default).
pub const STAGES: u32 = 3;

impl Config {
    /// `BM`x`BN` on `warps` warps, [`STAGES`] stages.
    pub fn new(bm: i64, bn: i64, warps: u32) -> Config {
        Config {
            tiles: Tiles { bm, bn },
            warps,
            stages: STAGES,
        }
    }

    /// `BMxBN/wW/sS`.
    pub fn name(&self) -> String {
        config_text(&[self.tiles.bm, self.tiles.bn], self.warps, self.stages)
    }

    /// Reads `BMxBN/wW/sS`.
    pub fn parse(text: &str) -> Option<Config> {
        let ([bm, bn], warps, stages) = parse_config_text::<2>(text)?;
        Some(Config {
            tiles: Tiles { bm, bn },
            warps,
            stages,
        })
    }

    /// Elements of the tile each thread holds.
    pub fn per_thread(&self) -> i64 {
        self.tiles.bm * self.tiles.bn / (32 * i64::from(self.warps))
    }
}

/// The `[BM, BN]` tiles of the 2-D kernels (scale-bias, transposes,
/// GELU): squares of 32, 64 and 128 and rectangles, 8 to 64 elements a
/// thread.
pub const TILES_2D: [(i64, i64, u32); 8] = [
    (32, 32, 4),
    (64, 64, 4),
    (64, 64, 8),
    (128, 128, 8),
    (32, 128, 4),
    (128, 32, 4),
    (64, 128, 8),
    (16, 256, 4),
];

/// The `[BM, BN]` tiles of the chunked prefix sums: chunks of 16 to 128
/// rows (flash-linear-attention's chunk sizes) by blocks of 16 to 128
/// columns (its `BS`), 8 to 64 elements a thread.
pub const TILES_CHUNKS: [(i64, i64, u32); 8] = [
    (64, 16, 4),
    (64, 32, 4),
    (64, 64, 4),
    (64, 64, 8),
    (32, 64, 4),
    (16, 128, 4),
    (128, 64, 8),
    (128, 128, 8),
];

/// The `[BM, BN]` strips of the column sums: narrow enough for 64 to 256
/// programs over 4096 columns.
pub const TILES_COLUMNS: [(i64, i64, u32); 5] = [
    (64, 32, 4),
    (128, 32, 4),
    (256, 16, 4),
    (32, 64, 4),
    (128, 64, 8),
];

/// The `[BM, BN]` steps of the row loops: 1 to 16 rows a program, 256
/// to 4096 columns a step, 8 to 32 elements a thread.
pub const TILES_ROW_STEPS: [(i64, i64, u32); 8] = [
    (1, 1024, 4),
    (1, 4096, 8),
    (2, 1024, 4),
    (4, 512, 4),
    (4, 1024, 8),
    (8, 256, 4),
    (8, 512, 4),
    (16, 256, 8),
];

/// The rows per program of the row kernels.
pub const ROWS: [i64; 5] = [1, 2, 4, 8, 16];

/// The warps for a `[bm, block_n]` row tile: each of 4, 8, 16 and 32
/// that gives a thread 16 to 32 elements of the tile, or the nearest
/// (4 for smaller tiles, 32 for larger).
pub fn row_warps(bm: i64, block_n: i64) -> Vec<u32> {
    let elements = |w: u32| bm * block_n / (32 * i64::from(w));
    let fitting: Vec<u32> = [4, 8, 16, 32]
        .into_iter()
        .filter(|&w| (16..=32).contains(&elements(w)))
        .collect();
    match fitting.is_empty() {
        false => fitting,
        true if elements(4) < 16 => vec![4],
        true => vec![32],
    }
}

/// The configurations of `case`: for the row kernels, `BM` in 1, 2, 4,
/// 8, 16 with `BLOCK_N` the next power of two of N, each on the warps of
/// [`row_warps`]; [`TILES_2D`] for the 2-D kernels, [`TILES_CHUNKS`] for
/// the chunked prefix sums, [`TILES_COLUMNS`] for the column sums,
/// [`TILES_ROW_STEPS`] for the row loops.
pub fn configs_for(case: &Case) -> Vec<Config> {
    let fixed = |list: &[(i64, i64, u32)]| {
        list.iter()
            .map(|&(bm, bn, w)| Config::new(bm, bn, w))
            .collect()
    };
    match case.kernel.cover() {
        Cover::Rows => {
            let bn = block_n(case.n);
            ROWS.iter()
                .flat_map(|&bm| {
                    row_warps(bm, bn)
                        .into_iter()
                        .map(move |w| Config::new(bm, bn, w))
                })
                .collect()
        }
        _ if case.kernel.is_chunk_scan() => fixed(&TILES_CHUNKS),
        Cover::Tiles | Cover::TilesByColumns => fixed(&TILES_2D),
        Cover::Columns => fixed(&TILES_COLUMNS),
        Cover::RowSteps => fixed(&TILES_ROW_STEPS),
    }
}

/// The default cases: softmax and LayerNorm at 65536x1000 and 16384x4096
/// in f32 and at 16384x4096 in f16, the Y-only LayerNorm at 65536x1000
/// (and through block pointers there and at 16384x4096 in f16),
/// scale-bias at 8192x8192, transposes at 8192x8192 and 8000x6000 (and
/// in f16 at 8192x8192; through block pointers in f32 at 8192x8192 and in
/// f16 at 8000x6000; through a block pointer over `x^T` in f32 at
/// 8192x8192 and in bf16 at 6000x4000), both column sums (five ways: three with loops
/// asking for stages) at 16384x4096 (f32), both GELUs at 8192x4096 (f16),
/// the chunked prefix sums at 16384x2048 (flash-linear-attention's
/// `[B*T, H*S]` of 8 sequences of 2048, 16 heads of 128; f32 forwards in
/// both forms, bf16 reversed), the row prefix sums at 65536x1000 (f32) and
/// 16384x4096 (bf16).
/// `quick`: the same kernels, types and tiles on sizes 4 to 16 times
/// smaller.
pub fn cases(quick: bool) -> Vec<Case> {
    let q = |m: usize, small: usize| if quick { small } else { m };
    let case = |kernel, dtype, m, n| Case {
        kernel,
        dtype,
        m,
        n,
    };
    let mut out = Vec::new();
    for kernel in [ShapeKernel::Softmax, ShapeKernel::LayerNorm] {
        out.push(case(kernel, DType::F32, q(65536, 4096), 1000));
        out.push(case(kernel, DType::F32, q(16384, 1024), 4096));
        out.push(case(kernel, DType::F16, q(16384, 1024), 4096));
    }
    out.extend([
        case(ShapeKernel::LayerNormY, DType::F32, q(65536, 4096), 1000),
        case(
            ShapeKernel::LayerNormBlock,
            DType::F32,
            q(65536, 4096),
            1000,
        ),
        case(
            ShapeKernel::LayerNormBlock,
            DType::F16,
            q(16384, 1024),
            4096,
        ),
        case(
            ShapeKernel::ScaleBias,
            DType::F32,
            q(8192, 1024),
            q(8192, 1024),
        ),
        case(
            ShapeKernel::Transpose,
            DType::F32,
            q(8192, 1024),
            q(8192, 1024),
        ),
        case(
            ShapeKernel::Transpose,
            DType::F32,
            q(8000, 1000),
            q(6000, 600),
        ),
        // 2-byte elements: tiles with a 64-byte side stay past 1.10 of a
        // copy on both compilers (2026-11-27-h200-other-dtypes.md).
        case(
            ShapeKernel::Transpose,
            DType::F16,
            q(8192, 1024),
            q(8192, 1024),
        ),
        // The same transposes through block pointers.
        case(
            ShapeKernel::TransposeBlock,
            DType::F32,
            q(8192, 1024),
            q(8192, 1024),
        ),
        case(
            ShapeKernel::TransposeBlock,
            DType::F16,
            q(8000, 1000),
            q(6000, 600),
        ),
        // And through a block pointer over x^T (order (0, 1)), no trans.
        case(
            ShapeKernel::TransposeOrder,
            DType::F32,
            q(8192, 1024),
            q(8192, 1024),
        ),
        case(
            ShapeKernel::TransposeOrder,
            DType::BF16,
            q(6000, 1000),
            q(4000, 600),
        ),
        case(ShapeKernel::ColSumStep, DType::F32, q(16384, 1024), 4096),
        case(ShapeKernel::ColSumEnd, DType::F32, q(16384, 1024), 4096),
        case(ShapeKernel::ColSumStaged, DType::F32, q(16384, 1024), 4096),
        case(ShapeKernel::ColSumPtrs, DType::F32, q(16384, 1024), 4096),
        case(ShapeKernel::ColSumBlock, DType::F32, q(16384, 1024), 4096),
        case(ShapeKernel::Gelu, DType::F16, q(8192, 1024), 4096),
        case(ShapeKernel::GeluFast, DType::F16, q(8192, 1024), 4096),
        case(
            ShapeKernel::ChunkCumsum,
            DType::F32,
            q(16384, 2048),
            q(2048, 512),
        ),
        case(
            ShapeKernel::ChunkCumsumPtrs,
            DType::F32,
            q(16384, 2048),
            q(2048, 512),
        ),
        case(
            ShapeKernel::ChunkCumsumRev,
            DType::BF16,
            q(16384, 2048),
            q(2048, 512),
        ),
        case(ShapeKernel::RowCumsum, DType::F32, q(65536, 4096), 1000),
        case(ShapeKernel::RowCumsum, DType::BF16, q(16384, 1024), 4096),
        case(ShapeKernel::LayerNormLoop, DType::F32, q(8192, 1024), 8192),
        case(
            ShapeKernel::LayerNormLoop,
            DType::BF16,
            q(16384, 1024),
            5000,
        ),
        case(ShapeKernel::RowSumLoop, DType::F32, q(16384, 1024), 4096),
        case(ShapeKernel::RowSumLoop, DType::F16, q(8192, 1024), 6000),
        case(ShapeKernel::SoftmaxOnline, DType::F32, q(16384, 1024), 4096),
        case(ShapeKernel::SoftmaxOnline, DType::BF16, q(4096, 256), 32000),
    ]);
    out
}

/// What `--case` selects: a kernel, and optionally a type and a size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CaseFilter {
    /// The kernel.
    pub kernel: ShapeKernel,
    /// Only this type.
    pub dtype: Option<DType>,
    /// Exactly this size (a case of its own when no default has it).
    pub size: Option<(usize, usize)>,
}

impl CaseFilter {
    /// Reads `KERNEL[:DTYPE[:MxN]]` (`transpose`, `softmax:f16`,
    /// `transpose:f32:4096x4096`).
    pub fn parse(text: &str) -> Result<CaseFilter, String> {
        let bad = || {
            let kernels: Vec<&str> = ShapeKernel::ALL.iter().map(|k| k.name()).collect();
            format!(
                "want KERNEL[:DTYPE[:MxN]] (KERNEL one of {}, DTYPE f32, f16 or bf16), got {text:?}",
                kernels.join(", ")
            )
        };
        let mut parts = text.split(':');
        let kernel = ShapeKernel::from_name(parts.next().unwrap_or("")).ok_or_else(bad)?;
        let dtype = parts
            .next()
            .map(|d| parse_dtype(d).ok_or_else(bad))
            .transpose()?;
        let size = parts
            .next()
            .map(|s| match s.split_once('x') {
                Some((m, n)) => match (m.parse::<usize>(), n.parse::<usize>()) {
                    (Ok(m), Ok(n)) if m > 0 && n > 0 => Ok((m, n)),
                    _ => Err(bad()),
                },
                None => Err(bad()),
            })
            .transpose()?;
        if parts.next().is_some() || (size.is_some() && dtype.is_none()) {
            return Err(bad());
        }
        Ok(CaseFilter {
            kernel,
            dtype,
            size,
        })
    }

    /// Whether `case` is selected.
    pub fn selects(&self, case: &Case) -> bool {
        self.kernel == case.kernel
            && self.dtype.is_none_or(|d| d == case.dtype)
            && self.size.is_none_or(|s| s == (case.m, case.n))
    }

    /// The case it names exactly, if it names a type and a size.
    pub fn exact(&self) -> Option<Case> {
        let (m, n) = self.size?;
        Some(Case {
            kernel: self.kernel,
            dtype: self.dtype?,
            m,
            n,
        })
    }
}

/// The cases `filters` select among the defaults (`quick`: the small
/// ones); a filter naming a type and size that no default has adds that
/// case. No filters: every default case.
pub fn select(filters: &[CaseFilter], quick: bool) -> Vec<Case> {
    let defaults = cases(quick);
    if filters.is_empty() {
        return defaults;
    }
    let mut out: Vec<Case> = defaults
        .into_iter()
        .filter(|c| filters.iter().any(|f| f.selects(c)))
        .collect();
    for exact in filters.iter().filter_map(CaseFilter::exact) {
        if !out.contains(&exact) {
            out.push(exact);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn row_tiles_give_each_thread_16_to_32_elements() {
        assert_eq!(row_warps(1, 1024), vec![4]);
        assert_eq!(row_warps(2, 1024), vec![4]);
        assert_eq!(row_warps(4, 1024), vec![4, 8]);
        assert_eq!(row_warps(16, 1024), vec![16, 32]);
        assert_eq!(row_warps(1, 4096), vec![4, 8]);
        assert_eq!(row_warps(8, 4096), vec![32]);
        assert_eq!(row_warps(16, 4096), vec![32]);
        let softmax = cases(false)[0];
        let names: Vec<String> = configs_for(&softmax).iter().map(Config::name).collect();
        assert_eq!(
            names.join(" "),
            "1x1024/w4/s3 2x1024/w4/s3 4x1024/w4/s3 4x1024/w8/s3 8x1024/w8/s3 8x1024/w16/s3 \
             16x1024/w16/s3 16x1024/w32/s3"
        );
        for case in cases(false) {
            for config in configs_for(&case) {
                assert!((8..=64).contains(&config.per_thread()), "{}", config.name());
            }
        }
    }

    #[test]
    fn bytes_sizes_and_targets() {
        let all = cases(false);
        assert_eq!(all.len(), 35);
        let softmax = all[0];
        assert_eq!(
            (softmax.size(), softmax.label()),
            ("65536x1000".into(), "softmax f32 65536x1000".into())
        );
        assert_eq!(softmax.bytes(), 2 * 65536 * 1000 * 4);
        let norm = all[3];
        assert_eq!(
            norm.bytes(),
            2 * 65536 * 1000 * 4 + 2 * 1000 * 4 + 2 * 65536 * 4
        );
        let transpose = all
            .iter()
            .find(|c| c.kernel == ShapeKernel::Transpose)
            .unwrap();
        assert_eq!(transpose.bytes(), 2 * transpose.tensor_bytes());
        assert_eq!(transpose.target().text(), "<= 1.05, copy <= 1.10");
        let fast = all
            .iter()
            .find(|c| c.kernel == ShapeKernel::GeluFast)
            .unwrap();
        assert_eq!(
            (fast.dtype_name(), fast.target().text()),
            ("f16", "<= 1.00".into())
        );
        assert_eq!(fast.bytes(), 2 * 8192 * 4096 * 2 + 4096 * 2);
        let block = all
            .iter()
            .find(|c| c.kernel == ShapeKernel::ColSumBlock)
            .unwrap();
        assert_eq!(block.bytes(), 16384 * 4096 * 4 + 4096 * 4);
        let scans: Vec<&Case> = all.iter().filter(|c| c.kernel.is_chunk_scan()).collect();
        assert_eq!(scans.len(), 3);
        for scan in scans {
            assert_eq!(scan.bytes(), 2 * scan.tensor_bytes());
            assert_eq!(scan.target().text(), "<= 1.05");
            let names: Vec<String> = configs_for(scan).iter().map(Config::name).collect();
            assert_eq!(names[0], "64x16/w4/s3");
            assert_eq!(names.len(), TILES_CHUNKS.len());
        }
        for (full, quick) in all.iter().zip(cases(true)) {
            assert_eq!(
                (full.kernel, full.dtype, configs_for(full)),
                (quick.kernel, quick.dtype, configs_for(&quick))
            );
            assert!(quick.bytes() < full.bytes());
        }
    }

    #[test]
    fn filters_select_defaults_and_add_exact_cases() {
        let f = |t: &str| CaseFilter::parse(t).unwrap();
        let transposes = select(&[f("transpose")], false);
        assert_eq!(transposes.len(), 3);
        assert_eq!(select(&[f("softmax:f16")], false).len(), 1);
        let exact = select(&[f("transpose:f32:8192x8192")], false);
        assert_eq!(exact.len(), 1);
        let new = select(&[f("softmax:bf16:37x200")], false);
        assert_eq!((new[0].m, new[0].n, new[0].dtype), (37, 200, DType::BF16));
        assert_eq!(select(&[], true), cases(true));
        for bad in [
            "",
            "nope",
            "softmax:f64",
            "softmax:f32:12",
            "softmax:f32:0x3",
            "softmax:f32:2x3:x",
        ] {
            assert!(CaseFilter::parse(bad).is_err(), "{bad}");
        }
        let config = Config::parse("16x256/w4/s3").unwrap();
        assert_eq!(
            (config.tiles, config.warps, config.per_thread()),
            (Tiles { bm: 16, bn: 256 }, 4, 32)
        );
        assert_eq!(config.name(), "16x256/w4/s3");
        assert!(Config::parse("16x256x3/w4/s3").is_none());
    }
}
