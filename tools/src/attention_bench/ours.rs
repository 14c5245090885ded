//! Ours on one attention case: each configuration compiled specialized on
//! its arguments, checked on sampled rows and timed; the fastest, and its
//! output written for the comparison with SDPA ([`super::sdpa`]).

use super::inputs::Inputs;
use super::{Case, Config, err, sdpa};
use crate::timing::{Timer, compile_and_load, fastest, specialized};
use std::path::Path;
use tile::{Arg, Device, LoadedKernel};
use tile_dialect::DType;
use tile_examples::flash_attention::{self, AttentionConfig};

/// Compiles ours in `config` for `case`, specialized on `args`, and loads
/// it; returns it with its grid.
fn load(
    device: &Device,
    context: &melior::Context,
    case: &Case,
    config: Config,
    args: &[Arg],
) -> Result<(LoadedKernel, (u32, u32)), String> {
    let cfg = AttentionConfig::new(case.d as i64)
        .causal(case.causal)
        .blocks(config.block_m, config.block_n);
    let kernel = flash_attention::attention_fwd(context, cfg, DType::F16).map_err(err)?;
    let options = specialized(config.warps, config.stages, args);
    let loaded = compile_and_load(device, &kernel, &options)?;
    let grid = (
        case.t.div_ceil(config.block_m as usize) as u32,
        (case.b * case.h) as u32,
    );
    Ok((loaded, grid))
}

/// Ours on `case`: the fastest checked configuration and its time. With
/// `dump`, the fastest runs once more and its inputs and output are
/// written there for the comparison with SDPA ([`sdpa`]).
pub(super) fn ours(
    device: &Device,
    case: &Case,
    configs: &[Config],
    timer: &mut Timer,
    dump: Option<&Path>,
) -> Result<(f64, Config), String> {
    let context = tile::context().map_err(err)?;
    let inputs = Inputs::new(device, case)?;
    let args = inputs.args(case);
    let label = format!("{} {}", case.size(), case.mask());
    let best = fastest(&label, configs, Config::name, |config| {
        let (loaded, grid) = load(device, &context, case, config, &args)?;
        loaded.launch(grid, &args).map_err(err)?;
        device.synchronize().map_err(err)?;
        inputs.check(device, case)?;
        timer.median_ms(|| loaded.launch_async(grid, &args))
    })
    .map_err(|_| "no configuration ran and checked".to_string())?;
    if let Some(dir) = dump {
        let (loaded, grid) = load(device, &context, case, best.1, &args)?;
        sdpa::dump(device, dir, case, &inputs, &loaded, grid)?;
    }
    Ok(best)
}
