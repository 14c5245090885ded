//! Unit tests on small hand-written PTX: arithmetic semantics, predication,
//! vector accesses, and the faults (out of bounds, shared-memory races,
//! barrier divergence, unsupported opcodes).

mod arith;
mod faults;
mod sweep_ops;
mod tensor;
mod wgmma;

use crate::{ExecError, PtxKernel};
use tile_runtime::{Arg, DevicePtr, HostMemory};

/// An entry `k(.param .u64 out, .param .u64 in)` around `body`, with
/// registers `%r`, `%rd`, `%p`, `%f`, `%rs` declared.
pub fn module(body: &str, shared: &str) -> String {
    format!(
        ".version 8.1\n.target sm_80\n.address_size 64\n{shared}\n\
         .visible .entry k(\n\t.param .u64 out,\n\t.param .u64 in\n)\n{{\n\
         \t.reg .pred %p<20>;\n\t.reg .b16 %rs<20>;\n\t.reg .b32 %r<40>;\n\
         \t.reg .b64 %rd<40>;\n\t.reg .f32 %f<20>;\n\
         \tld.param.u64 %rd30, [out];\n\tld.param.u64 %rd31, [in];\n\
         \tmov.u32 %r30, %tid.x;\n{body}\n\tret;\n}}\n"
    )
}

/// Runs `body` on `warps` warps and one CTA with `input` words at `in`;
/// returns the `out_words` words at `out`.
pub fn run(
    body: &str,
    shared: &str,
    warps: u32,
    input: &[u32],
    out_words: usize,
) -> Result<Vec<u32>, ExecError> {
    let kernel = PtxKernel::new(&module(body, shared), "k", warps, 0)?;
    let mut memory = HostMemory::new();
    let out = memory.alloc(out_words * 4);
    let inp = memory.alloc(input.len().max(1) * 4);
    let bytes: Vec<u8> = input.iter().flat_map(|w| w.to_le_bytes()).collect();
    memory
        .range_mut(inp, bytes.len())
        .unwrap()
        .copy_from_slice(&bytes);
    kernel.execute(
        &mut memory,
        [1, 1, 1],
        &[Arg::from(DevicePtr(out)), Arg::from(DevicePtr(inp))],
    )?;
    Ok(memory
        .range(out, out_words * 4)
        .unwrap()
        .chunks(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect())
}

/// Thread 0 alone computes `%r1` from `body` (other threads exit first) and
/// stores it at `out[0]`.
pub fn scalar(body: &str) -> u32 {
    let full = format!(
        "\tsetp.ne.u32 %p19, %r30, 0;\n\t@%p19 bra $L_end;\n{body}\n\tst.global.u32 [%rd30], %r1;\n$L_end:"
    );
    run(&full, "", 1, &[], 1).unwrap()[0]
}
