//! `wgmma`'s shared-memory matrix descriptors, decoded as the PTX ISA
//! documents them ("Matrix Descriptor Format" and "Shared Memory Matrix
//! Layout" of the asynchronous warpgroup-level matrix instructions).
//!
//! **Fields.** A 64-bit descriptor holds the matrix start address in bits
//! 0-13, the leading dimension byte offset (LBO) in bits 16-29 and the
//! stride dimension byte offset (SBO) in bits 32-45, each a byte count
//! shifted right by 4; the base offset in bits 49-51; the swizzle mode in
//! bits 62-63: 0 none, 1 128-byte, 2 64-byte, 3 32-byte. A base offset
//! other than 0 (a swizzle pattern not starting at its 1024-, 512- or
//! 256-byte boundary) is refused.
//!
//! **Layouts.** Operands are read in one of the canonical layouts, built
//! of "swizzle atoms" of 8 rows of `W` bytes (`W` the swizzle width: 128,
//! 64 or 32; 16 with no swizzle) stored contiguously. For a K-major
//! operand (the 64 rows of A or the N columns of B along the 8 rows of an
//! atom, K along its bytes), the element at row `mn` and byte `kb` of K
//! lies at `start + (mn / 8) * SBO + (mn % 8) * W + kb` when swizzled (an
//! instruction's 32 bytes of K fit one atom row; the LBO is unused), and
//! at `start + (mn / 8) * SBO + (mn % 8) * 16 + (kb / 16) * LBO + kb % 16`
//! without swizzle (LBO steps between 8 x 16-byte core matrices along K).
//! For an MN-major operand (`imm-trans` 1: M or N contiguous), the
//! element at byte `mb` of M or N and row `k` of K lies at `start + (mb /
//! W) * LBO + mb % W + (k / 8) * SBO + (k % 8) * W`: the LBO steps from
//! one `W`-byte block of M or N to the next, the SBO from one group of 8
//! rows of K to the next. MN-major without swizzle is not modelled.
//!
//! **Swizzle.** The address so computed is permuted as the hardware
//! does, on the absolute shared address: its 16-byte chunk bits (4, 5
//! and 6 for 128 bytes, 4 and 5 for 64, bit 4 for 32) are XORed with the
//! bits three above them (7-9, 7-8, 7). A K step of 32 bytes therefore
//! moves the start address by 32 and leaves the rows' permutation to the
//! row bits, as the ISA intends.

/// The swizzle mode of a descriptor.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Swizzle {
    /// No swizzle: 8 x 16-byte core matrices.
    None,
    /// 32-byte rows, bit 4 XOR bit 7.
    B32,
    /// 64-byte rows, bits 4-5 XOR bits 7-8.
    B64,
    /// 128-byte rows, bits 4-6 XOR bits 7-9.
    B128,
}

impl Swizzle {
    /// Bytes of a row of a swizzle atom (16 with no swizzle).
    pub fn width(self) -> u64 {
        match self {
            Swizzle::None => 16,
            Swizzle::B32 => 32,
            Swizzle::B64 => 64,
            Swizzle::B128 => 128,
        }
    }

    /// The stored address of the canonical (unswizzled) address `a`.
    pub fn apply(self, a: u64) -> u64 {
        let mask = self.width() / 16 - 1;
        a ^ (((a >> 7) & mask) << 4)
    }
}

/// A decoded matrix descriptor.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Descriptor {
    /// The matrix start address in shared memory, in bytes.
    pub start: u64,
    /// The leading dimension byte offset, in bytes.
    pub leading: u64,
    /// The stride dimension byte offset, in bytes.
    pub stride: u64,
    /// The swizzle mode.
    pub swizzle: Swizzle,
}

impl Descriptor {
    /// Decodes the 64 bits `d`; the error says which field is outside
    /// what is modelled.
    pub fn decode(d: u64) -> Result<Descriptor, String> {
        let field = |at: u32| ((d >> at) & 0x3fff) << 4;
        let base_offset = (d >> 49) & 7;
        if base_offset != 0 {
            return Err(format!(
                "descriptor {d:#x} has base offset {base_offset} (only 0 is modelled)"
            ));
        }
        let swizzle = match d >> 62 {
            0 => Swizzle::None,
            1 => Swizzle::B128,
            2 => Swizzle::B64,
            _ => Swizzle::B32,
        };
        Ok(Descriptor {
            start: field(0),
            leading: field(16),
            stride: field(32),
            swizzle,
        })
    }

    /// The shared address of the element at row `mn` (of A's M or B's N)
    /// and byte `kb` of K in a K-major operand.
    pub fn k_major(&self, mn: u64, kb: u64) -> u64 {
        let w = self.swizzle.width();
        let at = match self.swizzle {
            Swizzle::None => {
                self.start
                    + (mn / 8) * self.stride
                    + (mn % 8) * 16
                    + (kb / 16) * self.leading
                    + kb % 16
            }
            _ => self.start + (mn / 8) * self.stride + (mn % 8) * w + kb,
        };
        self.swizzle.apply(at)
    }

    /// The shared address of the element at byte `mb` of M or N and row
    /// `k` of K in an MN-major operand; `None` without swizzle.
    pub fn mn_major(&self, mb: u64, k: u64) -> Option<u64> {
        let w = self.swizzle.width();
        if self.swizzle == Swizzle::None {
            return None;
        }
        let at =
            self.start + (mb / w) * self.leading + mb % w + (k / 8) * self.stride + (k % 8) * w;
        Some(self.swizzle.apply(at))
    }
}
