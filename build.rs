//! Fingerprints the compiler's sources, so the kernel cache can tell one
//! build of the compiler from another (`tile::COMPILER_VERSION`).
//!
//! The fingerprint is the SHA-256 (first 128 bits) of the crate's version
//! and of every file under the compiler crates' `src` directories and
//! `Cargo.lock` (which pins melior and the other dependencies), taken in
//! path order. In this repository any change to them gives a new
//! fingerprint, so caches written by an older compiler are never read.
//! Built from crates.io the sibling crates' sources are not beside this
//! one: there the version stands for them (the compiler crates depend on
//! each other at exact versions).

use sha2::{Digest, Sha256};
use std::fs;
use std::path::{Path, PathBuf};

/// Directories and files whose contents decide what the compiler emits.
const INPUTS: &[&str] = &[
    "src",
    "crates/dialect/src",
    "crates/passes/src",
    "crates/coalesce/src",
    "crates/codegen/src",
    "crates/runtime/src",
    "Cargo.lock",
];

fn main() {
    let root = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let mut files = Vec::new();
    for input in INPUTS {
        let path = root.join(input);
        println!("cargo:rerun-if-changed={}", path.display());
        collect(&path, &mut files);
    }
    files.sort();
    let mut hash = Sha256::new();
    hash.update(env!("CARGO_PKG_VERSION").as_bytes());
    hash.update([0]);
    for file in &files {
        let relative = file.strip_prefix(&root).unwrap_or(file);
        hash.update(relative.to_string_lossy().as_bytes());
        hash.update([0]);
        hash.update(fs::read(file).unwrap_or_default());
        hash.update([0]);
    }
    let digest = hash.finalize();
    let hex: String = digest[..16].iter().map(|b| format!("{b:02x}")).collect();
    println!("cargo:rustc-env=TILE_COMPILER_FINGERPRINT={hex}");
}

/// Every file at or under `path` (nothing when it does not exist).
fn collect(path: &Path, out: &mut Vec<PathBuf>) {
    if path.is_file() {
        out.push(path.to_path_buf());
    } else if let Ok(entries) = fs::read_dir(path) {
        for entry in entries.flatten() {
            collect(&entry.path(), out);
        }
    }
}
