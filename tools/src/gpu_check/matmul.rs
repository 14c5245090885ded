//! The GPU cases of `tile.dot`: the tutorial matmul
//! (`tile_examples::matmul`) against an f64 reference on irregular sizes,
//! in every input type and precision, with transposed operands, on
//! `wgmma` (sm_90), `mma.sync` (sm_80) and the CUDA cores (f32 `ieee`).
//!
//! Reference: the exact sum of the products of the inputs as the kernel
//! sees them (rounded to f16 or bf16; for `tf32`, cut to TF32 as tensor
//! cores read f32: the low 13 bits of the significand dropped). Tolerance: each output within [`TOLERANCE`] of
//! the sum of its terms' magnitudes and of the largest output; the
//! accumulation in f32 (in whatever order tensor cores add) errs by a few
//! units of f32's precision of that sum, while a wrong row, column, step or
//! fragment moves an output by the order of its terms. i8 products are
//! exact in i32.

mod cases;
mod operand;

pub use cases::{SMALL, cases};
pub(crate) use operand::{Operand, tf32};

use super::reductions::compare_close;
use super::{GUARD, Outcome, POISON, Specializing, chip_options, inputs, launch_name};
use crate::reference::sum;
use tile::{Arg, Device, Options};
use tile_dialect::{DType, InputPrecision};
use tile_examples::matmul::{self, Epilogue, MatmulConfig};

/// Relative tolerance of float outputs (see the module documentation).
pub const TOLERANCE: f64 = 1e-4;

/// How an operand is stored and described.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Storage {
    /// Row-major, block pointer order (1, 0).
    RowMajor,
    /// Column-major, passed as strides; order (1, 0) still.
    Strided,
    /// Column-major, block pointer order (0, 1): a virtual transpose.
    Order01,
}

impl Storage {
    fn name(self) -> &'static str {
        match self {
            Storage::RowMajor => "row",
            Storage::Strided => "strided-T",
            Storage::Order01 => "order01-T",
        }
    }

    /// Strides (in elements) of an `rows x cols` operand.
    fn strides(self, rows: usize, cols: usize) -> [i64; 2] {
        match self {
            Storage::RowMajor => [cols as i64, 1],
            Storage::Strided | Storage::Order01 => [1, rows as i64],
        }
    }

    fn order(self) -> [i64; 2] {
        match self {
            Storage::Order01 => [0, 1],
            _ => [1, 0],
        }
    }
}

/// One matmul launch.
#[derive(Clone, Debug)]
pub struct Case {
    /// Rows of A and C.
    pub m: usize,
    /// Columns of B and C.
    pub n: usize,
    /// Columns of A, rows of B.
    pub k: usize,
    /// The inputs' type.
    pub inputs: DType,
    /// How f32 inputs multiply (`None`: the default, TF32).
    pub precision: Option<InputPrecision>,
    /// How A is stored.
    pub a: Storage,
    /// How B is stored.
    pub b: Storage,
    /// Tiles.
    pub config: MatmulConfig,
    /// Warps per program.
    pub warps: u32,
    /// The chip compiled for (`sm_90`: wgmma; `sm_80`: mma.sync).
    pub chip: &'static str,
    /// Pipeline stages (`Options::num_stages`).
    pub stages: u32,
    /// Bias and ReLU after the product.
    pub epilogue: Epilogue,
    /// Launched through `matmul::autotuner` (row-major operands; `config`,
    /// `warps` and `stages` unused): the fastest of its configurations on
    /// a GPU, the first on the interpreter.
    pub autotuned: bool,
}

impl Case {
    /// A row-major f16 product of 128 x 128 x 64 tiles on 4 warps, sm_90.
    pub fn new(m: usize, n: usize, k: usize, inputs: DType) -> Case {
        Case {
            m,
            n,
            k,
            inputs,
            precision: None,
            a: Storage::RowMajor,
            b: Storage::RowMajor,
            config: MatmulConfig::default(),
            warps: 4,
            chip: "sm_90",
            stages: 3,
            epilogue: Epilogue::None,
            autotuned: false,
        }
    }

    /// What the case is, for reports.
    pub fn name(&self) -> String {
        let c = &self.config;
        if self.autotuned {
            return format!(
                "{}x{}x{} {} autotuned {}{}",
                self.m,
                self.n,
                self.k,
                self.inputs,
                self.chip,
                if self.epilogue == Epilogue::BiasRelu {
                    " +bias,relu"
                } else {
                    ""
                }
            );
        }
        let precision = self.precision.map_or(String::new(), |p| format!(" {p}"));
        let epilogue = match self.epilogue {
            Epilogue::None => "",
            Epilogue::BiasRelu => " +bias,relu",
        };
        let tiles = [c.block_m, c.block_n, c.block_k];
        let launch = launch_name(tiles, self.warps, self.stages, self.chip);
        format!(
            "{}x{}x{} {}{precision} A {} B {} {launch}{epilogue}",
            self.m,
            self.n,
            self.k,
            self.inputs,
            self.a.name(),
            self.b.name(),
        )
    }

    /// The output's element type: i32 for i8 inputs, else f32.
    pub fn output(&self) -> DType {
        if self.inputs == DType::I8 {
            DType::I32
        } else {
            DType::F32
        }
    }

    /// Runs the case on `device` and checks C.
    pub fn run(&self, device: &Device) -> Outcome {
        let err = |e: &dyn std::fmt::Display| e.to_string();
        let context = tile::context().map_err(|e| err(&e))?;
        let config = MatmulConfig {
            a_order: self.a.order(),
            b_order: self.b.order(),
            ..self.config
        };
        let kernel = matmul::matmul(
            &context,
            config,
            self.inputs,
            self.output(),
            self.precision,
            self.epilogue,
        )
        .map_err(|e| err(&e))?;
        let options = chip_options(self.chip, self.warps, self.stages);
        let loaded = Specializing::with_options(device, &kernel, options);
        let (m, n, k) = (self.m, self.n, self.k);
        let a = Operand::new(device, m * k, (m * 31 + k) as u64, self.inputs)?;
        let b = Operand::new(device, k * n, (k * 17 + n) as u64, self.inputs)?;
        let bias: Vec<f32> = inputs(n, n as u64 + 11);
        let bias_buffer = device.upload(&bias).map_err(|e| err(&e))?;
        let c = device
            .upload(&vec![POISON.to_bits(); m * n + GUARD])
            .map_err(|e| err(&e))?;
        let [sam, sak] = self.a.strides(m, k);
        let [sbk, sbn] = self.b.strides(k, n);
        let mut args = vec![a.arg(), b.arg(), Arg::from(&c)];
        if self.epilogue == Epilogue::BiasRelu {
            args.push(Arg::from(&bias_buffer));
        }
        args.extend([m as i32, n as i32, k as i32].map(Arg::from));
        args.extend([sam, sak, sbk, sbn, n as i64, 1].map(Arg::from));
        if self.autotuned {
            let options = Options {
                chip: self.chip.into(),
                ..Options::default()
            };
            let tuner = matmul::autotuner(self.inputs, self.output(), self.epilogue, options)
                .map_err(|e| err(&e))?;
            let key = format!("{m}x{n}x{k}");
            tuner
                .launch(device, &key, |c| matmul::autotuned_grid(c, m, n), &args)
                .map_err(|e| err(&e))?;
            device.synchronize().map_err(|e| err(&e))?;
            if let Some(t) = tuner.tunings().last() {
                println!(
                    "  autotuned {key}: {}",
                    tuner
                        .configs()
                        .nth(t.chosen)
                        .map_or(String::new(), |c| c.to_string())
                );
            }
        } else {
            let grid = (m.div_ceil(self.config.block_m as usize)
                * n.div_ceil(self.config.block_n as usize)) as u32;
            loaded.launch(grid, &args)?;
        }
        let got: Vec<u32> = device.download(&c).map_err(|e| err(&e))?;
        // The operands as the kernel's multiplications see them.
        let round = |x: f32| match (self.inputs, self.precision) {
            (DType::F32, None | Some(InputPrecision::Tf32)) => tf32(x),
            _ => x,
        };
        let a_at = |i: usize, kk: usize| round(a.values[index(self.a, m, k, i, kk)]);
        let b_at = |kk: usize, j: usize| round(b.values[index(self.b, k, n, kk, j)]);
        let mut want = vec![0f64; m * n];
        let mut magnitude = vec![0f64; m * n];
        for i in 0..m {
            for j in 0..n {
                let (mut s, mut mag) =
                    sum((0..k).map(|kk| f64::from(a_at(i, kk)) * f64::from(b_at(kk, j))));
                if self.epilogue == Epilogue::BiasRelu {
                    s = (s + f64::from(bias[j])).max(0.0);
                    mag += f64::from(bias[j]).abs();
                }
                want[i * n + j] = s;
                magnitude[i * n + j] = mag.max(f64::MIN_POSITIVE);
            }
        }
        if self.inputs == DType::I8 {
            let got: Vec<f32> = got[..m * n]
                .iter()
                .map(|&x| x as i32 as f32)
                .chain(got[m * n..].iter().map(|&x| f32::from_bits(x)))
                .collect();
            compare_close(&got, &want, &magnitude, 0.0)
        } else {
            let got: Vec<f32> = got.iter().map(|&x| f32::from_bits(x)).collect();
            compare_close(&got, &want, &magnitude, TOLERANCE)
        }
    }
}

/// The element (`row`, `col`) of a `rows x cols` operand stored as `s`.
fn index(s: Storage, rows: usize, cols: usize, row: usize, col: usize) -> usize {
    match s {
        Storage::RowMajor => row * cols + col,
        _ => col * rows + row,
    }
}
