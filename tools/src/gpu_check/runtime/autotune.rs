//! The autotuner over row-sum configurations (`tile-tools gpu-check
//! autotune`): its choice re-timed against every configuration, and read
//! back from the disk cache by a second tuner.

use super::err;
use crate::gpu_check::poisoned;
use crate::markdown::Table;
use crate::timing::quantile;
use std::sync::Arc;
use tile::{Arg, Config, Device, KernelCache, Options};
use tile_dialect::DType;
use tile_runtime::{DiskCache, pattern_f32};

/// The autotuner over row-sum configurations on a 2048x32768 f32 matrix
/// (few, long rows: the configurations' speeds differ widely):
/// tunes (every configuration timed), then re-times every configuration
/// independently with more repetitions and in interleaved rounds, and says
/// whether the choice is the fastest. A second tuner over the same cache
/// directory reads the choice from disk. Returns Markdown lines.
pub fn autotune_demo(device: &Device, cache_dir: &std::path::Path) -> Result<Vec<String>, String> {
    let (m, n) = (2048usize, 32768usize);
    let configs = vec![
        Config::new(1).with("BLOCK_N", 128),
        Config::new(2).with("BLOCK_N", 512),
        Config::new(4).with("BLOCK_N", 1024),
        Config::new(8).with("BLOCK_N", 2048),
        Config::new(8).with("BLOCK_N", 4096),
    ];
    let cache = Arc::new(KernelCache::new(Some(DiskCache::at(cache_dir))));
    let make = || {
        tile::jit::autotuner_with_cache(
            "row_sum",
            configs.clone(),
            Options::default(),
            cache.clone(),
            row_sum_config,
        )
        .map_err(err)
    };
    let tuner = make()?;
    let a = device.upload(&pattern_f32(m * n, 3)).map_err(err)?;
    let out = device.upload(&poisoned(m)).map_err(err)?;
    let args = [
        (&a).into(),
        (&out).into(),
        Arg::I32(m as i32),
        Arg::I32(n as i32),
        Arg::I64(n as i64),
        Arg::I64(1),
    ];
    let grid = |_: &Config| tile::Grid::from(m as u32);
    let key = format!("{m}x{n}");
    tuner.launch(device, &key, grid, &args).map_err(err)?;
    device.synchronize().map_err(err)?;
    // The chosen configuration computed the right sums.
    let host = pattern_f32(m * n, 3);
    let want: Vec<f32> = host.chunks(n).map(|r| r.iter().sum()).collect();
    let got = device.download(&out).map_err(err)?;
    let bad = got
        .iter()
        .zip(&want)
        .filter(|(g, w)| (*g - *w).abs() > 1e-3 * (1.0 + w.abs()))
        .count();
    if bad != 0 {
        return Err(format!("{bad} wrong row sums from the tuned kernel"));
    }
    let tuning = tuner.tunings().pop().ok_or("no tuning recorded")?;
    // Re-time: 10 interleaved rounds of 50 launches per configuration.
    let kernels: Vec<_> = (0..configs.len())
        .map(|i| tuner.launcher(i).variant(device, &args).map_err(err))
        .collect::<Result<_, _>>()?;
    let mut samples: Vec<Vec<f32>> = vec![Vec::new(); configs.len()];
    for _ in 0..10 {
        for (i, k) in kernels.iter().enumerate() {
            let times = device
                .time_each_ms(50, || Ok(()), || k.launch_async(m as u32, &args))
                .map_err(err)?;
            samples[i].extend(times);
        }
    }
    let medians: Vec<f64> = samples
        .iter()
        .map(|s| {
            let mut s: Vec<f64> = s.iter().map(|&t| f64::from(t)).collect();
            s.sort_by(f64::total_cmp);
            quantile(&s, 0.5)
        })
        .collect();
    let fastest = (0..medians.len())
        .min_by(|&a, &b| medians[a].total_cmp(&medians[b]))
        .unwrap_or(0);
    let mut table = Table::new(&[
        "configuration",
        "tuning median (ms)",
        "re-timed median (ms)",
        "vs fastest",
        "chosen",
    ]);
    for (i, c) in configs.iter().enumerate() {
        table.push([
            c.to_string(),
            format!("{:.4}", tuning.times_ms.get(i).copied().unwrap_or(f64::NAN)),
            format!("{:.4}", medians[i]),
            format!("{:.3}", medians[i] / medians[fastest]),
            (if i == tuning.chosen { "yes" } else { "" }).to_string(),
        ]);
    }
    let mut lines = vec![
        format!(
            "row sum {m}x{n} f32, key {key:?}; tuning: 3 warm-up + 25 timed launches per configuration; re-timing: 10 interleaved rounds of 50"
        ),
        String::new(),
    ];
    lines.extend(table.lines().iter().cloned());
    lines.push(String::new());
    lines.push(format!(
        "chosen: {} ; fastest when re-timed: {} ; {}",
        configs[tuning.chosen],
        configs[fastest],
        if tuning.chosen == fastest {
            "PASS: the choice is the fastest".to_string()
        } else if medians[tuning.chosen] <= medians[fastest] * 1.01 {
            format!(
                "PASS: the choice is within 1% of the fastest ({:.2}% slower, within the \
                 re-timing's noise)",
                (medians[tuning.chosen] / medians[fastest] - 1.0) * 100.0
            )
        } else {
            format!(
                "FAIL: the choice is {:.1}% slower than the fastest",
                (medians[tuning.chosen] / medians[fastest] - 1.0) * 100.0
            )
        }
    ));
    // A second tuner (a new process would do the same) reads the choice.
    let again = make()?;
    let chosen = again.choose(device, &key, grid, &args).map_err(err)?;
    let from_disk = again.tunings().pop().is_some_and(|t| t.from_disk);
    lines.push(format!(
        "a second tuner over the same cache directory: {} ({})",
        configs[chosen],
        if from_disk {
            "read from disk, nothing timed"
        } else {
            "timed again"
        }
    ));
    Ok(lines)
}

/// The f32 row sum of a configuration (its `BLOCK_N`).
fn row_sum_config<'c>(
    context: &'c melior::Context,
    config: &Config,
) -> tile_dialect::Result<tile_dialect::Kernel<'c>> {
    tile_examples::row_sum::row_sum(context, config.get("BLOCK_N").unwrap_or(1024), DType::F32)
}

/// The autotuner asked for configurations over the shared-memory limit
/// (`tile-tools gpu-check autotune`): the tutorial matmul (f16, 256^3) over
/// two configurations that need more than 227 KiB a block (256x256x128 in
/// 8 stages, 1 MiB; 256x256x64 in 4, 256 KiB) and one that fits. The
/// compiler refuses the two before generating code, so the tuner prunes
/// them (never loaded, never timed) and chooses the third, whose product
/// is checked; a tuner with only oversized configurations fails with the
/// compiler's error, not the driver's. Returns Markdown lines.
pub fn oversized_configs(device: &Device) -> Result<Vec<String>, String> {
    use tile_examples::matmul::{Epilogue, autotuned_grid, matmul, tiles_of};
    let config = |m, n, k, warps, stages| {
        Config::new(warps)
            .with("BLOCK_M", m)
            .with("BLOCK_N", n)
            .with("BLOCK_K", k)
            .with_stages(stages)
    };
    let oversized = [config(256, 256, 128, 8, 8), config(256, 256, 64, 8, 4)];
    let fits = config(128, 128, 64, 4, 3);
    let tuner_over = |configs: Vec<Config>| {
        let cache = Arc::new(KernelCache::new(None));
        tile::jit::autotuner_with_cache("matmul", configs, Options::default(), cache, |c, cfg| {
            matmul(
                c,
                tiles_of(cfg),
                DType::F16,
                DType::F32,
                None,
                Epilogue::None,
            )
        })
        .map_err(err)
    };
    let n = 256usize;
    let a: Vec<f32> = pattern_f32(n * n, 5);
    let b: Vec<f32> = pattern_f32(n * n, 6);
    let half = |v: &[f32]| {
        v.iter()
            .map(|&x| tile::half::f16::from_f32(x))
            .collect::<Vec<_>>()
    };
    let (da, db) = (
        device.upload(&half(&a)).map_err(err)?,
        device.upload(&half(&b)).map_err(err)?,
    );
    let dc = device.upload(&poisoned(n * n)).map_err(err)?;
    let (ni, nl) = (n as i32, n as i64);
    let args = [
        (&da).into(),
        (&db).into(),
        (&dc).into(),
        Arg::I32(ni),
        Arg::I32(ni),
        Arg::I32(ni),
        Arg::I64(nl),
        Arg::I64(1),
        Arg::I64(nl),
        Arg::I64(1),
        Arg::I64(nl),
        Arg::I64(1),
    ];
    let grid = |c: &Config| autotuned_grid(c, n, n);
    let configs = vec![oversized[0].clone(), fits.clone(), oversized[1].clone()];
    let tuner = tuner_over(configs.clone())?;
    tuner.launch(device, "256", grid, &args).map_err(err)?;
    device.synchronize().map_err(err)?;
    let tuning = tuner.tunings().pop().ok_or("no tuning recorded")?;
    let pruned: Vec<usize> = tuning.pruned.iter().map(|&(i, _)| i).collect();
    let reasons_name_shared = tuning
        .pruned
        .iter()
        .all(|(_, r)| r.contains("shared memory"));
    let got = device.download(&dc).map_err(err)?;
    let mut wrong = 0;
    for i in 0..n {
        for j in 0..n {
            let want: f32 = (0..n).map(|k| a[i * n + k] * b[k * n + j]).sum();
            if (got[i * n + j] - want).abs() > 1e-3 * (1.0 + want.abs()) {
                wrong += 1;
            }
        }
    }
    let mut lines = vec![String::new()];
    let mut table = Table::new(&["configuration", "outcome"]);
    for (i, c) in configs.iter().enumerate() {
        let outcome = match tuning.pruned.iter().find(|&&(p, _)| p == i) {
            Some((_, reason)) => format!("pruned: {}", reason.lines().next().unwrap_or("")),
            None => format!(
                "timed {:.4} ms{}",
                tuning.times_ms[i],
                if i == tuning.chosen { ", chosen" } else { "" }
            ),
        };
        table.push([c.to_string(), outcome]);
    }
    lines.extend(table.lines().iter().cloned());
    let all = tuner_over(oversized.to_vec())?;
    let refused = all.choose(device, "256", grid, &args);
    let refusal = match &refused {
        Err(e @ tile::RuntimeError::Compile { .. }) if e.to_string().contains("shared memory") => {
            Ok(())
        }
        Err(e) => Err(format!(
            "all-oversized tuner: not the compiler's refusal: {e}"
        )),
        Ok(i) => Err(format!("all-oversized tuner chose configuration {i}")),
    };
    let verdict = if pruned != [0, 2] || !reasons_name_shared {
        Err(format!(
            "pruned {pruned:?} (want [0, 2], for shared memory)"
        ))
    } else if tuning.chosen != 1 {
        Err(format!("chose configuration {}, want 1", tuning.chosen))
    } else if wrong != 0 {
        Err(format!(
            "{wrong} wrong elements from the chosen configuration"
        ))
    } else {
        refusal
    };
    lines.push(String::new());
    lines.push(match &verdict {
        Ok(()) => "PASS: oversized configurations pruned before any load; the one that fits \
                   chosen and correct; a tuner of only oversized ones fails with the compiler's \
                   error"
            .to_string(),
        Err(e) => format!("FAIL: {e}"),
    });
    verdict.map(|()| lines)
}
