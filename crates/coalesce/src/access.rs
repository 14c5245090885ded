//! The layout and vector width of one load or store, from what the axis
//! analysis proved about its addresses and its mask.
//!
//! The fastest axis is the block pointer's `order[0]` when there is one,
//! otherwise the axis along which the addresses run consecutively the
//! longest. Along it each thread holds as many contiguous elements as one
//! access can move: at most 16 bytes, no more than the addresses run
//! consecutively, no more than their alignment allows, and no more than
//! the mask stays uniform (a predicate guards a whole vector). Threads and
//! then warps are spread from the fastest axis outwards.
//!
//! ```
//! use tile_coalesce::{Access, AxisInfo};
//!
//! // 1024 f32 at a 16-byte aligned base, consecutive, no mask: 128-bit
//! // accesses (four f32 a thread).
//! let pointer = AxisInfo { contiguity: vec![1024], divisibility: vec![16], constancy: vec![1], constant: None };
//! let access = Access { shape: vec![1024], elem_bytes: 4, pointer, mask_constancy: vec![1024], order: None };
//! assert_eq!(access.vector_width(0), 4);
//! assert_eq!(access.layout(4).unwrap().size_per_thread, [4]);
//! ```

use crate::axis_info::AxisInfo;
use crate::layout::{Blocked, LayoutError, WARP_SIZE};

/// The widest access, in bytes (`ld.global.v4.b32`).
pub const MAX_ACCESS_BYTES: i64 = 16;

/// The narrowest vector access, in bytes: vectors are moved as 32-bit
/// words, so an access of fewer bytes than this moves one element.
pub const MIN_VECTOR_BYTES: i64 = 4;

/// What is known of one load or store.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Access {
    /// The shape of the tile moved.
    pub shape: Vec<i64>,
    /// Bytes per element in memory.
    pub elem_bytes: i64,
    /// The addresses: contiguity in elements, divisibility in bytes.
    pub pointer: AxisInfo,
    /// Per axis, aligned runs over which the mask (and any bounds check)
    /// is uniform; the extent of the axis when there is no mask.
    pub mask_constancy: Vec<i64>,
    /// The order a block pointer asks for (fastest axis first).
    pub order: Option<Vec<usize>>,
}

impl Access {
    /// The axes from fastest to slowest: the block pointer's order, else
    /// by decreasing contiguity (ties keep row-major order).
    pub fn order(&self) -> Vec<usize> {
        if let Some(order) = &self.order {
            return order.clone();
        }
        let mut axes: Vec<usize> = (0..self.shape.len()).rev().collect();
        axes.sort_by_key(|&a| std::cmp::Reverse(self.pointer.contiguity.get(a).copied()));
        axes
    }

    /// The most elements one access may move along `axis` (a power of two,
    /// at least 1).
    pub fn vector_width(&self, axis: usize) -> i64 {
        self.vector_width_within(axis, i64::MAX)
    }

    /// [`Access::vector_width`] for a thread that holds `held` contiguous
    /// elements along `axis`: no wider than those, and still either one
    /// element or at least a 32-bit word (two i8 stay two accesses).
    pub fn vector_width_within(&self, axis: usize, held: i64) -> i64 {
        let e = self.elem_bytes.max(1);
        let get = |v: &[i64]| v.get(axis).copied().unwrap_or(1).max(1);
        let limits = [
            MAX_ACCESS_BYTES / e,
            get(&self.pointer.contiguity),
            get(&self.pointer.divisibility) / e,
            get(&self.mask_constancy),
            get(&self.shape),
            held,
        ];
        let width = limits.into_iter().min().unwrap_or(1).max(1);
        let width = 1i64 << (63 - width.leading_zeros()).min(62);
        if width > 1 && width * e < MIN_VECTOR_BYTES {
            1
        } else {
            width
        }
    }

    /// The layout this access prefers for `num_warps` warps: the tile
    /// spread over the threads in [`Access::order`], each thread holding
    /// one vector along the fastest axis (fewer when the tile has fewer
    /// elements than threads times the vector).
    pub fn layout(&self, num_warps: u32) -> Result<Blocked, LayoutError> {
        let order = self.order();
        let rank = self.shape.len();
        let mut size_per_thread = vec![1u32; rank];
        if let Some(&fastest) = order.first() {
            let elements: i64 = self.shape.iter().product();
            let threads = i64::from(WARP_SIZE * num_warps);
            let per_thread = (elements / threads).max(1);
            let width = self.vector_width(fastest).min(per_thread);
            size_per_thread[fastest] = u32::try_from(width).unwrap_or(1);
        }
        Blocked::spread_over(&self.shape, num_warps, &order, &size_per_thread)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn access(shape: &[i64], contiguity: &[i64], divisibility: &[i64], mask: &[i64]) -> Access {
        Access {
            shape: shape.to_vec(),
            elem_bytes: 4,
            pointer: AxisInfo {
                contiguity: contiguity.to_vec(),
                divisibility: divisibility.to_vec(),
                constancy: vec![1; shape.len()],
                constant: None,
            },
            mask_constancy: mask.to_vec(),
            order: None,
        }
    }

    #[test]
    fn contiguous_aligned_1d_moves_16_bytes() {
        let a = access(&[1024], &[1024], &[16], &[16]);
        assert_eq!(a.vector_width(0), 4);
        let l = a.layout(4).unwrap();
        assert_eq!(l.size_per_thread, vec![4]);
        assert_eq!(l.threads_per_warp, vec![32]);
        assert_eq!(l.warps_per_cta, vec![4]);
    }

    #[test]
    fn each_limit_narrows_the_vector() {
        // 8-byte alignment: two f32.
        assert_eq!(access(&[1024], &[1024], &[8], &[1024]).vector_width(0), 2);
        // Unaligned mask: one element.
        assert_eq!(access(&[1024], &[1024], &[16], &[1]).vector_width(0), 1);
        // Not contiguous (x[::2]).
        assert_eq!(access(&[1024], &[1], &[16], &[1024]).vector_width(0), 1);
        // A tile of 2 elements.
        assert_eq!(access(&[2], &[2], &[16], &[2]).vector_width(0), 2);
        // Two bytes would move as a 16-bit word: kept scalar.
        let mut halves = access(&[64], &[64], &[2], &[64]);
        halves.elem_bytes = 2;
        assert_eq!(halves.vector_width(0), 1);
        halves.pointer.divisibility = vec![16];
        assert_eq!(halves.vector_width(0), 8);
        // A thread holding fewer elements than the access allows: its
        // width, unless that is below a 32-bit word.
        let mut bytes = access(&[1024], &[1024], &[16], &[1024]);
        bytes.elem_bytes = 1;
        assert_eq!(bytes.vector_width(0), 16);
        assert_eq!(bytes.vector_width_within(0, 4), 4);
        assert_eq!(bytes.vector_width_within(0, 2), 1);
    }

    /// An alignment beyond 16 bytes does not widen the access past 16
    /// bytes: the cap is 16 bytes divided by the element size, for every
    /// element size.
    #[test]
    fn no_access_moves_more_than_16_bytes() {
        for (elem_bytes, width) in [(1, 16), (2, 8), (4, 4), (8, 2)] {
            let mut a = access(&[1024], &[1024], &[64], &[1024]);
            a.elem_bytes = elem_bytes;
            assert_eq!(a.vector_width(0), width, "{elem_bytes}-byte elements");
            assert_eq!(a.vector_width(0) * elem_bytes, MAX_ACCESS_BYTES);
        }
    }

    #[test]
    fn order_follows_contiguity_or_the_block_pointer() {
        let rows = access(&[16, 64], &[1, 64], &[16, 16], &[16, 64]);
        assert_eq!(rows.order(), vec![1, 0]);
        let l = rows.layout(4).unwrap();
        assert_eq!(l.size_per_thread, vec![1, 4]);
        assert_eq!(l.threads_per_warp, vec![2, 16]);
        assert_eq!(l.warps_per_cta, vec![4, 1]);
        let cols = access(&[64, 16], &[64, 1], &[16, 16], &[64, 16]);
        assert_eq!(cols.order(), vec![0, 1]);
        assert_eq!(cols.layout(4).unwrap().size_per_thread, vec![4, 1]);
        let mut told = access(&[16, 64], &[1, 1], &[4, 4], &[16, 64]);
        told.order = Some(vec![0, 1]);
        assert_eq!(told.layout(4).unwrap().order, vec![0, 1]);
        // Strided along the fast axis: no vector, threads still spread.
        assert_eq!(told.layout(4).unwrap().size_per_thread, vec![1, 1]);
    }

    #[test]
    fn small_tiles_give_each_thread_fewer_elements() {
        let a = access(&[128], &[128], &[16], &[128]);
        assert_eq!(a.layout(4).unwrap().size_per_thread, vec![1]);
        assert_eq!(a.layout(1).unwrap().size_per_thread, vec![4]);
    }
}
