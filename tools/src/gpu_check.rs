//! The GPU check (`tile-tools gpu-check`, run by [`program::main`]): every
//! kernel on irregular sizes against a CPU reference, and the helpers its
//! cases share: deterministic inputs, poisoned outputs with a guard region,
//! and the comparisons. The case functions take a [`Device`], so the
//! integration tests run them on the CPU interpreter too.

pub mod attention;
pub mod cross_check;
pub mod cross_entropy;
pub mod debug;
pub mod interop;
pub mod layer_norm;
pub mod layer_norm_bwd;
pub mod math_accuracy;
pub mod matmul;
pub mod matmul_styles;
pub mod memory_order;
pub mod offsets;
pub mod op_kernels;
pub mod ops;
pub mod padding;
pub mod program;
pub mod reductions;
pub mod runtime;
pub mod specializing;

pub use specializing::Specializing;

use tile::{Arg, Device, Options};
use tile_dialect::{DType, Kernel, Result};
use tile_examples::{masked_tile_2d, vector_add};

/// The result of one GPU case: `Err` says what was wrong.
pub type Outcome = std::result::Result<(), String>;

/// The NaN written over every output before a run (a payload no kernel
/// computes, so an untouched element is recognisable by its bits).
pub const POISON: f32 = f32::from_bits(0x7FC0_DEAD);

/// Elements after each output that no kernel may write.
pub const GUARD: usize = 1024;

/// `n` deterministic floats in [-8, 8) with a fractional part, so that
/// copies and sums are checked bit for bit.
pub fn inputs(n: usize, seed: u64) -> Vec<f32> {
    let mut s = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    (0..n)
        .map(|_| {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((s >> 40) as f32 / (1u64 << 24) as f32) * 16.0 - 8.0
        })
        .collect()
}

/// An output of `n` elements plus the guard, all poisoned.
pub fn poisoned(n: usize) -> Vec<f32> {
    vec![POISON; n + GUARD]
}

/// Compares `got` (output plus guard) with `want` bit for bit, and checks
/// that the guard still holds the poison. Returns the first mismatches.
pub fn compare(got: &[f32], want: &[f32]) -> Outcome {
    let mut errors = Vec::new();
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        if g.to_bits() != w.to_bits() {
            errors.push(format!("[{i}] = {g} (bits {:#x}), want {w}", g.to_bits()));
        }
    }
    verdict(got, want.len(), errors)
}

/// The outcome of a comparison: `errors` found in the first `n` elements
/// of `got`, plus any write into the guard after them or a changed length.
/// Reports the count and the first few.
pub fn verdict(got: &[f32], n: usize, mut errors: Vec<String>) -> Outcome {
    for (i, g) in got.iter().enumerate().skip(n) {
        if g.to_bits() != POISON.to_bits() {
            errors.push(format!("guard [{i}] was written: {g}"));
        }
    }
    if got.len() != n + GUARD {
        errors.push(format!(
            "output has {} elements, want {}",
            got.len(),
            n + GUARD
        ));
    }
    summarize(errors)
}

/// The outcome of a check that found `errors`: `Ok` for none, else their
/// count and the first five.
pub fn summarize(mut errors: Vec<String>) -> Outcome {
    if errors.is_empty() {
        Ok(())
    } else {
        let count = errors.len();
        errors.truncate(5);
        Err(format!("{count} wrong: {}", errors.join("; ")))
    }
}

/// A launch's shape as the case names show it: `tiles BMxBNxBK warps=W
/// stages=S CHIP`.
pub fn launch_name(tiles: [i64; 3], warps: u32, stages: u32, chip: &str) -> String {
    let [m, n, k] = tiles;
    format!("tiles {m}x{n}x{k} warps={warps} stages={stages} {chip}")
}

/// The options of a case compiled for `chip` (`sm_90`: wgmma; `sm_80`:
/// mma.sync) with `warps` warps and `stages` pipeline stages.
pub fn chip_options(chip: &str, warps: u32, stages: u32) -> Options {
    Options {
        chip: chip.into(),
        num_stages: stages,
        ..Options::with_warps(warps)
    }
}

/// Loads the first `n` of 256 elements of `x` under a mask, with `other`
/// (or none), and stores all 256 to `out`.
pub fn fill_other_kernel(context: &melior::Context, other: Option<f32>) -> Result<Kernel<'_>> {
    Kernel::build(context, "fill_other", |kb| {
        let x = kb.arg_ptr("x", DType::F32);
        let out = kb.arg_ptr("out", DType::F32);
        let n = kb.arg("n", DType::I32);
        let offs = kb.arange(0, 256);
        let load = kb.load(x + offs).mask(offs.lt(n));
        let v = match other {
            Some(o) => load.other(o).build(),
            None => load.build(),
        };
        kb.store(out + offs, v).build();
    })
}

/// Each program stores its ids and the grid size on all three axes (six
/// i32 scalars at `6 * linear program index`).
pub fn grid_ids_kernel(context: &melior::Context) -> Result<Kernel<'_>> {
    Kernel::build(context, "grid_ids", |kb| {
        let out = kb.arg_ptr("out", DType::I32);
        let (x, y, z) = (kb.program_id(0), kb.program_id(1), kb.program_id(2));
        let (nx, ny, nz) = (kb.num_programs(0), kb.num_programs(1), kb.num_programs(2));
        let linear = (z * ny + y) * nx + x;
        let base = linear * 6i32;
        for (i, v) in [x, y, z, nx, ny, nz].into_iter().enumerate() {
            kb.store(out + (base + i as i32), v).build();
        }
    })
}

/// Stores its scalar arguments (i32, i64, f32, f16, bf16), as f32.
pub fn scalar_args_kernel(context: &melior::Context) -> Result<Kernel<'_>> {
    Kernel::build(context, "scalar_args", |kb| {
        let out = kb.arg_ptr("out", DType::F32);
        let a = kb.arg("a", DType::I32);
        let b = kb.arg("b", DType::I64);
        let c = kb.arg("c", DType::F32);
        let d = kb.arg("d", DType::F16);
        let e = kb.arg("e", DType::BF16);
        kb.store(out, a.to(DType::F32)).build();
        kb.store(out + 1i32, b.to(DType::F32)).build();
        kb.store(out + 2i32, c).build();
        kb.store(out + 3i32, d.to(DType::F32)).build();
        kb.store(out + 4i32, e.to(DType::F32)).build();
    })
}

/// Runs the vector add (`BLOCK = block`) on `n` elements and compares.
pub fn vector_add_case(device: &Device, block: i32, n: usize) -> Outcome {
    let context = tile::context().map_err(|e| e.to_string())?;
    let kernel = vector_add::safe_kernel(&context, block).map_err(|e| e.to_string())?;
    let loaded = Specializing::new(device, &kernel);
    let x = inputs(n, 1);
    let y = inputs(n, 2);
    let want: Vec<f32> = x.iter().zip(&y).map(|(a, b)| a + b).collect();
    let dx = device.upload(&x).map_err(|e| e.to_string())?;
    let dy = device.upload(&y).map_err(|e| e.to_string())?;
    let dout = device.upload(&poisoned(n)).map_err(|e| e.to_string())?;
    let grid = (n as u32).div_ceil(block as u32);
    loaded
        .launch(
            grid,
            &[
                Arg::from(&dx),
                Arg::from(&dy),
                Arg::from(&dout),
                Arg::from(n as i32),
            ],
        )
        .map_err(|e| e.to_string())?;
    compare(&device.download(&dout).map_err(|e| e.to_string())?, &want)
}

/// Rows of a jagged tensor gathered from starts read from memory
/// ([`jagged_rows`](tile_examples::jagged_rows)), with or without the
/// `multiple_of` hint on the starts, against the plain-Rust gather: the
/// starts are multiples of 4, as the hint states, `rows` and `width` end
/// inside a block, and `dst` is poisoned first.
pub fn jagged_rows_case(device: &Device, hinted: bool, rows: usize, width: usize) -> Outcome {
    use tile_examples::jagged_rows::{BLOCK_COLS, BLOCK_ROWS, jagged_rows, jagged_rows_reference};
    let context = tile::context().map_err(|e| e.to_string())?;
    let kernel =
        jagged_rows(&context, BLOCK_ROWS, BLOCK_COLS, hinted).map_err(|e| e.to_string())?;
    let loaded = Specializing::new(device, &kernel);
    // Row r starts where row r - 1 ended, rounded up to a multiple of 4,
    // after a gap of r % 3 * 4 elements.
    let mut starts = Vec::with_capacity(rows);
    let mut next = 0usize;
    for r in 0..rows {
        next = next.next_multiple_of(4) + r % 3 * 4;
        starts.push(i32::try_from(next).map_err(|e| e.to_string())?);
        next += width;
    }
    let src = inputs(next + 4, 7);
    let want = jagged_rows_reference(&src, &starts, width);
    let d_src = device.upload(&src).map_err(|e| e.to_string())?;
    let d_starts = device.upload(&starts).map_err(|e| e.to_string())?;
    let d_dst = device
        .upload(&poisoned(rows * width))
        .map_err(|e| e.to_string())?;
    let grid = (rows as u32).div_ceil(BLOCK_ROWS as u32);
    loaded.launch(
        grid,
        &[
            Arg::from(&d_src),
            Arg::from(&d_starts),
            Arg::from(&d_dst),
            Arg::from(rows as i32),
            Arg::from(width as i32),
        ],
    )?;
    compare(&device.download(&d_dst).map_err(|e| e.to_string())?, &want)
}

/// How the 2-d input is stored.
#[derive(Clone, Copy)]
pub enum Storage {
    /// Row-major, rows of `k`.
    Contiguous,
    /// Column-major (the transpose of a row-major `k x m`).
    Transposed,
    /// Every other column of a row-major `m x 2k`.
    ColumnSliced,
}

impl Storage {
    /// A short name for reports.
    pub fn name(self) -> &'static str {
        match self {
            Storage::Contiguous => "contiguous",
            Storage::Transposed => "transposed",
            Storage::ColumnSliced => "sliced-stride2",
        }
    }

    /// Backing length and (stride_m, stride_k) of an m x k view.
    pub fn layout(self, m: usize, k: usize) -> (usize, usize, usize) {
        match self {
            Storage::Contiguous => (m * k, k, 1),
            Storage::Transposed => (m * k, 1, m),
            Storage::ColumnSliced => (m * 2 * k, 2 * k, 2),
        }
    }
}

/// Copies an `m x k` view stored as `storage` with the masked 2-d tile
/// kernel (`bm x bk` tiles) and compares.
pub fn tile_2d_case(
    device: &Device,
    bm: i32,
    bk: i32,
    m: usize,
    k: usize,
    storage: Storage,
) -> Outcome {
    let context = tile::context().map_err(|e| e.to_string())?;
    let kernel = masked_tile_2d::masked_tile_2d(&context, bm, bk).map_err(|e| e.to_string())?;
    let loaded = Specializing::new(device, &kernel);
    let (len, sm, sk) = storage.layout(m, k);
    let backing = inputs(len, (m * 31 + k) as u64);
    let mut want = vec![0f32; m * k];
    for i in 0..m {
        for j in 0..k {
            want[i * k + j] = backing[i * sm + j * sk];
        }
    }
    let dx = device.upload(&backing).map_err(|e| e.to_string())?;
    let dout = device.upload(&poisoned(m * k)).map_err(|e| e.to_string())?;
    let grid = (
        (m as u32).div_ceil(bm as u32),
        (k as u32).div_ceil(bk as u32),
    );
    let args = [
        Arg::from(&dx),
        Arg::from(&dout),
        Arg::from(m as i32),
        Arg::from(k as i32),
        Arg::from(sm as i32),
        Arg::from(sk as i32),
        Arg::from(k as i32),
        Arg::from(1i32),
    ];
    loaded.launch(grid, &args).map_err(|e| e.to_string())?;
    compare(&device.download(&dout).map_err(|e| e.to_string())?, &want)
}

/// Compiles `kernel`, runs it on `grid` with `(input, poisoned output,
/// scalars...)` and compares the output with `want`.
fn run_one_input(
    device: &Device,
    kernel: &Kernel,
    input: &[f32],
    want: &[f32],
    grid: (u32, u32),
    scalars: &[Arg],
) -> Outcome {
    let loaded = Specializing::new(device, kernel);
    let dx = device.upload(input).map_err(|e| e.to_string())?;
    let dout = device
        .upload(&poisoned(want.len()))
        .map_err(|e| e.to_string())?;
    let mut args = vec![Arg::from(&dx), Arg::from(&dout)];
    args.extend_from_slice(scalars);
    loaded.launch(grid, &args).map_err(|e| e.to_string())?;
    compare(&device.download(&dout).map_err(|e| e.to_string())?, want)
}

/// Copies every `(BT, BK)` q tile of a `[b, t, hq, k]` tensor through
/// block pointers (`q_tile_load`, 64 x 64 tiles, `k <= 64`) and compares.
pub fn q_tile_case(device: &Device, b: usize, t: usize, hq: usize, k: usize) -> Outcome {
    let context = tile::context().map_err(|e| e.to_string())?;
    let (bt, bk) = (
        tile_examples::attention_tiles::BT,
        tile_examples::attention_tiles::BK,
    );
    let kernel =
        tile_examples::attention_tiles::q_tile_load(&context, bt, bk).map_err(|e| e.to_string())?;
    let q = inputs(b * t * hq * k, (b * 7 + t * 3 + k) as u64);
    let grid = ((t as u32).div_ceil(bt as u32), (b * hq) as u32);
    let scalars = [t, hq, k].map(|x| Arg::from(x as i32));
    run_one_input(device, &kernel, &q, &q, grid, &scalars)
}

/// Writes the transpose `[b, h, k, t]` of a `[b, t, h, k]` tensor through
/// the virtual-transposed block pointer (`k_tile_load_transposed`, 64 x 64
/// tiles, `k <= 64`) and compares.
pub fn k_tile_case(device: &Device, b: usize, t: usize, h: usize, k: usize) -> Outcome {
    let context = tile::context().map_err(|e| e.to_string())?;
    let (bt, bk) = (
        tile_examples::attention_tiles::BT,
        tile_examples::attention_tiles::BK,
    );
    let kernel = tile_examples::attention_tiles::k_tile_load_transposed(&context, bt, bk)
        .map_err(|e| e.to_string())?;
    let n = b * t * h * k;
    let x = inputs(n, (b * 5 + t * 11 + k) as u64);
    let mut want = vec![0f32; n];
    for ib in 0..b {
        for it in 0..t {
            for ih in 0..h {
                for ik in 0..k {
                    want[((ib * h + ih) * k + ik) * t + it] = x[((ib * t + it) * h + ih) * k + ik];
                }
            }
        }
    }
    let grid = ((t as u32).div_ceil(bt as u32), (b * h) as u32);
    let scalars = [t, h, k].map(|x| Arg::from(x as i32));
    run_one_input(device, &kernel, &x, &want, grid, &scalars)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comparison_catches_wrong_values_and_guard_writes() {
        let want = inputs(10, 1);
        let mut got = poisoned(10);
        got[..10].copy_from_slice(&want);
        assert!(compare(&got, &want).is_ok());
        got[3] += 1.0;
        assert!(compare(&got, &want).unwrap_err().contains("[3]"));
        got[3] = want[3];
        got[10 + 7] = 0.0;
        assert!(compare(&got, &want).unwrap_err().contains("guard [17]"));
        // Untouched outputs are poison, not the expected values.
        assert!(compare(&poisoned(10), &want).is_err());
    }

    #[test]
    fn errors_are_counted_and_cases_named() {
        assert_eq!(summarize(Vec::new()), Ok(()));
        let errors: Vec<String> = (0..7).map(|i| format!("[{i}]")).collect();
        assert_eq!(
            summarize(errors),
            Err("7 wrong: [0]; [1]; [2]; [3]; [4]".to_string())
        );
        assert_eq!(
            matmul::cases(false)[0].name(),
            "1x1x1 f16 A row B row tiles 64x64x32 warps=4 stages=3 sm_90"
        );
        assert_eq!(
            matmul_styles::cases(false)[0].name(),
            "block_ptr 1x17x1 f16 tiles 64x64x32 warps=4 stages=3 sm_90"
        );
        let options = chip_options("sm_80", 8, 2);
        assert_eq!(
            (options.chip.as_str(), options.num_warps, options.num_stages),
            ("sm_80", 8, 2)
        );
    }
}
