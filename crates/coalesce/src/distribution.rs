//! Where the elements of a tensor of a given shape and layout live: which
//! registers of which thread.
//!
//! A thread holds its elements in registers numbered 0..n. Element index
//! along axis `i` of register `r` is `(base[i] + offset[r][i]) mod shape[i]`,
//! where `base` depends only on the thread (its lane and warp digits along
//! the root blocked layout's axes, see [`Distribution::base_terms`]) and
//! `offset` only on the register. Two tensors whose layouts share a root
//! therefore line up register by register through static offsets, which is
//! what broadcasts, `expand_dims` and loop-carried values need.

use crate::layout::{BaseTerms, Layout, LayoutError, Root, check_shape};
use std::collections::HashMap;

/// A tensor shape in a layout, resolved to registers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Distribution {
    /// The tensor's shape.
    pub shape: Vec<i64>,
    /// The layout at the root of any slices.
    pub root: Root,
    /// For each tensor axis, the root axis it stands for.
    pub axes: Vec<usize>,
    /// For each register, the static offset along each tensor axis.
    pub offsets: Vec<Vec<i64>>,
    index: HashMap<Vec<i64>, usize>,
}

impl Distribution {
    /// Resolves `layout` for a tensor of `shape`.
    pub fn new(layout: &Layout, shape: &[i64]) -> Result<Distribution, LayoutError> {
        check_shape(shape)?;
        layout.validate()?;
        if layout.rank() != shape.len() {
            return Err(LayoutError(format!(
                "layout {layout} has rank {} but the tensor has shape {shape:?}",
                layout.rank()
            )));
        }
        let (root, axes) = layout.root();
        let offsets = match &root {
            Root::Blocked(_) => blocked_offsets(&root, &axes, shape),
            Root::Mma(m) => {
                // The parent's registers (one repetition along sliced-away
                // axes), projected onto the tensor's axes, first copies only.
                let parent: Vec<i64> = (0..2)
                    .map(|k| match axes.iter().position(|&a| a == k) {
                        Some(i) => shape[i],
                        None => m.cover(k),
                    })
                    .collect();
                let mut seen = std::collections::HashSet::new();
                m.offsets(&parent)
                    .into_iter()
                    .map(|o| axes.iter().map(|&k| o[k]).collect::<Vec<i64>>())
                    .filter(|o| seen.insert(o.clone()))
                    .collect()
            }
        };
        let index = offsets
            .iter()
            .enumerate()
            .map(|(r, o)| (o.clone(), r))
            .collect();
        Ok(Distribution {
            shape: shape.to_vec(),
            root,
            axes,
            offsets,
            index,
        })
    }

    /// The tensor axis along which a thread's consecutive registers hold
    /// consecutive elements (the first axis of the root's order that the
    /// tensor has), and how many it holds that way: registers `r .. r + n`
    /// with `r` a multiple of `n` hold elements `i .. i + n` along it, `i` a
    /// multiple of `n`. `None` for a tensor with no axis of the root.
    pub fn contiguous_registers(&self) -> Option<(usize, i64)> {
        let axis = self
            .root
            .order()
            .iter()
            .find_map(|k| self.axes.iter().position(|a| a == k))?;
        let held = i64::from(self.root.size_per_thread(self.axes[axis])).min(self.shape[axis]);
        Some((axis, held))
    }

    /// The number of registers each thread uses.
    pub fn registers(&self) -> usize {
        self.offsets.len()
    }

    /// The register holding the element at `offsets` (static offsets).
    pub fn register_at(&self, offsets: &[i64]) -> Option<usize> {
        self.index.get(offsets).copied()
    }

    /// True when the pattern along tensor axis `i` is wider than the
    /// tensor, so indices wrap and several threads hold each element.
    pub fn wraps(&self, i: usize) -> bool {
        self.root.cover(self.axes[i]) > self.shape[i]
    }

    /// Root axes the tensor does not have (sliced away) over which threads
    /// or warps are spread: those threads hold copies.
    pub fn sliced_spread_axes(&self) -> Vec<usize> {
        (0..self.root.rank())
            .filter(|k| !self.axes.contains(k))
            .filter(|&k| self.root.threads(k) * self.root.warps(k) > 1)
            .collect()
    }

    /// True when some element is held by more than one thread.
    pub fn replicated(&self) -> bool {
        (0..self.shape.len()).any(|i| self.wraps(i)) || !self.sliced_spread_axes().is_empty()
    }

    /// How the thread's base index along root axis `k` is formed.
    pub fn base_terms(&self, k: usize) -> BaseTerms {
        self.root.base_terms(k)
    }

    /// The element a thread with `lane` and `warp` holds in register `r`:
    /// the reference model the lowering follows, used by tests.
    pub fn element(&self, lane: i64, warp: i64, r: usize) -> Vec<i64> {
        (0..self.shape.len())
            .map(|i| {
                let t = self.base_terms(self.axes[i]);
                let base = t.lane_scale * ((lane >> t.lane_shift) & (t.threads - 1))
                    + t.warp_scale * ((warp >> t.warp_shift) & (t.warps - 1));
                (base + self.offsets[r][i]).rem_euclid(self.shape[i])
            })
            .collect()
    }
}

impl Distribution {
    /// When every thread already holds, in its registers of `self`, the
    /// elements `to` gives it (layouts that place elements the same way,
    /// such as the row slices of two `#tile.mma` layouts that differ only
    /// in their instruction's N): for each register of `to`, the register
    /// of `self` holding its element in every thread. `None` when some
    /// element would have to move between threads.
    pub fn same_thread_registers(&self, to: &Distribution) -> Option<Vec<usize>> {
        if self.shape != to.shape || self.root.num_warps() != to.root.num_warps() {
            return None;
        }
        let held: HashMap<Vec<i64>, usize> = (0..self.registers())
            .map(|r| (self.element(0, 0, r), r))
            .collect();
        let map: Vec<usize> = (0..to.registers())
            .map(|r| held.get(&to.element(0, 0, r)).copied())
            .collect::<Option<_>>()?;
        let warps = i64::from(self.root.num_warps());
        let agree = (0..warps).all(|warp| {
            (0..32).all(|lane| {
                map.iter()
                    .enumerate()
                    .all(|(r, &k)| self.element(lane, warp, k) == to.element(lane, warp, r))
            })
        });
        agree.then_some(map)
    }

    /// For each register, the first register of the thread that holds an
    /// element of the same aligned group: `constancy[i]` consecutive
    /// elements along tensor axis `i` starting at a multiple of it, in
    /// every thread. A value constant over such groups (the axis
    /// analysis' `constancy`: a row mask `rows < m` with `m` a multiple of
    /// the rows a thread holds) is then computed once a group and shared.
    /// `None` when no two registers share a group.
    ///
    /// Along each axis a register's element is the thread's base plus the
    /// register's offset, the base between 0 and the last lane's and
    /// warp's. Two registers share a group along it when either every
    /// thread's element of each lies in one and the same group (the rows
    /// of a tile whose warps all lie along the columns), or their offsets
    /// fall in one group of a size every base is a multiple of (the
    /// elements between lanes and between warps; the contiguous elements
    /// of a vector). Groups are cut to divide the extent, so that tensors
    /// the pattern wraps keep them aligned.
    pub fn constant_groups(&self, constancy: &[i64]) -> Option<Vec<usize>> {
        if constancy.len() != self.shape.len() {
            return None;
        }
        // Per axis: the group size, the largest base, the group size
        // every base is a multiple of.
        let axes: Vec<(i64, i64, i64)> = (0..self.shape.len())
            .map(|i| {
                let t = self.base_terms(self.axes[i]);
                let c = gcd(constancy[i].max(1), self.shape[i]);
                let mut aligned = c;
                if t.threads > 1 {
                    aligned = gcd(aligned, t.lane_scale);
                }
                if t.warps > 1 {
                    aligned = gcd(aligned, t.warp_scale);
                }
                let last = t.lane_scale * (t.threads - 1) + t.warp_scale * (t.warps - 1);
                (c, last, aligned.max(1))
            })
            .collect();
        if axes.iter().all(|&(c, _, _)| c == 1) {
            return None;
        }
        let mut first: HashMap<Vec<(bool, i64)>, usize> = HashMap::new();
        let groups: Vec<usize> = self
            .offsets
            .iter()
            .enumerate()
            .map(|(r, o)| {
                let group: Vec<(bool, i64)> = o
                    .iter()
                    .zip(&axes)
                    .map(|(&x, &(c, last, aligned))| {
                        let whole = x.div_euclid(c) == (x + last).div_euclid(c);
                        if whole {
                            (true, x.div_euclid(c))
                        } else {
                            (false, x.div_euclid(aligned))
                        }
                    })
                    .collect();
                *first.entry(group).or_insert(r)
            })
            .collect();
        groups
            .iter()
            .enumerate()
            .any(|(r, &k)| k != r)
            .then_some(groups)
    }
}

/// The greatest common divisor of two positive integers.
fn gcd(a: i64, b: i64) -> i64 {
    if b == 0 { a } else { gcd(b, a % b) }
}

/// The registers of a tensor of `shape` whose root is blocked: elements
/// in root order first, then repetitions.
fn blocked_offsets(root: &Root, axes: &[usize], shape: &[i64]) -> Vec<Vec<i64>> {
    // Per tensor axis: elements held contiguously, and repetitions.
    let held: Vec<i64> = axes
        .iter()
        .zip(shape)
        .map(|(&k, &s)| i64::from(root.size_per_thread(k)).min(s))
        .collect();
    let reps: Vec<i64> = axes
        .iter()
        .zip(shape)
        .map(|(&k, &s)| (s / root.cover(k)).max(1))
        .collect();
    let ordered: Vec<usize> = root
        .order()
        .iter()
        .filter_map(|k| axes.iter().position(|a| a == k))
        .collect();
    let count: i64 = held.iter().product::<i64>() * reps.iter().product::<i64>();
    let mut offsets = Vec::with_capacity(count as usize);
    for r in 0..count {
        let mut rest = r;
        let mut offset = vec![0i64; shape.len()];
        for &i in &ordered {
            offset[i] += rest % held[i];
            rest /= held[i];
        }
        for &i in &ordered {
            offset[i] += (rest % reps[i]) * root.cover(axes[i]);
            rest /= reps[i];
        }
        offsets.push(offset);
    }
    offsets
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layout::Blocked;
    use std::collections::HashSet;

    fn covers_every_element_once_per_owner(layout: &Layout, shape: &[i64]) {
        let d = Distribution::new(layout, shape).unwrap();
        let warps = i64::from(d.root.num_warps());
        let mut seen = HashSet::new();
        for warp in 0..warps {
            for lane in 0..32 {
                for r in 0..d.registers() {
                    seen.insert(d.element(lane, warp, r));
                }
            }
        }
        let total: i64 = shape.iter().product();
        assert_eq!(seen.len() as i64, total, "{layout} on {shape:?}");
    }

    #[test]
    fn every_element_has_a_thread() {
        for shape in [[16i64, 64], [1, 1], [64, 64], [2, 256], [128, 4]] {
            let b = Layout::Blocked(Blocked::default_for(&shape, 4).unwrap());
            covers_every_element_once_per_owner(&b, &shape);
            covers_every_element_once_per_owner(&b.slice(1), &shape[..1]);
            covers_every_element_once_per_owner(&b.slice(0), &shape[1..]);
        }
        for n in [1i64, 32, 128, 1024] {
            let b = Layout::Blocked(Blocked::default_for(&[n], 8).unwrap());
            covers_every_element_once_per_owner(&b, &[n]);
        }
    }

    #[test]
    fn mma_layouts_hold_the_ptx_fragments() {
        use crate::mma::Mma;
        for (version, warps, instr_n, shape) in [
            (2, [2, 2], 8, [64i64, 32i64]),
            (2, [1, 4], 8, [16, 128]),
            (3, [4, 1], 128, [128, 128]),
            (3, [4, 2], 64, [64, 256]),
        ] {
            let mma = Layout::Mma(Mma {
                version,
                warps_per_cta: warps,
                instr_n,
            });
            covers_every_element_once_per_owner(&mma, &shape);
            let d = Distribution::new(&mma, &shape).unwrap();
            assert!(!d.replicated());
            // Lane 9 of warp 0, first instruction: c0 at (9/4, 2 * (9%4)),
            // c3 eight rows down and one column right.
            assert_eq!(d.element(9, 0, 0), vec![2, 2]);
            assert_eq!(d.element(9, 0, 3), vec![10, 3]);
            // Warp 1 is the next 16 rows (warps go along M first), or
            // with one warp along M the next instruction's columns.
            let next = if warps[0] > 1 {
                vec![18, 2]
            } else {
                vec![2, 2 + i64::from(instr_n)]
            };
            assert_eq!(d.element(9, 1, 0), next);
            // Rows of the product (the result of a sum along N) are held
            // by the four lanes of a quad and the warps along N.
            let rows = Distribution::new(&mma.slice(1), &shape[..1]).unwrap();
            let m_reps = shape[0] / (16 * i64::from(warps[0]));
            assert_eq!(rows.registers() as i64, 2 * m_reps);
            assert!(rows.replicated());
        }
    }

    fn blocked(spt: &[u32], threads: &[u32], warps: &[u32], order: &[usize]) -> Layout {
        Layout::Blocked(Blocked {
            size_per_thread: spt.to_vec(),
            threads_per_warp: threads.to_vec(),
            warps_per_cta: warps.to_vec(),
            order: order.to_vec(),
        })
    }

    /// A thread's registers run through the elements it holds
    /// contiguously, fastest axis of the order first, then through the
    /// repetitions of the pattern, which step by the pattern's cover; the
    /// offsets of a tensor the pattern does not wrap lie within its extents
    /// (the lowering adds them to the thread's base unwrapped).
    #[test]
    fn registers_hold_contiguous_elements_then_repetitions() {
        // 256 elements, 4 a thread, 32 threads: two repetitions of 128.
        let d = Distribution::new(&blocked(&[4], &[32], &[1], &[0]), &[256]).unwrap();
        let flat: Vec<i64> = d.offsets.iter().map(|o| o[0]).collect();
        assert_eq!(flat, [0, 1, 2, 3, 128, 129, 130, 131]);
        // 2 x 2 a thread over a 4 x 64 tile covered 4 x 32 at a time.
        let l = blocked(&[2, 2], &[2, 16], &[1, 1], &[1, 0]);
        let d = Distribution::new(&l, &[4, 64]).unwrap();
        let expected = [
            [0, 0],
            [0, 1],
            [1, 0],
            [1, 1],
            [0, 32],
            [0, 33],
            [1, 32],
            [1, 33],
        ];
        assert_eq!(d.offsets, expected.map(|o| o.to_vec()));
        // Columns before rows when the order says so.
        let l = blocked(&[2, 2], &[2, 16], &[1, 1], &[0, 1]);
        let d = Distribution::new(&l, &[4, 64]).unwrap();
        let expected = [
            [0, 0],
            [1, 0],
            [0, 1],
            [1, 1],
            [0, 32],
            [1, 32],
            [0, 33],
            [1, 33],
        ];
        assert_eq!(d.offsets, expected.map(|o| o.to_vec()));
        for r in 0..d.registers() {
            assert_eq!(d.register_at(&d.offsets[r]), Some(r));
        }
    }

    /// [`Distribution::contiguous_registers`]: registers `r .. r + n`, `r`
    /// a multiple of `n`, hold elements `i .. i + n` along the axis, `i` a
    /// multiple of `n`, in every thread.
    #[test]
    fn contiguous_registers_hold_aligned_runs() {
        for (layout, shape, axis, n) in [
            (
                blocked(&[1, 4], &[2, 16], &[4, 1], &[1, 0]),
                vec![16i64, 128],
                1,
                4,
            ),
            (
                blocked(&[4, 1], &[16, 2], &[1, 4], &[0, 1]),
                vec![128, 16],
                0,
                4,
            ),
            (
                blocked(&[2, 8], &[4, 8], &[2, 2], &[1, 0]),
                vec![32, 64],
                1,
                8,
            ),
            // The tensor is narrower than a thread's run.
            (
                blocked(&[1, 8], &[32, 1], &[4, 1], &[1, 0]),
                vec![128, 2],
                1,
                2,
            ),
            // A slice keeps the root's axis that it has.
            (
                blocked(&[2, 4], &[8, 4], &[4, 1], &[1, 0]).slice(1),
                vec![64],
                0,
                2,
            ),
        ] {
            let d = Distribution::new(&layout, &shape).unwrap();
            assert_eq!(d.contiguous_registers(), Some((axis, n)), "{layout}");
            let warps = i64::from(d.root.num_warps());
            for r in (0..d.registers()).step_by(n as usize) {
                for (lane, warp) in [(0, 0), (7, 0), (31, warps - 1)] {
                    let first = d.element(lane, warp, r);
                    assert_eq!(first[axis] % n, 0, "{layout}");
                    for j in 1..n as usize {
                        let mut next = first.clone();
                        next[axis] += j as i64;
                        assert_eq!(d.element(lane, warp, r + j), next, "{layout}");
                    }
                }
            }
        }
    }

    /// Elements held by more than one thread: along an axis the pattern
    /// overlaps (`wraps`), and along a sliced-away axis over which threads
    /// or warps are spread; checked against the threads holding each
    /// element.
    #[test]
    fn replication_is_seen_where_threads_share_elements() {
        let owners = |d: &Distribution| {
            let mut count: HashMap<Vec<i64>, HashSet<(i64, i64)>> = HashMap::new();
            for warp in 0..i64::from(d.root.num_warps()) {
                for lane in 0..32 {
                    for r in 0..d.registers() {
                        count
                            .entry(d.element(lane, warp, r))
                            .or_default()
                            .insert((lane, warp));
                    }
                }
            }
            count.values().map(HashSet::len).max().unwrap()
        };
        // 1 x 4 on 8 warps: 8 threads and 8 warps along the single row.
        let tiny = Layout::Blocked(Blocked::default_for(&[1, 4], 8).unwrap());
        let d = Distribution::new(&tiny, &[1, 4]).unwrap();
        assert!(d.wraps(0) && !d.wraps(1));
        assert!(d.replicated());
        assert_eq!(owners(&d), 64);
        // 16 x 64 on 4 warps: threads [1, 32], warps [2, 2].
        let parent = Layout::Blocked(Blocked::default_for(&[16, 64], 4).unwrap());
        let d = Distribution::new(&parent, &[16, 64]).unwrap();
        assert!(!d.wraps(0) && !d.wraps(1) && d.sliced_spread_axes().is_empty());
        assert_eq!(owners(&d), 1);
        // Its columns: the two warps along the rows hold copies.
        let cols = Distribution::new(&parent.slice(0), &[64]).unwrap();
        assert!(!cols.wraps(0));
        assert_eq!(cols.sliced_spread_axes(), [0]);
        assert!(cols.replicated());
        assert_eq!(owners(&cols), 2);
        // On one warp, no thread nor warp lies along the rows: no copies.
        let one_warp = Layout::Blocked(Blocked::default_for(&[16, 64], 1).unwrap());
        let cols = Distribution::new(&one_warp.slice(0), &[64]).unwrap();
        assert!(cols.sliced_spread_axes().is_empty());
        assert!(!cols.replicated());
        assert_eq!(owners(&cols), 1);
    }

    /// [`Distribution::same_thread_registers`] maps each register of `to`
    /// to the register of `self` holding its element; tensors of other
    /// shapes or programs of other warp counts never line up.
    #[test]
    fn same_thread_registers_match_elements_not_positions() {
        let l = Layout::Blocked(Blocked::default_for(&[16, 64], 4).unwrap());
        let d = Distribution::new(&l, &[16, 64]).unwrap();
        let identity: Vec<usize> = (0..d.registers()).collect();
        assert!(identity.len() > 1);
        assert_eq!(d.same_thread_registers(&d), Some(identity));
        // The same elements in the opposite register order: the map
        // reverses them.
        let spt = blocked(&[4], &[32], &[4], &[0]);
        let rows = Distribution::new(&spt, &[512]).unwrap();
        let mut reversed = rows.clone();
        reversed.offsets.reverse();
        reversed.index = reversed
            .offsets
            .iter()
            .enumerate()
            .map(|(r, o)| (o.clone(), r))
            .collect();
        let n = rows.registers();
        assert_eq!(
            rows.same_thread_registers(&reversed),
            Some((0..n).rev().collect())
        );
        // The same layout over half the rows: the first half's registers
        // hold the same positions, but of another tensor.
        let half = Distribution::new(&l, &[8, 64]).unwrap();
        assert_eq!(d.same_thread_registers(&half), None);
        assert_eq!(half.same_thread_registers(&d), None);
        // Twice the warps over the same tensor: warps 4-7 hold elements
        // that warps 0-3 of `d` hold.
        let wide = Layout::Blocked(Blocked::default_for(&[16, 64], 8).unwrap());
        let wide = Distribution::new(&wide, &[16, 64]).unwrap();
        assert_eq!(d.same_thread_registers(&wide), None);
        assert_eq!(wide.same_thread_registers(&d), None);
        // Another spread of the same warps moves elements between threads.
        let cols = blocked(&[1, 1], &[32, 1], &[1, 4], &[0, 1]);
        let cols = Distribution::new(&cols, &[16, 64]).unwrap();
        assert_eq!(d.same_thread_registers(&cols), None);
    }

    #[test]
    fn slices_line_up_with_their_parent() {
        let parent = Layout::Blocked(Blocked::default_for(&[16, 64], 4).unwrap());
        let full = Distribution::new(&parent, &[16, 64]).unwrap();
        let rows = Distribution::new(&parent.slice(1), &[16]).unwrap();
        // Every element of the 2-d tile finds its row index in the same
        // thread's slice registers.
        for r in 0..full.registers() {
            let o = &full.offsets[r];
            let s = rows.register_at(&o[..1]).unwrap();
            for (lane, warp) in [(0, 0), (5, 1), (31, 3)] {
                assert_eq!(
                    full.element(lane, warp, r)[0],
                    rows.element(lane, warp, s)[0]
                );
            }
        }
        assert_eq!(full.registers(), 8);
        assert!(!full.replicated());
        assert!(rows.replicated());
    }

    /// Registers that `constant_groups` merges hold, in every thread,
    /// elements of one aligned group of the stated constancy.
    fn groups_hold_one_aligned_group(layout: &Layout, shape: &[i64], constancy: &[i64]) -> usize {
        let d = Distribution::new(layout, shape).unwrap();
        let Some(groups) = d.constant_groups(constancy) else {
            return d.registers();
        };
        for warp in 0..i64::from(d.root.num_warps()) {
            for lane in 0..32 {
                for (r, &k) in groups.iter().enumerate() {
                    assert!(k <= r, "a group's first register comes first");
                    let (a, b) = (d.element(lane, warp, r), d.element(lane, warp, k));
                    for i in 0..shape.len() {
                        assert_eq!(
                            a[i].div_euclid(constancy[i]),
                            b[i].div_euclid(constancy[i]),
                            "{layout} {shape:?} constancy {constancy:?}: lane {lane} warp {warp} \
                             registers {r} and {k}"
                        );
                    }
                }
            }
        }
        groups.iter().enumerate().filter(|&(r, &k)| r == k).count()
    }

    #[test]
    fn constant_groups_share_registers_only_within_aligned_groups() {
        // Four rows of 4096 on 8 warps along the columns: a row mask
        // constant over the four rows and a column mask over 16 columns
        // leave one value a 4-column vector (64 registers to 4).
        let rows = blocked(&[1, 4], &[1, 32], &[1, 8], &[1, 0]);
        assert_eq!(
            groups_hold_one_aligned_group(&rows, &[4, 4096], &[4, 16]),
            4
        );
        // Rows only: the four rows of each column share.
        assert_eq!(
            groups_hold_one_aligned_group(&rows, &[4, 4096], &[4, 1]),
            16
        );
        // Warps over the rows: a thread's rows are 2 apart, and a group
        // of 4 rows spans two warps, so only what one thread holds of it.
        let split = blocked(&[1, 4], &[1, 32], &[2, 4], &[1, 0]);
        assert_eq!(
            groups_hold_one_aligned_group(&split, &[4, 4096], &[4, 16]),
            8
        );
        // A group longer than the tile, wrapping patterns, slices, odd
        // constancies and an mma accumulator.
        for (layout, shape, constancy) in [
            (rows.clone(), vec![4i64, 4096], vec![64i64, 8192]),
            (
                blocked(&[2, 2], &[2, 16], &[1, 1], &[1, 0]),
                vec![2, 16],
                vec![2, 2],
            ),
            (
                blocked(&[4, 1], &[8, 4], &[1, 4], &[0, 1]),
                vec![64, 32],
                vec![8, 3],
            ),
            (
                blocked(&[1, 8], &[4, 8], &[4, 1], &[1, 0]),
                vec![128, 64],
                vec![6, 16],
            ),
            (rows.slice(0), vec![4096], vec![32]),
            (rows.slice(1), vec![4], vec![4]),
        ] {
            let n = groups_hold_one_aligned_group(&layout, &shape, &constancy);
            assert!(n >= 1);
        }
        let mma = Layout::Mma(crate::mma::Mma {
            version: 2,
            warps_per_cta: [2, 2],
            instr_n: 8,
        });
        groups_hold_one_aligned_group(&mma, &[64, 32], &[16, 2]);
        groups_hold_one_aligned_group(&mma, &[64, 32], &[8, 8]);
        // The default layouts of many tiles, every constancy pair.
        for shape in [[4i64, 256], [16, 64], [2, 1024], [64, 8], [32, 32]] {
            for warps in [1, 4, 8] {
                let b = Layout::Blocked(Blocked::default_for(&shape, warps).unwrap());
                for c0 in [1, 2, 4, 16] {
                    for c1 in [1, 4, 8, 64] {
                        groups_hold_one_aligned_group(&b, &shape, &[c0, c1]);
                    }
                }
            }
        }
    }
}
