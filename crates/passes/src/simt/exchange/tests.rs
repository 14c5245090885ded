//! The exchange's unit tests: places, splits, the cost model, the
//! candidates and the plan's choice.

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
    for (widest, elements, elem_bytes) in [(4, 1024, 4), (8, 4096, 2), (1, 1000, 4), (2, 64, 8)] {
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

/// The plan is the documented choice among the candidates: none is
/// cheaper (beyond the rounding allowance), none as cheap takes fewer
/// accesses, and none before it in the candidates' order is as good
/// in both. Checked over transposes of 2-D tiles in many blocked
/// layouts and element sizes, some of which no candidate makes
/// conflict-free (there the whole list is searched and the rule
/// decides; the test requires at least one such exchange).
#[test]
fn the_plan_is_the_first_cheapest_then_fewest_accesses() {
    let shape = [32i64, 32];
    let rows = Placement::row_major(&shape, 1, 0);
    let columns = Placement {
        strides: vec![1, 32],
        offset: 0,
    };
    let mut unreached = 0;
    let mut ties = 0;
    for (spt, tpw, wpc) in [
        ([1, 4], [4, 8], [4, 1]),
        ([1, 4], [8, 4], [2, 2]),
        ([1, 2], [2, 16], [4, 1]),
        ([1, 1], [1, 32], [4, 1]),
        ([2, 2], [4, 8], [2, 2]),
        ([4, 1], [8, 4], [1, 4]),
        ([1, 8], [8, 4], [4, 1]),
    ] {
        for order in [[1, 0], [0, 1]] {
            let layout = format!(
                "#tile.blocked<array<i32: {}, {}>, array<i32: {}, {}>, array<i32: {}, {}>, \
                 array<i32: {}, {}>>",
                spt[0], spt[1], tpw[0], tpw[1], wpc[0], wpc[1], order[0], order[1]
            );
            let d = distribution(&layout, &shape);
            for elem_bytes in [1, 2, 4, 8] {
                let (source, result) = (Side::new(&d, &rows), Side::new(&d, &columns));
                let sides = [&source, &result];
                let (chosen, _) = super::plan(&sides, 1024, elem_bytes, true);
                let limit = (16 / elem_bytes) as usize;
                let widths: Vec<usize> = sides.iter().map(|s| s.vector_width(limit)).collect();
                let widest = widths.iter().copied().max().unwrap();
                let all = candidates(widest, 1024, elem_bytes);
                let costs: Vec<(f64, usize)> = all
                    .iter()
                    .map(|p| cost(p, &sides, &widths, elem_bytes))
                    .collect();
                let at = all.iter().position(|p| *p == chosen).unwrap();
                let (best, accesses) = costs[at];
                let case = format!("{layout} {elem_bytes} bytes: {chosen:?} {:?}", costs[at]);
                if best > least_wavefronts(&sides, &widths, elem_bytes) {
                    unreached += 1;
                    for (i, &(c, n)) in costs.iter().enumerate() {
                        assert!(c >= best - 1e-9, "{case}: {:?} costs {c}", all[i]);
                        if c <= best + 1e-9 {
                            assert!(n >= accesses, "{case}: {:?} as cheap, {n}", all[i]);
                            if n > accesses {
                                ties += 1;
                            }
                            if i < at {
                                assert!(n > accesses, "{case}: {:?} first", all[i]);
                            }
                        }
                    }
                }
            }
        }
    }
    assert!(
        unreached > 0 && ties > 0,
        "{unreached} unreached, {ties} ties"
    );
}

/// Where an exchange computes a side's slots as steps from each thread's
/// first slot, every step lands on the slot the plan gives that access's
/// place, for every thread of every warp: over sides that split by OR
/// (row-major places, a join's even and odd halves), by XOR only (places
/// whose thread and register parts share bits) and not at all, under
/// every candidate plan of 1-, 2- and 4-byte elements.
#[test]
fn slot_steps_reach_every_threads_slots() {
    let shape = [32i64, 32];
    let placements = [
        Placement::row_major(&shape, 1, 0),
        Placement::row_major(&shape, 2, 0),
        Placement::row_major(&shape, 2, 1),
        Placement {
            strides: vec![1, 32],
            offset: 0,
        },
        // Rows folded onto one another: the parts share bits.
        Placement {
            strides: vec![16, 1],
            offset: 0,
        },
        Placement {
            strides: vec![24, 1],
            offset: 8,
        },
    ];
    let (mut stepped, mut xor_steps, mut splits_by_xor) = (0, 0, 0);
    for layout in [
        BLOCKED_32,
        "#tile.blocked<array<i32: 1, 2>, array<i32: 2, 16>, array<i32: 4, 1>, array<i32: 1, 0>>",
        "#tile.blocked<array<i32: 2, 2>, array<i32: 4, 8>, array<i32: 2, 2>, array<i32: 1, 0>>",
        "#tile.blocked<array<i32: 4, 1>, array<i32: 8, 4>, array<i32: 1, 4>, array<i32: 0, 1>>",
    ] {
        let d = distribution(layout, &shape);
        for place in &placements {
            let side = Side::new(&d, place);
            if side.split() == Split::Xor {
                splits_by_xor += 1;
            }
            let elements = 2 * 1024 + 1;
            for elem_bytes in [1, 2, 4] {
                for plan in candidates(4, elements, elem_bytes) {
                    for w in [1, 2, 4].into_iter().filter(|&w| w <= 1 << plan.unit) {
                        if side.vector_width(w) < w {
                            continue;
                        }
                        let Some(steps) = slot_steps(&plan, &side, w) else {
                            continue;
                        };
                        stepped += 1;
                        // A constant with none of the bits a first slot can
                        // have is added (an add folds into the address),
                        // even under an XOR swizzle.
                        let varying = (0..4)
                            .flat_map(|warp| (0..32).map(move |lane| (lane, warp)))
                            .fold(0, |acc, (lane, warp)| {
                                acc | plan.slot(side.place(lane, warp, 0))
                            });
                        for step in &steps {
                            if let Step::Xor(k) = step {
                                assert_ne!(varying & k, 0, "{layout} {plan:?}: {step:?} could add");
                            }
                        }
                        for warp in 0..4 {
                            for lane in 0..32 {
                                let first = plan.slot(side.place(lane, warp, 0));
                                for (a, step) in steps.iter().enumerate() {
                                    let got = match *step {
                                        Step::Add(k) => first + k,
                                        Step::Xor(k) => {
                                            xor_steps += 1;
                                            first ^ k
                                        }
                                    };
                                    let want = plan.slot(side.place(lane, warp, a * w));
                                    assert_eq!(
                                        got, want,
                                        "{layout} {:?} {plan:?} w {w}: lane {lane} warp {warp} \
                                         access {a} {step:?}",
                                        place.strides
                                    );
                                }
                            }
                        }
                    }
                }
            }
        }
    }
    // Affine places never split by XOR alone (a sum equals an XOR only
    // where the parts share no bit): every XOR step here is an XOR plan's.
    assert_eq!(splits_by_xor, 0);
    assert!(
        stepped > 0 && xor_steps > 0,
        "{stepped} stepped, {xor_steps} XOR steps"
    );
}
