//! The fastest of several configurations, as an autotuner chooses: each
//! configuration compiled specialized on its launch arguments (as Triton
//! specializes on its arguments), checked, then timed; the benchmarks of
//! the matmul, its styles and flash attention report the fastest.

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
