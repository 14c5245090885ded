//! `cargo run --example cudarc_interop`: a tile kernel inside a cudarc
//! program (cudarc's context, streams, slices and events; no raw
//! pointer). Needs a GPU: without one it says so and exits.

fn main() {
    run()
}

/// The example (also run on the GPU machine by `tile-tools examples`).
pub fn run() {
    use tile_examples::cudarc_interop::{Ordering, run};
    if tile::Device::count() == 0 || tile::Device::gpu_or_interpreter().is_interpreter() {
        println!("cudarc_interop: skipped, no CUDA device (cudarc needs a GPU)");
        return;
    }
    for ordering in [Ordering::Event, Ordering::Tracking] {
        let report = run(0, 10_000_019, ordering).expect("the cudarc program runs");
        println!(
            "cudarc_interop on {} ({ordering:?}): {} elements, {} wrong, non-default stream: {}",
            report.device, report.len, report.wrong, report.non_default_stream
        );
        assert_eq!(report.wrong, 0);
    }
}
