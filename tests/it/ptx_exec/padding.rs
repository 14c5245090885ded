//! The block-pointer sweep of `tests/it/interpreter.rs` (boundary checks
//! on each subset of axes, each padding, both orders) through the
//! executor device: `gpu_check::padding::padding_case` compiled for sm_80
//! by `tile::jit` and run as PTX, every output element checked (the
//! input, the padding, or what the storage holds past the view along an
//! unchecked axis), each launch also cross-checked against the
//! interpreter.
//!
//! A subset, to keep the suite's time: the 32x64 block over a view that
//! is a block multiple along neither axis (100x70) and one smaller than a
//! block (5x3), row-major; every check, padding and order.

use tile::Padding;
use tile_tools::gpu_check::Storage;
use tile_tools::gpu_check::padding::padding_case;

#[test]
fn block_pointer_checks_paddings_and_orders_on_the_executor() {
    let device = tile_ptx_exec::device();
    let checks: [&[i64]; 4] = [&[], &[0], &[1], &[0, 1]];
    let mut cases = 0;
    let mut failed = Vec::new();
    for shape in [(100, 70), (5, 3)] {
        for check in checks {
            for (name, padding) in [("zero", Padding::Zero), ("nan", Padding::Nan)] {
                for order in [[1, 0], [0, 1]] {
                    cases += 1;
                    let storage = Storage::Contiguous;
                    let outcome =
                        padding_case(&device, shape, (32, 64), check, padding, order, storage);
                    if let Err(e) = outcome {
                        failed.push(format!(
                            "{shape:?} check={check:?} {name} order={order:?}: {e}"
                        ));
                    }
                }
            }
        }
    }
    assert_eq!(cases, 32);
    assert!(
        failed.is_empty(),
        "{} of {cases} failed:\n{}",
        failed.len(),
        failed.join("\n")
    );
}
