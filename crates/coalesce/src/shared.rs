//! Tiles in shared memory in the layouts tensor cores read: rows of
//! contiguous elements, in blocks as wide as the swizzle, with the 16-byte
//! chunks of each row permuted by an XOR of the address bits above them.
//!
//! A tile of `rows` rows and `cols` columns (the columns contiguous: for a
//! product's operands, the K axis) is cut along the columns into blocks of
//! `swizzle` bytes; a block holds every row, `swizzle` bytes a row, and
//! blocks follow one another. Within the tile's memory, the byte at linear
//! offset `x` is stored at `x ^ (((x >> 7) & (swizzle / 16 - 1)) << 4)`:
//! the 16-byte chunk of a row moves by the row's position among the 8
//! (128-byte swizzle), 4 or 2 rows that share 128 bytes of banks. This is
//! the address swizzle `wgmma` applies to its K-major operands (its
//! "128B", "64B" and "32B" modes, on a tile aligned to 1024 bytes), and it
//! lets `mma.sync`'s fragment loads, 8 rows of 16 bytes, hit 32 distinct
//! banks.
//!
//! ```
//! use tile_coalesce::SharedTile;
//!
//! // A 128 x 64 f16 tile: 128-byte rows, so the widest swizzle.
//! let tile = SharedTile::new(128, 64, 2);
//! assert_eq!(tile.swizzle, 128);
//! assert_eq!(tile.bytes(), 128 * 64 * 2);
//! // Row 1's first 16 bytes land in the second 16-byte chunk of its row.
//! assert_eq!(tile.offset(1, 0), 128 + 16);
//! ```

/// A tile's shared-memory layout.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SharedTile {
    /// Rows (M for a product's `a`, N for its `b`).
    pub rows: i64,
    /// Contiguous columns (K), padded to a whole swizzle block.
    pub cols: i64,
    /// Bytes an element takes.
    pub elem_bytes: i64,
    /// Bytes of a row within one block: 128, 64 or 32.
    pub swizzle: i64,
}

/// The alignment a swizzled tile's base needs for `wgmma` to see the same
/// permutation (8 rows of 128 bytes).
pub const SWIZZLE_ALIGN: i64 = 1024;

impl SharedTile {
    /// The layout of a `rows` x `cols` tile of `elem_bytes` elements, the
    /// widest swizzle its rows fill (at least 32 bytes a row: narrower
    /// rows are padded with columns).
    pub fn new(rows: i64, cols: i64, elem_bytes: i64) -> SharedTile {
        let row_bytes = (cols * elem_bytes).max(32);
        let swizzle = row_bytes.min(128);
        SharedTile {
            rows,
            cols: (row_bytes + swizzle - 1) / swizzle * swizzle / elem_bytes,
            elem_bytes,
            swizzle,
        }
    }

    /// Bytes the tile takes.
    pub fn bytes(&self) -> i64 {
        self.rows * self.cols * self.elem_bytes
    }

    /// Elements in a row of one block.
    pub fn block_cols(&self) -> i64 {
        self.swizzle / self.elem_bytes
    }

    /// The unswizzled offset in bytes of element (`row`, `col`).
    pub fn linear(&self, row: i64, col: i64) -> i64 {
        let block = col / self.block_cols();
        let within = col % self.block_cols();
        block * self.rows * self.swizzle + row * self.swizzle + within * self.elem_bytes
    }

    /// The mask of the chunk bits the swizzle permutes, below bit 4.
    pub fn chunk_mask(&self) -> i64 {
        self.swizzle / 16 - 1
    }

    /// The stored offset of linear offset `x`.
    pub fn swizzled(&self, x: i64) -> i64 {
        x ^ (((x >> 7) & self.chunk_mask()) << 4)
    }

    /// The stored offset in bytes of element (`row`, `col`).
    pub fn offset(&self, row: i64, col: i64) -> i64 {
        self.swizzled(self.linear(row, col))
    }

    /// The `wgmma` layout type of the swizzle (descriptor bits 62-63).
    pub fn descriptor_mode(&self) -> u64 {
        match self.swizzle {
            128 => 1,
            64 => 2,
            _ => 3,
        }
    }

    /// The stride-dimension byte offset of a `wgmma` descriptor: from one
    /// group of 8 rows to the next.
    pub fn stride_bytes(&self) -> i64 {
        8 * self.swizzle
    }

    /// The `wgmma` matrix descriptor of the tile at shared address
    /// `address` (the first row, the block holding column 0), without the
    /// address: the address's bits 4-17 go in bits 0-13.
    pub fn descriptor_bits(&self) -> u64 {
        // Leading-dimension offset: unused by swizzled K-major layouts
        // whose instruction K fits one block; 1 as CUTLASS sets it.
        let leading = 1u64;
        let stride = (self.stride_bytes() as u64 >> 4) & 0x3fff;
        (leading << 16) | (stride << 32) | (self.descriptor_mode() << 62)
    }

    /// The descriptor bits of the tile read MN-major (its rows K, its
    /// columns M or N, `wgmma`'s transposed operand): the leading offset
    /// steps from one block of columns to the next, the stride offset from
    /// one group of 8 rows of K to the next.
    pub fn descriptor_bits_mn_major(&self) -> u64 {
        let leading = ((self.rows * self.swizzle) as u64 >> 4) & 0x3fff;
        let stride = (self.stride_bytes() as u64 >> 4) & 0x3fff;
        (leading << 16) | (stride << 32) | (self.descriptor_mode() << 62)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn rows_fill_the_widest_swizzle() {
        let t = SharedTile::new(128, 64, 2);
        assert_eq!((t.swizzle, t.cols, t.bytes()), (128, 64, 16384));
        let t = SharedTile::new(64, 16, 2);
        assert_eq!((t.swizzle, t.cols), (32, 16));
        let t = SharedTile::new(64, 32, 2);
        assert_eq!(t.swizzle, 64);
        // i8 rows of 16 bytes are padded to 32.
        let t = SharedTile::new(16, 16, 1);
        assert_eq!((t.swizzle, t.cols), (32, 32));
        // Wider rows are cut into 128-byte blocks.
        let t = SharedTile::new(16, 256, 2);
        assert_eq!((t.swizzle, t.block_cols()), (128, 64));
        assert_eq!(t.linear(0, 64), 16 * 128);
    }

    #[test]
    fn the_swizzle_permutes_chunks_within_rows() {
        for t in [
            SharedTile::new(64, 64, 2),
            SharedTile::new(64, 32, 2),
            SharedTile::new(64, 16, 2),
            SharedTile::new(32, 128, 4),
        ] {
            let mut seen = HashSet::new();
            for r in 0..t.rows {
                for c in 0..t.cols {
                    let o = t.offset(r, c);
                    assert!(o >= 0 && o < t.bytes());
                    // A row stays within its own bytes of the block.
                    assert_eq!(o / t.swizzle, t.linear(r, c) / t.swizzle);
                    assert!(seen.insert(o));
                }
            }
        }
        // 128-byte swizzle: row 3's chunk 0 is stored as chunk 3.
        let t = SharedTile::new(64, 64, 2);
        assert_eq!(t.offset(3, 0), 3 * 128 + 3 * 16);
        // Column 24 is chunk 3, which row 3 stores as chunk 3 ^ 3 = 0.
        assert_eq!(t.offset(3, 24), 3 * 128);
    }

    #[test]
    fn fragment_loads_hit_every_bank_once() {
        // mma.sync's A fragment: lane l reads 4 bytes at row l / 4, byte
        // 4 * (l % 4) of a 16-byte chunk.
        let t = SharedTile::new(64, 64, 2);
        for chunk in 0..8 {
            let banks: HashSet<i64> = (0..32)
                .map(|l| (t.swizzled(t.linear(l / 4, chunk * 8)) + 4 * (l % 4)) / 4 % 32)
                .collect();
            assert_eq!(banks.len(), 32);
        }
    }

    /// Bits 62-63 of a `wgmma` matrix descriptor, the swizzling mode (PTX
    /// ISA, "Matrix Descriptor Format"): 1 for 128 bytes, 2 for 64, 3 for
    /// 32 (0 would be no swizzle).
    #[test]
    fn descriptor_modes_follow_the_ptx_encoding() {
        for (cols, swizzle, mode) in [(64, 128, 1u64), (32, 64, 2), (16, 32, 3)] {
            let t = SharedTile::new(64, cols, 2);
            assert_eq!((t.swizzle, t.descriptor_mode()), (swizzle, mode));
            assert_eq!(t.descriptor_bits() >> 62, mode);
            assert_eq!(t.descriptor_bits_mn_major() >> 62, mode);
        }
    }

    #[test]
    fn descriptors_encode_stride_and_mode() {
        let d = SharedTile::new(64, 64, 2).descriptor_bits();
        assert_eq!(d >> 62, 1);
        assert_eq!((d >> 32) & 0x3fff, 1024 >> 4);
        assert_eq!((d >> 16) & 0x3fff, 1);
        let d = SharedTile::new(64, 16, 2).descriptor_bits();
        assert_eq!(d >> 62, 3);
        assert_eq!((d >> 32) & 0x3fff, 256 >> 4);
        // B of K = 64 rows and 128 N columns, N contiguous: the next 64
        // columns are 64 rows of 128 bytes on (8192), the next 8 rows of K
        // 1024 (the values the H100 accepts, Triton's too).
        let d = SharedTile::new(64, 128, 2).descriptor_bits_mn_major();
        assert_eq!((d >> 16) & 0x3fff, 8192 >> 4);
        assert_eq!((d >> 32) & 0x3fff, 1024 >> 4);
        assert_eq!(d >> 62, 1);
    }
}
