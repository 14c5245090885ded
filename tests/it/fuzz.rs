//! The inputs `tile-tools fuzz` found crashing the compiler
//! (`fuzz/regressions/`), compiled in this process: each must come back
//! as a typed error (a crash here takes the test binary down), with the
//! text its `// Error: ` line gives (MLIR's parser's refusal without one).

#[test]
fn every_fuzz_regression_is_a_typed_error() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/regressions");
    let context = tile::context().unwrap();
    let mut seen = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let text = std::fs::read_to_string(&path).unwrap();
        let options = tile::Options {
            dump: None,
            ..tile::Options::default()
        };
        let says = text
            .lines()
            .find_map(|l| l.strip_prefix("// Error: "))
            .unwrap_or("MLIR's parser");
        let result = tile_codegen::compile_text(&context, &text, "regression.mlir", &options);
        let err = result
            .err()
            .unwrap_or_else(|| panic!("{} compiled", path.display()));
        assert!(
            err.diagnostics.iter().any(|d| d.message.contains(says)),
            "{}: {err:?}",
            path.display()
        );
        seen += 1;
    }
    assert!(seen >= 5, "only {seen} regressions");
}
