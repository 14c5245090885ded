//! The benchmark's cases, defined once: the kernels, their sizes, block
//! sizes and warps, the bytes each must move, and the speed each must
//! reach against Triton. The Python baselines get the same cases on their
//! command line ([`super::triton::script_args`]).

use tile_examples::{cross_entropy, layer_norm, layer_norm_bwd, weighted_sum};

/// Bytes of one `f32`.
const F32: u64 = 4;

/// A kernel of the benchmark.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KernelKind {
    /// The masked vector add, `safe_kernel`: `out = x + y`.
    VectorAdd,
    /// The row sum through a block pointer and `advance`.
    RowSum,
    /// The weighted sum `x @ w`, forward.
    WeightedSumFwd,
    /// The weighted sum, backward: `grad_x` and the partial weight
    /// gradients, one row per program.
    WeightedSumBwd,
    /// The row softmax, one row per program.
    Softmax,
    /// The LayerNorm forward (Triton's tutorial 05), one row per program:
    /// `Y`, `Mean` and `Rstd`.
    LayerNorm,
    /// The cross-entropy forward, one row of logits per program: the loss
    /// (online log-sum-exp) and the prediction (`argmax`).
    CrossEntropy,
    /// The LayerNorm backward: `DX` per row, `DW` and `DB` summed per
    /// program and added with atomics.
    LayerNormBwd,
}

impl KernelKind {
    /// The kernel's name in the table and on the Python command line.
    pub fn name(self) -> &'static str {
        match self {
            KernelKind::VectorAdd => "vector_add",
            KernelKind::RowSum => "row_sum",
            KernelKind::WeightedSumFwd => "weighted_sum_fwd",
            KernelKind::WeightedSumBwd => "weighted_sum_bwd",
            KernelKind::Softmax => "softmax",
            KernelKind::LayerNorm => "layer_norm",
            KernelKind::CrossEntropy => "cross_entropy",
            KernelKind::LayerNormBwd => "layer_norm_bwd",
        }
    }

    /// The largest `ours / Triton` time ratio that passes: 1.02 for every
    /// kernel, 1.00 for the LayerNorm (issue 15), 1.10 for the
    /// cross-entropy (issue 20).
    pub fn target(self) -> f64 {
        match self {
            KernelKind::LayerNorm => 1.00,
            KernelKind::CrossEntropy | KernelKind::LayerNormBwd => 1.10,
            _ => 1.02,
        }
    }
}

/// One benchmark case: a kernel on one size with one configuration, all
/// fp32 and contiguous.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Case {
    /// The kernel.
    pub kind: KernelKind,
    /// `[n]` for the vector add, `[rows, cols]` for the others.
    pub dims: Vec<usize>,
    /// The compile-time block sizes: `[BLOCK]` (vector add, softmax),
    /// `[BLOCK_N]` (row sum), `[ROWS_TILE, D_TILE]` (weighted sums),
    /// `[BLOCK_SIZE]` (LayerNorm).
    pub block: Vec<i64>,
    /// Warps per program.
    pub num_warps: u32,
    /// Whether our kernel is compiled specialized on its arguments (the
    /// default; `tile-tools bench --no-specialize` measures the code that
    /// assumes nothing: scalar accesses).
    pub specialize: bool,
}

impl Case {
    /// The size as the table and the Python side write it: `268435456`,
    /// `65536x1024`.
    pub fn size(&self) -> String {
        join_x(&self.dims)
    }

    /// The block sizes as the Python command line takes them: `1024`,
    /// `16x64`.
    pub fn block_text(&self) -> String {
        join_x(&self.block)
    }

    /// Rows and columns of a 2-D case; `(1, n)` for the vector add.
    pub fn rows_cols(&self) -> (usize, usize) {
        match self.dims[..] {
            [n] => (1, n),
            [rows, cols] => (rows, cols),
            _ => (0, 0),
        }
    }

    /// Programs of the launch grid.
    pub fn programs(&self) -> usize {
        let (rows, cols) = self.rows_cols();
        match self.kind {
            KernelKind::VectorAdd => cols.div_ceil(self.block[0] as usize),
            KernelKind::RowSum
            | KernelKind::Softmax
            | KernelKind::LayerNorm
            | KernelKind::CrossEntropy => rows,
            KernelKind::LayerNormBwd => layer_norm_bwd::PROGRAMS.min(rows),
            KernelKind::WeightedSumFwd | KernelKind::WeightedSumBwd => {
                rows.div_ceil(self.block[0] as usize)
            }
        }
    }

    /// The bytes the kernel must move: every input read once and every
    /// output written once.
    pub fn bytes(&self) -> u64 {
        let (rows, cols) = self.rows_cols();
        let (m, n) = (rows as u64, cols as u64);
        match self.kind {
            KernelKind::VectorAdd => 3 * n * F32,
            KernelKind::RowSum => (m * n + m) * F32,
            KernelKind::WeightedSumFwd => (m * n + n + m) * F32,
            KernelKind::WeightedSumBwd => {
                let partial = self.programs() as u64 * n;
                // x, grad_output, weight in; grad_x, partial grad weight out.
                (m * n + m + n + m * n + partial) * F32
            }
            KernelKind::Softmax => 2 * m * n * F32,
            // X, W and B in; Y, Mean and Rstd out.
            KernelKind::LayerNorm => (2 * m * n + 2 * n + 2 * m) * F32,
            // The logits and the targets in; the losses and predictions out.
            KernelKind::CrossEntropy => (m * n + 3 * m) * F32,
            // X, DY, W, Mean and Rstd in; DX out; DW and DB added once per
            // program (read and written).
            KernelKind::LayerNormBwd => {
                let programs = self.programs() as u64;
                (3 * m * n + n + 2 * m + 4 * programs * n) * F32
            }
        }
    }
}

/// `a x b x ...`.
fn join_x<T: ToString>(values: &[T]) -> String {
    values
        .iter()
        .map(T::to_string)
        .collect::<Vec<_>>()
        .join("x")
}

/// The cases: the full sizes, or small ones for a smoke run (`quick`).
/// Block sizes and warps are the same in both.
pub fn cases(quick: bool) -> Vec<Case> {
    let vector = if quick { 1 << 20 } else { 1 << 28 };
    let rows = if quick { 4096 } else { 65536 };
    let softmax_rows = if quick { 256 } else { 4096 };
    let d = 1024;
    // The tutorial's heuristics for rows of 8192 fp32: BLOCK_SIZE 8192, 8 warps.
    let norm_cols = 8192;
    let norm_block = layer_norm::block_size(norm_cols, F32 as usize);
    let norm_warps = layer_norm::num_warps(norm_block);
    let tiles = vec![weighted_sum::ROWS_TILE, weighted_sum::d_tile_for(d)];
    let case = |kind, dims: Vec<usize>, block: Vec<i64>, num_warps| Case {
        kind,
        dims,
        block,
        num_warps,
        specialize: true,
    };
    vec![
        case(KernelKind::VectorAdd, vec![vector], vec![1024], 4),
        case(KernelKind::RowSum, vec![rows, 1024], vec![1024], 4),
        case(KernelKind::WeightedSumFwd, vec![rows, d], tiles.clone(), 4),
        case(KernelKind::WeightedSumBwd, vec![rows, d], tiles, 4),
        case(KernelKind::Softmax, vec![softmax_rows, 4096], vec![4096], 8),
        case(
            KernelKind::LayerNorm,
            vec![softmax_rows, norm_cols],
            vec![i64::from(norm_block)],
            norm_warps,
        ),
        case(
            KernelKind::CrossEntropy,
            vec![softmax_rows, 32768],
            vec![i64::from(cross_entropy::BLOCK)],
            cross_entropy::NUM_WARPS,
        ),
        case(
            KernelKind::LayerNormBwd,
            vec![softmax_rows, norm_cols],
            vec![i64::from(layer_norm_bwd::BLOCK_N)],
            layer_norm_bwd::NUM_WARPS,
        ),
    ]
}

/// Elements of the device-to-device copy that measures the bandwidth to
/// compare with: 2^28 fp32 (2^24 for a smoke run).
pub fn copy_elems(quick: bool) -> usize {
    if quick { 1 << 24 } else { 1 << 28 }
}

/// The bytes a copy of `elems` fp32 moves: read plus write.
pub fn copy_bytes(elems: usize) -> u64 {
    2 * elems as u64 * F32
}

#[cfg(test)]
mod tests {
    use super::*;

    fn find(cases: &[Case], kind: KernelKind) -> &Case {
        cases.iter().find(|c| c.kind == kind).unwrap()
    }

    #[test]
    fn byte_counts_of_the_full_cases() {
        let all = cases(false);
        let mib = |c: &Case| c.bytes() as f64 / (1u64 << 20) as f64;
        // 3 x 2^28 x 4 bytes = 3 GiB.
        assert_eq!(find(&all, KernelKind::VectorAdd).bytes(), 3 << 30);
        // 256 MiB of input and 256 KiB of sums.
        assert_eq!(mib(find(&all, KernelKind::RowSum)), 256.25);
        let fwd = find(&all, KernelKind::WeightedSumFwd);
        assert_eq!(fwd.bytes(), (65536 * 1024 + 1024 + 65536) * 4);
        // x and grad_x (512 MiB), grad_output, weight, and 4096 partial
        // rows of 1024.
        let bwd = find(&all, KernelKind::WeightedSumBwd);
        assert_eq!(bwd.programs(), 4096);
        assert_eq!(
            bwd.bytes(),
            (2 * 65536 * 1024 + 65536 + 1024 + 4096 * 1024) * 4
        );
        assert_eq!(mib(find(&all, KernelKind::Softmax)), 128.0);
        // 128 MiB of X and as much of Y, 2 x 32 KiB of W and B, 2 x 16 KiB
        // of Mean and Rstd.
        let norm = find(&all, KernelKind::LayerNorm);
        assert_eq!(norm.bytes(), (2 * 4096 * 8192 + 2 * 8192 + 2 * 4096) * 4);
        assert_eq!(
            (norm.size(), norm.block_text()),
            ("4096x8192".into(), "8192".into())
        );
        assert_eq!((norm.num_warps, norm.programs()), (8, 4096));
        assert_eq!(copy_bytes(copy_elems(false)), 2 << 30);
    }

    #[test]
    fn sizes_and_blocks_print_as_the_python_side_reads_them() {
        let all = cases(false);
        let add = find(&all, KernelKind::VectorAdd);
        assert_eq!(
            (add.size(), add.block_text()),
            ("268435456".into(), "1024".into())
        );
        assert_eq!(add.programs(), 1 << 18);
        let fwd = find(&all, KernelKind::WeightedSumFwd);
        assert_eq!(
            (fwd.size(), fwd.block_text()),
            ("65536x1024".into(), "16x64".into())
        );
        let softmax = find(&all, KernelKind::Softmax);
        assert_eq!((softmax.size(), softmax.num_warps), ("4096x4096".into(), 8));
        assert_eq!(softmax.rows_cols(), (4096, 4096));
    }

    #[test]
    fn quick_cases_keep_the_configurations() {
        for (full, quick) in cases(false).iter().zip(cases(true)) {
            assert_eq!(full.kind, quick.kind);
            assert_eq!(full.block, quick.block);
            assert_eq!(full.num_warps, quick.num_warps);
            assert!(quick.bytes() < full.bytes());
        }
    }

    #[test]
    fn targets() {
        assert_eq!(KernelKind::VectorAdd.target(), 1.02);
        assert_eq!(KernelKind::RowSum.target(), 1.02);
        assert_eq!(KernelKind::WeightedSumBwd.target(), 1.02);
        assert_eq!(KernelKind::LayerNorm.target(), 1.00);
    }
}
