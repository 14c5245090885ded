//! Runs the vector add compiled at build time (see `build.rs`), with the
//! runtime crate alone: no compiler is linked into this program.
//!
//! ```text
//! tile-aot-example [--out FILE]
//! ```
//!
//! Adds two vectors of 1,000,003 (the generic variant) and 1,048,576
//! (the aligned variant) elements made by `tile_runtime::pattern_f32`,
//! checks every element against the host, prints which variant each
//! launch ran and the SHA-256 of each embedded PTX, and with `--out`
//! writes both results, as raw little-endian f32s, to FILE, so that
//! `tile-tools gpu-check aot-compare FILE` can compare them with the JIT
//! path bit for bit.

use tile_runtime::{Arg, CacheKey, Launcher, Precompiled, RuntimeError, pattern_f32};

/// The variants, as the build script wrote them.
const VARIANTS: [&[u8]; 2] = [
    include_bytes!(concat!(env!("OUT_DIR"), "/safe_kernel.0.tile")),
    include_bytes!(concat!(env!("OUT_DIR"), "/safe_kernel.1.tile")),
];

/// The problem sizes: one that breaks the aligned variant's facts, one
/// that keeps them.
const SIZES: [usize; 2] = [1_000_003, 1 << 20];

/// Elements per program, as compiled.
const BLOCK: usize = 1024;

/// The usage, for `--help` and mistakes.
const USAGE: &str = "usage: tile-aot-example [--out FILE]";

/// The `--out` file, if given (lexopt: the same small lexer as tile-opt's).
fn parse_args() -> Result<Option<String>, lexopt::Error> {
    use lexopt::prelude::*;
    let mut parser = lexopt::Parser::from_env();
    let mut out = None;
    while let Some(arg) = parser.next()? {
        match arg {
            Long("out") => out = Some(parser.value()?.string()?),
            Short('h') | Long("help") => {
                println!("{USAGE}");
                std::process::exit(0);
            }
            other => return Err(other.unexpected()),
        }
    }
    Ok(out)
}

fn main() {
    let out = match parse_args() {
        Ok(out) => out,
        Err(e) => {
            eprintln!("tile-aot-example: {e}; {USAGE}");
            std::process::exit(2);
        }
    };
    if let Err(e) = run(out.as_deref()) {
        eprintln!("error: {e}");
        std::process::exit(1);
    }
}

fn run(out: Option<&str>) -> Result<(), RuntimeError> {
    let add = Launcher::new(Precompiled::from_bytes(&VARIANTS)?);
    for (i, a) in add.source().artifacts().iter().enumerate() {
        println!(
            "variant {i}: facts {:?}, ptx sha256 {}",
            a.spec.specialization.facts,
            CacheKey::digest(a.ptx.as_bytes())
        );
    }
    let Some(device) = tile_runtime::device_or_skip("tile-aot-example") else {
        return Ok(());
    };
    println!("device: {}", device.name()?);
    let mut bytes = Vec::new();
    for n in SIZES {
        let (x, y) = (pattern_f32(n, 1), pattern_f32(n, 2));
        let (dx, dy) = (device.upload(&x)?, device.upload(&y)?);
        let out = device.upload(&vec![f32::NAN; n])?;
        let grid = n.div_ceil(BLOCK) as u32;
        let n_arg = Arg::I32(i32::try_from(n).expect("the sizes fit in i32"));
        add.launch(
            &device,
            grid,
            &[(&dx).into(), (&dy).into(), (&out).into(), n_arg],
        )?;
        let got = device.download(&out)?;
        let wrong = (0..n).filter(|&i| got[i] != x[i] + y[i]).count();
        println!(
            "n = {n}: {} elements wrong{}",
            wrong,
            if wrong == 0 {
                " (all equal to the host sum)"
            } else {
                ""
            }
        );
        if wrong != 0 {
            std::process::exit(1);
        }
        bytes.extend(got.iter().flat_map(|v| v.to_le_bytes()));
    }
    for event in add.events() {
        println!("{event}");
    }
    if let Some(path) = out {
        std::fs::write(path, &bytes).map_err(|e| RuntimeError::BadArtifact {
            kernel: "safe_kernel".into(),
            message: format!("cannot write {path}: {e}"),
        })?;
        println!("wrote {} bytes to {path}", bytes.len());
    }
    Ok(())
}
