//! Ours against torch SDPA on the whole output: the fastest configuration
//! of each case runs once more and its inputs and output are written as
//! raw f16 (little-endian, `[B, T, H, D]`) to `DIR/<BxHxTxD>-<mask>.{q,k,v,o}`;
//! `bench/triton_attention.py --ours-dir DIR` computes SDPA in f32 on the
//! same q, k and v and reports the largest absolute difference
//! (`ours_err=`), held to [`TOLERANCE`].

use super::Case;
use std::path::{Path, PathBuf};
use tile::{Device, LoadedKernel};

/// The largest absolute difference allowed between ours and SDPA in f32:
/// four half-units of f16 at 1 (`gpu_check::attention::out_tolerance`;
/// v is within [-1, 1)).
pub const TOLERANCE: f64 = 4.0 * 1.0 / 2048.0;

/// Where the files of `case` go under `dir`, without the extension.
pub fn stem(dir: &Path, case: &Case) -> PathBuf {
    dir.join(format!("{}-{}", case.size(), case.mask()))
}

/// Runs `kernel` once more on `inputs` and writes q, k, v and its output.
pub(super) fn dump(
    device: &Device,
    dir: &Path,
    case: &Case,
    inputs: &super::inputs::Inputs,
    kernel: &LoadedKernel,
    grid: (u32, u32),
) -> Result<(), String> {
    let err = |e: &dyn std::fmt::Display| e.to_string();
    let args = inputs.args(case);
    kernel.launch(grid, &args).map_err(|e| err(&e))?;
    device.synchronize().map_err(|e| err(&e))?;
    let stem = stem(dir, case);
    for (buffer, ext) in inputs.buffers.iter().zip(["q", "k", "v", "o"]) {
        let bits: Vec<u16> = device.download(buffer).map_err(|e| err(&e))?;
        let bytes: Vec<u8> = bits.iter().flat_map(|b| b.to_le_bytes()).collect();
        let path = stem.with_extension(ext);
        std::fs::write(&path, bytes).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    Ok(())
}
