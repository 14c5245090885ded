//! Where the warps of a reduced tile go (used by `tile-assign-layouts`):
//! over the axes the reduction keeps (each warp reduces whole rows with
//! shuffles), along the reduced ones (warps combine partial results
//! through shared memory), or in between, whichever a cost per thread
//! says is cheapest.
//!
//! Warps over the rows make each reduction cheaper: a thread holds fewer
//! rows, so it reduces fewer of them, and fewer warps combine each row.
//! But every operand loaded once a column and broadcast over the rows
//! (LayerNorm's `w` and `b`: `x * w[None, :] + b[None, :]`) is then held
//! once for each warp row: a `[4, 2048]` tile on 8 warps laid out `[4, 2]`
//! gives each thread 32 elements of `w` and 32 of `b`, against 8 at `[1,
//! 8]`, which cost loads, registers and the latency of loads that `ptxas`
//! issues a few at a time after the reductions. The cost of a split is
//!
//! ```text
//! BROADCAST_ELEMENT_COST * (elements a thread holds of each broadcast operand)
//!     + reductions * (rows a thread reduces)
//! ```
//!
//! and the cheapest split wins, ties going to the one with more warps
//! over the rows. It only chooses between splits that all combine
//! partial results across warps: a tile with as many rows as warps keeps
//! one warp a row (its reductions need neither shared memory nor a
//! barrier), and blocks of [`WHOLE_ROWS_WARPS`] warps or more keep all
//! the rows they can. Measured on an H200 against Triton 3.6 (every split
//! of 31 LayerNorm and softmax tiles, `bench/results/
//! 2026-12-02-h200-layer-norm-short-tiles.md` runs 4 and 6): this picks a
//! split within 3.75% of the fastest in each (1.25% where it chooses),
//! where moving every warp possible over the rows was up to 31% slower (a
//! LayerNorm's `[4, 4096]` f32 tile on 16 warps) and moving none up to
//! 12% (softmax); the cost alone, without the rule for whole rows, lost
//! 8-25% on `[16, N]` tiles on 16 warps.

use crate::layout_classes::Classes;
use std::collections::HashMap;
use tile_coalesce::Blocked;

/// What holding one element of a broadcast operand costs a thread, in
/// rows reduced once (fitted to the measurements above: 0.25 to 0.4 pick
/// the same splits there).
const BROADCAST_ELEMENT_COST: f64 = 0.3;

/// Blocks of this many warps or more spread over the rows as far as they
/// go: with the whole of an SM in one block, nothing hides the
/// combination across more warps (three of three LayerNorm tiles on 32
/// warps were 4-12% slower with fewer warp rows).
const WHOLE_ROWS_WARPS: u32 = 32;

/// Tiles reduced or scanned along some axes (a softmax or LayerNorm of
/// several rows a program) spread their warps over the other axes; where
/// warps remain on the reduced axes, the broadcast operands' cost may
/// move more there (see the module's documentation). Each thread's vector
/// and each warp's threads stay as the accesses chose them.
pub(crate) fn rows_to_warps(
    classes: &mut Classes,
    best: &mut HashMap<usize, (i64, Blocked)>,
    shape_of: &HashMap<usize, Vec<i64>>,
) {
    let mut reduced: HashMap<usize, (Vec<usize>, usize)> = HashMap::new();
    for &(tensor, axis) in &classes.reductions {
        let (axes, count) = reduced.entry(classes.sets.find(tensor)).or_default();
        *count += 1;
        if !axes.contains(&axis) {
            axes.push(axis);
        }
    }
    for (class, (axes, reductions)) in reduced {
        let (Some((_, layout)), Some(shape)) = (best.get(&class), shape_of.get(&class)) else {
            continue;
        };
        let (kept, along): (Vec<usize>, Vec<usize>) =
            layout.order.iter().partition(|a| !axes.contains(a));
        if kept.is_empty() || along.is_empty() {
            continue;
        }
        let warp_order: Vec<usize> = kept.iter().chain(&along).copied().collect();
        let Ok(rows) = layout.with_warp_order(shape, &warp_order) else {
            continue;
        };
        let operands = broadcast_operands(classes, class, &kept, shape.len());
        let whole_rows = along.iter().all(|&a| rows.warps_per_cta[a] == 1);
        let chosen = if operands.is_empty() || whole_rows || rows.num_warps() >= WHOLE_ROWS_WARPS {
            rows
        } else {
            cheapest(rows, shape, &kept, &along, &operands, reductions)
        };
        if let Some((_, layout)) = best.get_mut(&class) {
            *layout = chosen;
        }
    }
}

/// The axes of `class` that each loaded operand broadcast into it along
/// one of the `kept` axes spans: one entry per load whose value is in a
/// class that `tile.expand_dims` expands into `class` along such an axis
/// (LayerNorm's `w` and `b`; the columns' indices and mask share their
/// class but are not loaded).
fn broadcast_operands(
    classes: &mut Classes,
    class: usize,
    kept: &[usize],
    rank: usize,
) -> Vec<Vec<usize>> {
    let wants: Vec<(usize, usize, usize)> = classes
        .wants
        .iter()
        .map(|w| (w.class(), w.source(), w.axis()))
        .collect();
    let loads: Vec<usize> = classes
        .accesses
        .iter()
        .filter(|a| !a.store)
        .map(|a| a.value)
        .collect();
    let mut expanded: Vec<(usize, usize)> = Vec::new();
    for (operand, source, axis) in wants {
        let operand = classes.sets.find(operand);
        if classes.sets.find(source) == class
            && kept.contains(&axis)
            && !expanded.contains(&(operand, axis))
        {
            expanded.push((operand, axis));
        }
    }
    let mut out = Vec::new();
    for (operand, axis) in expanded {
        for &v in &loads {
            if classes.sets.find(v) == operand {
                out.push((0..rank).filter(|&a| a != axis).collect());
            }
        }
    }
    out
}

/// The cheapest of `rows` and the splits made from it by moving warps,
/// a factor of two at a time, from the `kept` axes to the reduced ones
/// (`along`) while they have room there (ties: the earlier, more rows).
fn cheapest(
    rows: Blocked,
    shape: &[i64],
    kept: &[usize],
    along: &[usize],
    operands: &[Vec<usize>],
    reductions: usize,
) -> Blocked {
    let cost = |l: &Blocked| {
        let held = |axes: &mut dyn Iterator<Item = usize>| -> f64 {
            axes.map(|a| per_thread(l, shape, a) as f64).product()
        };
        let broadcast: f64 = operands.iter().map(|o| held(&mut o.iter().copied())).sum();
        BROADCAST_ELEMENT_COST * broadcast + reductions as f64 * held(&mut kept.iter().copied())
    };
    let mut best_cost = cost(&rows);
    let mut best = rows.clone();
    let mut split = rows;
    while let Some(next) = one_warp_factor_back(&split, shape, kept, along) {
        let c = cost(&next);
        if c < best_cost {
            best_cost = c;
            best = next.clone();
        }
        split = next;
    }
    best
}

/// `layout` with a factor of two of warps moved from the last of the
/// `kept` axes that has more than one to the first of the `along` axes
/// with room for it (more elements than it covers); `None` when there is
/// no such pair.
fn one_warp_factor_back(
    layout: &Blocked,
    shape: &[i64],
    kept: &[usize],
    along: &[usize],
) -> Option<Blocked> {
    let from = *kept.iter().rev().find(|&&a| layout.warps_per_cta[a] > 1)?;
    let to = *along.iter().find(|&&a| layout.cover(a) < shape[a])?;
    let mut next = layout.clone();
    next.warps_per_cta[from] /= 2;
    next.warps_per_cta[to] *= 2;
    next.validate().ok()?;
    Some(next)
}

/// The elements of a tile of `shape` laid out as `layout` that one
/// thread holds along `axis` (its vector times the repetitions, or what
/// the axis has when it is shorter than the vector).
fn per_thread(layout: &Blocked, shape: &[i64], axis: usize) -> i64 {
    let vector = i64::from(layout.size_per_thread[axis]).min(shape[axis]);
    vector * (shape[axis] / layout.cover(axis)).max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn blocked(warps: [u32; 2]) -> Blocked {
        Blocked {
            size_per_thread: vec![1, 8],
            threads_per_warp: vec![1, 32],
            warps_per_cta: warps.to_vec(),
            order: vec![1, 0],
        }
    }

    /// A LayerNorm's `[4, 2048]` tile on 8 warps with `w` and `b`
    /// broadcast over its rows: `[4, 2]` costs 0.3 * 2 * 32 + 2 * 1 = 21.2,
    /// `[2, 4]` 0.3 * 2 * 16 + 2 * 2 = 13.6, `[1, 8]` 4.8 + 8 = 12.8.
    #[test]
    fn broadcast_operands_pull_warps_back_along_the_rows() {
        let shape = [4, 2048];
        let operands = vec![vec![1], vec![1]];
        let chosen = cheapest(blocked([4, 2]), &shape, &[0], &[1], &operands, 2);
        assert_eq!(chosen.warps_per_cta, vec![1, 8]);
        // One operand and two reductions: [4, 2] 9.6 + 2, [2, 4] 4.8 + 4,
        // [1, 8] 2.4 + 8: the middle one.
        let chosen = cheapest(blocked([4, 2]), &shape, &[0], &[1], &operands[..1], 2);
        assert_eq!(chosen.warps_per_cta, vec![2, 4]);
    }

    /// Without broadcast operands the rows stay (ties go to them), and a
    /// row axis with no room for more warps ends the moves.
    #[test]
    fn rows_stay_without_operands_and_moves_stop_at_the_row_length() {
        let shape = [4, 2048];
        let chosen = cheapest(blocked([4, 2]), &shape, &[0], &[1], &[], 2);
        assert_eq!(chosen.warps_per_cta, vec![4, 2]);
        // 1024 columns of 8-element vectors over 32 lanes: 4 warps fill
        // them, so [2, 4] is as far as warps can move.
        let shape = [8, 1024];
        let moved = one_warp_factor_back(&blocked([2, 4]), &shape, &[0], &[1]);
        assert!(moved.is_none());
        let moved = one_warp_factor_back(&blocked([4, 2]), &shape, &[0], &[1]);
        assert_eq!(moved.map(|l| l.warps_per_cta), Some(vec![2, 4]));
    }

    /// Elements a thread holds: the vector times the repetitions, or the
    /// axis when it is shorter than the vector.
    #[test]
    fn elements_per_thread_count_repetitions() {
        let l = blocked([2, 2]);
        assert_eq!(per_thread(&l, &[2, 2048], 1), 32);
        assert_eq!(per_thread(&l, &[2, 2048], 0), 1);
        assert_eq!(per_thread(&l, &[8, 2048], 0), 4);
        assert_eq!(per_thread(&l, &[2, 4], 1), 4);
    }
}
