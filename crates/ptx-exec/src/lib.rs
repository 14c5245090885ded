//! A CPU executor of the PTX the tile compiler emits.
//!
//! The tile interpreter (`tile-interpreter`) runs a kernel's tile IR as the
//! builder made it, before any pass: it checks the program's meaning, not
//! the code we ship. A bug in layouts, masks, vectorization or pipelining
//! shows only where the lowered code runs. This crate runs that code.
//!
//! **Why PTX and not an MLIR stage.** PTX is what we ship: the NVPTX
//! back end's output with the inline PTX our lowering writes through its
//! asm builder spliced in, so executing it covers our passes *and* LLVM's
//! translation and back end (a wrong `nvvm` lowering, a miscompiled
//! predicate) where a stage before them would not. It is a flat ISA with
//! a precise public specification (registers, state spaces, predicated
//! instructions, a handful of collectives), small enough to parse and run
//! without MLIR or LLVM in-process: this crate depends on `tile-runtime`
//! only (for [`HostMemory`], [`Arg`] and [`HostKernel`]) and on no
//! compiler crate, so it can never share a bug with the pipeline it checks.
//!
//! **What it runs.** [`PtxKernel::new`] reads the module ([`parse`](mod@parse)) and
//! decodes every instruction once ([`decode`]): any opcode outside the
//! subset is [`ExecError::Unsupported`] with its PTX line, before anything
//! runs, never a silent wrong result. The subset is what the compiler
//! emits for the example kernels on sm_80: `mov` (packing and unpacking
//! vectors), `ld`/`st` in `.param`, `.global`, `.shared` and generic
//! space (`.v2`/`.v4`, cache and eviction qualifiers ignored), integer
//! `add sub mul.{lo,hi,wide} mad.{lo,hi,wide} div rem min max abs neg and
//! or xor not shl shr bfe bfi prmt` (`prmt.b32` in its default mode),
//! float `add sub mul div fma.rn min max
//! (.NaN) abs neg copysign rcp sqrt`, `div.full.f32` (as the correctly
//! rounded quotient, within its 2 ulp) and the `.approx` `ex2 lg2 tanh sin
//! cos rsqrt rcp` (see [`value`] for their references and the tolerances
//! tests must allow), `setp` (ordered, unordered, `.and/.or/.xor`, `p|q`,
//! and `.f16x2`/`.bf16x2` comparing each half into `p` and `q`),
//! `add`/`sub`/`mul`/`min`/`max` on `.f16x2`/`.bf16x2` (each half alone),
//! `selp`, `cvt` (integer widths with `.sat`, a signed destination
//! narrower than its register sign-extended into it, float to integer with
//! `.rni/.rzi/.rmi/.rpi` saturating, integer to float `.rn`, float
//! to float incl. `f16`/`bf16` `.rn` and `.sat`), `cvta`, `bra`, `ret`,
//! `exit`, `bar.sync`, `shfl.sync` (all modes, clamp and segment mask),
//! `atom`/`red` (global and shared; add, min, max, and, or, xor, exch,
//! cas, inc, dec; f16/bf16 `add.noftz`), `membar`/`fence` (nothing to do), `add.cc`/`addc`/
//! `sub.cc`/`subc` (the carry flag), `cvt.rna.tf32.f32`,
//! `cvt.rn.{f16x2,bf16x2}.f32`, and sm_80's
//! tensor cores and asynchronous copies: `mma.sync.aligned` (`m16n8k16`
//! f16/bf16 and `m16n8k8` tf32 into f32, `m16n8k32` s8/u8 into s32, with
//! the PTX ISA's fragment layouts; see [`exec::matrix`] for the f32
//! accumulation and the bounds tests must allow), `ldmatrix` (`.x1/.x2/
//! .x4`, `.trans`) and `cp.async.{ca,cg}` with `src-size` or
//! `ignore-src`, `commit_group`, `wait_group N` and `wait_all`: a copy
//! lands in shared memory only at the wait that covers its group
//! ([`exec::async_copy`]), so reading a stage too early reads stale
//! bytes. Register writes keep the low bits of the register's declared
//! width. And sm_90's: `wgmma.mma_async` (`m64nNk16` f16/bf16, `k8`
//! tf32, `k32` s8/u8; A from registers or shared memory, K- or MN-major)
//! through matrix descriptors with the 32-, 64- and 128-byte swizzles
//! ([`exec::descriptor`]), `wgmma.fence`, `commit_group` and `wait_group
//! N`, with an accumulator touched before the wait that retires its
//! product reported, not read stale ([`exec::wgmma`]);
//! `fence.proxy.async`; `.v2`/`.v4` f32 `atom.add`. Not yet: TMA
//! (`cp.async.bulk`), `mbarrier`, `stmatrix`, `vote`, `call`
//! (`vprintf`), f8 conversions, local memory.
//!
//! **How it runs.** A launch ([`exec::launch`]) lays the arguments out in
//! the parameter space at the entry's `.param` offsets, as the driver
//! copies `cuLaunchKernel`'s `kernelParams`, then runs the CTAs one after
//! another. In a CTA each thread runs alone until it reaches a collective
//! (`bar.sync`, `shfl.sync`) or exits; a shuffle runs when every live lane
//! of its warp waits at it, a barrier when every thread of the CTA does
//! ([`exec::cta`]). Anything else is [`ExecError::Divergence`]: threads at
//! a barrier while others exited or wait elsewhere. Global accesses go
//! through [`HostMemory`] (the interpreter's, so both can run on the same
//! buffers), each bounds- and alignment-checked against its allocation
//! ([`ExecError::OutOfBounds`] names the PTX line, thread, CTA and
//! address). Warp-wide matrix instructions (`mma.sync`, `ldmatrix`) run
//! like shuffles, once all 32 lanes wait at them. Shared memory is per
//! CTA, starts with every byte all ones (NaN in every float type, -1 in
//! integers: a GPU's starts with leftovers, so a result that reads a byte
//! nobody wrote must not come out right by the accident of zeros;
//! [`exec::shared::UNWRITTEN`]), with a race detector
//! ([`ExecError::SharedRace`]: two threads on one byte between barriers,
//! one writing, except a store of the bytes another thread's store left,
//! as the threads that hold one element of a replicated layout all do).
//! Atomics are atomic because one thread runs at a time.
//!
//! ```
//! use tile_ptx_exec::PtxKernel;
//! use tile_runtime::{Arg, DevicePtr, HostMemory};
//!
//! let ptx = r#"
//! .version 8.1
//! .target sm_80
//! .address_size 64
//! .visible .entry twice(.param .u64 p)
//! {
//!     .reg .b32 %r<3>;
//!     .reg .b64 %rd<4>;
//!     ld.param.u64 %rd1, [p];
//!     mov.u32 %r1, %tid.x;
//!     mul.wide.u32 %rd2, %r1, 4;
//!     add.s64 %rd3, %rd1, %rd2;
//!     shl.b32 %r2, %r1, 1;
//!     st.global.u32 [%rd3], %r2;
//!     ret;
//! }
//! "#;
//! let kernel = PtxKernel::new(ptx, "twice", 1, 0)?;
//! let mut memory = HostMemory::new();
//! let out = memory.alloc(32 * 4);
//! kernel.execute(&mut memory, [1, 1, 1], &[Arg::from(DevicePtr(out))])?;
//! assert_eq!(memory.range(out + 4 * 5, 4).unwrap(), &10u32.to_le_bytes());
//! # Ok::<(), tile_ptx_exec::ExecError>(())
//! ```

pub mod ast;
pub mod decode;
pub mod device;
pub mod error;
pub mod exec;
pub mod parse;
pub mod value;

pub use device::{device, sm_90_device};
pub use error::{At, ExecError};
pub use parse::parse;

use ast::Entry;
use tile_runtime::{
    Arg, HostKernel, HostMemory, InterpretError, InterpretFault, Result, RuntimeError,
};

/// One `.entry` of a PTX module, ready to launch on the CPU with a fixed
/// block shape (`num_warps * 32` threads in x, as the runtime launches
/// compiled kernels) and dynamic shared memory.
#[derive(Clone, Debug)]
pub struct PtxKernel {
    entry: Entry,
    num_warps: u32,
    dynamic_smem: u64,
}

impl PtxKernel {
    /// Reads `ptx` and takes its entry `name`, launched with `num_warps`
    /// warps and `dynamic_smem` bytes of dynamic shared memory per CTA
    /// (a compiled kernel's `KernelSpec::num_warps` and
    /// `KernelSpec::shared_mem_bytes`).
    pub fn new(
        ptx: &str,
        name: &str,
        num_warps: u32,
        dynamic_smem: u32,
    ) -> std::result::Result<PtxKernel, ExecError> {
        let module = parse(ptx)?;
        let entry = module
            .entries
            .into_iter()
            .find(|e| e.name == name)
            .ok_or_else(|| ExecError::NoEntry(name.to_string()))?;
        Ok(PtxKernel {
            entry,
            num_warps,
            dynamic_smem: u64::from(dynamic_smem),
        })
    }

    /// The parsed entry.
    pub fn entry(&self) -> &Entry {
        &self.entry
    }

    /// Runs every CTA of `grid` against `memory`, with typed errors.
    pub fn execute(
        &self,
        memory: &mut HostMemory,
        grid: [u32; 3],
        args: &[Arg],
    ) -> std::result::Result<(), ExecError> {
        let shape = exec::Launch {
            grid,
            block: [self.num_warps * 32, 1, 1],
            dynamic_smem: self.dynamic_smem,
        };
        exec::launch(&self.entry, memory, shape, args)
    }
}

impl HostKernel for PtxKernel {
    fn name(&self) -> &str {
        &self.entry.name
    }

    /// Runs the grid; a fault becomes [`RuntimeError::Interpreter`]
    /// whose `op` is the opcode, `location` the PTX line and thread, and
    /// `fault` an [`InterpretFault::OutOfBounds`] or an
    /// [`InterpretFault::Unsupported`] carrying the message.
    fn run(&self, memory: &mut HostMemory, grid: [u32; 3], args: &[Arg]) -> Result<()> {
        self.execute(memory, grid, args).map_err(|e| {
            let (pointer, allocation) = match &e {
                ExecError::OutOfBounds { address, .. } => {
                    pointer_below(&self.entry, memory, args, *address)
                }
                _ => (None, None),
            };
            let (op, location, program, fault) = match &e {
                ExecError::OutOfBounds {
                    at,
                    address,
                    bytes,
                    write,
                    ..
                } => (
                    at.opcode.clone(),
                    at.to_string(),
                    at.cta,
                    InterpretFault::OutOfBounds {
                        write: *write,
                        index: at.thread.iter().map(|&v| i64::from(v)).collect(),
                        address: *address,
                        bytes: *bytes,
                        pointer: pointer.clone().unwrap_or_default(),
                        allocation,
                    },
                ),
                other => (
                    "ptx".to_string(),
                    "PTX".to_string(),
                    [0; 3],
                    InterpretFault::Unsupported(other.to_string()),
                ),
            };
            RuntimeError::Interpreter(Box::new(InterpretError {
                kernel: self.entry.name.clone(),
                op,
                location,
                program,
                fault,
            }))
        })
    }
}

/// The pointer argument whose allocation starts nearest below `address`
/// (PTX keeps no source names: `argument 2 (`matmul_param_2`)`), and that
/// allocation: what an access out of bounds most likely ran off.
fn pointer_below(
    entry: &Entry,
    memory: &HostMemory,
    args: &[Arg],
    address: u64,
) -> (Option<String>, Option<tile_runtime::Allocation>) {
    let mut best: Option<(String, tile_runtime::Allocation)> = None;
    for (k, (p, a)) in entry.params.iter().zip(args).enumerate() {
        let Arg::Ptr { ptr, .. } = a else { continue };
        let Some(alloc) = memory.allocation(ptr.0) else {
            continue;
        };
        if alloc.base <= address && best.as_ref().is_none_or(|(_, b)| alloc.base > b.base) {
            best = Some((format!("argument {k} ({})", p.name), alloc));
        }
    }
    match best {
        Some((name, alloc)) => (Some(name), Some(alloc)),
        None => (None, memory.allocation(address)),
    }
}

#[cfg(test)]
mod tests;
