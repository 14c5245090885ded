#!/usr/bin/env bash
# Runs every test: formatting, clippy, the docs' links, the cargo tests,
# the FileCheck tests through lit with our tile-opt, two bounded fuzz
# campaigns (tile-tools fuzz: 3000 mutated IR inputs, 2000 builder
# programs on the interpreter), and the library crates packaged and built
# as published. Installs what is missing first.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
scripts/setup.sh

# Every binary links LLVM and MLIR, and each distinct build of mlir-sys and
# tblgen is a 400 MB archive: CI's disk is small. So every step builds with
# one profile (test) and one feature resolution (the whole workspace with
# its tests: the same as all targets), which lets them share one copy, with the packaged crates'
# verification too; incremental state is not kept.
export CARGO_INCREMENTAL=0
target_dir=${CARGO_TARGET_DIR:-target}
case "$target_dir" in /*) ;; *) target_dir="$PWD/$target_dir" ;; esac

echo "== cargo fmt --check"
cargo fmt --all -- --check
echo "== cargo clippy"
cargo clippy --profile test --workspace --all-targets -- -D warnings
echo "== cargo doc (broken intra-doc links fail)"
RUSTDOCFLAGS="-D warnings" cargo doc --profile test --no-deps --workspace
echo "== cargo test"
# Every target but the examples, whose five programs would each be one
# more link of LLVM: clippy above compiled them, and they run below
# (tile-tools examples, which holds them as modules) on the interpreter.
cargo test --workspace --lib --bins --tests
cargo test --workspace --doc
echo "== lit (FileCheck tests)"
# tile-opt and tile-tools, built as `cargo test` built everything else.
cargo build --profile test --workspace --bins --tests
TILE_OPT="$target_dir/debug/tile-opt" /usr/lib/llvm-22/bin/lit -v filecheck
echo "== the cargo examples (cargo run --example NAME), on the interpreter"
TILE_INTERPRET=1 "$target_dir/debug/tile-tools" examples
echo "== fuzz (a bounded campaign: mutated FileCheck inputs, each compiled in a worker process)"
# 30 s an input: the largest tiles tile-assign-layouts allows (1024
# registers a thread) compile in up to 11 s on a 2-core machine
# (fuzz/campaigns.md, 2026-12-02); what it refuses took 44 s and more.
"$target_dir/debug/tile-tools" fuzz --inputs 3000 --seed 1 --timeout-ms 30000 --out "$target_dir/fuzz-out"
echo "== fuzz --programs (a bounded campaign: random builder programs, on the interpreter without a GPU)"
"$target_dir/debug/tile-tools" fuzz --programs --inputs 2000 --seed 1 --out "$target_dir/fuzz-programs-out"
echo "== cargo package (the library crates as crates.io would get them, built from their packages)"
# Each crate is packaged (its manifest checked and its files listed as
# crates.io would take them), then the packages are unpacked and `tile`,
# which depends on the six others, is checked from them alone (every module
# compiled to metadata, as `cargo check` does): a file left out of a
# package, or a dependency a crate uses but does not declare, fails here.
# Checked in the workspace's target directory with its configuration
# (.cargo/config.toml: profiles, LLVM's location) and its Cargo.lock, so
# the dependencies built above are reused (`cargo package`'s own
# verification builds each crate with a feature resolution of its own:
# three minutes). `tile` is checked through a crate that depends on it and
# on nothing else, except that its build script asks for the features the
# workspace's build scripts get: there `tile-aot-example` builds `tile` for
# the host, so libc, bitflags, fastrand and num-traits are built with `std`
# for build scripts too. Without the same features every build script above
# them (bindgen, LLVM's bindings, melior's tblgen) would be built and run
# once more: a minute. They change nothing `tile` itself compiles against.
rm -rf "$target_dir/package"
cargo package --no-verify --allow-dirty -p tile -p tile-dialect -p tile-passes -p tile-coalesce \
  -p tile-codegen -p tile-runtime -p tile-interpreter -p tile-macros
# Outside the repository, or cargo takes the packages for members of our
# workspace.
unpacked=$(mktemp -d)
trap 'rm -rf "$unpacked"' EXIT
patches=""
for crate in "$target_dir"/package/tile*.crate; do
  tar xzf "$crate" -C "$unpacked"
  dir=$(basename "$crate" .crate)
  name=${dir%-*}
  if [ "$name" = tile ]; then
    tile_dir=$dir
  else
    patches+="$name = { path = \"../$dir\" }"$'\n'
  fi
done
mkdir -p "$unpacked/check/src"
cat > "$unpacked/check/Cargo.toml" <<MANIFEST
[package]
name = "package-check"
version = "0.0.0"
edition = "2024"
publish = false

[dependencies]
tile = { path = "../$tile_dir" }

[build-dependencies]
bitflags = { version = "2", features = ["std"] }
fastrand = "2"
libc = "0.2"
num-traits = { version = "0.2", features = ["libm"] }

[patch.crates-io]
$patches
MANIFEST
echo "fn main() {}" > "$unpacked/check/build.rs"
echo "pub use tile;" > "$unpacked/check/src/lib.rs"
cp Cargo.lock "$unpacked/check/"
(cd "$unpacked/check" && CARGO_TARGET_DIR="$target_dir" cargo check --offline \
  --config "$root/.cargo/config.toml")
