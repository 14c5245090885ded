//! Arithmetic semantics, predication and vector accesses.

use super::{run, scalar};

#[test]
fn integers_wrap_at_their_width() {
    assert_eq!(scalar("mov.u32 %r2, 0xffffffff;\n add.s32 %r1, %r2, 2;"), 1);
    assert_eq!(
        scalar("mov.u32 %r2, 0x10000;\n mul.lo.s32 %r1, %r2, %r2;"),
        0
    );
    assert_eq!(
        scalar("mov.u32 %r2, 0x10000;\n mul.hi.u32 %r1, %r2, %r2;"),
        1
    );
    assert_eq!(
        scalar("mov.u32 %r2, -3;\n mul.hi.s32 %r1, %r2, 5;"),
        u32::MAX
    );
    assert_eq!(
        scalar(
            "mov.u32 %r2, -3;\n mul.wide.s32 %rd1, %r2, 5;\n shr.u64 %rd2, %rd1, 32;\n cvt.u32.u64 %r1, %rd2;"
        ),
        u32::MAX
    );
    assert_eq!(
        scalar(
            "mov.u32 %r2, -3;\n mul.wide.u32 %rd1, %r2, 5;\n shr.u64 %rd2, %rd1, 32;\n cvt.u32.u64 %r1, %rd2;"
        ),
        4
    );
    assert_eq!(scalar("mov.u32 %r2, 7;\n mad.lo.s32 %r1, %r2, 3, -1;"), 20);
}

#[test]
fn shifts_clamp_at_the_width() {
    assert_eq!(scalar("mov.u32 %r2, 1;\n shl.b32 %r1, %r2, 33;"), 0);
    assert_eq!(
        scalar("mov.u32 %r2, 0x80000000;\n shr.u32 %r1, %r2, 40;"),
        0
    );
    assert_eq!(
        scalar("mov.u32 %r2, 0x80000000;\n shr.s32 %r1, %r2, 40;"),
        u32::MAX
    );
    assert_eq!(
        scalar("mov.u32 %r2, 0x80000000;\n shr.s32 %r1, %r2, 4;"),
        0xf800_0000
    );
    assert_eq!(
        scalar("mov.u32 %r2, 0x80000000;\n shr.u32 %r1, %r2, 4;"),
        0x0800_0000
    );
}

#[test]
fn signed_and_unsigned_compare_and_max_differ() {
    let cmp = |ty: &str| {
        scalar(&format!(
            "mov.u32 %r2, -1;\n mov.u32 %r3, 1;\n setp.lt.{ty} %p1, %r2, %r3;\n selp.u32 %r1, 1, 0, %p1;"
        ))
    };
    assert_eq!(cmp("s32"), 1);
    assert_eq!(cmp("u32"), 0);
    assert_eq!(scalar("mov.u32 %r2, -1;\n max.s32 %r1, %r2, 1;"), 1);
    assert_eq!(scalar("mov.u32 %r2, -1;\n max.u32 %r1, %r2, 1;"), u32::MAX);
    assert_eq!(
        scalar("mov.u32 %r2, -7;\n div.s32 %r1, %r2, 2;"),
        (-3i32) as u32
    );
    assert_eq!(
        scalar("mov.u32 %r2, -7;\n rem.s32 %r1, %r2, 2;"),
        (-1i32) as u32
    );
    assert_eq!(
        scalar("mov.u32 %r2, -7;\n div.u32 %r1, %r2, 2;"),
        (u32::MAX - 6) / 2
    );
}

/// Every float `setp` relation, ordered and unordered (`u`), on 1 and 2
/// and on a NaN and 1: a NaN makes the ordered forms false (`ne`
/// included) and the unordered ones true; `num` and `nan` say whether
/// either operand is NaN.
#[test]
fn every_float_relation_ordered_and_unordered() {
    let (one, two, nan) = ("0f3F800000", "0f40000000", "0f7FC00000");
    let setp = |cmp: &str, a: &str, b: &str| {
        scalar(&format!(
            "mov.f32 %f1, {a};\n mov.f32 %f2, {b};\n setp.{cmp}.f32 %p1, %f1, %f2;\n selp.u32 %r1, 1, 0, %p1;"
        ))
    };
    for (rel, one_two) in [
        ("eq", 0),
        ("ne", 1),
        ("lt", 1),
        ("le", 1),
        ("gt", 0),
        ("ge", 0),
    ] {
        for unordered in [false, true] {
            let cmp = if unordered {
                format!("{rel}u")
            } else {
                rel.to_string()
            };
            assert_eq!(setp(&cmp, one, two), one_two, "setp.{cmp} 1, 2");
            assert_eq!(
                setp(&cmp, nan, one),
                u32::from(unordered),
                "setp.{cmp} NaN, 1"
            );
        }
    }
    assert_eq!((setp("num", one, two), setp("num", nan, one)), (1, 0));
    assert_eq!((setp("nan", one, two), setp("nan", one, nan)), (0, 1));
}

#[test]
fn float_comparisons_and_min_max_treat_nan_as_ptx_does() {
    let nan = "0f7FC00000";
    assert_eq!(
        scalar(&format!(
            "mov.f32 %f1, {nan};\n setp.lt.f32 %p1, %f1, 0f3F800000;\n selp.u32 %r1, 1, 0, %p1;"
        )),
        0
    );
    assert_eq!(
        scalar(&format!(
            "mov.f32 %f1, {nan};\n setp.ltu.f32 %p1, %f1, 0f3F800000;\n selp.u32 %r1, 1, 0, %p1;"
        )),
        1
    );
    assert_eq!(
        scalar(&format!(
            "mov.f32 %f1, {nan};\n max.f32 %r1, %f1, 0f3F800000;"
        )),
        0x3f80_0000
    );
    assert_eq!(
        scalar(&format!(
            "mov.f32 %f1, {nan};\n max.NaN.f32 %r1, %f1, 0f3F800000;"
        )),
        0x7fff_ffff
    );
    assert_eq!(scalar("min.f32 %r1, 0f00000000, 0f80000000;"), 0x8000_0000);
}

#[test]
fn cvt_rounds_and_saturates_as_asked() {
    // 2.5 to integers: nearest even, towards zero, down, up.
    let f = "0f40200000";
    assert_eq!(scalar(&format!("cvt.rni.s32.f32 %r1, {f};")), 2);
    assert_eq!(scalar(&format!("cvt.rzi.s32.f32 %r1, {f};")), 2);
    assert_eq!(scalar(&format!("cvt.rmi.s32.f32 %r1, {f};")), 2);
    assert_eq!(scalar(&format!("cvt.rpi.s32.f32 %r1, {f};")), 3);
    assert_eq!(scalar("cvt.rni.s32.f32 %r1, 0fC0600000;"), (-4i32) as u32); // -3.5
    // Out of range saturates; NaN gives 0.
    assert_eq!(scalar("cvt.rzi.s32.f32 %r1, 0f5F000000;"), i32::MAX as u32);
    assert_eq!(scalar("cvt.rzi.u32.f32 %r1, 0fBF800000;"), 0);
    assert_eq!(scalar("cvt.rzi.s32.f32 %r1, 0f7FC00000;"), 0);
    // f32 to f16: 1 + 2^-11 is a tie, to even (1.0); 1 + 3 * 2^-11 up.
    assert_eq!(
        scalar("cvt.rn.f16.f32 %rs1, 0f3F801000;\n cvt.u32.u16 %r1, %rs1;"),
        0x3c00
    );
    assert_eq!(
        scalar("cvt.rn.f16.f32 %rs1, 0f3F803000;\n cvt.u32.u16 %r1, %rs1;"),
        0x3c02
    );
    // Integer narrowing with .sat.
    assert_eq!(scalar("mov.u32 %r2, 300;\n cvt.sat.u8.s32 %r1, %r2;"), 255);
    assert_eq!(
        scalar("mov.u32 %r2, -300;\n cvt.sat.s8.s32 %r1, %r2;\n and.b32 %r1, %r1, 0xff;"),
        0x80
    );
    assert_eq!(
        scalar(
            "mov.u32 %r2, -1;\n cvt.s64.s32 %rd1, %r2;\n shr.u64 %rd1, %rd1, 32;\n cvt.u32.u64 %r1, %rd1;"
        ),
        u32::MAX
    );
    // Float to float with .sat clamps to [0, 1].
    assert_eq!(scalar("cvt.sat.f32.f32 %r1, 0f40000000;"), 0x3f80_0000);
}

#[test]
fn predicated_instructions_run_only_where_the_guard_holds() {
    // Odd threads store their id, even ones store nothing (stay 0xdead).
    let body = "\
        and.b32 %r1, %r30, 1;\n setp.eq.u32 %p1, %r1, 1;\n\
        mul.wide.u32 %rd1, %r30, 4;\n add.s64 %rd2, %rd30, %rd1;\n\
        @!%p1 st.global.u32 [%rd2], 0xdead;\n @%p1 st.global.u32 [%rd2], %r30;";
    let out = run(body, "", 1, &[], 32).unwrap();
    for (i, v) in out.iter().enumerate() {
        assert_eq!(*v, if i % 2 == 1 { i as u32 } else { 0xdead }, "thread {i}");
    }
}

#[test]
fn vector_loads_and_stores_move_consecutive_words() {
    let body = "\
        setp.ne.u32 %p19, %r30, 0;\n @%p19 bra $L_end;\n\
        ld.global.v4.b32 {%r1, %r2, %r3, %r4}, [%rd31+16];\n\
        st.global.v4.b32 [%rd30], {%r4, %r3, %r2, %r1};\n\
        ld.global.v2.b32 {%r5, %r6}, [%rd31];\n\
        st.global.v2.b32 [%rd30+16], {%r6, %r5};\n$L_end:";
    let input: Vec<u32> = (10..18).collect();
    assert_eq!(
        run(body, "", 1, &input, 6).unwrap(),
        vec![17, 16, 15, 14, 11, 10]
    );
}

#[test]
fn shuffles_and_barriers_exchange_values() {
    // Butterfly sum over a warp, then thread 0 of warp 1 reads warp 0's
    // total through shared memory after a barrier.
    let body = "\
        mov.u32 %r1, %r30;\n\
        shfl.sync.bfly.b32 %r2, %r1, 16, 31, -1;\n add.s32 %r1, %r1, %r2;\n\
        shfl.sync.bfly.b32 %r2, %r1, 8, 31, -1;\n add.s32 %r1, %r1, %r2;\n\
        shfl.sync.bfly.b32 %r2, %r1, 4, 31, -1;\n add.s32 %r1, %r1, %r2;\n\
        shfl.sync.bfly.b32 %r2, %r1, 2, 31, -1;\n add.s32 %r1, %r1, %r2;\n\
        shfl.sync.bfly.b32 %r2, %r1, 1, 31, -1;\n add.s32 %r1, %r1, %r2;\n\
        shfl.sync.up.b32 %r3|%p2, %r30, 1, 0, -1;\n\
        mov.u64 %rd1, smem;\n\
        setp.eq.u32 %p1, %r30, 0;\n @%p1 st.shared.u32 [%rd1], %r1;\n bar.sync 0;\n\
        setp.eq.u32 %p3, %r30, 32;\n @%p3 ld.shared.u32 %r4, [smem];\n\
        @%p3 st.global.u32 [%rd30], %r4;\n\
        setp.eq.u32 %p4, %r30, 5;\n @%p4 st.global.u32 [%rd30+4], %r3;\n\
        setp.eq.u32 %p5, %r30, 0;\n selp.u32 %r5, 1, 0, %p2;\n @%p5 st.global.u32 [%rd30+8], %r5;";
    let shared = ".shared .align 4 .b8 smem[16];";
    assert_eq!(
        run(body, shared, 2, &[], 3).unwrap(),
        vec![(0..32).sum(), 4, 0]
    );
}

/// `setp.f16x2`/`.bf16x2 p|q, a, b`: `p` compares the low halves, `q` the
/// high ones (what LLVM emits for a pair of half comparisons).
#[test]
fn packed_half_comparisons_set_one_predicate_a_half() {
    // f16: a = (low 1.0, high 3.0), b = (low 2.0, high 2.0).
    let pair = |ty: &str, a: &str, b: &str, cmp: &str| {
        scalar(&format!(
            "mov.b32 %r2, {a};\n mov.b32 %r3, {b};\n setp.{cmp}.{ty} %p1|%p2, %r2, %r3;\n \
             selp.u32 %r4, 1, 0, %p1;\n selp.u32 %r5, 2, 0, %p2;\n or.b32 %r1, %r4, %r5;"
        ))
    };
    assert_eq!(pair("f16x2", "0x42003C00", "0x40004000", "gt"), 2);
    assert_eq!(pair("f16x2", "0x42003C00", "0x40004000", "lt"), 1);
    assert_eq!(pair("f16x2", "0x40004000", "0x40004000", "eq"), 3);
    // A NaN in the high half: ordered false, unordered true.
    assert_eq!(pair("f16x2", "0x7E003C00", "0x40004000", "lt"), 1);
    assert_eq!(pair("f16x2", "0x7E003C00", "0x40004000", "ltu"), 3);
    // bf16: low 1.0 (0x3F80) against 2.0 (0x4000), high 3.0 (0x4040) too.
    assert_eq!(pair("bf16x2", "0x40403F80", "0x40004000", "gt"), 2);
}

/// Packed half arithmetic (`min`/`max`/`add`/`sub`/`mul` on `.f16x2` and
/// `.bf16x2`, `add`/`sub`/`min`/`max` on `.s16x2` and `.u16x2`): each
/// 16-bit half on its own, the low half in the low bits.
#[test]
fn packed_half_arithmetic_works_on_each_half() {
    let op = |ins: &str, a: &str, b: &str| {
        scalar(&format!(
            "mov.b32 %r2, {a};\n mov.b32 %r3, {b};\n {ins} %r1, %r2, %r3;"
        ))
    };
    // f16: (low 1.0, high 3.0) against (low 2.0, high 2.0).
    let (a, b) = ("0x42003C00", "0x40004000");
    assert_eq!(op("max.f16x2", a, b), 0x4200_4000);
    assert_eq!(op("min.f16x2", a, b), 0x4000_3C00);
    assert_eq!(op("add.rn.f16x2", a, b), 0x4500_4200); // (5.0, 3.0)
    assert_eq!(op("sub.rn.f16x2", a, b), 0x3C00_BC00); // (1.0, -1.0)
    assert_eq!(op("mul.rn.f16x2", a, b), 0x4600_4000); // (6.0, 2.0)
    // bf16: (low 1.0, high 3.0) against (low 2.0, high 2.0).
    assert_eq!(op("max.bf16x2", "0x40403F80", "0x40004000"), 0x4040_4000);
    assert_eq!(op("min.bf16x2", "0x40403F80", "0x40004000"), 0x4000_3F80);
    // sm_90's 16-bit integer pairs: (low -1, high 0x7FFF) against (low 1,
    // high 1). Each half wraps on its own (no carry into the high half);
    // signed and unsigned order differ on the low half.
    let (a, b) = ("0x7FFFFFFF", "0x00010001");
    assert_eq!(op("add.s16x2", a, b), 0x8000_0000);
    assert_eq!(op("sub.u16x2", a, b), 0x7FFE_FFFE);
    assert_eq!(op("max.s16x2", a, b), 0x7FFF_0001);
    assert_eq!(op("min.s16x2", a, b), 0x0001_FFFF);
    assert_eq!(op("max.u16x2", a, b), 0x7FFF_FFFF);
    assert_eq!(op("min.u16x2", a, b), 0x0001_0001);
}
