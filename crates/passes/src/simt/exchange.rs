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
    // The first of the cheapest: the candidates come in order of falling
    // run unit, so none takes fewer accesses than one before it, and a
    // tie goes to fewer accesses, then the simpler mapping, by the order.
    let mut best: Option<(f64, Plan)> = None;
    for plan in candidates {
        if best.as_ref().is_some_and(|(c, _)| *c <= least) {
            break;
        }
        let (c, _) = cost(&plan, sides, &widths, elem_bytes);
        if best.as_ref().is_none_or(|(b, _)| c < b - 1e-9) {
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
    if let Some(steps) = slot_steps(plan, side, w) {
        let first = place_of(e, side.dist, 0, side.place);
        let slot0 = plan.emit_slot(e, first);
        return steps
            .into_iter()
            .map(|step| {
                let slot = match step {
                    Step::Add(0) => slot0,
                    Step::Add(k) | Step::Xor(k) => {
                        let c = e.i32(k);
                        let op = if matches!(step, Step::Add(_)) {
                            arith::addi
                        } else {
                            arith::xori
                        };
                        e.ir.binary(op, slot0, c)
                    }
                };
                e.ir.gep(base, slot, elem)
            })
            .collect();
    }
    (0..side.dist.registers())
        .step_by(w)
        .map(|r| {
            let place = place_of(e, side.dist, r, side.place);
            let slot = plan.emit_slot(e, place);
            e.ir.gep(base, slot, elem)
        })
        .collect()
}

/// How an access's slot follows from the thread's first slot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Step {
    /// The first slot plus a constant.
    Add(i64),
    /// The first slot XOR a constant.
    Xor(i64),
}

/// Each access's slot (registers `0, w, 2w, ..`) as a step from the
/// thread's first slot, where the side's places split into a thread's
/// part and a register's ([`Side::split`]): under an XOR swizzle, which is
/// linear over XOR, always; under the identity or a padding, where the
/// parts share no bit (then shifting the sum shifts each part). `None`:
/// each access's place is computed and mapped.
fn slot_steps(plan: &Plan, side: &Side, w: usize) -> Option<Vec<Step>> {
    let split = side.split();
    let xor = matches!(plan.mapping, Mapping::Xor { .. });
    if !(split == Split::Or || (xor && split == Split::Xor)) {
        return None;
    }
    let origin = side.place(0, 0, 0);
    // The bits the thread's first slot can have.
    let varying = side.threads().fold(0i64, |acc, (lane, warp)| {
        acc | plan.slot(side.place(lane, warp, 0))
    });
    let steps = (0..side.dist.registers())
        .step_by(w)
        .map(|r| {
            // Every mapping sends place 0 to slot 0; XOR's is linear over
            // XOR, the others' over disjoint bits.
            let k = if xor {
                plan.slot(side.place(0, 0, r)) ^ plan.slot(origin)
            } else {
                plan.slot(side.place(0, 0, r) ^ origin)
            };
            // XOR adds where the constant has none of the first slot's bits.
            if !xor || varying & k == 0 {
                Step::Add(k)
            } else {
                Step::Xor(k)
            }
        })
        .collect();
    Some(steps)
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
mod tests;
