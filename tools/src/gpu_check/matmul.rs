//! The GPU cases of `tile.dot`: the tutorial matmul
//! (`tile_examples::matmul`) against an f64 reference on irregular sizes,
//! in every input type and precision, with transposed operands, on
//! `wgmma` (sm_90), `mma.sync` (sm_80) and the CUDA cores (f32 `ieee`).
//!
//! Reference: the exact sum of the products of the inputs as the kernel
//! sees them (rounded to f16 or bf16; for `tf32`, rounded to TF32 as
//! `cvt.rna.tf32.f32` does). Tolerance: each output within [`TOLERANCE`] of
//! the sum of its terms' magnitudes and of the largest output; the
//! accumulation in f32 (in whatever order tensor cores add) errs by a few
//! units of f32's precision of that sum, while a wrong row, column, step or
//! fragment moves an output by the order of its terms. i8 products are
//! exact in i32.

use super::reductions::compare_close;
use super::{GUARD, Outcome, POISON, Specializing, inputs};
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
        format!(
            "{}x{}x{} {}{precision} A {} B {} tiles {}x{}x{} warps={} stages={} {}{epilogue}",
            self.m,
            self.n,
            self.k,
            self.inputs,
            self.a.name(),
            self.b.name(),
            c.block_m,
            c.block_n,
            c.block_k,
            self.warps,
            self.stages,
            self.chip
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
        let options = Options {
            chip: self.chip.into(),
            num_stages: self.stages,
            ..Options::with_warps(self.warps)
        };
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
                let (mut s, mut mag) = (0f64, 0f64);
                for kk in 0..k {
                    let t = f64::from(a_at(i, kk)) * f64::from(b_at(kk, j));
                    s += t;
                    mag += t.abs();
                }
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

/// `x` rounded to TF32 (to nearest, ties away from zero).
pub(crate) fn tf32(x: f32) -> f32 {
    if !x.is_finite() {
        return x;
    }
    f32::from_bits((x.to_bits() + 0x1000) & !0x1fff)
}

/// An operand uploaded in its type, and the values the kernel reads.
pub(crate) struct Operand {
    pub(crate) values: Vec<f32>,
    arg: Arg,
    _keep: Box<dyn std::any::Any>,
}

impl Operand {
    pub(crate) fn new(device: &Device, len: usize, seed: u64, d: DType) -> Result<Operand, String> {
        let raw = inputs(len, seed);
        let e = |e: tile::RuntimeError| e.to_string();
        let (values, arg, keep): (Vec<f32>, Arg, Box<dyn std::any::Any>) = match d {
            DType::F16 => {
                let bits: Vec<u16> = raw
                    .iter()
                    .map(|&x| half::f16::from_f32(x).to_bits())
                    .collect();
                let values = bits
                    .iter()
                    .map(|&b| half::f16::from_bits(b).to_f32())
                    .collect();
                let buffer = device.upload(&bits).map_err(e)?;
                (values, Arg::from(&buffer), Box::new(buffer))
            }
            DType::BF16 => {
                let bits: Vec<u16> = raw
                    .iter()
                    .map(|&x| half::bf16::from_f32(x).to_bits())
                    .collect();
                let values = bits
                    .iter()
                    .map(|&b| half::bf16::from_bits(b).to_f32())
                    .collect();
                let buffer = device.upload(&bits).map_err(e)?;
                (values, Arg::from(&buffer), Box::new(buffer))
            }
            DType::F32 => {
                let buffer = device.upload(&raw).map_err(e)?;
                (raw, Arg::from(&buffer), Box::new(buffer))
            }
            DType::I8 => {
                let ints: Vec<i8> = raw.iter().map(|&x| x.floor() as i8).collect();
                let values = ints.iter().map(|&i| f32::from(i)).collect();
                let buffer = device.upload(&ints).map_err(e)?;
                (values, Arg::from(&buffer), Box::new(buffer))
            }
            other => return Err(format!("no matmul inputs of {other}")),
        };
        Ok(Operand {
            values,
            arg,
            _keep: keep,
        })
    }

    pub(crate) fn arg(&self) -> Arg {
        self.arg
    }
}

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
