//! The vector add through the JIT compared bit for bit with what
//! `tile-aot-example --out FILE` wrote (`tile-tools gpu-check
//! aot-compare FILE`).

use super::{Outcome, add_args, err};
use tile::{Device, Options};
use tile_runtime::{CacheKey, Fact, Specialization, pattern_f32};

/// The vector add through the JIT on the inputs `tile-aot-example` uses;
/// compares the results with the bytes that program wrote, and prints the
/// SHA-256 of the JIT's PTX for the two variants the program embeds.
pub fn aot_compare(device: &Device, aot_output: &std::path::Path) -> Outcome {
    let context = tile::context().map_err(err)?;
    let kernel = tile_examples::vector_add::safe_kernel(&context, tile_examples::vector_add::BLOCK)
        .map_err(err)?;
    let options = Options {
        dump: None,
        ..Options::default()
    };
    let compiler = tile::TileCompiler::new(&kernel, options.clone()).map_err(err)?;
    for facts in [vec![], vec![Fact::DivisibleBy16; 4]] {
        let a = compiler
            .compile(&Specialization {
                facts: facts.clone(),
            })
            .map_err(err)?;
        println!(
            "  jit ptx for facts {facts:?}: sha256 {}",
            CacheKey::digest(a.ptx.as_bytes())
        );
    }
    let add = tile::jit(&kernel, options).map_err(err)?;
    let mut bytes = Vec::new();
    for n in [1_000_003usize, 1 << 20] {
        let (x, y) = (pattern_f32(n, 1), pattern_f32(n, 2));
        let (dx, dy) = (
            device.upload(&x).map_err(err)?,
            device.upload(&y).map_err(err)?,
        );
        let out = device.upload(&vec![f32::NAN; n]).map_err(err)?;
        let args = add_args(&dx, &dy, &out, n);
        add.launch(device, n.div_ceil(1024) as u32, &args)
            .map_err(err)?;
        bytes.extend(
            device
                .download(&out)
                .map_err(err)?
                .iter()
                .flat_map(|v| v.to_le_bytes()),
        );
    }
    for e in add.events() {
        println!("  {e}");
    }
    let aot = std::fs::read(aot_output).map_err(|e| format!("{}: {e}", aot_output.display()))?;
    if aot.len() != bytes.len() {
        return Err(format!(
            "{} bytes from the AOT program, {} from the JIT",
            aot.len(),
            bytes.len()
        ));
    }
    match aot.iter().zip(&bytes).position(|(a, b)| a != b) {
        None => {
            println!("  {} result bytes: AOT and JIT bit-identical", bytes.len());
            Ok(())
        }
        Some(i) => Err(format!("first differing byte at {i}")),
    }
}
