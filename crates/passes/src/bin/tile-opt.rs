//! `tile-opt`: reads tile IR, runs the passes named on the command line in
//! order, and prints the result. See `tile_passes::driver`.

fn main() {
    // A crash inside MLIR says so instead of dying silently.
    tile_passes::crash_report::install("tile-opt");
    let args: Vec<String> = std::env::args().skip(1).collect();
    let code = tile_passes::driver::run(&args, &mut std::io::stdout(), &mut std::io::stderr());
    std::process::exit(code);
}
