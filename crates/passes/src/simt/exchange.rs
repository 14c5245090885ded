//! Moving a tile's elements between threads through shared memory: a
//! layout conversion, a `permute`, a reshape, a join, a split or a cat.
//! Every source thread writes the elements it holds at their *places*
//! (an index per element: where the op sends it), and after a barrier
//! every result thread reads the places its registers want.
//!
//! Where a place lies in the buffer is chosen here, per exchange, so that
//! both sides are fast:
//! - **vectors**: a side whose registers hold runs of consecutive places
//!   (aligned to the run) moves each run with one access of up to 16
//!   bytes;
//! - **no bank conflicts**: among mappings that keep those runs whole
//!   ([`Mapping`]: the identity, an XOR swizzle of runs by higher place
//!   bits, or a pad after every row), the one with the fewest shared
//!   memory wavefronts over both sides is taken, counted by replaying the
//!   accesses of a warp against the 32 banks ([`wavefronts`]); ties go to
//!   fewer instructions, then to the simpler mapping.
//!
//! So a transpose (a source run along one axis, the result's along the
//! other) writes scalars into a swizzled buffer that the result reads in
//! 16-byte vectors, each side at most 2-way conflicted, instead of 16
//! threads writing one bank.

use super::builder::Val;
use super::emit::Emitter;
use crate::pass::PassError;
use melior::dialect::arith;
use melior::ir::Type;
use tile_coalesce::Distribution;

/// Where the elements of a tensor go in the exchange, in places:
/// `offset + Σ index[k] · strides[k]`.
pub struct Placement {
    /// The place stride of each axis.
    pub strides: Vec<i64>,
    /// The place of element 0.
    pub offset: i64,
}

impl Placement {
    /// Row-major in `shape`, each place `scale` apart, from `offset`.
    pub fn row_major(shape: &[i64], scale: i64, offset: i64) -> Self {
        let mut strides = vec![scale; shape.len()];
        for k in (0..shape.len().saturating_sub(1)).rev() {
            strides[k] = strides[k + 1] * shape[k + 1];
        }
        Placement { strides, offset }
    }

    /// The place of element `at`.
    pub fn at(&self, at: &[i64]) -> i64 {
        self.offset
            + at.iter()
                .zip(&self.strides)
                .map(|(i, s)| i * s)
                .sum::<i64>()
    }
}

/// How a place maps to its element slot in the buffer. `unit` (log2 of
/// the elements kept together) is the plan's; runs of `2^unit` aligned
/// places stay together and in order under every mapping.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mapping {
    /// Slot = place.
    Identity,
    /// Slot = place XOR (((place >> from) & (2^bits - 1)) << unit): runs
    /// permuted within each group of `2^bits` runs by higher place bits.
    Xor {
        /// The lowest place bit that selects the permutation.
        from: u32,
        /// How many bits.
        bits: u32,
    },
    /// Slot = place + (place >> every) · 2^unit: a run of padding after
    /// every `2^every` places.
    Pad {
        /// log2 of the places between pads.
        every: u32,
    },
}

/// How an exchange uses shared memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Plan {
    /// log2 of the elements kept together.
    pub unit: u32,
    /// Place to slot.
    pub mapping: Mapping,
    /// Slots of the buffer.
    pub slots: i64,
}

impl Plan {
    /// The slot of `place`.
    pub fn slot(&self, place: i64) -> i64 {
        match self.mapping {
            Mapping::Identity => place,
            Mapping::Xor { from, bits } => {
                place ^ (((place >> from) & ((1 << bits) - 1)) << self.unit)
            }
            Mapping::Pad { every } => place + ((place >> every) << self.unit),
        }
    }

    /// [`Plan::slot`] of a place held in an `i32` register.
    fn emit_slot(&self, e: &mut Emitter<'_, '_>, place: Val) -> Val {
        match self.mapping {
            Mapping::Identity => place,
            Mapping::Xor { from, bits } => {
                let shift = e.i32(i64::from(from));
                let high = e.ir.binary(arith::shrui, place, shift);
                let mask = e.i32((1 << bits) - 1);
                let mut moved = e.ir.binary(arith::andi, high, mask);
                if self.unit > 0 {
                    let unit = e.i32(i64::from(self.unit));
                    moved = e.ir.binary(arith::shli, moved, unit);
                }
                e.ir.binary(arith::xori, place, moved)
            }
            Mapping::Pad { every } => {
                let shift = e.i32(i64::from(every));
                let mut pad = e.ir.binary(arith::shrui, place, shift);
                if self.unit > 0 {
                    let unit = e.i32(i64::from(self.unit));
                    pad = e.ir.binary(arith::shli, pad, unit);
                }
                e.ir.binary(arith::addi, place, pad)
            }
        }
    }
}

/// One side of an exchange: a distribution and where its elements go.
pub struct Side<'a> {
    /// Which thread holds which element in which register.
    pub dist: &'a Distribution,
    /// The elements' places.
    pub place: &'a Placement,
    /// The place of each thread's each register, computed once:
    /// `(warp * 32 + lane) * registers + r`.
    places: Vec<i64>,
}

impl<'a> Side<'a> {
    /// The side of `dist`'s registers at `place`.
    pub fn new(dist: &'a Distribution, place: &'a Placement) -> Self {
        let n = dist.registers();
        let threads = 32 * dist.root.num_warps() as usize;
        let mut places = Vec::with_capacity(threads * n);
        for t in 0..threads {
            let (lane, warp) = ((t % 32) as i64, (t / 32) as i64);
            for r in 0..n {
                places.push(place.at(&dist.element(lane, warp, r)));
            }
        }
        Side {
            dist,
            place,
            places,
        }
    }

    fn place(&self, lane: i64, warp: i64, r: usize) -> i64 {
        self.places[(warp as usize * 32 + lane as usize) * self.dist.registers() + r]
    }

    fn threads(&self) -> impl Iterator<Item = (i64, i64)> + use<> {
        let warps = i64::from(self.dist.root.num_warps());
        (0..warps).flat_map(|warp| (0..32).map(move |lane| (lane, warp)))
    }

    /// The longest run (a power of two, at most `limit` elements) that
    /// every thread's registers `k·w .. k·w + w` hold as `w` consecutive
    /// places starting at a multiple of `w`.
    fn vector_width(&self, limit: usize) -> usize {
        let n = self.dist.registers();
        let mut w = limit.min(n).max(1);
        while w > 1 {
            let runs = n.is_multiple_of(w)
                && self.threads().all(|(lane, warp)| {
                    (0..n).step_by(w).all(|r| {
                        let first = self.place(lane, warp, r);
                        first.rem_euclid(w as i64) == 0
                            && (1..w).all(|i| self.place(lane, warp, r + i) == first + i as i64)
                    })
                });
            if runs {
                return w;
            }
            w /= 2;
        }
        1
    }

    /// How the places split into a thread's part and a register's: `Xor`
    /// where every place is the thread's first register's place XOR a
    /// per-register constant (`place(0, 0, r) ^ place(0, 0, 0)`), `Or`
    /// where moreover the two never share a bit (so XOR is addition),
    /// `None` otherwise.
    fn split(&self) -> Split {
        let n = self.dist.registers();
        let origin = self.place(0, 0, 0);
        let mut disjoint = true;
        for (lane, warp) in self.threads() {
            let first = self.place(lane, warp, 0);
            for r in 0..n {
                let delta = self.place(0, 0, r) ^ origin;
                if self.place(lane, warp, r) != first ^ delta {
                    return Split::None;
                }
                disjoint &= first & delta == 0;
            }
        }
        if disjoint { Split::Or } else { Split::Xor }
    }
}

/// See [`Side::split`].
#[derive(Clone, Copy, PartialEq, Eq)]
enum Split {
    None,
    Xor,
    Or,
}

/// Shared memory wavefronts of one warp-wide access: each lane's byte
/// address (`None`: the lane does not take part) and the bytes each
/// accesses. Lanes go in phases of 128 bytes (8 lanes of 16 bytes, 16 of
/// 8, all 32 otherwise); a phase takes as many wavefronts as the most
/// distinct 4-byte words any one of the 32 banks holds.
pub fn wavefronts(addresses: &[Option<i64>], bytes: i64) -> u32 {
    let lanes_per_phase = (128 / bytes.max(4)) as usize;
    let mut total = 0;
    // At most 32 lanes of at most 4 words a phase: no allocation.
    let mut words = [0i64; 128];
    for phase in addresses.chunks(lanes_per_phase) {
        let mut n = 0;
        for &a in phase.iter().flatten() {
            for w in a.div_euclid(4)..=(a + bytes - 1).div_euclid(4) {
                if n < words.len() {
                    words[n] = w;
                    n += 1;
                }
            }
        }
        let words = &mut words[..n];
        words.sort_unstable();
        let mut per_bank = [0u32; 32];
        let mut last = None;
        for &w in words.iter() {
            if last != Some(w) {
                per_bank[w.rem_euclid(32) as usize] += 1;
                last = Some(w);
            }
        }
        total += per_bank.iter().copied().max().unwrap_or(0);
    }
    total
}

/// Register groups of a side sampled for the cost: at most this many.
const SAMPLED_GROUPS: usize = 16;

/// The cost of `plan` for `sides` moving runs of `widths` (capped by the
/// plan's unit): estimated wavefronts over all of each side's accesses
/// (from warp 0's sampled groups), and the number of accesses.
fn cost(plan: &Plan, sides: &[&Side], widths: &[usize], elem_bytes: i64) -> (f64, usize) {
    let mut waves = 0.0;
    let mut accesses = 0;
    for (side, &w) in sides.iter().zip(widths) {
        let w = w.min(1 << plan.unit);
        let groups = side.dist.registers() / w;
        let step = groups.div_ceil(SAMPLED_GROUPS).max(1);
        let mut sampled = 0;
        let mut sum = 0u32;
        for g in (0..groups).step_by(step) {
            let mut addresses = [None; 32];
            for (lane, a) in addresses.iter_mut().enumerate() {
                *a = Some(plan.slot(side.place(lane as i64, 0, g * w)) * elem_bytes);
            }
            sum += wavefronts(&addresses, w as i64 * elem_bytes);
            sampled += 1;
        }
        let warps = f64::from(side.dist.root.num_warps());
        waves += f64::from(sum) / sampled.max(1) as f64 * groups as f64 * warps;
        accesses += groups;
    }
    (waves, accesses)
}

/// The plans worth costing for an exchange of `elements` places of
/// `elem_bytes` whose widest side moves runs of `widest`: for each run
/// unit from the widest down, the identity, then paddings, then swizzles
/// (the identity at the widest runs first).
fn candidates(widest: usize, elements: i64, elem_bytes: i64) -> Vec<Plan> {
    let size = elements.max(1);
    let total_bits = 64 - (size - 1).leading_zeros();
    let mut candidates = Vec::new();
    for unit in (0..=widest.trailing_zeros()).rev() {
        candidates.push(Plan {
            unit,
            mapping: Mapping::Identity,
            slots: size,
        });
        // Paddings before swizzles: on a tie a padding's addresses stay
        // sums of a thread's part and constants, which fold into the
        // accesses.
        for every in (unit + 1)..total_bits {
            candidates.push(Plan {
                unit,
                mapping: Mapping::Pad { every },
                slots: size + (((size - 1) >> every) << unit),
            });
        }
        // Bank patterns repeat every 128 bytes: more runs than fit in 128
        // bytes gain nothing from a wider permutation.
        let runs_per_line = (128 / (elem_bytes << unit)).max(2);
        for bits in 1..=runs_per_line.trailing_zeros() {
            for from in (unit + bits)..total_bits {
                candidates.push(Plan {
                    unit,
                    mapping: Mapping::Xor { from, bits },
                    slots: 1i64 << total_bits,
                });
            }
        }
    }
    candidates
}

/// The fewest wavefronts the exchange can take: every access of each side
/// needs at least one wavefront per 128 bytes it moves. No plan does
/// better, so the search stops at a plan that reaches it.
fn least_wavefronts(sides: &[&Side], widths: &[usize], elem_bytes: i64) -> f64 {
    sides
        .iter()
        .zip(widths)
        .map(|(side, &w)| {
            let accesses = side.dist.registers() / w * side.dist.root.num_warps() as usize;
            accesses as f64
                * ((32 * w as i64 * elem_bytes) as f64 / 128.0)
                    .ceil()
                    .max(1.0)
        })
        .sum()
}

/// The plan for an exchange among `sides` (sources then results) over
/// `elements` places of `elem_bytes` each, and each side's access width
/// in elements. `vectors`: whether accesses may be wider than one element
/// (whole-byte scalars in a 16-byte aligned buffer).
pub fn plan(sides: &[&Side], elements: i64, elem_bytes: i64, vectors: bool) -> (Plan, Vec<usize>) {
    let limit = if vectors {
        (16 / elem_bytes.max(1)).max(1) as usize
    } else {
        1
    };
    let widths: Vec<usize> = sides.iter().map(|s| s.vector_width(limit)).collect();
    let widest = widths.iter().copied().max().unwrap_or(1);
    let candidates = candidates(widest, elements, elem_bytes);
    let least = least_wavefronts(sides, &widths, elem_bytes);
    let mut best: Option<((f64, usize), Plan)> = None;
    for plan in candidates {
        if best.as_ref().is_some_and(|(c, _)| c.0 <= least) {
            break;
        }
        let c = cost(&plan, sides, &widths, elem_bytes);
        let better = match &best {
            None => true,
            Some((b, _)) => c.0 < b.0 - 1e-9 || (c.0 <= b.0 + 1e-9 && c.1 < b.1),
        };
        if better {
            best = Some((c, plan));
        }
    }
    let (_, plan) = best.expect("the identity is always a candidate");
    let widths = widths.into_iter().map(|w| w.min(1 << plan.unit)).collect();
    (plan, widths)
}

/// The registers a side holds or wants, with its distribution and places.
pub struct Held<'a> {
    /// The side.
    pub side: Side<'a>,
    /// Its registers (sources only).
    pub regs: &'a [Val],
}

/// Exchanges through shared memory: `sources` write their registers,
/// `results` read theirs; returns each result's registers. `elem` is the
/// element type in registers, `elem_bytes` its size in the buffer,
/// `whole_bytes` false for `i1` (no vectors then).
pub fn exchange<'c>(
    e: &mut Emitter<'_, 'c>,
    sources: &[Held],
    results: &[Side],
    elements: i64,
    elem: Type<'c>,
    elem_bytes: i64,
    whole_bytes: bool,
) -> Result<Vec<Vec<Val>>, PassError> {
    let vectors = whole_bytes && e.scratch().is_multiple_of(16);
    let sides: Vec<&Side> = sources.iter().map(|h| &h.side).chain(results).collect();
    let (plan, widths) = plan(&sides, elements, elem_bytes, vectors);
    e.reserve_shared((plan.slots * elem_bytes) as usize);
    let base = e.shared_base();
    // Earlier users of the buffer must be done before it is rewritten.
    e.ir.barrier();
    for (held, &w) in sources.iter().zip(&widths) {
        let pointers = slot_pointers(e, &plan, &held.side, w, base, elem);
        for (r, p) in (0..held.regs.len()).step_by(w).zip(pointers) {
            let align = (w as i64 * elem_bytes) as u64;
            if w == 1 {
                e.ir.store_for_others(held.regs[r], p, align);
            } else {
                let vector_ty = e.ir.vector_type(w as u64, elem);
                let mut v = e.ir.poison(vector_ty);
                for (i, &x) in held.regs[r..r + w].iter().enumerate() {
                    let at = e.i32(i as i64);
                    v = e.ir.insert_element(v, x, at);
                }
                e.ir.store_for_others(v, p, align);
            }
        }
    }
    e.ir.barrier();
    let mut out = Vec::with_capacity(results.len());
    for (side, &w) in results.iter().zip(&widths[sources.len()..]) {
        let n = side.dist.registers();
        let mut regs = Vec::with_capacity(n);
        let pointers = slot_pointers(e, &plan, side, w, base, elem);
        for p in pointers {
            let align = (w as i64 * elem_bytes) as u64;
            if w == 1 {
                regs.push(e.ir.load(p, elem, align));
            } else {
                let vector_ty = e.ir.vector_type(w as u64, elem);
                let v = e.ir.load(p, vector_ty, align);
                for i in 0..w {
                    let at = e.i32(i as i64);
                    regs.push(e.ir.extract_element(v, at, elem));
                }
            }
        }
        out.push(regs);
    }
    Ok(out)
}

/// The addresses of a side's accesses (registers `0, w, 2w, ..`). Where
/// the side's places split into a thread's part and a register's
/// ([`Side::split`]), the thread's first slot is computed once and each
/// access adds (or XORs) a constant: under an XOR swizzle, which is linear
/// over XOR, always; under the identity or a padding, where the parts
/// share no bit (then shifting the sum shifts each part). Adding a
/// constant folds into the address; else each register's place is
/// computed and mapped.
fn slot_pointers<'c>(
    e: &mut Emitter<'_, 'c>,
    plan: &Plan,
    side: &Side,
    w: usize,
    base: Val,
    elem: Type<'c>,
) -> Vec<Val> {
    let n = side.dist.registers();
    let split = side.split();
    let xor = matches!(plan.mapping, Mapping::Xor { .. });
    if split == Split::Or || (xor && split == Split::Xor) {
        let first = place_of(e, side.dist, 0, side.place);
        let slot0 = plan.emit_slot(e, first);
        let origin = side.place(0, 0, 0);
        // The bits the thread's first slot can have.
        let varying = side.threads().fold(0i64, |acc, (lane, warp)| {
            acc | plan.slot(side.place(lane, warp, 0))
        });
        return (0..n)
            .step_by(w)
            .map(|r| {
                let delta = side.place(0, 0, r) ^ origin;
                // Every mapping sends place 0 to slot 0; XOR's is linear
                // over XOR, the others' over disjoint bits.
                let k = if xor {
                    plan.slot(side.place(0, 0, r)) ^ plan.slot(origin)
                } else {
                    plan.slot(delta)
                };
                let slot = if k == 0 {
                    slot0
                } else {
                    let c = e.i32(k);
                    let op = if !xor || varying & k == 0 {
                        arith::addi
                    } else {
                        arith::xori
                    };
                    e.ir.binary(op, slot0, c)
                };
                e.ir.gep(base, slot, elem)
            })
            .collect();
    }
    (0..n)
        .step_by(w)
        .map(|r| {
            let place = place_of(e, side.dist, r, side.place);
            let slot = plan.emit_slot(e, place);
            e.ir.gep(base, slot, elem)
        })
        .collect()
}

/// The place of register `r`'s element, in an `i32` register.
fn place_of(e: &mut Emitter<'_, '_>, d: &Distribution, r: usize, place: &Placement) -> Val {
    let mut acc: Option<Val> = None;
    for (k, &stride) in place.strides.iter().enumerate() {
        let idx = e.index(d, r, k);
        let term = match stride {
            1 => idx,
            s => {
                let c = e.i32(s);
                e.ir.binary(arith::muli, idx, c)
            }
        };
        acc = Some(match acc {
            None => term,
            Some(a) => e.ir.binary(arith::addi, a, term),
        });
    }
    let at = acc.unwrap_or_else(|| e.i32(0));
    match place.offset {
        0 => at,
        o => {
            let c = e.i32(o);
            e.ir.binary(arith::addi, at, c)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conflict_free_scalars_take_one_wavefront() {
        let a: Vec<Option<i64>> = (0..32).map(|l| Some(l * 4)).collect();
        assert_eq!(wavefronts(&a, 4), 1);
    }

    #[test]
    fn a_column_of_a_128_byte_row_major_tile_hits_one_bank() {
        let a: Vec<Option<i64>> = (0..32).map(|l| Some(l * 128)).collect();
        assert_eq!(wavefronts(&a, 4), 32);
        let same: Vec<Option<i64>> = (0..32).map(|_| Some(64)).collect();
        assert_eq!(wavefronts(&same, 4), 1, "one word is a broadcast");
    }

    #[test]
    fn sixteen_byte_accesses_go_in_four_phases() {
        let a: Vec<Option<i64>> = (0..32).map(|l| Some(l * 16)).collect();
        assert_eq!(wavefronts(&a, 16), 4);
        // Two lanes of a phase 128 bytes apart share banks.
        let b: Vec<Option<i64>> = (0..32)
            .map(|l| Some((l % 2) * 128 + (l / 2) * 16))
            .collect();
        assert_eq!(wavefronts(&b, 16), 8);
    }

    #[test]
    fn slots_are_a_permutation_and_keep_runs() {
        for mapping in [
            Mapping::Identity,
            Mapping::Xor { from: 6, bits: 3 },
            Mapping::Xor { from: 8, bits: 2 },
            Mapping::Pad { every: 6 },
        ] {
            let plan = Plan {
                unit: 2,
                mapping,
                slots: 4096 + 256,
            };
            let mut seen = std::collections::HashSet::new();
            for p in 0..4096 {
                let s = plan.slot(p);
                assert!((0..plan.slots).contains(&s), "{mapping:?}: {p} -> {s}");
                assert!(seen.insert(s), "{mapping:?}: slot {s} twice");
                if p % 4 != 0 {
                    assert_eq!(s, plan.slot(p - 1) + 1, "{mapping:?} splits a run");
                }
            }
        }
    }

    fn distribution(layout: &str, shape: &[i64]) -> Distribution {
        let layout = tile_coalesce::Layout::parse(layout).unwrap();
        Distribution::new(&layout, shape).unwrap()
    }

    /// Four warps of 1x4 runs, 4x8 threads a warp, 4x1 warps (32x32).
    const BLOCKED_32: &str = "#tile.blocked<array<i32: 1, 4>, array<i32: 4, 8>, \
                              array<i32: 4, 1>, array<i32: 1, 0>>";

    /// Four warps of 1x4 runs, 4x8 threads a warp, 2x2 warps, over 16x64.
    const BLOCKED: &str = "#tile.blocked<array<i32: 1, 4>, array<i32: 4, 8>, \
                           array<i32: 2, 2>, array<i32: 1, 0>>";

    #[test]
    fn a_sides_places_are_its_placements_of_every_threads_elements() {
        let d = distribution(BLOCKED, &[16, 64]);
        let place = Placement::row_major(&[16, 64], 1, 0);
        let side = Side::new(&d, &place);
        assert_eq!(d.root.num_warps(), 4);
        for warp in 0..4 {
            for lane in 0..32 {
                for r in 0..d.registers() {
                    let want = place.at(&d.element(lane, warp, r));
                    assert_eq!(
                        side.place(lane, warp, r),
                        want,
                        "lane {lane} warp {warp} r {r}"
                    );
                }
            }
        }
    }

    #[test]
    fn a_join_splits_both_halves_into_a_thread_part_and_a_register_part() {
        // `join` places its operands at the even and the odd places
        // (`rearrange.rs`): each side is still a thread's first place plus
        // per-register constants sharing no bit with it.
        let d = distribution(BLOCKED, &[16, 64]);
        for offset in [0, 1] {
            let place = Placement::row_major(&[16, 64], 2, offset);
            let side = Side::new(&d, &place);
            assert!(side.split() == Split::Or, "offset {offset}");
            // Every other place: no run of two.
            assert_eq!(side.vector_width(4), 1);
        }
        // Row-major at scale 1: runs of 4, the same split.
        let place = Placement::row_major(&[16, 64], 1, 0);
        let side = Side::new(&d, &place);
        assert!(side.split() == Split::Or);
        assert_eq!(side.vector_width(4), 4);
        assert_eq!(side.vector_width(2), 2);
        // A placement that folds rows onto one another (places 16 apart
        // for rows 64 long) is not a thread part plus register constants.
        let folded = Placement {
            strides: vec![16, 1],
            offset: 0,
        };
        assert!(Side::new(&d, &folded).split() == Split::None);
    }

    /// Warp 0's shared-memory wavefronts per access of `side` under
    /// `plan`, each access moving `w` registers of 4-byte elements: the
    /// largest over the side's accesses.
    fn worst_access(plan: &Plan, side: &Side, w: usize) -> u32 {
        (0..side.dist.registers())
            .step_by(w)
            .map(|r| {
                let addresses: Vec<Option<i64>> = (0..32)
                    .map(|lane| Some(plan.slot(side.place(lane, 0, r)) * 4))
                    .collect();
                wavefronts(&addresses, w as i64 * 4)
            })
            .max()
            .unwrap_or(0)
    }

    #[test]
    fn a_transposes_plan_avoids_the_conflicts_of_the_identity() {
        // f32 32x32 in 1x4 runs: the sources write row-major places, the
        // results read their elements at the transposed places, so one
        // side's runs lie down a column of the buffer.
        let d = distribution(BLOCKED_32, &[32, 32]);
        let rows = Placement::row_major(&[32, 32], 1, 0);
        let columns = Placement {
            strides: vec![1, 32],
            offset: 0,
        };
        let (source, result) = (Side::new(&d, &rows), Side::new(&d, &columns));
        let (plan, widths) = super::plan(&[&source, &result], 1024, 4, true);
        assert_eq!(widths, [4, 1]);
        let identity = Plan {
            unit: plan.unit,
            mapping: Mapping::Identity,
            slots: 1024,
        };
        // Down a column of a 128-byte row-major buffer, 8 lanes on one
        // bank: the identity's scalar accesses take 8 wavefronts.
        assert_eq!(worst_access(&identity, &result, 1), 8);
        // The first of the cheapest in the candidates' order: a padding
        // (ties go to paddings, whose addresses fold): a run of 4 after
        // every 128 places.
        assert_eq!(
            plan,
            Plan {
                unit: 2,
                mapping: Mapping::Pad { every: 7 },
                slots: 1024 + (1023 >> 7 << 2),
            }
        );
        assert!(worst_access(&plan, &source, 4) <= 4, "{plan:?}");
        assert!(worst_access(&plan, &result, 1) <= 2, "{plan:?}");
    }

    #[test]
    fn the_cost_is_the_average_access_times_the_accesses() {
        // 32x32 f32 in 1x4 runs, 4x8 threads a warp, 4 warps, row-major:
        // a 16-byte access is 4 phases of 8 lanes reading 128 contiguous
        // bytes (4 wavefronts); a scalar one has 8 banks each hit by 4
        // rows (4 wavefronts). 2 and 8 accesses a warp, 4 warps.
        let d = distribution(BLOCKED_32, &[32, 32]);
        let rows = Placement::row_major(&[32, 32], 1, 0);
        let side = Side::new(&d, &rows);
        let identity = Plan {
            unit: 2,
            mapping: Mapping::Identity,
            slots: 1024,
        };
        assert_eq!(cost(&identity, &[&side], &[4], 4), (4.0 * 2.0 * 4.0, 2));
        assert_eq!(cost(&identity, &[&side], &[1], 4), (4.0 * 8.0 * 4.0, 8));
        // Two sides add up.
        assert_eq!(
            cost(&identity, &[&side, &side], &[4, 1], 4),
            (32.0 + 128.0, 10)
        );
    }

    #[test]
    fn vector_accesses_move_at_most_sixteen_bytes() {
        // A thread holding runs of 8: 16 bytes of f32 (4), of f16 (8).
        let eights = "#tile.blocked<array<i32: 1, 8>, array<i32: 8, 4>, array<i32: 4, 1>, \
                      array<i32: 1, 0>>";
        let d = distribution(eights, &[32, 32]);
        let row_major = Placement::row_major(&[32, 32], 1, 0);
        let side = Side::new(&d, &row_major);
        assert_eq!(super::plan(&[&side], 1024, 4, true).1, [4]);
        assert_eq!(super::plan(&[&side], 1024, 2, true).1, [8]);
        assert_eq!(super::plan(&[&side], 1024, 8, true).1, [2]);
        assert_eq!(super::plan(&[&side], 1024, 4, false).1, [1]);
    }

    #[test]
    fn the_least_wavefronts_are_one_per_128_bytes_an_access() {
        // 8 registers a thread, 4 warps: in runs of 4 f32, 8 accesses of
        // 512 bytes (4 wavefronts each); scalar, 32 of 128 (1 each).
        let d = distribution(BLOCKED_32, &[32, 32]);
        let rows = Placement::row_major(&[32, 32], 1, 0);
        let side = Side::new(&d, &rows);
        assert_eq!(least_wavefronts(&[&side], &[4], 4), 32.0);
        assert_eq!(least_wavefronts(&[&side], &[1], 4), 32.0);
        assert_eq!(least_wavefronts(&[&side, &side], &[4, 1], 4), 64.0);
        // Scalar f16: 64 bytes an access, still one wavefront.
        assert_eq!(least_wavefronts(&[&side], &[1], 2), 32.0);
        // Runs of 8 f16 (16 bytes): one access a warp of 512 bytes, 4
        // wavefronts, 4 warps.
        assert_eq!(least_wavefronts(&[&side], &[8], 2), 16.0);
    }

    #[test]
    fn candidates_keep_runs_whole_and_permute_within_a_bank_line() {
        for (widest, elements, elem_bytes) in [(4, 1024, 4), (8, 4096, 2), (1, 1000, 4), (2, 64, 8)]
        {
            let all = candidates(widest, elements, elem_bytes);
            let total_bits = 64 - (elements - 1).leading_zeros();
            assert_eq!(all[0].mapping, Mapping::Identity);
            assert_eq!(all[0].unit, widest.trailing_zeros());
            assert_eq!(
                all.iter()
                    .filter(|p| p.mapping == Mapping::Identity)
                    .count(),
                widest.trailing_zeros() as usize + 1
            );
            for p in &all {
                match p.mapping {
                    Mapping::Identity => assert_eq!(p.slots, elements),
                    Mapping::Pad { every } => {
                        assert!(every > p.unit && every < total_bits, "{p:?}");
                        assert_eq!(p.slots, elements + (((elements - 1) >> every) << p.unit));
                    }
                    Mapping::Xor { from, bits } => {
                        // Permuted runs stay within one 128-byte line.
                        let line_runs = (128 / (elem_bytes << p.unit)).max(2);
                        assert!(1 << bits <= line_runs, "{p:?}");
                        assert!(from >= p.unit + bits && from < total_bits, "{p:?}");
                        assert_eq!(p.slots, 1 << total_bits, "{p:?}");
                    }
                }
            }
        }
    }
}
