//! `tile-tools compile-bench --check-upstream`: the native `ptx` stage
//! against upstream `gpu-module-to-binary`, and our passes staged against
//! fused, on every example.

use tile::Options;

/// Compiles every example with and without aligned-argument
/// specialization at `-O0` to `-O3`: through the native `ptx` stage and
/// through upstream `gpu-module-to-binary`, and with our passes run one by
/// one (as when dumping) and on one mirror (as otherwise). Returns how many
/// kernels compiled the same all four ways, or the first that did not.
pub fn check_upstream() -> Result<usize, String> {
    use tile::{Fact, Specialization};
    use tile_dialect::{Elem, TileType};
    let context = tile::context().map_err(|e| e.to_string())?;
    let dumps = std::env::temp_dir().join(format!("tile-compile-bench-{}", std::process::id()));
    let mut compared = 0;
    for example in tile_examples::ALL {
        let kernel = (example.build)(&context).map_err(|e| e.to_string())?;
        let aligned = Specialization {
            facts: kernel
                .params()
                .iter()
                .map(|p| match p.ty {
                    TileType::Tensor {
                        elem: Elem::Ptr(_), ..
                    } => Fact::DivisibleBy16,
                    TileType::Tensor {
                        elem: Elem::Num(d), ..
                    } if d.is_integer() => Fact::DivisibleBy16,
                    _ => Fact::None,
                })
                .collect(),
        };
        for specialization in [Specialization::none(), aligned] {
            for opt_level in 0..=3 {
                let options = Options {
                    opt_level,
                    dump: None,
                    ..Options::default()
                }
                .specialized(specialization.clone());
                let (ours, upstream) =
                    tile_codegen::ptx_both_ways(&context, kernel.module(), &options)
                        .map_err(|e| e.to_string())?;
                if ours != upstream {
                    return Err(format!(
                        "{} at -O{opt_level} ({:?}): the native PTX differs from upstream's",
                        example.name, specialization.facts
                    ));
                }
                // Dumping runs our passes one by one instead of on one
                // mirror: the PTX must not change.
                let staged = Options {
                    dump: Some(tile::Dump::to(&dumps)),
                    ..options.clone()
                };
                let staged = tile::compile(&kernel, &staged).map_err(|e| e.to_string())?;
                let fused = tile::compile(&kernel, &options).map_err(|e| e.to_string())?;
                if staged.ptx != fused.ptx || fused.ptx != ours {
                    return Err(format!(
                        "{} at -O{opt_level} ({:?}): staged and fused passes give different PTX",
                        example.name, specialization.facts
                    ));
                }
                compared += 1;
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dumps);
    Ok(compared)
}
