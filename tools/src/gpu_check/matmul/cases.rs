//! The cases the GPU check runs of the tutorial matmul.

use super::{Case, Storage};
use tile_dialect::{DType, InputPrecision};
use tile_examples::matmul::{Epilogue, MatmulConfig};

/// Small tiles for the interpreter and quick runs.
pub const SMALL: MatmulConfig = MatmulConfig {
    block_m: 64,
    block_n: 64,
    block_k: 32,
    group_m: 4,
    a_order: [1, 0],
    b_order: [1, 0],
};

/// The cases: every input type and precision on each path, transposed
/// operands, other tiles and warps, the epilogue, and sizes mixing 1, 17,
/// 64, 1000 and 4097. `large` adds the sizes only a GPU runs in reasonable
/// time.
pub fn cases(large: bool) -> Vec<Case> {
    let mut out = Vec::new();
    let small = [
        (1, 1, 1),
        (17, 17, 17),
        (64, 64, 64),
        (17, 64, 1000),
        (100, 33, 70),
    ];
    let big = [(4097, 64, 1000), (64, 4097, 17), (1000, 17, 4097)];
    let sizes: Vec<(usize, usize, usize)> = small
        .iter()
        .chain(if large { &big[..] } else { &[] })
        .copied()
        .collect();
    let kinds = [
        (DType::F16, None),
        (DType::BF16, None),
        (DType::F32, Some(InputPrecision::Tf32)),
        (DType::F32, Some(InputPrecision::Tf32x3)),
        (DType::F32, Some(InputPrecision::Ieee)),
        (DType::I8, None),
    ];
    for &(m, n, k) in &sizes {
        for &(inputs, precision) in &kinds {
            for chip in ["sm_90", "sm_80"] {
                if chip == "sm_80" && precision == Some(InputPrecision::Ieee) {
                    continue;
                }
                out.push(Case {
                    precision,
                    chip,
                    config: SMALL,
                    ..Case::new(m, n, k, inputs)
                });
            }
        }
    }
    // 1000^3 on each tensor-core path (the interpreter, which every GPU
    // launch is also compared with, takes seconds for each).
    if large {
        for (inputs, chip) in [(DType::F16, "sm_90"), (DType::BF16, "sm_80")] {
            out.push(Case {
                chip,
                ..Case::new(1000, 1000, 1000, inputs)
            });
        }
    }
    // Transposed operands, other tiles and warps, the epilogue.
    let (m, n, k) = (100, 70, 130);
    for (a, b) in [
        (Storage::Strided, Storage::RowMajor),
        (Storage::RowMajor, Storage::Strided),
        (Storage::Order01, Storage::Order01),
    ] {
        for inputs in [DType::F16, DType::F32] {
            out.push(Case {
                a,
                b,
                config: SMALL,
                ..Case::new(m, n, k, inputs)
            });
        }
    }
    for (config, warps) in [
        (MatmulConfig::default(), 4),
        (MatmulConfig::default(), 8),
        (
            MatmulConfig {
                block_m: 16,
                block_n: 32,
                block_k: 16,
                ..SMALL
            },
            1,
        ),
    ] {
        for chip in ["sm_90", "sm_80"] {
            out.push(Case {
                config,
                warps,
                chip,
                ..Case::new(200, 150, 96, DType::BF16)
            });
        }
    }
    out.push(Case {
        epilogue: Epilogue::BiasRelu,
        config: SMALL,
        ..Case::new(m, n, k, DType::F16)
    });
    // Pipelined K loops: strides divisible by 16 (so 16-byte copies),
    // rows and K not multiples of the tiles, 2 to 4 stages, operands
    // contiguous along K or along M and N, each tensor-core path.
    // The interpreter (CI) runs the smaller size; on a GPU the interpreter
    // checks every launch too, so the sizes stay near 2^28 products.
    let (m, n, k) = if large {
        (1000, 256, 1088)
    } else {
        (130, 64, 192)
    };
    for (inputs, chip, stages) in [
        (DType::F16, "sm_90", 2),
        (DType::F16, "sm_90", 3),
        (DType::F16, "sm_90", 4),
        (DType::BF16, "sm_80", 3),
        (DType::I8, "sm_90", 3),
    ] {
        out.push(Case {
            stages,
            chip,
            ..Case::new(m, n, k, inputs)
        });
    }
    for (a, b) in [
        (Storage::Order01, Storage::Order01),
        (Storage::Order01, Storage::RowMajor),
    ] {
        for chip in ["sm_90", "sm_80"] {
            out.push(Case {
                a,
                b,
                chip,
                ..Case::new(if large { 512 } else { 128 }, 256, 320, DType::F16)
            });
        }
    }
    // The autotuned kernels (`matmul::autotuner`), plain and with the
    // epilogue.
    out.push(Case {
        autotuned: true,
        ..Case::new(257, 256, if large { 520 } else { 72 }, DType::F16)
    });
    out.push(Case {
        autotuned: true,
        epilogue: Epilogue::BiasRelu,
        ..Case::new(130, 300, 96, DType::BF16)
    });
    out.push(Case {
        epilogue: Epilogue::BiasRelu,
        warps: 8,
        config: MatmulConfig {
            block_n: 256,
            ..MatmulConfig::default()
        },
        ..Case::new(256, 512, if large { 1024 } else { 64 }, DType::BF16)
    });
    out
}
