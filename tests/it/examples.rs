//! Every example kernel builds, round-trips through `tile-opt` unchanged,
//! and matches its reviewed snapshot.

use std::path::PathBuf;
use tile_examples::ALL;

/// Runs the `tile-opt` driver (the code behind the binary) on `text`.
fn tile_opt(name: &str, text: &str, args: &[&str]) -> String {
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("{name}.mlir"));
    std::fs::write(&path, text).unwrap();
    let mut all = vec![path.display().to_string()];
    all.extend(args.iter().map(|s| s.to_string()));
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let code = tile_opt::driver::run(&all, &mut out, &mut err);
    assert_eq!(
        code,
        0,
        "tile-opt failed on {name}:\n{}",
        String::from_utf8_lossy(&err)
    );
    String::from_utf8(out).unwrap()
}

#[test]
fn there_is_an_example_for_every_seed_kernel() {
    let names: Vec<&str> = ALL.iter().map(|e| e.name).collect();
    for expected in [
        "safe_kernel",
        "masked_tile_2d",
        "row_sum",
        "weighted_sum_fwd",
        "weighted_sum_bwd",
        "q_tile_load",
        "k_tile_load_transposed",
        "softmax",
    ] {
        assert!(
            names.contains(&expected),
            "{expected} missing from {names:?}"
        );
    }
}

#[test]
fn every_example_round_trips_through_tile_opt_unchanged() {
    let context = tile::context().unwrap();
    for example in ALL {
        let kernel = (example.build)(&context).unwrap_or_else(|e| panic!("{}: {e}", example.name));
        let with_locations = kernel.to_mlir_with_locations();
        let printed = tile_opt(example.name, &with_locations, &["--mlir-print-debuginfo"]);
        assert_eq!(
            printed.trim_end(),
            with_locations.trim_end(),
            "{}",
            example.name
        );
        let plain = kernel.to_string();
        let printed = tile_opt(example.name, &plain, &[]);
        assert_eq!(printed.trim_end(), plain.trim_end(), "{}", example.name);
        // The verifying pass accepts what the builder produced.
        tile_opt(example.name, &plain, &["--tile-verify"]);
    }
}

#[test]
fn example_ir_snapshots() {
    let context = tile::context().unwrap();
    for example in ALL {
        let kernel = (example.build)(&context).unwrap();
        insta::assert_snapshot!(example.name, kernel.to_string());
    }
}
