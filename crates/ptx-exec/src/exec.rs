//! A launch: the parameter buffer from the arguments, then every CTA of
//! the grid in order (x fastest), each with fresh shared memory and
//! threads.

pub mod alu;
pub mod async_copy;
pub mod cta;
pub mod descriptor;
pub mod matrix;
pub mod mov;
pub mod shared;
pub mod thread;
pub mod wgmma;

use crate::ast::Entry;
use crate::decode::Space;
use crate::error::ExecError;
use shared::Shared;
use std::collections::HashMap;
use thread::{Ctx, State, Thread};
use tile_runtime::{Arg, HostMemory};

/// The shape of a launch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Launch {
    /// CTAs in x, y, z.
    pub grid: [u32; 3],
    /// Threads per CTA in x, y, z.
    pub block: [u32; 3],
    /// Dynamic shared memory per CTA, in bytes.
    pub dynamic_smem: u64,
}

/// The bytes of an argument as the driver copies them into the parameter
/// space (`cuLaunchKernel` reads each `kernelParams` entry's value: a
/// pointer's 8 bytes, an integer's or a float's own width, little-endian).
fn arg_bytes(arg: &Arg) -> Vec<u8> {
    match arg {
        Arg::Ptr { ptr, .. } => ptr.0.to_le_bytes().to_vec(),
        Arg::I32(v) => v.to_le_bytes().to_vec(),
        Arg::I64(v) => v.to_le_bytes().to_vec(),
        Arg::F32(v) => v.to_le_bytes().to_vec(),
        Arg::F16(v) => v.to_bits().to_le_bytes().to_vec(),
        Arg::BF16(v) => v.to_bits().to_le_bytes().to_vec(),
    }
}

/// Lays the arguments out at the entry's parameter offsets.
pub fn param_buffer(entry: &Entry, args: &[Arg]) -> Result<Vec<u8>, ExecError> {
    let bad = |message: String| ExecError::BadLaunch {
        kernel: entry.name.clone(),
        message,
    };
    if args.len() != entry.params.len() {
        return Err(bad(format!(
            "{} arguments for {} parameters",
            args.len(),
            entry.params.len()
        )));
    }
    let mut buf = vec![0u8; entry.param_bytes as usize];
    for (p, a) in entry.params.iter().zip(args) {
        let bytes = arg_bytes(a);
        if bytes.len() != p.size as usize {
            return Err(bad(format!(
                "argument {a:?} has {} bytes, parameter `{}` {}",
                bytes.len(),
                p.name,
                p.size
            )));
        }
        buf[p.offset as usize..p.offset as usize + bytes.len()].copy_from_slice(&bytes);
    }
    Ok(buf)
}

/// Runs the whole grid.
pub fn launch(
    entry: &Entry,
    memory: &mut HostMemory,
    shape: Launch,
    args: &[Arg],
) -> Result<(), ExecError> {
    let params = param_buffer(entry, args)?;
    let mut symbols: HashMap<String, (Space, u64)> = HashMap::new();
    for s in &entry.shared {
        symbols.insert(s.name.clone(), (Space::Shared, s.offset));
    }
    for p in &entry.params {
        symbols.insert(p.name.clone(), (Space::Param, u64::from(p.offset)));
    }
    let shared_bytes = (entry.static_shared_bytes + shape.dynamic_smem) as usize;
    let [bx, by, bz] = shape.block;
    let [gx, gy, gz] = shape.grid;
    let registers = entry.registers.len();
    for cz in 0..gz {
        for cy in 0..gy {
            for cx in 0..gx {
                let mut ctx = Ctx {
                    entry,
                    params: &params,
                    symbols: &symbols,
                    shared: Shared::new(shared_bytes),
                    cta: [cx, cy, cz],
                    grid: shape.grid,
                    block: shape.block,
                    dynamic_smem: shape.dynamic_smem,
                };
                let mut threads = Vec::with_capacity((bx * by * bz) as usize);
                for tz in 0..bz {
                    for ty in 0..by {
                        for tx in 0..bx {
                            threads.push(Thread {
                                tid: [tx, ty, tz],
                                linear: tx + bx * (ty + by * tz),
                                pc: 0,
                                regs: vec![0; registers],
                                state: State::Ready,
                                carry: false,
                                copies: Default::default(),
                                wgmma: Default::default(),
                            });
                        }
                    }
                }
                cta::run_cta(&mut ctx, &mut threads, memory)?;
            }
        }
    }
    Ok(())
}
