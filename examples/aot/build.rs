//! Compiles the vector add ahead of time, in two variants: one that
//! assumes nothing of its arguments and one for 16-byte aligned pointers
//! and a length divisible by 16 (128-bit loads and stores). The program
//! embeds both and picks one per launch.

use tile::{Fact, Options, Specialization};

fn main() {
    let out = std::path::PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    let context = tile::context().expect("an MLIR context with the tile dialect");
    let kernel = tile_examples::vector_add::safe_kernel(&context, tile_examples::vector_add::BLOCK)
        .expect("the vector add builds");
    let aligned = Specialization {
        facts: vec![Fact::DivisibleBy16; kernel.params().len()],
    };
    let options = Options {
        dump: None,
        ..Options::default()
    };
    let paths =
        tile::aot::write_variants(&kernel, &options, &[Specialization::none(), aligned], &out)
            .unwrap_or_else(|e| panic!("compiling the vector add ahead of time: {e}"));
    assert_eq!(paths.len(), 2);
    println!("cargo:rerun-if-changed=build.rs");
}
