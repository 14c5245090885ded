//! Faults: out-of-bounds accesses, shared-memory races, barrier
//! divergence, unsupported opcodes.

use super::run;
use crate::ExecError;

#[test]
fn an_out_of_bounds_load_names_the_line_thread_and_address() {
    // 32 threads read in[tid] from a 4-word input: thread 4 is the first
    // out of bounds.
    let body = "\
        mul.wide.u32 %rd1, %r30, 4;\n add.s64 %rd2, %rd31, %rd1;\n\
        ld.global.u32 %r1, [%rd2];";
    let err = run(body, "", 1, &[1, 2, 3, 4], 1).unwrap_err();
    match err {
        ExecError::OutOfBounds {
            at, write, bytes, ..
        } => {
            assert_eq!(at.thread, [4, 0, 0]);
            assert_eq!(at.cta, [0, 0, 0]);
            assert_eq!(at.opcode, "ld.global.u32");
            assert_eq!(at.line, 20, "the load's line in the module text");
            assert!(!write);
            assert_eq!(bytes, 4);
        }
        other => panic!("{other}"),
    }
}

#[test]
fn a_misaligned_vector_access_is_reported() {
    let body = "ld.global.v2.u32 {%r1, %r2}, [%rd31+4];";
    assert!(matches!(
        run(body, "", 1, &[1, 2, 3, 4], 1),
        Err(ExecError::Misaligned { .. })
    ));
}

#[test]
fn a_shared_memory_race_names_both_instructions() {
    // Every thread writes its id to the same word, then reads it back:
    // without a barrier that is a race (with one, only the write-write
    // race remains, which is also reported).
    let body = "st.shared.u32 [smem], %r30;\n ld.shared.u32 %r1, [smem];";
    let shared = ".shared .align 4 .b8 smem[4];";
    match run(body, shared, 1, &[], 1).unwrap_err() {
        ExecError::SharedRace {
            first_thread,
            first_line,
            second_thread,
            second_line,
            ..
        } => {
            assert_eq!((first_thread, second_thread), (0, 1));
            assert_eq!((first_line, second_line), (18, 18));
        }
        other => panic!("{other}"),
    }
    // Separated by a barrier, a write by one thread and reads by all are
    // fine.
    let body = "\
        setp.eq.u32 %p1, %r30, 0;\n @%p1 st.shared.u32 [smem], 7;\n bar.sync 0;\n\
        ld.shared.u32 %r1, [smem];\n @%p1 st.global.u32 [%rd30], %r1;";
    assert_eq!(run(body, shared, 2, &[], 1).unwrap(), vec![7]);
    // Without it, thread 1's read races with thread 0's write.
    let body = "\
        setp.eq.u32 %p1, %r30, 0;\n @%p1 st.shared.u32 [smem], 7;\n\
        ld.shared.u32 %r1, [smem];";
    assert!(matches!(
        run(body, shared, 1, &[], 1),
        Err(ExecError::SharedRace {
            second_thread: 1,
            ..
        })
    ));
}

#[test]
fn a_barrier_some_threads_skip_is_divergence() {
    // Threads of warp 1 exit; warp 0 waits at the barrier forever.
    let body = "\
        setp.ge.u32 %p1, %r30, 32;\n @%p1 bra $L_out;\n bar.sync 0;\n$L_out:\n ret;";
    match run(body, "", 2, &[], 1).unwrap_err() {
        ExecError::Divergence { message, .. } => {
            assert!(message.contains("exited"), "{message}");
            assert!(message.contains("bar.sync"), "{message}");
        }
        other => panic!("{other}"),
    }
    // Two different barriers: also divergence.
    let body = "\
        setp.ge.u32 %p1, %r30, 32;\n @%p1 bra $L_b;\n bar.sync 0;\n bra $L_end;\n\
        $L_b:\n bar.sync 0;\n$L_end:";
    assert!(matches!(
        run(body, "", 2, &[], 1),
        Err(ExecError::Divergence { .. })
    ));
}

#[test]
fn an_instruction_outside_the_subset_is_refused_with_its_line() {
    let body = "mbarrier.init.shared::cta.b64 [%rd1], 1;";
    assert_eq!(
        run(body, "", 1, &[], 1).unwrap_err(),
        ExecError::Unsupported {
            opcode: "mbarrier.init.shared::cta.b64".into(),
            line: 18,
        }
    );
}

#[test]
fn an_out_of_bounds_fault_through_host_kernel_names_the_pointer_argument() {
    use tile_runtime::{Arg, DevicePtr, HostKernel, HostMemory};
    let body = "\
        mul.wide.u32 %rd1, %r30, 4;\n add.s64 %rd2, %rd31, %rd1;\n\
        ld.global.u32 %r1, [%rd2];";
    let kernel = crate::PtxKernel::new(&super::module(body, ""), "k", 1, 0).unwrap();
    let mut memory = HostMemory::new();
    let out = memory.alloc(16);
    let inp = memory.alloc(16);
    let args = [Arg::from(DevicePtr(out)), Arg::from(DevicePtr(inp))];
    let e = kernel.run(&mut memory, [1, 1, 1], &args).unwrap_err();
    let text = e.to_string();
    assert!(
        text.contains("out of bounds of `argument 1 (in)`"),
        "{text}"
    );
    assert!(text.contains("past the end of its 16 bytes"), "{text}");
}

#[test]
fn registers_keep_their_declared_width() {
    let body = "mov.b16 %rs3, 1;\n setp.eq.u32 %p19, %r30, 0;";
    let kernel = crate::PtxKernel::new(&super::module(body, ""), "k", 1, 0).unwrap();
    let e = kernel.entry();
    let bits = |name: &str| {
        let r = e.registers.iter().position(|n| n == name).unwrap();
        e.register_bits[r]
    };
    assert_eq!(
        [bits("%rs3"), bits("%r30"), bits("%rd31"), bits("%p19")],
        [16, 32, 64, 1]
    );
    // A signed 8-bit load sign-extends into the 16-bit register and no
    // further: packing it with another shows exactly 16 bits.
    let body = "\
        ld.global.s8 %rs1, [%rd31];\n mov.b16 %rs2, 0;\n\
        mov.b32 %r1, {%rs1, %rs2};\n st.global.u32 [%rd30], %r1;";
    assert_eq!(super::run(body, "", 1, &[0x80], 1).unwrap()[0], 0xff80);
}

#[test]
fn a_mov_of_another_width_than_its_registers_is_refused() {
    // ptxas refuses these ("Arguments mismatch for instruction 'mov'"); a
    // lowering that moved a 16-bit element with mov.b64 ran here before.
    for body in [
        "mov.b64 %rs1, %rs2;",
        "mov.b32 %rs1, 0;",
        "mov.b16 %r1, %rs2;",
    ] {
        let e = run(body, "", 1, &[], 1).unwrap_err().to_string();
        assert!(e.contains("-bit mov names %r"), "{body}: {e}");
    }
    // Same widths, float or bit types alike, and packing, are fine.
    let body = "mov.b16 %rs1, 7;\n mov.b16 %rs2, %rs1;\n mov.f32 %r2, %r3;\n\
                mov.b32 %r1, {%rs2, %rs1};\n st.global.u32 [%rd30], %r1;";
    assert_eq!(run(body, "", 1, &[], 1).unwrap()[0], 0x0007_0007);
}
