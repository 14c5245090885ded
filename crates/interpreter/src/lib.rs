//! A CPU interpreter of tile IR with the GPU path's semantics.
//!
//! [`Interpreter`] reads a kernel's tile IR (as the builder made it, before
//! any pass) into a [`Program`] and runs it over host memory for the whole
//! grid, program after program, each op on whole tensors:
//!
//! - masked loads read `other` (zero without one) where the mask is off and
//!   touch no memory there; masked stores write nothing there;
//! - pointers move by elements of their pointee, with 32- or 64-bit
//!   offsets as the IR has them;
//! - block pointers read and write the block at their offsets in the
//!   strided view; along the axes in `boundary_check`, elements outside the
//!   view read the padding (zero, NaN, a constant; `undefined` reads NaN or
//!   0) and are not written;
//! - integers wrap at their width; floats are rounded to their type after
//!   every op; casts saturate as `cvt.rzi` does; reductions are described
//!   in [`reduce`];
//! - an access that no mask covers and that leaves the allocation its
//!   pointer came from (or is misaligned), and an integer division by
//!   zero, stop the launch with a
//!   [`RuntimeError::Interpreter`](tile_runtime::RuntimeError) naming the
//!   op, the user's source line, the program and the element.
//!
//! Where the GPU differs: its float sums group by layout, `exp`, `log`,
//! `rsqrt`, `sin`, `cos`, `tanh`, `erf`, `/` on f16/bf16/f32 (and `div_approx`) and `tanh_approx` are approximations (see the table in
//! [`tile_dialect::float_math`]), and its compiler may fuse a multiply and an
//! add. The interpreter rounds each op correctly instead (transcendentals
//! through `f64`), so float results agree within a few ULP, not bit for
//! bit. Ops the GPU path refuses (f64 transcendentals, `remf`: what
//! [`tile_dialect::float_math`] does not compile) are refused here too,
//! when the program is read.
//!
//! The interpreter is a [`HostKernel`]: an interpreter
//! [`Device`](tile_runtime::Device) (`Device::interpreter()`, or any device
//! opened with `TILE_INTERPRET=1`) runs `tile::jit` kernels through it, so
//! the same user code runs on either.

pub mod atomic;
pub mod dot;
pub mod exec;
pub mod float;
pub mod memory;
pub mod print;
pub mod program;
pub mod rearrange;
pub mod reduce;
pub mod scan;
pub mod value;

pub use program::{Program, TranslateError};

use melior::ir::Module;
use tile_runtime::{Arg, HostKernel, HostMemory, Result};

/// A kernel read for interpretation.
#[derive(Clone, Debug)]
pub struct Interpreter {
    program: Program,
}

impl Interpreter {
    /// Reads the kernel in `module` (tile IR as the builder makes it; see
    /// [`Program::read`]).
    pub fn from_module(module: &Module) -> std::result::Result<Interpreter, TranslateError> {
        Ok(Interpreter {
            program: Program::read(module)?,
        })
    }

    /// The same interpreter with assertions checked (`true`, a debug
    /// build) or skipped.
    pub fn debug(mut self, on: bool) -> Self {
        self.program.debug = on;
        self
    }

    /// The same interpreter with at most `limit` loop iterations a launch
    /// (`None`: no limit; see [`Program::step_limit`]). A launch that
    /// reaches it stops with
    /// [`InterpretFault::StepLimit`](tile_runtime::InterpretFault) at the
    /// loop that was running: a loop that never ends, or programs that
    /// wait on one another (they run one after another here).
    pub fn step_limit(mut self, limit: Option<u64>) -> Self {
        self.program.step_limit = limit;
        self
    }

    /// The program it runs.
    pub fn program(&self) -> &Program {
        &self.program
    }

    /// Runs every program of `grid` against `memory`.
    pub fn run(&self, memory: &mut HostMemory, grid: [u32; 3], args: &[Arg]) -> Result<()> {
        exec::run(&self.program, memory, grid, args)
    }
}

impl HostKernel for Interpreter {
    fn name(&self) -> &str {
        &self.program.name
    }

    fn run(&self, memory: &mut HostMemory, grid: [u32; 3], args: &[Arg]) -> Result<()> {
        Interpreter::run(self, memory, grid, args)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tile_dialect::{DType, Kernel};
    use tile_runtime::{DevicePtr, InterpretFault, RuntimeError};

    fn vector_add(context: &melior::Context, masked: bool) -> Kernel<'_> {
        Kernel::build(context, "add", |k| {
            let x = k.arg_ptr("x", DType::F32);
            let y = k.arg_ptr("y", DType::F32);
            let out = k.arg_ptr("out", DType::F32);
            let n = k.arg("n", DType::I32);
            let offs = k.program_id(0) * 64 + k.arange(0, 64);
            let m = offs.lt(n);
            if masked {
                let a = k.load(x + offs).mask(m).other(0.0).build();
                let b = k.load(y + offs).mask(m).other(0.0).build();
                k.store(out + offs, a + b).mask(m).build();
            } else {
                let a = k.load(x + offs).build();
                let b = k.load(y + offs).build();
                k.store(out + offs, a + b).build();
            }
        })
        .unwrap()
    }

    fn upload(m: &mut HostMemory, v: &[f32]) -> u64 {
        let a = m.alloc(v.len() * 4);
        let bytes: Vec<u8> = v.iter().flat_map(|x| x.to_le_bytes()).collect();
        m.range_mut(a, bytes.len()).unwrap().copy_from_slice(&bytes);
        a
    }

    fn download(m: &HostMemory, a: u64, n: usize) -> Vec<f32> {
        m.range(a, n * 4)
            .unwrap()
            .chunks(4)
            .map(|c| f32::from_le_bytes(c.try_into().unwrap()))
            .collect()
    }

    fn args(x: u64, y: u64, out: u64, n: i32) -> [Arg; 4] {
        [
            Arg::from(DevicePtr(x)),
            Arg::from(DevicePtr(y)),
            Arg::from(DevicePtr(out)),
            Arg::I32(n),
        ]
    }

    #[test]
    fn masked_vector_add_on_an_irregular_size() {
        let context = tile_dialect::context::new_context().unwrap();
        let kernel = vector_add(&context, true);
        let interp = Interpreter::from_module(kernel.module()).unwrap();
        let n = 150;
        let mut m = HostMemory::new();
        let xs: Vec<f32> = (0..n).map(|i| i as f32 * 0.5).collect();
        let ys: Vec<f32> = (0..n).map(|i| 1.0 - i as f32).collect();
        let (x, y) = (upload(&mut m, &xs), upload(&mut m, &ys));
        let out = upload(&mut m, &vec![-7.0; n + 10]);
        interp
            .run(&mut m, [3, 1, 1], &args(x, y, out, n as i32))
            .unwrap();
        let got = download(&m, out, n + 10);
        for i in 0..n {
            assert_eq!(got[i], xs[i] + ys[i], "[{i}]");
        }
        assert!(
            got[n..].iter().all(|&v| v == -7.0),
            "past n nothing is written"
        );
    }

    #[test]
    fn an_unmasked_load_past_the_end_names_the_op_and_line() {
        let context = tile_dialect::context::new_context().unwrap();
        let kernel = vector_add(&context, false);
        let interp = Interpreter::from_module(kernel.module()).unwrap();
        let mut m = HostMemory::new();
        let (x, y, out) = (
            upload(&mut m, &[1.0; 100]),
            upload(&mut m, &[2.0; 128]),
            upload(&mut m, &[0.0; 128]),
        );
        let e = interp
            .run(&mut m, [2, 1, 1], &args(x, y, out, 100))
            .unwrap_err();
        let RuntimeError::Interpreter(e) = e else {
            panic!("{e}")
        };
        assert_eq!(e.op, "tile.load");
        assert_eq!(e.program, [1, 0, 0]);
        assert!(
            e.location.starts_with(concat!(file!(), ":")),
            "{}",
            e.location
        );
        match e.fault {
            InterpretFault::OutOfBounds {
                write,
                index,
                pointer,
                ..
            } => {
                assert!(!write);
                assert_eq!(index, vec![36]);
                assert_eq!(pointer, "x");
            }
            f => panic!("{f}"),
        }
    }
}

#[cfg(test)]
mod exactness_tests {
    use super::*;
    use tile_dialect::{DType, Kernel};

    fn program(build: impl FnOnce(&tile_dialect::KernelBuilder<'_>)) -> Program {
        let context = tile_dialect::context::new_context().unwrap();
        let kernel = Kernel::build(&context, "k", |k| build(k)).unwrap();
        Interpreter::from_module(kernel.module()).unwrap().program
    }

    #[test]
    fn only_fusable_sums_approximations_and_float_reductions_round_differently() {
        let elementwise = program(|k| {
            let x = k.arg_ptr("x", DType::F32);
            let offs = k.arange(0, 16);
            let v = k.load(x + offs).build();
            k.store(x + offs, (v + 1.0) / 3.0).build();
        });
        assert!(!elementwise.rounds_floats());
        let fma = program(|k| {
            let x = k.arg_ptr("x", DType::F32);
            let offs = k.arange(0, 16);
            let v = k.load(x + offs).build();
            k.store(x + offs, v * 2.5 + 1.0).build();
        });
        assert!(fma.rounds_floats());
        let sum = program(|k| {
            let x = k.arg_ptr("x", DType::F32);
            let v = k.load(x + k.arange(0, 16)).build();
            k.store(x, v.sum(0)).build();
        });
        assert!(sum.rounds_floats());
        let int_sum = program(|k| {
            let x = k.arg_ptr("x", DType::I32);
            let v = k.load(x + k.arange(0, 16)).build();
            k.store(x, v.sum(0)).build();
        });
        assert!(!int_sum.rounds_floats());
        let exp = program(|k| {
            let x = k.arg_ptr("x", DType::F32);
            let offs = k.arange(0, 16);
            let v = k.load(x + offs).build();
            k.store(x + offs, v.exp()).build();
        });
        assert!(exp.rounds_floats());
    }
}
