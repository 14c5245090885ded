//! The fastest of several configurations, as an autotuner chooses: each
//! configuration compiled specialized on its launch arguments (as Triton
//! specializes on its arguments), checked, then timed; the benchmarks of
//! the matmul, its styles and flash attention report the fastest, beside
//! the script's baseline ([`Compared`]).

use super::{Timer, Timing};
use tile::{Arg, Device, LoadedKernel, Options};
use tile_dialect::Kernel;
use tile_runtime::Specialization;

/// Options of `warps` warps and `stages` pipeline stages, specialized on
/// `args`.
pub fn specialized(warps: u32, stages: u32, args: &[Arg]) -> Options {
    Options {
        num_stages: stages,
        ..Options::with_warps(warps)
    }
    .specialized(Specialization::of(args))
}

/// Compiles `kernel` with `options` and loads the PTX on `device`.
pub fn compile_and_load(
    device: &Device,
    kernel: &Kernel,
    options: &Options,
) -> Result<LoadedKernel, String> {
    let compiled = tile::compile(kernel, options).map_err(|e| e.to_string())?;
    device
        .load(&compiled.ptx, &compiled.spec)
        .map_err(|e| e.to_string())
}

/// A configuration as the benchmarks and their scripts write it:
/// `B1xB2[xB3]/wW/sS` (block sizes, warps, pipeline stages).
pub fn config_text(blocks: &[i64], warps: u32, stages: u32) -> String {
    let blocks: Vec<String> = blocks.iter().map(i64::to_string).collect();
    format!("{}/w{warps}/s{stages}", blocks.join("x"))
}

/// Reads [`config_text`]'s form: the `N` block sizes, the warps and the
/// stages; `None` for anything else.
pub fn parse_config_text<const N: usize>(text: &str) -> Option<([i64; N], u32, u32)> {
    let (blocks, rest) = text.split_once("/w")?;
    let (warps, stages) = rest.split_once("/s")?;
    let blocks: Vec<i64> = blocks
        .split('x')
        .map(|x| x.parse().ok())
        .collect::<Option<_>>()?;
    Some((
        blocks.try_into().ok()?,
        warps.parse().ok()?,
        stages.parse().ok()?,
    ))
}

/// Tries each of `configs` with `attempt` (compile, run once, check, and
/// time: the median in ms), printing `  ours LABEL NAME: T ms` or
/// `  ours LABEL NAME: ERROR` for each (`NAME` from `name`). Returns the
/// fastest and its time (the first of equal times), or, when none ran,
/// each configuration's error as `NAME: ERROR`.
pub fn fastest<C: Copy>(
    label: &str,
    configs: &[C],
    name: impl Fn(&C) -> String,
    mut attempt: impl FnMut(C) -> Result<f64, String>,
) -> Result<(f64, C), Vec<String>> {
    let mut best: Option<(f64, C)> = None;
    let mut errors = Vec::new();
    for &config in configs {
        let name = name(&config);
        match attempt(config) {
            Ok(ms) => {
                println!("  ours {label} {name}: {ms:.4} ms");
                if best.is_none_or(|(b, _)| ms < b) {
                    best = Some((ms, config));
                }
            }
            Err(e) => {
                println!("  ours {label} {name}: {e}");
                errors.push(format!("{name}: {e}"));
            }
        }
    }
    best.ok_or(errors)
}

/// Ours on a case: the fastest median in ms and its configuration, or
/// why none ran.
pub type Best<K> = Result<(f64, K), String>;

/// Ours on each of `cases` (`ours`: the fastest configuration and its
/// time), timed with `timing` on `device` by one [`Timer`], whose flush
/// buffer is freed before this returns (the Python baselines run next).
/// An error when the flush buffer cannot be had.
pub fn time_cases<C, K>(
    device: &Device,
    timing: Timing,
    cases: &[C],
    mut ours: impl FnMut(&C, &mut Timer) -> Best<K>,
) -> Result<Vec<Best<K>>, String> {
    let mut timer = Timer::new(device, timing)?;
    Ok(cases.iter().map(|case| ours(case, &mut timer)).collect())
}

/// One case of a benchmark that tries configurations ([`fastest`]):
/// ours against the script's baseline, a row of its table.
#[derive(Clone, Debug)]
pub struct Compared<C, K, B> {
    /// The case.
    pub case: C,
    /// Our fastest median in ms and its configuration, or why none ran.
    pub ours: Best<K>,
    /// The script's measurements of the case, if it gave them.
    pub baseline: Option<B>,
}

impl<C, K, B> Compared<C, K, B> {
    /// A row.
    pub fn new(case: C, ours: Best<K>, baseline: Option<B>) -> Self {
        Compared {
            case,
            ours,
            baseline,
        }
    }

    /// Our fastest median in ms, if ours ran.
    pub fn ours_ms(&self) -> Option<f64> {
        self.ours.as_ref().ok().map(|(ms, _)| *ms)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fastest_configuration_wins_and_failures_are_kept() {
        let times = [Ok(0.3), Err("no".to_string()), Ok(0.2), Ok(0.2)];
        let got = fastest(
            "f16 8x8x8",
            &[0usize, 1, 2, 3],
            |i| format!("c{i}"),
            |i| times[i].clone(),
        );
        assert_eq!(got, Ok((0.2, 2)));
        let none = fastest("x", &[1usize], |i| format!("c{i}"), |_| Err("bad".into()));
        assert_eq!(none, Err(vec!["c1: bad".to_string()]));
    }

    #[test]
    fn configurations_are_written_and_read() {
        assert_eq!(config_text(&[128, 64], 8, 3), "128x64/w8/s3");
        assert_eq!(parse_config_text("128x64/w8/s3"), Some(([128, 64], 8, 3)));
        assert_eq!(
            parse_config_text::<3>("128x256x64/w8/s3"),
            Some(([128, 256, 64], 8, 3))
        );
        for bad in [
            "128x64/w8/s3",
            "128x64x32x16/w8/s3",
            "128/w8/s3",
            "axb/w8/s3",
        ] {
            assert_eq!(parse_config_text::<3>(bad), None, "{bad}");
        }
        assert_eq!(parse_config_text::<2>("128x64/w8"), None);
        assert_eq!(parse_config_text::<2>("128x64/w-1/s3"), None);
    }

    #[test]
    fn every_case_is_timed() {
        let device = Device::interpreter();
        let timing = Timing { warmup: 1, reps: 2 };
        let times = time_cases(&device, timing, &[1usize, 2], |&case, timer| {
            let ms = timer.median_ms(|| Ok(()))?;
            if case == 2 {
                Err("bad".into())
            } else {
                Ok((ms, case))
            }
        })
        .unwrap();
        assert!(matches!(times[0], Ok((_, 1))));
        assert_eq!(times[1], Err("bad".to_string()));
    }

    #[test]
    fn options_carry_warps_stages_and_the_arguments_facts() {
        let device = Device::interpreter();
        let buffer = device.alloc::<f32>(64).unwrap();
        let options = specialized(8, 4, &[Arg::from(&buffer), Arg::from(64i32)]);
        assert_eq!((options.num_warps, options.num_stages), (8, 4));
        assert_eq!(
            options.specialization,
            Specialization::of(&[Arg::from(&buffer), Arg::from(64i32)])
        );
    }
}
