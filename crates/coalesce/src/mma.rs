//! The accumulator layout of tensor-core products, `#tile.mma`.
//!
//! One tensor-core instruction leaves a warp holding a 16-row block of the
//! product, `instr_n` columns wide, in the pattern PTX gives both
//! `mma.sync.m16n8k16` and the warps of a `wgmma.m64nNk16` warpgroup: lane
//! `l` holds rows `l / 4` and `l / 4 + 8`, and columns `2 * (l % 4)` and the
//! one after, in every 8-column chunk. In registers, per instruction: bit 0
//! of the register number moves one column, bit 1 eight rows, the bits
//! above eight columns (one chunk).
//!
//! Warps are numbered along M first: warp `w` covers rows
//! `16 * (w % wm)` and columns `instr_n * (w / wm)`; a wgmma warpgroup (four
//! consecutive warps) thus covers 64 consecutive rows, as it must. Larger
//! tensors repeat the pattern, columns first, then rows.
//!
//! ```
//! use tile_coalesce::Mma;
//!
//! // A 128 x 128 product on 8 warps: wgmma where allowed (two warpgroups
//! // along M, 128 columns an instruction), mma.sync otherwise.
//! let wgmma = Mma::for_product(128, 128, 8, true).unwrap();
//! assert_eq!((wgmma.version, wgmma.warps_per_cta, wgmma.instr_n), (3, [8, 1], 128));
//! let sync = Mma::for_product(128, 128, 8, false).unwrap();
//! assert_eq!(sync.version, 2);
//! assert!(Mma::for_product(8, 8, 4, false).is_err());
//! ```

use crate::layout::LayoutError;
use std::fmt;

/// Rows of the block one warp's instruction produces.
pub const MMA_ROWS: i64 = 16;

/// A tensor-core accumulator layout (rank 2: [M, N]).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Mma {
    /// 2 for `mma.sync` (sm_80 and up), 3 for `wgmma` (sm_90a).
    pub version: u32,
    /// Warps along M and along N; for version 3 the warps along M are a
    /// multiple of four (whole warpgroups).
    pub warps_per_cta: [u32; 2],
    /// Columns one instruction gives each warp: 8 for `mma.sync`; a
    /// multiple of 8 up to 256 for `wgmma`.
    pub instr_n: u32,
}

impl Mma {
    /// The number of warps.
    pub fn num_warps(&self) -> u32 {
        self.warps_per_cta[0] * self.warps_per_cta[1]
    }

    /// Checks the invariants (see the fields).
    pub fn validate(&self) -> Result<(), LayoutError> {
        let bad = |why: &str| Err(LayoutError(format!("invalid mma layout {self}: {why}")));
        let [wm, wn] = self.warps_per_cta;
        if wm == 0 || wn == 0 || !wm.is_power_of_two() || !wn.is_power_of_two() {
            return bad("warps must be powers of two");
        }
        match self.version {
            2 if self.instr_n != 8 => bad("mma.sync gives 8 columns per instruction"),
            3 if !wm.is_multiple_of(4) => bad("wgmma needs whole warpgroups (4 warps) along M"),
            3 if !(8..=256).contains(&self.instr_n) || !self.instr_n.is_multiple_of(8) => {
                bad("wgmma gives a multiple of 8 columns, at most 256")
            }
            2 | 3 => Ok(()),
            _ => bad("the version is 2 (mma.sync) or 3 (wgmma)"),
        }
    }

    /// Elements one repetition of the warps' pattern covers along `axis`.
    pub fn cover(&self, axis: usize) -> i64 {
        match axis {
            0 => MMA_ROWS * i64::from(self.warps_per_cta[0]),
            _ => i64::from(self.instr_n) * i64::from(self.warps_per_cta[1]),
        }
    }

    /// Registers one instruction leaves in each thread.
    pub fn registers_per_instruction(&self) -> usize {
        self.instr_n as usize / 2
    }

    /// The offset (row, column) within the warp's block of register `i` of
    /// one instruction.
    pub fn instruction_offset(i: usize) -> [i64; 2] {
        let i = i as i64;
        [8 * ((i >> 1) & 1), (i & 1) + 8 * (i >> 2)]
    }

    /// Per register of a tensor of `shape` ([M, N]), its offset from the
    /// thread's base: repetitions along N inside repetitions along M, each
    /// the registers of one instruction.
    pub fn offsets(&self, shape: &[i64]) -> Vec<Vec<i64>> {
        let reps = [
            (shape[0] / self.cover(0)).max(1),
            (shape[1] / self.cover(1)).max(1),
        ];
        let per = self.registers_per_instruction();
        let mut out = Vec::with_capacity((reps[0] * reps[1]) as usize * per);
        for m in 0..reps[0] {
            for n in 0..reps[1] {
                for i in 0..per {
                    let [r, c] = Mma::instruction_offset(i);
                    out.push(vec![r + m * self.cover(0), c + n * self.cover(1)]);
                }
            }
        }
        out
    }

    /// The accumulator layout of an [M, N] product on `num_warps` warps:
    /// `wgmma` (version 3) where `wgmma` is allowed and M holds a warpgroup
    /// of 64 rows, else `mma.sync`. Warps go along M while it has rows left
    /// for them, then along N; wgmma's instruction then spans the columns
    /// each warp owns, up to 256.
    pub fn for_product(m: i64, n: i64, num_warps: u32, wgmma: bool) -> Result<Mma, LayoutError> {
        if !num_warps.is_power_of_two() || m < MMA_ROWS || n < 8 {
            return Err(LayoutError(format!(
                "no tensor-core layout for a {m}x{n} product on {num_warps} warps"
            )));
        }
        let layout = if wgmma && num_warps.is_multiple_of(4) && m >= 64 {
            let mut wm = 4;
            while wm < num_warps && m >= 2 * wm as i64 * MMA_ROWS {
                wm *= 2;
            }
            let wn = num_warps / wm;
            let per_warp = (n / i64::from(wn)).max(8);
            Mma {
                version: 3,
                warps_per_cta: [wm, wn],
                instr_n: per_warp.min(256) as u32,
            }
        } else {
            // Split the warps where the most 16x8 blocks are left per warp.
            let (mut wm, mut wn) = (1u32, 1u32);
            while wm * wn < num_warps {
                let rows = m / (MMA_ROWS * i64::from(wm));
                let cols = n / (8 * i64::from(wn));
                if rows >= 2 && (rows >= cols || cols < 2) {
                    wm *= 2;
                } else if cols >= 2 {
                    wn *= 2;
                } else {
                    // Too small for every warp: the extra ones hold copies.
                    wm *= 2;
                }
            }
            Mma {
                version: 2,
                warps_per_cta: [wm, wn],
                instr_n: 8,
            }
        };
        layout.validate()?;
        Ok(layout)
    }
}

impl fmt::Display for Mma {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "#tile.mma<{} : i32, array<i32: {}, {}>, {} : i32>",
            self.version, self.warps_per_cta[0], self.warps_per_cta[1], self.instr_n
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn instruction_registers_follow_the_ptx_fragment() {
        // mma.m16n8 C fragment: c0, c1 at (l/4, 2(l%4) + {0,1}), c2, c3
        // eight rows down.
        assert_eq!(Mma::instruction_offset(0), [0, 0]);
        assert_eq!(Mma::instruction_offset(1), [0, 1]);
        assert_eq!(Mma::instruction_offset(2), [8, 0]);
        assert_eq!(Mma::instruction_offset(3), [8, 1]);
        // wgmma: the next four registers are the next 8-column chunk.
        assert_eq!(Mma::instruction_offset(4), [0, 8]);
        assert_eq!(Mma::instruction_offset(7), [8, 9]);
    }

    #[test]
    fn products_get_warps_where_the_blocks_are() {
        let l = Mma::for_product(128, 128, 4, false).unwrap();
        assert_eq!((l.version, l.warps_per_cta, l.instr_n), (2, [2, 2], 8));
        let l = Mma::for_product(16, 128, 4, false).unwrap();
        assert_eq!(l.warps_per_cta, [1, 4]);
        let l = Mma::for_product(16, 16, 8, false).unwrap();
        assert_eq!(l.num_warps(), 8);
        let l = Mma::for_product(128, 256, 8, true).unwrap();
        assert_eq!((l.version, l.warps_per_cta, l.instr_n), (3, [8, 1], 256));
        let l = Mma::for_product(64, 256, 8, true).unwrap();
        assert_eq!((l.warps_per_cta, l.instr_n), ([4, 2], 128));
        let l = Mma::for_product(128, 128, 4, true).unwrap();
        assert_eq!((l.warps_per_cta, l.instr_n), ([4, 1], 128));
        // Below a warpgroup's 64 rows, mma.sync.
        assert_eq!(Mma::for_product(32, 128, 4, true).unwrap().version, 2);
        assert!(Mma::for_product(8, 128, 4, true).is_err());
    }

    /// The instruction shapes PTX has: `mma.sync.m16n8` gives 8 columns;
    /// `wgmma.m64nN` a multiple of 8 from 8 to 256, on whole warpgroups
    /// along M; warps are powers of two along both axes.
    #[test]
    fn layouts_have_the_ptx_instruction_shapes() {
        let mma = |version, warps_per_cta, instr_n| Mma {
            version,
            warps_per_cta,
            instr_n,
        };
        for ok in [
            mma(2, [1, 1], 8),
            mma(2, [2, 4], 8),
            mma(3, [4, 1], 8),
            mma(3, [4, 2], 256),
            mma(3, [8, 1], 136),
        ] {
            assert!(ok.validate().is_ok(), "{ok}");
        }
        for bad in [
            mma(2, [3, 1], 8),
            mma(2, [1, 3], 8),
            mma(2, [0, 2], 8),
            mma(2, [2, 0], 8),
            mma(2, [2, 2], 16),
            mma(3, [2, 1], 64),
            mma(3, [4, 1], 12),
            mma(3, [4, 1], 264),
            mma(3, [4, 1], 0),
            mma(4, [1, 1], 8),
        ] {
            assert!(bad.validate().is_err(), "{bad}");
        }
    }

    /// The smallest products: one `mma.sync` block of 16 x 8 is enough,
    /// fewer than 8 columns is not. With 8 warps on 128 x 128, the warps
    /// go where more 16 x 8 blocks are left per warp: after 2 x 2 warps
    /// each has 4 blocks of rows and 8 of columns, so N doubles (4 x 4
    /// blocks a warp).
    #[test]
    fn mma_sync_splits_the_warps_by_blocks_left() {
        let l = Mma::for_product(16, 8, 1, false).unwrap();
        assert_eq!((l.version, l.warps_per_cta, l.instr_n), (2, [1, 1], 8));
        assert!(Mma::for_product(16, 4, 1, false).is_err());
        assert!(Mma::for_product(64, 4, 4, true).is_err());
        let l = Mma::for_product(128, 128, 8, false).unwrap();
        assert_eq!(l.warps_per_cta, [2, 4]);
        let l = Mma::for_product(256, 64, 8, false).unwrap();
        assert_eq!(l.warps_per_cta, [4, 2]);
    }

    /// The printed form of the attribute, and back.
    #[test]
    fn mma_layouts_print_and_parse_back() {
        let m = Mma {
            version: 3,
            warps_per_cta: [4, 2],
            instr_n: 128,
        };
        let text = m.to_string();
        assert_eq!(text, "#tile.mma<3 : i32, array<i32: 4, 2>, 128 : i32>");
        assert_eq!(
            crate::layout::Layout::parse(&text).unwrap(),
            crate::layout::Layout::Mma(m)
        );
    }

    #[test]
    fn offsets_repeat_columns_first() {
        let l = Mma {
            version: 2,
            warps_per_cta: [2, 2],
            instr_n: 8,
        };
        let o = l.offsets(&[64, 32]);
        // 2 x 2 repetitions of 4 registers.
        assert_eq!(o.len(), 16);
        assert_eq!(o[4], vec![0, 16]);
        assert_eq!(o[8], vec![32, 0]);
        assert!(
            Mma {
                version: 3,
                warps_per_cta: [2, 1],
                instr_n: 64
            }
            .validate()
            .is_err()
        );
    }
}
