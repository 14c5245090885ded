//! `wgmma.mma_async` on hand-written PTX: one `m64n8k16` f16 product per
//! swizzle mode with operands placed as the PTX ISA's layout figures draw
//! them (written here per 16-byte chunk, independently of the executor's
//! address-bit XOR), the descriptor's fields, the accumulator layout,
//! and the faults: an accumulator read before the wait, a register
//! written after the last `wgmma.fence`.

use super::run;
use crate::ExecError;
use crate::exec::descriptor::{Descriptor, Swizzle};

/// Bytes of shared memory the kernels use (and copy in from `in`).
const IMAGE: usize = 10240;
/// Where B starts (1024-aligned, as swizzle patterns need).
const B_AT: usize = 8192;

/// Copies the image into shared memory, multiplies, stores each thread's
/// 4 accumulators at `out + 16 * tid`. `fence_late` writes the
/// accumulators after the `wgmma.fence`; `wait` is false to skip it.
fn body(desc_a: u64, desc_b: u64, trans_b: u32, fence_late: bool, wait: bool) -> String {
    let mut s = String::from("mul.wide.u32 %rd1, %r30, 16;\nmov.u64 %rd5, smem;\n");
    for k in 0..IMAGE / 2048 {
        s += &format!(
            "add.s64 %rd2, %rd31, %rd1;\nld.global.v4.b32 {{%r1, %r2, %r3, %r4}}, [%rd2+{o}];\n\
             add.s64 %rd6, %rd5, %rd1;\nst.shared.v4.b32 [%rd6+{o}], {{%r1, %r2, %r3, %r4}};\n",
            o = k * 2048
        );
    }
    let zero = "mov.f32 %f1, 0f00000000;\nmov.f32 %f2, 0f00000000;\n\
                mov.f32 %f3, 0f00000000;\nmov.f32 %f4, 0f00000000;\n";
    let (before, after) = if fence_late { ("", zero) } else { (zero, "") };
    s += &format!(
        "fence.proxy.async.shared::cta;\nbar.sync 0;\nmov.b64 %rd10, {desc_a};\n\
         mov.b64 %rd11, {desc_b};\n{before}wgmma.fence.sync.aligned;\n{after}\
         setp.ne.b32 %p1, 1, 0;\n\
         wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {{%f1, %f2, %f3, %f4}}, %rd10, \
         %rd11, %p1, 1, 1, 0, {trans_b};\nwgmma.commit_group.sync.aligned;\n{}\
         add.s64 %rd3, %rd30, %rd1;\nst.global.v4.f32 [%rd3], {{%f1, %f2, %f3, %f4}};\n",
        if wait {
            "wgmma.wait_group.sync.aligned 0;\n"
        } else {
            ""
        }
    );
    s
}

/// Small integers, exact as f16.
fn ints(n: usize, seed: i32) -> Vec<i32> {
    (0..n as i32).map(|i| (i * 5 + seed) % 7 - 3).collect()
}

/// The byte at which a K-major operand of `rows` rows of 16 f16 (32
/// bytes of K) stores element (`row`, `k`): swizzled modes hold row `r`
/// of each 8-row atom at `r * width` bytes, its 16-byte chunk `c` stored
/// as chunk `c ^ ((r * width / 128) % (width / 16))`, atoms `8 * width`
/// apart; without swizzle, 8 x 16-byte core matrices, K's second one 128
/// bytes on, the next 8 rows 256 bytes on.
fn k_major_byte(width: usize, row: usize, k: usize) -> usize {
    let (atom, r) = (row / 8, row % 8);
    let (chunk, within) = ((k * 2) / 16, (k * 2) % 16);
    if width == 16 {
        return atom * 256 + chunk * 128 + r * 16 + within;
    }
    let stored = chunk ^ ((r * width / 128) % (width / 16));
    atom * 8 * width + r * width + stored * 16 + within
}

/// The descriptor of a K-major operand at `start` in `width`'s mode.
fn descriptor(start: usize, width: usize) -> u64 {
    let (mode, leading, stride) = match width {
        16 => (0u64, 128u64, 256u64),
        32 => (3, 16, 256),
        64 => (2, 16, 512),
        _ => (1, 16, 1024),
    };
    (start as u64 >> 4) | ((leading >> 4) << 16) | ((stride >> 4) << 32) | (mode << 62)
}

/// D as the lanes hold it, A and B.
type Product = (Vec<u32>, Vec<i32>, Vec<i32>);

/// Runs the product of A (64 x 16) and B (16 x 8) in `width`'s layout.
fn product(width: usize) -> Result<Product, ExecError> {
    let (a, b) = (ints(64 * 16, 1), ints(16 * 8, 2));
    let mut image = vec![0u8; IMAGE];
    let put = |image: &mut Vec<u8>, at: usize, v: i32| {
        let h = half::f16::from_f32(v as f32).to_bits().to_le_bytes();
        image[at..at + 2].copy_from_slice(&h);
    };
    for m in 0..64 {
        for k in 0..16 {
            put(&mut image, k_major_byte(width, m, k), a[m * 16 + k]);
        }
    }
    for n in 0..8 {
        for k in 0..16 {
            put(&mut image, B_AT + k_major_byte(width, n, k), b[k * 8 + n]);
        }
    }
    let words: Vec<u32> = image
        .chunks(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect();
    let text = body(
        descriptor(0, width),
        descriptor(B_AT, width),
        0,
        false,
        true,
    );
    let shared = format!(".shared .align 1024 .b8 smem[{IMAGE}];");
    Ok((run(&text, &shared, 4, &words, 128 * 4)?, a, b))
}

#[test]
fn one_product_per_swizzle_mode_lands_in_the_accumulator_layout() {
    for width in [16, 32, 64, 128] {
        let (d, a, b) = product(width).unwrap();
        for tid in 0..128 {
            let (warp, lane) = (tid / 32, tid % 32);
            let (g, t) = (lane / 4, lane % 4);
            // The ISA's figure: d0, d1 on row g, d2, d3 on row g + 8 of
            // the warp's 16 rows; columns 2t and 2t + 1.
            for (i, (row, col)) in [
                (g, 2 * t),
                (g, 2 * t + 1),
                (g + 8, 2 * t),
                (g + 8, 2 * t + 1),
            ]
            .into_iter()
            .enumerate()
            {
                let row = 16 * warp + row;
                let want: i32 = (0..16).map(|k| a[row * 16 + k] * b[k * 8 + col]).sum();
                let got = f32::from_bits(d[tid * 4 + i]);
                assert_eq!(got, want as f32, "width {width}, thread {tid}, d{i}");
            }
        }
    }
}

#[test]
fn descriptors_decode_their_fields() {
    let d = Descriptor::decode(descriptor(0x2400, 64)).unwrap();
    assert_eq!(
        (d.start, d.leading, d.stride, d.swizzle),
        (0x2400, 16, 512, Swizzle::B64)
    );
    let d = Descriptor::decode(descriptor(0x100, 16)).unwrap();
    assert_eq!((d.leading, d.stride, d.swizzle), (128, 256, Swizzle::None));
    assert_eq!(
        Descriptor::decode(descriptor(0, 128)).unwrap().swizzle,
        Swizzle::B128
    );
    assert_eq!(
        Descriptor::decode(descriptor(0, 32)).unwrap().swizzle,
        Swizzle::B32
    );
    // 128-byte swizzle: row 3's chunk 1 of the atom is stored as chunk 2.
    let d = Descriptor::decode(descriptor(0, 128)).unwrap();
    assert_eq!(d.k_major(3, 16), 3 * 128 + 2 * 16);
    // A base offset is refused.
    assert!(Descriptor::decode(descriptor(0, 128) | (1 << 49)).is_err());
}

#[test]
fn an_accumulator_read_before_its_wait_is_caught() {
    let shared = format!(".shared .align 1024 .b8 smem[{IMAGE}];");
    let text = body(descriptor(0, 128), descriptor(B_AT, 128), 0, false, false);
    let err = run(&text, &shared, 4, &vec![0; IMAGE / 4], 512).unwrap_err();
    assert!(
        matches!(&err, ExecError::InFlight { at, register, .. }
            if at.opcode == "st.global.v4.f32" && register == "%f1"),
        "{err}"
    );
}

#[test]
fn a_register_written_after_the_fence_is_caught() {
    let shared = format!(".shared .align 1024 .b8 smem[{IMAGE}];");
    let text = body(descriptor(0, 128), descriptor(B_AT, 128), 0, true, true);
    let err = run(&text, &shared, 4, &vec![0; IMAGE / 4], 512).unwrap_err();
    assert!(
        matches!(&err, ExecError::MissingFence { register, .. } if register == "%f1"),
        "{err}"
    );
}
