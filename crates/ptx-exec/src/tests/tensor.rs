//! Tensor cores and asynchronous copies on hand-written PTX: `mma.sync`
//! fragments as the PTX ISA lays them out (written here in the ISA's
//! piecewise form, independently of the executor's), `ldmatrix` with and
//! without `.trans`, and `cp.async` groups (stale data before the wait,
//! zero fill past `src-size`, `ignore-src`, `wait_group N`).

use super::run;

/// A lane's words from `base + lane * 16` (4 words): its fragments.
const LOAD_FRAGMENTS: &str = "\
    mul.wide.u32 %rd1, %r30, 16;\n add.s64 %rd2, %rd31, %rd1;\n\
    ld.global.v4.b32 {%r1, %r2, %r3, %r4}, [%rd2];\n\
    ld.global.v2.b32 {%r5, %r6}, [%rd2+512];\n\
    ld.global.v4.b32 {%r7, %r8, %r9, %r10}, [%rd2+1024];\n\
    add.s64 %rd3, %rd30, %rd1;";

/// Small integers from a seed, exact in every input type.
fn ints(n: usize, seed: i32) -> Vec<i32> {
    (0..n as i32).map(|i| (i * 7 + seed) % 9 - 4).collect()
}

/// Runs one `mma` of `opcode` with A (16 x k), B (k x 8), C (16 x 8)
/// given as integers; `pack(values)` packs a lane's elements into words;
/// `a_at(i, g, t)` and `b_at(i, g, t)` are the ISA's (row, col) of
/// fragment element `i`. Returns D (16 x 8) as read back from the lanes.
fn mma(
    opcode: &str,
    k: usize,
    per_word: usize,
    pack: fn(&[i32]) -> u32,
    a_at: fn(usize, usize, usize) -> (usize, usize),
    b_at: fn(usize, usize, usize) -> (usize, usize),
    acc: fn(i32) -> u32,
) -> (Vec<u32>, Vec<i32>) {
    let (a, b, c) = (ints(16 * k, 1), ints(k * 8, 2), ints(16 * 8, 3));
    let mut input = vec![0u32; 384];
    for lane in 0..32 {
        let (g, t) = (lane / 4, lane % 4);
        let a_vals: Vec<i32> = (0..4 * per_word)
            .map(|i| {
                let (r, col) = a_at(i, g, t);
                a[r * k + col]
            })
            .collect();
        let b_vals: Vec<i32> = (0..2 * per_word)
            .map(|i| {
                let (r, col) = b_at(i, g, t);
                b[r * 8 + col]
            })
            .collect();
        for w in 0..4 {
            input[lane * 4 + w] = pack(&a_vals[w * per_word..(w + 1) * per_word]);
            // c_i: row g (+ 8 from c2), col 2t + (i & 1).
            input[256 + lane * 4 + w] = acc(c[(g + 8 * (w / 2)) * 8 + 2 * t + (w & 1)]);
        }
        for w in 0..2 {
            input[128 + lane * 4 + w] = pack(&b_vals[w * per_word..(w + 1) * per_word]);
        }
    }
    let body = format!(
        "{LOAD_FRAGMENTS}\n{opcode} {{%r11, %r12, %r13, %r14}}, {{%r1, %r2, %r3, %r4}}, \
         {{%r5, %r6}}, {{%r7, %r8, %r9, %r10}};\n\
         st.global.v4.b32 [%rd3], {{%r11, %r12, %r13, %r14}};"
    );
    let out = run(&body, "", 1, &input, 128).unwrap();
    let mut want = vec![0i32; 128];
    for (e, w) in want.iter_mut().enumerate() {
        let (r, col) = (e / 8, e % 8);
        *w = c[e]
            + (0..k)
                .map(|kk| a[r * k + kk] * b[kk * 8 + col])
                .sum::<i32>();
    }
    let mut got = vec![0u32; 128];
    for lane in 0..32 {
        let (g, t) = (lane / 4, lane % 4);
        for i in 0..4 {
            got[(g + 8 * (i / 2)) * 8 + 2 * t + (i & 1)] = out[lane * 4 + i];
        }
    }
    (got, want)
}

fn f32_acc(v: i32) -> u32 {
    (v as f32).to_bits()
}

fn as_f32(got: &[u32]) -> Vec<i32> {
    got.iter().map(|&w| f32::from_bits(w) as i32).collect()
}

#[test]
fn mma_m16n8k16_f16_and_bf16_use_the_isa_fragments() {
    // a_i: row g for a0, a1, a4, a5, else g + 8; col 2t + (i & 1), + 8
    // for a4..a7. b_i: row 2t + (i & 1), + 8 for b2, b3; col g.
    let a_at = |i: usize, g: usize, t: usize| {
        let row = if matches!(i, 0 | 1 | 4 | 5) { g } else { g + 8 };
        (row, 2 * t + (i & 1) + if i >= 4 { 8 } else { 0 })
    };
    let b_at = |i: usize, g: usize, t: usize| (2 * t + (i & 1) + if i >= 2 { 8 } else { 0 }, g);
    let f16 = |v: &[i32]| {
        let h = |x: i32| u32::from(half::f16::from_f32(x as f32).to_bits());
        h(v[0]) | (h(v[1]) << 16)
    };
    let bf16 = |v: &[i32]| {
        let h = |x: i32| u32::from(half::bf16::from_f32(x as f32).to_bits());
        h(v[0]) | (h(v[1]) << 16)
    };
    for (ty, pack) in [("f16", f16 as fn(&[i32]) -> u32), ("bf16", bf16)] {
        let op = format!("mma.sync.aligned.m16n8k16.row.col.f32.{ty}.{ty}.f32");
        let (got, want) = mma(&op, 16, 2, pack, a_at, b_at, f32_acc);
        assert_eq!(as_f32(&got), want, "{ty}");
    }
}

#[test]
fn mma_m16n8k8_tf32_uses_the_isa_fragments() {
    // a0: (g, t), a1: (g + 8, t), a2: (g, t + 4), a3: (g + 8, t + 4);
    // b0: (t, g), b1: (t + 4, g). Low mantissa bits are ignored.
    let a_at = |i: usize, g: usize, t: usize| (g + 8 * (i & 1), t + 4 * (i / 2));
    let b_at = |i: usize, g: usize, t: usize| (t + 4 * i, g);
    let pack = |v: &[i32]| (v[0] as f32).to_bits() | 0x0fff;
    let op = "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32";
    let (got, want) = mma(op, 8, 1, pack, a_at, b_at, f32_acc);
    assert_eq!(as_f32(&got), want);
}

#[test]
fn mma_m16n8k32_s8_uses_the_isa_fragments_and_wraps() {
    // a_i: row g for a0..a3 and a8..a11, else g + 8; col 4t + (i & 3),
    // + 16 for a8..a15. b_i: row 4t + (i & 3), + 16 for b4..b7; col g.
    let a_at = |i: usize, g: usize, t: usize| {
        let row = if i % 8 < 4 { g } else { g + 8 };
        (row, 4 * t + (i & 3) + if i >= 8 { 16 } else { 0 })
    };
    let b_at = |i: usize, g: usize, t: usize| (4 * t + (i & 3) + if i >= 4 { 16 } else { 0 }, g);
    let pack = |v: &[i32]| {
        v.iter()
            .enumerate()
            .fold(0, |w, (j, &x)| w | (u32::from(x as u8) << (8 * j)))
    };
    let op = "mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32";
    let (got, want) = mma(op, 32, 4, pack, a_at, b_at, |v| v as u32);
    assert_eq!(got.iter().map(|&w| w as i32).collect::<Vec<_>>(), want);
}

/// Each lane writes row `lane % 8` of matrix `lane / 8` (element `(m, r,
/// c)` = `64m + 8r + c`) to shared memory, then `ldmatrix.x4` reads them
/// back with lane `l` addressing the row it wrote.
fn ldmatrix(trans: bool) -> Vec<u32> {
    let input: Vec<u32> = (0..256u32).map(|w| (2 * w) | ((2 * w + 1) << 16)).collect();
    let body = format!(
        "mul.wide.u32 %rd1, %r30, 16;\n add.s64 %rd2, %rd31, %rd1;\n\
         ld.global.v4.b32 {{%r1, %r2, %r3, %r4}}, [%rd2];\n\
         mov.u32 %r5, smem;\n mul.lo.u32 %r6, %r30, 16;\n add.u32 %r7, %r5, %r6;\n\
         st.shared.v4.b32 [%r7], {{%r1, %r2, %r3, %r4}};\n bar.sync 0;\n\
         ldmatrix.sync.aligned.m8n8.x4{}.shared.b16 {{%r11, %r12, %r13, %r14}}, [%r7];\n\
         add.s64 %rd3, %rd30, %rd1;\n st.global.v4.b32 [%rd3], {{%r11, %r12, %r13, %r14}};",
        if trans { ".trans" } else { "" }
    );
    run(&body, ".shared .align 16 .b8 smem[512];", 1, &input, 128).unwrap()
}

#[test]
fn ldmatrix_gives_each_lane_a_row_pair_or_with_trans_a_column_pair() {
    let at = |m: u32, r: u32, c: u32| 64 * m + 8 * r + c;
    for trans in [false, true] {
        let out = ldmatrix(trans);
        for lane in 0..32u32 {
            for m in 0..4 {
                let (r, c) = (lane / 4, 2 * (lane % 4));
                let (lo, hi) = if trans {
                    (at(m, c, r), at(m, c + 1, r))
                } else {
                    (at(m, r, c), at(m, r, c + 1))
                };
                let got = out[(lane * 4 + m) as usize];
                assert_eq!(got, lo | (hi << 16), "trans={trans} lane {lane} matrix {m}");
            }
        }
    }
}

/// Each lane copies 16 bytes to its own 16 shared bytes (at `smem` and,
/// a second group, at `smem + 512`), and reports words read before and
/// after the waits.
#[test]
fn cp_async_lands_only_at_the_wait_covering_its_group() {
    let input: Vec<u32> = (1..=128).collect();
    let body = "\
        mov.u32 %r5, smem;\n mul.lo.u32 %r6, %r30, 16;\n add.u32 %r7, %r5, %r6;\n\
        mul.wide.u32 %rd1, %r30, 16;\n add.s64 %rd2, %rd31, %rd1;\n\
        setp.eq.u32 %p1, %r30, 3;\n\
        cp.async.cg.shared.global [%r7], [%rd2], 16, 8;\n\
        cp.async.commit_group;\n\
        cp.async.ca.shared.global [%r7+512], [%rd2], 4, %p1;\n\
        cp.async.commit_group;\n\
        ld.shared.u32 %r1, [%r7];\n\
        cp.async.wait_group 1;\n\
        ld.shared.v4.u32 {%r11, %r12, %r13, %r14}, [%r7];\n\
        ld.shared.u32 %r2, [%r7+512];\n\
        cp.async.wait_all;\n\
        ld.shared.u32 %r3, [%r7+512];\n\
        mul.wide.u32 %rd4, %r30, 32;\n add.s64 %rd3, %rd30, %rd4;\n\
        st.global.v4.b32 [%rd3], {%r1, %r11, %r12, %r13};\n\
        st.global.v4.b32 [%rd3+16], {%r14, %r2, %r3, %r1};";
    let out = run(body, ".shared .align 16 .b8 smem[1024];", 1, &input, 256).unwrap();
    // Before its wait a copy has not landed: the bytes are as no thread
    // wrote them.
    let unwritten = u32::from_ne_bytes([crate::exec::shared::UNWRITTEN; 4]);
    for lane in 0..32 {
        let w = &out[lane * 8..lane * 8 + 7];
        let src = (4 * lane + 1) as u32;
        // Lane 3's second copy ignores its source (`ignore-src` true):
        // zeros; everyone else's copies 4 bytes.
        let second = if lane == 3 { 0 } else { src };
        assert_eq!(
            w,
            [unwritten, src, src + 1, 0, 0, unwritten, second],
            "lane {lane}"
        );
    }
}

#[test]
fn cvt_packs_two_halves_with_the_first_operand_high() {
    let body = "mov.f32 %f1, 0f3F800000;\n mov.f32 %f2, 0f40000000;\n";
    let f16 = super::scalar(&format!("{body} cvt.rn.f16x2.f32 %r1, %f1, %f2;"));
    assert_eq!(f16, 0x3c00_4000);
    let bf16 = super::scalar(&format!("{body} cvt.rn.bf16x2.f32 %r1, %f1, %f2;"));
    assert_eq!(bf16, 0x3f80_4000);
    // TF32 rounds to nearest, ties away from zero: 1 + 2^-11 (a tie) up.
    let tf32 = super::scalar("mov.b32 %r2, 0x3F801000;\n cvt.rna.tf32.f32 %r1, %r2;");
    assert_eq!(tf32, 0x3f80_2000);
}
