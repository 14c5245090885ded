//! Fingerprints the compiler's sources, so the kernel cache can tell one
//! build of the compiler from another (`tile::COMPILER_VERSION`).
//!
//! The fingerprint is a 128-bit FNV-1a hash of every file under the
//! compiler crates' `src` directories and of `Cargo.lock` (which pins
//! melior and the other dependencies), taken in path order. Any change to
//! them gives a new fingerprint, so caches written by an older compiler are
//! never read.

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
    let mut hash = Fnv128::new();
    for file in &files {
        let relative = file.strip_prefix(&root).unwrap_or(file);
        hash.write(relative.to_string_lossy().as_bytes());
        hash.write(&[0]);
        hash.write(&fs::read(file).unwrap_or_default());
        hash.write(&[0]);
    }
    println!("cargo:rustc-env=TILE_COMPILER_FINGERPRINT={:032x}", hash.0);
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

/// FNV-1a with the 128-bit parameters.
struct Fnv128(u128);

impl Fnv128 {
    fn new() -> Self {
        Fnv128(0x6c62272e07bb014262b821756295c58d)
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= u128::from(b);
            self.0 = self.0.wrapping_mul(0x0000000001000000000000000000013b);
        }
    }
}
