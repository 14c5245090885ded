//! Memory order: a load after a store through the same addresses reads
//! what was stored — through pointer tensors and block pointers, masked
//! and not — on the interpreter, and in the PTX at every optimisation
//! level (-O0 to -O3): a predicated reload is never merged with the load
//! before the store, and nothing stored first is read back stale.

use tile::{Arg, DType, Device, Kernel, KernelBuilder, Options, Tile};

const BLOCK: i32 = 128;

/// The ways a kernel reaches `x`: a pointer tensor masked to `n`, one
/// without a mask, and a block pointer checked against `n`.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Access {
    Masked,
    Unmasked,
    Block,
}

/// Loads the tile of `x` at offset 0, the way `how` says.
fn load<'k>(k: &'k KernelBuilder<'k>, how: Access, x: Tile<'k>, n: Tile<'k>) -> Tile<'k> {
    let offs = k.arange(0, BLOCK);
    match how {
        Access::Masked => k.load(x + offs).mask(offs.lt(n)).build(),
        Access::Unmasked => k.load(x + offs).build(),
        Access::Block => {
            let bp = k
                .make_block_ptr(x)
                .shape([n.to(DType::I64)])
                .strides([1i64])
                .offsets([0])
                .block_shape([i64::from(BLOCK)])
                .order([0])
                .build();
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
            let bp = k
                .make_block_ptr(x)
                .shape([n.to(DType::I64)])
                .strides([1i64])
                .offsets([0])
                .block_shape([i64::from(BLOCK)])
                .order([0])
                .build();
            k.store(bp, v).boundary_check(&[0]).build()
        }
    }
}

/// The three sequences, each writing what it read last to `y`:
/// load-store-load (`y = x + 1`), store-store-load (`y = 2`), and a
/// plain store then a load the way `how` says (`y = 3`).
fn kernel<'c>(context: &'c melior::Context, sequence: &str, how: Access) -> Kernel<'c> {
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
    .unwrap_or_else(|e| panic!("{sequence} {how:?}: {e}"))
}

const SEQUENCES: [&str; 3] = ["load_store_load", "store_store_load", "store_then_load"];
const ACCESSES: [Access; 3] = [Access::Masked, Access::Unmasked, Access::Block];

#[test]
fn a_load_after_a_store_reads_what_was_stored_on_the_interpreter() {
    let context = tile::context().unwrap();
    let device = Device::interpreter();
    for sequence in SEQUENCES {
        for how in ACCESSES {
            let k = kernel(&context, sequence, how);
            let jit = tile::jit(&k, Options::default()).unwrap();
            let xs: Vec<f32> = (0..BLOCK).map(|i| i as f32 * 0.5).collect();
            let x = device.upload(&xs).unwrap();
            let y = device.upload(&vec![-7.0f32; BLOCK as usize]).unwrap();
            let n = if how == Access::Unmasked { BLOCK } else { 100 };
            jit.launch(&device, 1, &[Arg::from(&x), Arg::from(&y), Arg::I32(n)])
                .unwrap();
            let got = device.download(&y).unwrap();
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
                assert_eq!(*g, want, "{sequence} {how:?}: element {i}");
            }
        }
    }
}

/// The PTX instructions (one per line) that move global memory, in order.
fn global_accesses(ptx: &str) -> Vec<String> {
    ptx.lines()
        .map(str::trim)
        .filter(|l| l.contains("ld.global") || l.contains("st.global"))
        .map(str::to_string)
        .collect()
}

#[test]
fn predicated_reloads_survive_every_optimisation_level() {
    let context = tile::context().unwrap();
    for how in [Access::Masked, Access::Block] {
        let k = kernel(&context, "load_store_load", how);
        for opt_level in 0..=3 {
            let options = Options {
                opt_level,
                ..Options::default()
            };
            let ptx = tile::compile(&k, &options).unwrap().ptx;
            let kinds: Vec<&str> = global_accesses(&ptx)
                .iter()
                .map(|l| if l.contains("ld.global") { "ld" } else { "st" })
                .collect();
            // One element per thread: load, store, reload, store to y.
            assert_eq!(
                kinds,
                ["ld", "st", "ld", "st"],
                "{how:?} at -O{opt_level}:\n{ptx}"
            );
        }
    }
}
