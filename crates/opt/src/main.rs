//! `tile-opt`: reads tile IR, runs the passes named on the command line in
//! order, and prints the result, as `mlir-opt` does for upstream MLIR
//! (`tile_opt::driver`). A crate of its own, so that the library crates
//! do not carry its command line.

fn main() {
    // A crash inside MLIR says so instead of dying silently.
    tile_passes::crash_report::install("tile-opt");
    let args: Vec<String> = std::env::args().skip(1).collect();
    let code = tile_opt::driver::run(&args, &mut std::io::stdout(), &mut std::io::stderr());
    std::process::exit(code);
}
