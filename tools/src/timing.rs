//! How the benchmarks time a kernel, written once for `bench`,
//! `matmul-bench` (its `--styles` too), `attention-bench` and the GPU
//! check's launch benchmark.
//!
//! Ours and the Python baselines time alike, as `triton.testing.do_bench`
//! does: `warmup` untimed launches, then `reps` repetitions of (zero a
//! [`FLUSH_BYTES`] buffer to flush the L2 cache, record a start event,
//! launch once, record an end event) queued back to back, one wait, and
//! the [`median`] of the elapsed times ([`Timer`]).
//!
//! Modules: [`timer`] (the CUDA-event timing after an L2 flush),
//! [`tuning`] (the fastest of several configurations, each compiled
//! specialized on its arguments, as an autotuner chooses).

pub mod timer;
pub mod tuning;

pub use timer::Timer;
pub use tuning::{
    Best, Compared, compile_and_load, config_text, fastest, parse_config_text, specialized,
    time_cases,
};

/// The size of the buffer zeroed before each timed launch, to flush the
/// L2 cache: 256 MiB, as `triton.testing.do_bench`.
pub const FLUSH_BYTES: usize = 256 << 20;

/// How many launches to time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Timing {
    /// Untimed launches first.
    pub warmup: usize,
    /// Timed launches; the median is reported.
    pub reps: usize,
}

impl Timing {
    /// 10 warm-up launches and 100 timed ones; 2 and 5 for a smoke run.
    pub fn default_for(quick: bool) -> Timing {
        if quick {
            Timing { warmup: 2, reps: 5 }
        } else {
            Timing {
                warmup: 10,
                reps: 100,
            }
        }
    }

    /// The timing as the reports state it: `W warm-up launches, median of
    /// R (each after zeroing 256 MiB), CUDA events`.
    pub fn describe(&self) -> String {
        format!(
            "{} warm-up launches, median of {} (each after zeroing {} MiB), CUDA events",
            self.warmup,
            self.reps,
            FLUSH_BYTES >> 20
        )
    }
}

/// A positive count (`--warmup N`, `--reps N`, `--samples N`), as clap
/// reads it.
pub fn positive_count(value: &str) -> Result<usize, String> {
    value
        .parse::<usize>()
        .ok()
        .filter(|&n| n > 0)
        .ok_or_else(|| format!("want a positive count, got {value:?}"))
}

/// The options every benchmark takes: the size of the run and how many
/// launches to time.
#[derive(clap::Args, Clone, Copy, Debug, PartialEq, Eq)]
pub struct RunArgs {
    /// Small sizes and few repetitions, for a smoke run.
    #[arg(long)]
    pub quick: bool,
    /// Untimed launches before the timed ones [default: 10, 2 with --quick].
    #[arg(long, value_name = "N", value_parser = positive_count)]
    pub warmup: Option<usize>,
    /// Timed launches; the median is reported [default: 100, 5 with --quick].
    #[arg(long, value_name = "N", value_parser = positive_count)]
    pub reps: Option<usize>,
}

impl RunArgs {
    /// The launches to time: those given, else the defaults for the size.
    pub fn timing(&self) -> Timing {
        let default = Timing::default_for(self.quick);
        Timing {
            warmup: self.warmup.unwrap_or(default.warmup),
            reps: self.reps.unwrap_or(default.reps),
        }
    }
}

/// The median of `values` (the mean of the two middle values for an even
/// count, as Python's `statistics.median`); `None` when empty.
pub fn median(values: &[f64]) -> Option<f64> {
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    let n = sorted.len();
    match n {
        0 => None,
        _ if n % 2 == 1 => Some(sorted[n / 2]),
        _ => Some((sorted[n / 2 - 1] + sorted[n / 2]) / 2.0),
    }
}

/// The median, 99th percentile and mean of some host times (the launch
/// benchmark's columns, as `bench/triton_launch.py` computes them).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Spread {
    /// The value at rank `round((n - 1) / 2)`.
    pub median: f64,
    /// The value at rank `round((n - 1) * 0.99)`.
    pub p99: f64,
    /// The mean.
    pub mean: f64,
}

impl Spread {
    /// The spread of `values` (not empty).
    pub fn of(mut values: Vec<f64>) -> Spread {
        let mean = values.iter().sum::<f64>() / values.len() as f64;
        values.sort_by(f64::total_cmp);
        Spread {
            median: quantile(&values, 0.5),
            p99: quantile(&values, 0.99),
            mean,
        }
    }
}

/// The value of `sorted` (ascending, not empty) at rank
/// `round((len - 1) * q)`: for `q = 0.5`, the upper of the two middle
/// values of an even count.
pub fn quantile(sorted: &[f64], q: f64) -> f64 {
    sorted[((sorted.len() - 1) as f64 * q).round() as usize]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn median_of_odd_and_even_counts() {
        assert_eq!(median(&[3.0, 1.0, 2.0]), Some(2.0));
        assert_eq!(median(&[4.0, 1.0, 3.0, 2.0]), Some(2.5));
        assert_eq!(median(&[0.5]), Some(0.5));
        assert_eq!(median(&[]), None);
    }

    #[test]
    fn quantiles_take_the_rounded_rank() {
        let sorted: Vec<f64> = (0..200).map(f64::from).collect();
        assert_eq!(quantile(&sorted, 0.5), 100.0);
        assert_eq!(quantile(&sorted, 0.99), 197.0);
        assert_eq!(quantile(&[1.0, 2.0, 3.0], 0.5), 2.0);
        let s = Spread::of(vec![4.0, 1.0, 3.0, 2.0]);
        assert_eq!((s.median, s.p99, s.mean), (3.0, 4.0, 2.5));
    }

    #[test]
    fn timing_defaults_and_description() {
        assert_eq!(Timing::default_for(true), Timing { warmup: 2, reps: 5 });
        assert_eq!(
            Timing::default_for(false).describe(),
            "10 warm-up launches, median of 100 (each after zeroing 256 MiB), CUDA events"
        );
        assert_eq!(positive_count("7"), Ok(7));
        assert!(
            positive_count("0")
                .unwrap_err()
                .contains("want a positive count")
        );
        assert!(positive_count("x").is_err());
    }
}
