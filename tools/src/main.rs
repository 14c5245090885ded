//! `tile-tools <SUBCOMMAND> [ARGS...]`: the GPU check (`gpu-check`), the
//! benchmark against Triton and PyTorch (`bench`) and the compile-latency
//! benchmark (`compile-bench`) in one program; `tile-tools --help` lists
//! them. See the `tile_tools` library.

fn main() {
    let argv: Vec<String> = std::env::args().collect();
    std::process::exit(tile_tools::run(&argv));
}
