//! Compiling kernels to PTX (no GPU needed).

use tile::{Kernel, Options};
use tile_examples::{gpu_check, masked_tile_2d, vector_add};

fn options() -> Options {
    Options {
        dump: None,
        ..Options::default()
    }
}

fn compile(kernel: &Kernel) -> String {
    tile::compile(kernel, &options())
        .unwrap_or_else(|e| panic!("{e}"))
        .ptx
}

#[test]
fn check_kernels_compile() {
    let context = tile::context().unwrap();
    for block in [128, 256, 1024] {
        compile(&vector_add::safe_kernel(&context, block).unwrap());
    }
    for (bm, bk) in [(16, 64), (64, 64)] {
        compile(&masked_tile_2d::masked_tile_2d(&context, bm, bk).unwrap());
    }
    for other in [Some(0.0), Some(f32::NEG_INFINITY), None] {
        compile(&gpu_check::fill_other_kernel(&context, other).unwrap());
    }
    compile(&gpu_check::scalar_args_kernel(&context).unwrap());
    let ptx = compile(&gpu_check::grid_ids_kernel(&context).unwrap());
    assert!(
        ptx.contains("%ctaid.z") && ptx.contains("%nctaid.y"),
        "{ptx}"
    );
}
