//! The GPU cases of the matmul written the ways users write it
//! (`tile_examples::matmul_styles`): block pointers, tutorial 03's pointer
//! tensors carried and masked, offsets recomputed from the loop index,
//! `A @ B^T` through `.trans()`, a batch on the grid's second axis,
//! split-K with `atomic_add`, a persistent loop over tiles and a `while`
//! K loop; in f16, bf16, f32 (as TF32) and i8, at sizes that are not
//! multiples of the tiles (1, 17, 1000, 4097 on the GPU) and at sizes
//! whose strides allow 16-byte copies (so the pipelined path runs).
//!
//! Reference: the exact sum of the products of the inputs as the kernel
//! sees them (TF32-rounded for f32), in f64. An f16 or bf16 output may
//! differ from it by one rounding to its type plus [`TOLERANCE`] of the
//! sum of the terms' magnitudes (the f32 accumulation); f32 outputs by
//! the latter; i32 outputs (i8 inputs) are exact. Outputs are poisoned
//! before the launch (zeroed for split-K, which adds into them) and
//! followed by a guard region that must stay poisoned.

use super::matmul::{Operand, TOLERANCE, tf32};
use super::{GUARD, Outcome, Specializing, chip_options, launch_name, summarize};
use crate::elements::{decode, rounding};
use crate::reference::sum;
use tile::{Arg, Device};
use tile_dialect::DType;
use tile_examples::matmul_styles::{self, Style, StyleConfig, output_type};

/// Programs of a persistent launch (fewer than the tiles of most cases).
const PERSISTENT_PROGRAMS: u32 = 5;

/// Slices of K in a split-K launch.
const SPLITS: u32 = 3;

/// Products in a batched launch.
const BATCH: usize = 3;

/// One launch of one style.
#[derive(Clone, Debug)]
pub struct Case {
    /// How the kernel is written.
    pub style: Style,
    /// Rows of A and C.
    pub m: usize,
    /// Columns of B and C.
    pub n: usize,
    /// The reduced dimension.
    pub k: usize,
    /// The inputs' type.
    pub inputs: DType,
    /// Tiles.
    pub config: StyleConfig,
    /// Warps per program.
    pub warps: u32,
    /// Pipeline stages.
    pub stages: u32,
    /// `sm_90` (wgmma) or `sm_80` (mma.sync).
    pub chip: &'static str,
}

impl Case {
    /// What the case is, for reports.
    pub fn name(&self) -> String {
        let c = &self.config;
        let tiles = [c.block_m, c.block_n, c.block_k];
        let launch = launch_name(tiles, self.warps, self.stages, self.chip);
        format!(
            "{} {}x{}x{} {} {launch}",
            self.style.name(),
            self.m,
            self.n,
            self.k,
            self.inputs,
        )
    }

    /// Products this case computes (a batch for [`Style::Batched`]).
    fn batch(&self) -> usize {
        if self.style == Style::Batched {
            BATCH
        } else {
            1
        }
    }

    /// Runs the case on `device` and checks C.
    pub fn run(&self, device: &Device) -> Outcome {
        let err = |e: &dyn std::fmt::Display| e.to_string();
        let context = tile::context().map_err(|e| err(&e))?;
        let kernel = matmul_styles::kernel(&context, self.style, self.config, self.inputs)
            .map_err(|e| err(&e))?;
        let options = chip_options(self.chip, self.warps, self.stages);
        let loaded = Specializing::with_options(device, &kernel, options);
        let (m, n, k, batch) = (self.m, self.n, self.k, self.batch());
        let a = Operand::new(device, batch * m * k, (m * 31 + k) as u64, self.inputs)?;
        let b = Operand::new(device, batch * k * n, (k * 17 + n) as u64, self.inputs)?;
        let output = output_type(self.style, self.inputs);
        let c = Output::new(device, output, batch * m * n, self.style == Style::SplitK)?;
        let transposed = self.style == Style::TransposedB;
        // A [M, K] row-major; B [K, N] row-major, or [N, K] for A @ B^T.
        let (s_b0, s_b1) = if transposed { (k, 1) } else { (n, 1) };
        let mut args = vec![a.arg(), b.arg(), c.arg()];
        args.extend([m, n, k, k, 1, s_b0, s_b1, n, 1].map(|x| Arg::from(x as i32)));
        if self.style == Style::Batched {
            args.extend([m * k, k * n, m * n].map(|x| Arg::from(x as i32)));
        }
        let grid = tile_examples::matmul_styles::grid(
            self.style,
            &self.config,
            (m, n),
            batch as u32,
            SPLITS,
            PERSISTENT_PROGRAMS,
        );
        loaded.launch(grid, &args)?;
        let round = |x: f32| {
            if self.inputs == DType::F32 {
                tf32(x)
            } else {
                x
            }
        };
        let b_at = |p: usize, kk: usize, j: usize| {
            let i = if transposed { j * k + kk } else { kk * n + j };
            round(b.values[p * k * n + i])
        };
        let (want, magnitude): (Vec<f64>, Vec<f64>) = (0..batch * m * n)
            .map(|e| {
                let (p, i, j) = (e / (m * n), e % (m * n) / n, e % n);
                sum((0..k).map(|kk| {
                    f64::from(round(a.values[p * m * k + i * k + kk])) * f64::from(b_at(p, kk, j))
                }))
            })
            .unzip();
        c.check(device, &want, &magnitude)
    }
}

/// C on the device, poisoned (or zeroed) and guarded.
struct Output {
    dtype: DType,
    len: usize,
    buffer: tile::Buffer<u8>,
}

impl Output {
    fn new(device: &Device, dtype: DType, len: usize, zeroed: bool) -> Result<Output, String> {
        let bytes = (dtype.bits() / 8) as usize;
        let poison: &[u8] = match bytes {
            2 => &[0xAD, 0x7E],
            _ => &[0xAD, 0xDE, 0xC0, 0x7F],
        };
        let mut init: Vec<u8> = poison
            .iter()
            .copied()
            .cycle()
            .take((len + GUARD) * bytes)
            .collect();
        if zeroed {
            init[..len * bytes].fill(0);
        }
        let buffer = device.upload(&init).map_err(|e| e.to_string())?;
        Ok(Output { dtype, len, buffer })
    }

    fn arg(&self) -> Arg {
        Arg::from(&self.buffer)
    }

    fn check(&self, device: &Device, want: &[f64], magnitude: &[f64]) -> Outcome {
        let raw: Vec<u8> = device.download(&self.buffer).map_err(|e| e.to_string())?;
        let bytes = (self.dtype.bits() / 8) as usize;
        let poison: u32 = if bytes == 2 { 0x7EAD } else { 0x7FC0_DEAD };
        let (values, poisoned): (Vec<f64>, Vec<bool>) = raw
            .chunks_exact(bytes)
            .map(|c| {
                let bits = c.iter().rev().fold(0u32, |b, &x| (b << 8) | u32::from(x));
                (decode(self.dtype, c), bits == poison)
            })
            .unzip();
        let exact = self.dtype == DType::I32;
        let mut errors = Vec::new();
        for (i, (&got, &w)) in values.iter().zip(want).enumerate() {
            let allowed = if exact {
                0.0
            } else {
                w.abs() * rounding(self.dtype) + TOLERANCE * magnitude[i] + f64::MIN_POSITIVE
            };
            if got.is_nan() || (got - w).abs() > allowed {
                errors.push(format!("[{i}] = {got}, want {w}"));
            }
        }
        for (i, &p) in poisoned.iter().enumerate().skip(self.len) {
            if !p {
                errors.push(format!("guard [{i}] was written"));
            }
        }
        if values.len() != self.len + GUARD {
            errors.push(format!(
                "{} outputs, want {}",
                values.len(),
                self.len + GUARD
            ));
        }
        summarize(errors)
    }
}

/// Small tiles for the interpreter and quick runs.
pub const SMALL: StyleConfig = StyleConfig {
    block_m: 64,
    block_n: 64,
    block_k: 32,
    group_m: 4,
};

/// The cases: every style in every input type at irregular sizes, and at
/// sizes whose strides allow 16-byte copies (so loads are pipelined),
/// with 2 to 4 stages, on wgmma and mma.sync. `large` adds sizes only a
/// GPU runs in reasonable time, and the benchmark's tiles.
pub fn cases(large: bool) -> Vec<Case> {
    let mut out = Vec::new();
    let base = |style, (m, n, k), inputs| Case {
        style,
        m,
        n,
        k,
        inputs,
        config: SMALL,
        warps: 4,
        stages: 3,
        chip: "sm_90",
    };
    // Irregular sizes (one-element accesses) and aligned ones (pipelined).
    let sizes: &[(usize, usize, usize)] = if large {
        &[
            (1, 17, 1),
            (17, 33, 40),
            (100, 96, 208),
            (1000, 304, 1000),
            (4097, 64, 96),
        ]
    } else {
        &[(1, 17, 1), (17, 33, 40), (100, 96, 208)]
    };
    for style in Style::ALL {
        for &size in sizes {
            for inputs in [DType::F16, DType::BF16, DType::F32, DType::I8] {
                out.push(base(style, size, inputs));
            }
        }
        // Stages, mma.sync, and larger tiles on more warps.
        let aligned = (130, 64, 192);
        out.push(Case {
            stages: 2,
            ..base(style, aligned, DType::F16)
        });
        out.push(Case {
            stages: 4,
            ..base(style, aligned, DType::BF16)
        });
        out.push(Case {
            chip: "sm_80",
            ..base(style, aligned, DType::F16)
        });
        if large {
            out.push(Case {
                config: StyleConfig {
                    block_m: 128,
                    block_n: 256,
                    block_k: 64,
                    group_m: 8,
                },
                warps: 8,
                ..base(style, (1000, 512, 1040), DType::F16)
            });
            out.push(Case {
                config: StyleConfig {
                    block_m: 128,
                    block_n: 128,
                    block_k: 64,
                    group_m: 8,
                },
                stages: 4,
                ..base(style, (32, 1024, 2048), DType::BF16)
            });
        }
    }
    out
}
