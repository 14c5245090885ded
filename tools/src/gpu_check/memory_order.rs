//! Memory order on a device: a load after a store through the same
//! addresses reads what was stored — load, store, load (`y = x + 1`);
//! store, store, load (`y = 2`); a plain store then a load (`y = 3`) —
//! through masked and unmasked pointer tensors and block pointers, each
//! compiled at -O0 to -O3.

use super::Outcome;
use tile::{Arg, DType, Device, Kernel, KernelBuilder, Options, Tile};

/// Elements of the tile.
const BLOCK: i32 = 128;

/// The ways a kernel reaches `x`: a pointer tensor masked to `n`, one
/// without a mask, and a block pointer checked against `n`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Access {
    /// A pointer tensor masked to `n`.
    Masked,
    /// A pointer tensor without a mask.
    Unmasked,
    /// A block pointer checked against `n`.
    Block,
}

/// A block pointer to the first [`BLOCK`] elements of `x`, of extent `n`.
fn block_ptr<'k>(k: &'k KernelBuilder<'k>, x: Tile<'k>, n: Tile<'k>) -> Tile<'k> {
    k.make_block_ptr(x)
        .shape([n.to(DType::I64)])
        .strides([1i64])
        .offsets([0])
        .block_shape([i64::from(BLOCK)])
        .order([0])
        .build()
}

/// Loads the tile of `x` at offset 0, the way `how` says.
fn load<'k>(k: &'k KernelBuilder<'k>, how: Access, x: Tile<'k>, n: Tile<'k>) -> Tile<'k> {
    let offs = k.arange(0, BLOCK);
    match how {
        Access::Masked => k.load(x + offs).mask(offs.lt(n)).build(),
        Access::Unmasked => k.load(x + offs).build(),
        Access::Block => {
            let bp = block_ptr(k, x, n);
            k.load(bp).boundary_check(&[0]).build()
        }
    }
}

/// Stores `v` to the tile of `x` at offset 0, the way `how` says.
fn store<'k>(k: &'k KernelBuilder<'k>, how: Access, x: Tile<'k>, n: Tile<'k>, v: Tile<'k>) {
    let offs = k.arange(0, BLOCK);
    match how {
        Access::Masked => k.store(x + offs, v).mask(offs.lt(n)).build(),
        Access::Unmasked => k.store(x + offs, v).build(),
        Access::Block => {
            let bp = block_ptr(k, x, n);
            k.store(bp, v).boundary_check(&[0]).build()
        }
    }
}

/// The kernel of `sequence` (one of [`SEQUENCES`]) through `how`. The
/// three sequences each write what they read last to `y`:
/// load-store-load (`y = x + 1`), store-store-load (`y = 2`), and a
/// plain store then a load the way `how` says (`y = 3`).
pub fn kernel<'c>(context: &'c melior::Context, sequence: &str, how: Access) -> Kernel<'c> {
    Kernel::build(
        context,
        &format!("{sequence}_{how:?}").to_lowercase(),
        |k| {
            let x = k.arg_ptr("x", DType::F32);
            let y = k.arg_ptr("y", DType::F32);
            let n = k.arg("n", DType::I32);
            let last = match sequence {
                "load_store_load" => {
                    let a = load(k, how, x, n);
                    store(k, how, x, n, a + 1.0);
                    load(k, how, x, n)
                }
                "store_store_load" => {
                    store(k, how, x, n, k.full(&[i64::from(BLOCK)], 1.0, DType::F32));
                    store(k, how, x, n, k.full(&[i64::from(BLOCK)], 2.0, DType::F32));
                    load(k, how, x, n)
                }
                _ => {
                    store(
                        k,
                        Access::Unmasked,
                        x,
                        n,
                        k.full(&[i64::from(BLOCK)], 3.0, DType::F32),
                    );
                    load(k, how, x, n)
                }
            };
            store(k, how, y, n, last);
        },
    )
    .expect("the memory-order kernels are valid")
}

/// The sequences of accesses.
pub const SEQUENCES: [&str; 3] = ["load_store_load", "store_store_load", "store_then_load"];
/// The ways of reaching memory.
pub const ACCESSES: [Access; 3] = [Access::Masked, Access::Unmasked, Access::Block];

/// Runs every sequence through every access at every optimisation level on
/// `device`: `(case, outcome)`.
pub fn memory_order(device: &Device) -> Vec<(String, Outcome)> {
    let context = match tile::context() {
        Ok(c) => c,
        Err(e) => return vec![("context".into(), Err(e.to_string()))],
    };
    let mut out = Vec::new();
    for sequence in SEQUENCES {
        for how in ACCESSES {
            for opt_level in 0..=3 {
                let case = format!("{sequence} {how:?} -O{opt_level}");
                out.push((case, run(device, &context, sequence, how, opt_level)));
            }
        }
    }
    out
}

fn run(
    device: &Device,
    context: &melior::Context,
    sequence: &str,
    how: Access,
    opt_level: u8,
) -> Outcome {
    let k = kernel(context, sequence, how);
    let options = Options {
        opt_level,
        ..Options::default()
    };
    let jit = tile::jit(&k, options).map_err(|e| e.to_string())?;
    let xs: Vec<f32> = (0..BLOCK).map(|i| i as f32 * 0.5).collect();
    let x = device.upload(&xs).map_err(|e| e.to_string())?;
    let y = device
        .upload(&vec![-7.0f32; BLOCK as usize])
        .map_err(|e| e.to_string())?;
    let n = if how == Access::Unmasked { BLOCK } else { 100 };
    jit.launch(device, 1, &[Arg::from(&x), Arg::from(&y), Arg::I32(n)])
        .map_err(|e| e.to_string())?;
    let got = device.download(&y).map_err(|e| e.to_string())?;
    for (i, g) in got.iter().enumerate() {
        let want = if i as i32 >= n {
            -7.0
        } else {
            match sequence {
                "load_store_load" => xs[i] + 1.0,
                "store_store_load" => 2.0,
                _ => 3.0,
            }
        };
        if *g != want {
            return Err(format!("[{i}] = {g}, want {want}"));
        }
    }
    Ok(())
}
