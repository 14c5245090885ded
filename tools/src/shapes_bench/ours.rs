//! Ours on one case: its tensors on the device (inputs drawn once and
//! rounded to the type, outputs poisoned and guarded), then each
//! configuration compiled specialized on its arguments (through
//! [`tile::jit()`], which compiles the variant for the facts of the launch's
//! arguments, as Triton specializes), run once, checked ([`super::check`])
//! and, on a GPU, timed ([`ours`]).

use super::cases::{Case, Config};
use super::check::{self, Stored, poison_bits, stored_bits};
use crate::gpu_check::{GUARD, inputs};
use crate::timing::Timer;
use tile::{Arg, Buffer, Device, Jit, Options, Resources};
use tile_dialect::DType;
use tile_examples::tile_shapes::{self, Cover, EPS, ShapeKernel, Tiles};

fn err(e: impl std::fmt::Display) -> String {
    e.to_string()
}

/// One pointer argument's tensor.
struct Tensor {
    dtype: DType,
    len: usize,
    /// An input's values as stored (rounded to its type); empty for an
    /// output.
    values: Vec<f32>,
    output: bool,
    buffer: Buffer<u8>,
}

/// The bytes of `len` poisoned elements of `d` and the guard after them.
fn poisoned_bytes(d: DType, len: usize) -> Vec<u8> {
    let width = (d.bits() / 8) as usize;
    poison_bits(d).to_le_bytes()[..width].repeat(len + GUARD)
}

/// A case's tensors, in the kernel's pointer order.
pub struct Operands {
    case: Case,
    tensors: Vec<Tensor>,
}

impl Operands {
    /// Draws the inputs (values in [-8, 8), rounded to their type) and
    /// allocates the outputs (poisoned, guarded) of `case` on `device`.
    pub fn new(device: &Device, case: &Case) -> Result<Operands, String> {
        let (m, n) = (case.m, case.n);
        let kernel = case.kernel;
        let mut tensors = Vec::new();
        for (seed, &name) in kernel.pointers().iter().enumerate() {
            let dtype = kernel.pointer_type(name, case.dtype);
            let len = match name {
                "W" | "B" | "bias_ptr" => n,
                "Mean" | "Rstd" | "scale_ptr" => m,
                "out_ptr" if kernel.cover() == Cover::Columns => n,
                "out_ptr" if kernel == ShapeKernel::RowSumLoop => m,
                _ => m * n,
            };
            let output = kernel.is_output(name);
            let (values, bytes) = if output {
                (Vec::new(), poisoned_bytes(dtype, len))
            } else {
                encode(dtype, inputs(len, 71 + seed as u64))
            };
            let buffer = device.upload(&bytes).map_err(err)?;
            tensors.push(Tensor {
                dtype,
                len,
                values,
                output,
                buffer,
            });
        }
        Ok(Operands {
            case: *case,
            tensors,
        })
    }

    /// The launch arguments: the pointers, then [`scalar_args`].
    pub fn args(&self) -> Vec<Arg> {
        let mut args: Vec<Arg> = self.tensors.iter().map(|t| Arg::from(&t.buffer)).collect();
        args.extend(scalar_args(&self.case));
        args
    }

    /// Poisons every output again (before a configuration's checked run).
    pub fn poison(&mut self, device: &Device) -> Result<(), String> {
        for t in self.tensors.iter_mut().filter(|t| t.output) {
            device
                .write(&mut t.buffer, &poisoned_bytes(t.dtype, t.len))
                .map_err(err)?;
        }
        Ok(())
    }

    /// Downloads the outputs of a run with `tiles` and checks them
    /// ([`check::check`]).
    pub fn check(&self, device: &Device, tiles: Tiles) -> Result<(), String> {
        let inputs: Vec<&[f32]> = self
            .tensors
            .iter()
            .filter(|t| !t.output)
            .map(|t| t.values.as_slice())
            .collect();
        let outputs = self
            .tensors
            .iter()
            .filter(|t| t.output)
            .map(|t| {
                Ok(Stored {
                    dtype: t.dtype,
                    len: t.len,
                    raw: device.download(&t.buffer).map_err(err)?,
                })
            })
            .collect::<Result<Vec<_>, String>>()?;
        check::check(&self.case, tiles, &inputs, &outputs)
    }
}

/// The launch arguments of `case` after its pointers: `M`, `N`, then the
/// kernel's strides (and `eps`) as [`tile_shapes::kernel`] documents them,
/// for contiguous row-major tensors.
pub fn scalar_args(case: &Case) -> Vec<Arg> {
    let (m, n) = (case.m as i32, case.n as i32);
    let mut args = vec![Arg::from(m), Arg::from(n)];
    match case.kernel {
        ShapeKernel::LayerNorm
        | ShapeKernel::LayerNormY
        | ShapeKernel::LayerNormBlock
        | ShapeKernel::LayerNormLoop => {
            args.extend([Arg::from(n), Arg::from(EPS)]);
        }
        ShapeKernel::Transpose | ShapeKernel::TransposeBlock | ShapeKernel::TransposeOrder => {
            args.extend([Arg::from(n), Arg::from(m)])
        }
        ShapeKernel::ColSumStep
        | ShapeKernel::ColSumEnd
        | ShapeKernel::ColSumStaged
        | ShapeKernel::ColSumPtrs
        | ShapeKernel::ColSumBlock
        | ShapeKernel::RowSumLoop => args.push(Arg::from(n)),
        ShapeKernel::Softmax
        | ShapeKernel::ScaleBias
        | ShapeKernel::Gelu
        | ShapeKernel::GeluFast
        | ShapeKernel::ChunkCumsum
        | ShapeKernel::ChunkCumsumPtrs
        | ShapeKernel::ChunkCumsumRev
        | ShapeKernel::RowCumsum
        | ShapeKernel::SoftmaxOnline => {
            args.extend([Arg::from(n), Arg::from(n)]);
        }
    }
    args
}

/// The bytes of `values` stored as `d`, and the values as stored.
fn encode(d: DType, mut values: Vec<f32>) -> (Vec<f32>, Vec<u8>) {
    let width = (d.bits() / 8) as usize;
    let mut bytes = Vec::with_capacity(values.len() * width);
    for v in &mut values {
        let bits = stored_bits(d, *v);
        bytes.extend_from_slice(&bits.to_le_bytes()[..width]);
        if d != DType::F32 {
            *v = crate::elements::from_bits(d, bits as u16);
        }
    }
    (values, bytes)
}

/// A configuration compiled, run once on fresh outputs and checked: the
/// kernel (its variant for these arguments compiled) and its grid.
pub struct Checked {
    /// The kernel, through the JIT.
    pub jit: Jit,
    /// Its launch grid.
    pub grid: (u32, u32),
}

/// Builds `operands`' kernel in `config`, launches it once on `device`
/// (compiling the variant specialized on the arguments) and checks the
/// outputs. A row kernel whose `BLOCK_N` is below `N` is refused. With
/// `launch_order` off the programs start in the order launched
/// ([`Options::launch_order`]).
pub fn run_checked(
    device: &Device,
    operands: &mut Operands,
    config: &Config,
    launch_order: bool,
) -> Result<Checked, String> {
    let case = operands.case;
    if case.kernel.cover() == Cover::Rows && (config.tiles.bn as usize) < case.n {
        return Err(format!(
            "BLOCK_N {} is below N = {}",
            config.tiles.bn, case.n
        ));
    }
    let context = tile::context().map_err(err)?;
    let kernel =
        tile_shapes::kernel(&context, case.kernel, config.tiles, case.dtype).map_err(err)?;
    let options = Options {
        num_stages: config.stages,
        launch_order,
        ..Options::with_warps(config.warps)
    };
    let jit = tile::jit(&kernel, options).map_err(err)?;
    let grid = tile_shapes::grid(case.kernel, config.tiles, (case.m, case.n));
    operands.poison(device)?;
    jit.launch(device, grid, &operands.args()).map_err(err)?;
    operands.check(device, config.tiles)?;
    Ok(Checked { jit, grid })
}

/// The PTX of `case` in `config` as the GPU's JIT compiles it for the
/// launches of [`ours`] (specialized on 16-byte aligned buffers and the
/// case's scalar arguments, the launch order as `launch_order`), without a
/// device: for reading the code of one configuration beside Triton's.
pub fn ptx(case: &Case, config: &Config, launch_order: bool) -> Result<String, String> {
    let context = tile::context().map_err(err)?;
    let kernel =
        tile_shapes::kernel(&context, case.kernel, config.tiles, case.dtype).map_err(err)?;
    // Device buffers are allocated 256-byte aligned; any such address
    // gives the same facts.
    let mut args: Vec<Arg> = case
        .kernel
        .pointers()
        .iter()
        .map(|_| Arg::from(tile::DevicePtr(1 << 20)))
        .collect();
    args.extend(scalar_args(case));
    let options = Options {
        num_stages: config.stages,
        launch_order,
        ..Options::with_warps(config.warps)
    }
    .specialized(tile::Specialization::of(&args));
    Ok(tile::compile(&kernel, &options).map_err(err)?.ptx)
}

/// What ours measured on one case.
#[derive(Clone, Debug)]
pub struct Measured {
    /// A device-to-device copy of the case's `[M, N]` tensor, ms.
    pub copy_ms: Result<f64, String>,
    /// Each configuration's median, ms, or why it has none.
    pub times: Vec<Result<f64, String>>,
}

/// Ours on `case` in each of `configs` on `device`: the copy of its
/// tensor timed first, then each configuration checked and timed with
/// `timer` (one line printed for each); `launch_order` as in
/// [`run_checked`].
pub fn ours(
    device: &Device,
    case: &Case,
    configs: &[Config],
    timer: &mut Timer,
    launch_order: bool,
) -> Measured {
    let label = case.label();
    let copy_elems = case.tensor_bytes().div_ceil(4) as usize;
    let copy_ms = timer.copy_ms(copy_elems);
    match &copy_ms {
        Ok(ms) => println!("  copy {label}: {ms:.4} ms"),
        Err(e) => println!("  copy {label}: {e}"),
    }
    let mut operands = match Operands::new(device, case) {
        Ok(o) => o,
        Err(e) => {
            println!("  ours {label}: {e}");
            let times = configs.iter().map(|_| Err(e.clone())).collect();
            return Measured { copy_ms, times };
        }
    };
    let times = configs
        .iter()
        .map(|config| {
            let mut used = None;
            let time = run_checked(device, &mut operands, config, launch_order).and_then(|c| {
                let args = operands.args();
                // On a GPU the variant compiled for these arguments is
                // launched as loaded; the interpreter runs the IR.
                let loaded = match device.is_interpreter() {
                    true => None,
                    false => Some(c.jit.variant(device, &args).map_err(err)?),
                };
                used = loaded.as_ref().and_then(|l| l.resources());
                timer.median_ms(|| match &loaded {
                    Some(loaded) => loaded.launch_async(c.grid, &args),
                    None => c.jit.launch_async(device, c.grid, &args),
                })
            });
            let used = used.map(|r| resources_text(&r)).unwrap_or_default();
            match &time {
                Ok(ms) => println!(
                    "  ours {label} {}: checked, {ms:.4} ms{used}",
                    config.name()
                ),
                Err(e) => println!("  ours {label} {}: FAIL {e}", config.name()),
            }
            time
        })
        .collect();
    Measured { copy_ms, times }
}

/// ` (35 regs, 0 B local, 1 block/SM)`: what the driver's JIT made of a
/// configuration.
pub fn resources_text(r: &Resources) -> String {
    format!(
        " ({} regs, {} B local, {} block/SM)",
        r.registers, r.local_bytes, r.blocks_per_multiprocessor
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::timing::Timing;
    use tile_examples::tile_shapes::Tiles;

    /// The whole of our side on the interpreter: the copy, two
    /// configurations checked and timed, one refused.
    #[test]
    fn ours_checks_and_times_each_configuration() {
        let device = Device::interpreter();
        let mut timer = Timer::new(&device, Timing { warmup: 1, reps: 1 }).unwrap();
        let case = Case {
            kernel: ShapeKernel::Softmax,
            dtype: DType::F16,
            m: 5,
            n: 30,
        };
        let configs = [
            Config::new(2, 32, 1),
            Config::new(4, 32, 2),
            Config::new(4, 16, 1),
        ];
        let measured = ours(&device, &case, &configs, &mut timer, true);
        assert!(measured.copy_ms.is_ok());
        assert!(
            measured.times[0].is_ok() && measured.times[1].is_ok(),
            "{measured:?}"
        );
        let refused = measured.times[2].as_ref().unwrap_err();
        assert!(refused.contains("BLOCK_N 16 is below N = 30"), "{refused}");
        let operands = Operands::new(&device, &case).unwrap();
        assert_eq!(operands.args().len(), 6);
        assert_eq!(
            tile_shapes::grid(case.kernel, Tiles { bm: 2, bn: 32 }, (5, 30)),
            (3, 1)
        );
    }
}
