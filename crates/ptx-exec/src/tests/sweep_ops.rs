//! What the op sweep (`gpu_check::ops`) compiled for sm_80 needs beyond
//! the example kernels: sub-word signed conversions, `prmt`, `bfi`, `div.full`,
//! f16 atomics, and the stores of a replicated layout to shared memory.

use super::{run, scalar};
use crate::ExecError;

#[test]
fn a_signed_conversion_to_a_narrower_type_sign_extends_into_the_register() {
    // i8 -9 (0xf7) loaded as a byte, narrowed into a 16-bit register: it
    // must compare below 3 as a 16-bit signed value.
    let body = "mov.u32 %r2, 247;\n cvt.s8.s32 %rs1, %r2;\n mov.u16 %rs2, 3;\n\
                max.s16 %rs3, %rs1, %rs2;\n cvt.s32.s16 %r1, %rs1;\n\
                cvt.u32.u16 %r3, %rs3;\n add.u32 %r1, %r1, %r3;";
    assert_eq!(scalar(body) as i32, -9 + 3);
    // Unsigned narrowing zero-extends.
    let body = "mov.u32 %r2, 0x1f7;\n cvt.u8.u32 %rs1, %r2;\n cvt.u32.u16 %r1, %rs1;";
    assert_eq!(scalar(body), 0xf7);
}

#[test]
fn prmt_picks_bytes_and_replicates_signs() {
    let body = |c: &str| {
        format!(
            "mov.u32 %r2, 0x83828180;\n mov.u32 %r3, 0x07060504;\n prmt.b32 %r1, %r2, %r3, {c};"
        )
    };
    // Identity, then b's bytes, then a byte reversal.
    assert_eq!(scalar(&body("0x3210")), 0x8382_8180);
    assert_eq!(scalar(&body("0x7654")), 0x0706_0504);
    assert_eq!(scalar(&body("0x0123")), 0x8081_8283);
    // Selectors 8 (byte 0, 0x80, replicated: 0xff), 4 (0x04), 0xc (0x04
    // replicated: 0x00) and 4.
    assert_eq!(scalar(&body("0x4c48")), 0x0400_04ff);
}

#[test]
fn bfi_inserts_a_field() {
    let body = "mov.u32 %r2, 0xab;\n mov.u32 %r3, 0x11223344;\n\
                bfi.b32 %r1, %r2, %r3, 8, 8;";
    assert_eq!(scalar(body), 0x1122_ab44);
    // Bits past the width are dropped; a zero length leaves b.
    let body = "mov.u32 %r2, 0xff;\n mov.u32 %r3, 0;\n bfi.b32 %r1, %r2, %r3, 28, 8;";
    assert_eq!(scalar(body), 0xf000_0000);
    let body = "mov.u32 %r2, 0xff;\n mov.u32 %r3, 5;\n bfi.b32 %r1, %r2, %r3, 4, 0;";
    assert_eq!(scalar(body), 5);
}

#[test]
fn div_full_is_the_correctly_rounded_quotient() {
    let body = "mov.b32 %f1, 0f3F800000;\n mov.b32 %f2, 0f40400000;\n\
                div.full.f32 %f3, %f1, %f2;\n mov.b32 %r1, %f3;";
    assert_eq!(f32::from_bits(scalar(body)), 1.0f32 / 3.0);
}

#[test]
fn f16_atomic_adds_without_flushing() {
    // out[0] holds f16 1.5 in its low half; every thread of a warp adds 0.25.
    let body = "mov.b16 %rs1, 0x3400;\n \
                atom.global.relaxed.gpu.add.noftz.f16 %rs2, [%rd30], %rs1;";
    let kernel = super::module(body, "");
    let kernel = crate::PtxKernel::new(&kernel, "k", 1, 0).unwrap();
    let mut memory = tile_runtime::HostMemory::new();
    let out = memory.alloc(4);
    let inp = memory.alloc(4);
    memory
        .range_mut(out, 2)
        .unwrap()
        .copy_from_slice(&0x3e00u16.to_le_bytes());
    let args = [
        tile_runtime::Arg::from(tile_runtime::DevicePtr(out)),
        tile_runtime::Arg::from(tile_runtime::DevicePtr(inp)),
    ];
    kernel.execute(&mut memory, [1, 1, 1], &args).unwrap();
    let got = u16::from_le_bytes(memory.range(out, 2).unwrap().try_into().unwrap());
    assert_eq!(half::f16::from_bits(got).to_f32(), 1.5 + 32.0 * 0.25);
}

#[test]
fn replicated_stores_of_the_same_value_to_shared_memory_are_no_race() {
    let shared = ".shared .align 4 .b8 smem[8];";
    // Threads 0 and 32 both hold element 0 (tid % 32 == 0) and store 7.
    let body = "and.b32 %r2, %r30, 31;\n setp.eq.u32 %p1, %r2, 0;\n\
                @%p1 st.shared.u32 [smem], 7;\n bar.sync 0;\n\
                ld.shared.u32 %r1, [smem];\n setp.eq.u32 %p2, %r30, 0;\n\
                @%p2 st.global.u32 [%rd30], %r1;";
    assert_eq!(run(body, shared, 2, &[], 1).unwrap(), vec![7]);
    // Different values from the two threads still race.
    let body = "and.b32 %r2, %r30, 31;\n setp.eq.u32 %p1, %r2, 0;\n\
                @%p1 st.shared.u32 [smem], %r30;";
    assert!(matches!(
        run(body, shared, 2, &[], 1),
        Err(ExecError::SharedRace {
            first_thread: 0,
            second_thread: 32,
            ..
        })
    ));
}
