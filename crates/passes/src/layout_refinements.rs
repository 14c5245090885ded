//! Refinements of the layout a class's accesses chose, for what the
//! class does with its tiles (used by `tile-assign-layouts`): scans along
//! a slow axis hold their repetitions in each thread
//! ([`scan_runs_in_thread`]), and the operands that tensor cores read only
//! K-major take runs of K a thread ([`k_runs`]). Each keeps the vectors
//! the accesses move. Where a reduced tile's warps go is
//! [`crate::reduced_warps`].

use crate::layout_classes::Classes;
use std::collections::HashMap;
use tile_coalesce::Blocked;
use tile_dialect::DType;

/// Tiles scanned along an axis other than their fastest first move lanes
/// off that axis ([`lanes_off_axis`]), then take the layout's repetitions
/// along it into each thread: a thread holds consecutive elements along
/// it (`size_per_thread` times the repetitions), warps keep their places.
/// The scan then has one chunk: each thread runs through its elements in
/// registers, and the lanes' and warps' totals are combined once. With
/// the repetitions left as they are, each of them is a chunk whose warp
/// totals go through shared memory, the chunks carried one after
/// another: a `[128, 64]` f32 scan along its rows on 8 warps has 16 of
/// them. A tile covered more than once along the axis (copies) has none
/// to take in; moving its lanes may remove the copies. The accesses keep
/// vectors of at least 8 bytes along the fastest axis, one row of them a
/// register row. The fastest axis keeps its repetitions: runs longer than
/// a vector there would split each warp's accesses.
pub(crate) fn scan_runs_in_thread(
    classes: &mut Classes,
    best: &mut HashMap<usize, (i64, Blocked)>,
    shape_of: &HashMap<usize, Vec<i64>>,
) {
    let scans = classes.scans.clone();
    for (tensor, axis) in scans {
        let class = classes.sets.find(tensor);
        let (Some((bytes, layout)), Some(shape)) = (best.get_mut(&class), shape_of.get(&class))
        else {
            continue;
        };
        let Some(&fast) = layout.order.first() else {
            continue;
        };
        if fast == axis || axis >= shape.len() {
            continue;
        }
        let elem_bytes = *bytes / shape.iter().product::<i64>().max(1);
        let mut spread = lanes_off_axis(layout, axis, fast, elem_bytes);
        // A tile the lanes and warps cover once or more along the axis
        // (copies) has no repetitions to take in.
        let repetitions = (shape[axis] / spread.cover(axis)).max(1);
        let held = i64::from(spread.size_per_thread[axis]);
        let Ok(runs) = u32::try_from(held * repetitions) else {
            continue;
        };
        spread.size_per_thread[axis] = runs;
        if spread.validate().is_ok() {
            *layout = spread;
        }
    }
}

/// The narrowest vector, in bytes, that [`lanes_off_axis`] leaves the
/// fastest axis's accesses: 32 lanes of 8 bytes still move whole 256-byte
/// rows of a warp an instruction.
const MIN_VECTOR_BYTES: i64 = 8;

/// `layout` with as many of its lanes along the scan `axis` moved to the
/// `fast` axis as keep each thread's vector there at least
/// [`MIN_VECTOR_BYTES`] of `elem_bytes` elements (halving the vector for
/// each doubling of the lanes there: the fastest axis covers what it
/// did). Each lane moved off the axis is a Hillis-Steele step less (a
/// shuffle, a select and a combination a run) and a shuffle less for the
/// lanes' prefix and total; the thread's run along the axis grows by as
/// much.
fn lanes_off_axis(layout: &Blocked, axis: usize, fast: usize, elem_bytes: i64) -> Blocked {
    let mut moved = 1u32;
    let vector = layout.size_per_thread[fast];
    // Vectors and lanes are powers of two: a vector of at least 8 bytes
    // after the halving is one `2 * moved` divides.
    while moved < layout.threads_per_warp[axis]
        && i64::from(vector / (2 * moved)) * elem_bytes >= MIN_VECTOR_BYTES
    {
        moved *= 2;
    }
    let mut out = layout.clone();
    out.size_per_thread[fast] /= moved;
    out.threads_per_warp[fast] *= moved;
    out.threads_per_warp[axis] /= moved;
    out
}

/// For the operand of a product that tensor cores read only K-major, laid
/// out as `layout` (a matrix of `shape` whose K is axis `k_axis`) with its
/// other axis fastest and one element of K a thread: the layout in which
/// each thread holds a 16-byte run of K (or as much as the tile gives it)
/// for a few neighbouring columns: 2 of f32, 4 of i8, so that a load still
/// moves a vector of at least 8 or 4 bytes, and the 8 threads writing 16
/// bytes each to one 128-byte row of shared memory at once land on 4 of
/// its 8 swizzled chunks, not 2 (`None` when the layout already runs
/// along K, or the tile leaves no room).
pub(crate) fn k_runs(
    layout: &Blocked,
    shape: &[i64],
    k_axis: usize,
    inputs: DType,
    warps: u32,
) -> Option<Blocked> {
    let other = 1 - k_axis;
    if shape.len() != 2
        || layout.order.first() != Some(&other)
        || layout.size_per_thread[k_axis] > 1
    {
        return None;
    }
    let elem_bytes = i64::from(inputs.bits() / 8).max(1);
    let per_thread = (shape.iter().product::<i64>() / i64::from(32 * warps)).max(1);
    let along_other = i64::from(layout.size_per_thread[other]).min((4 / elem_bytes).max(2));
    let along_k = (16 / elem_bytes)
        .min(shape[k_axis])
        .min(per_thread / along_other);
    if along_k < 2 {
        return None;
    }
    let mut size_per_thread = vec![1u32; 2];
    size_per_thread[k_axis] = u32::try_from(along_k).ok()?;
    size_per_thread[other] = u32::try_from(along_other).ok()?;
    Blocked::spread_over(shape, warps, &layout.order, &size_per_thread).ok()
}
