//! Autotuning: a kernel built in several configurations (block sizes,
//! warps, pipeline stages), timed on the GPU the first time a key is launched, the fastest
//! kept for that key in memory and on disk.
//!
//! The key is the caller's (typically the problem sizes): launches with
//! the same key reuse the choice. The choice on disk is filed under the
//! kernel, the key, the device's name, the launch's argument facts and
//! every configuration's code (its cache key), so a new compiler, a new
//! kernel body or another GPU tunes again.
//!
//! A configuration the compiler refuses (one needing more shared memory
//! than a block may have, which it finds before generating any code) is
//! pruned: it is never loaded or timed, its time is recorded as missing
//! and the reason kept in [`Tuning::pruned`] (and logged at warn level).
//! Only when every configuration is refused does tuning fail, with the
//! first one's error.
//!
//! Timing runs each configuration several times on the launch's own
//! arguments, so the kernel must give the same result when run again on
//! them (true of kernels that do not read what they write).
//!
//! The CPU interpreter times nothing (its times would say nothing of a
//! GPU's): there every key runs the first configuration, and no choice is
//! remembered or stored.
//!
//! ```
//! use tile_runtime::Config;
//!
//! // One configuration: named block sizes, warps, and pipeline stages.
//! let config = Config::new(8).with("BLOCK_M", 128).with("BLOCK_N", 64).with_stages(4);
//! assert_eq!(config.get("BLOCK_N"), Some(64));
//! assert_eq!(config.get("BLOCK_K"), None);
//! println!("{config}");
//! ```

use crate::cache_key::KeyBuilder;
use crate::device::Device;
use crate::disk_cache::DiskCache;
use crate::error::{Result, RuntimeError};
use crate::kernel::Arg;
use crate::kernel_cache::KernelCache;
use crate::launch::Grid;
use crate::launcher::{Launcher, VariantSource};
use crate::specialization::Specialization;
use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, Mutex, PoisonError, RwLock};

/// One configuration: named integer parameters (block sizes) and warps.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Config {
    /// The parameters, in the order given.
    pub values: Vec<(String, i64)>,
    /// Warps per program.
    pub num_warps: u32,
    /// Pipeline stages of its K loops (`None`: the compile options').
    pub num_stages: Option<u32>,
}

impl Config {
    /// A configuration with `num_warps` warps and no parameters yet.
    pub fn new(num_warps: u32) -> Config {
        Config {
            values: Vec::new(),
            num_warps,
            num_stages: None,
        }
    }

    /// This configuration with `num_stages` pipeline stages.
    pub fn with_stages(mut self, num_stages: u32) -> Config {
        self.num_stages = Some(num_stages);
        self
    }

    /// This configuration with `name = value` added.
    pub fn with(mut self, name: &str, value: i64) -> Config {
        self.values.push((name.to_string(), value));
        self
    }

    /// The value of parameter `name`, if set.
    pub fn get(&self, name: &str) -> Option<i64> {
        self.values.iter().find(|(n, _)| n == name).map(|(_, v)| *v)
    }
}

impl fmt::Display for Config {
    /// `BLOCK=1024 warps=4`, then ` stages=3` when set.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (name, value) in &self.values {
            write!(f, "{name}={value} ")?;
        }
        write!(f, "warps={}", self.num_warps)?;
        match self.num_stages {
            Some(s) => write!(f, " stages={s}"),
            None => Ok(()),
        }
    }
}

/// The outcome of tuning one key.
#[derive(Clone, Debug, PartialEq)]
pub struct Tuning {
    /// The caller's key.
    pub key: String,
    /// Median time of each configuration, in milliseconds, in the
    /// tuner's order (empty when the choice was read from disk); infinite
    /// for a pruned one.
    pub times_ms: Vec<f64>,
    /// The configurations the compiler refused, never loaded or timed:
    /// their indices and the compiler's reasons.
    pub pruned: Vec<(usize, String)>,
    /// Index of the chosen configuration.
    pub chosen: usize,
    /// True when the choice came from the disk cache.
    pub from_disk: bool,
}

/// Configurations the compiler refused: their indices and its reasons.
type Pruned = Vec<(usize, String)>;

/// A kernel in several configurations, tuned per key on first launch.
pub struct Autotuner<S: VariantSource> {
    name: String,
    configs: Vec<(Config, Launcher<S>)>,
    disk: Option<DiskCache>,
    warmup: usize,
    reps: usize,
    choices: RwLock<HashMap<String, usize>>,
    tunings: Mutex<Vec<Tuning>>,
    tuning: Mutex<()>,
}

impl<S: VariantSource> Autotuner<S> {
    /// A tuner over `configs` (each with the source of its kernel), using
    /// the process's cache for code and choices.
    pub fn new(name: &str, configs: Vec<(Config, S)>) -> Result<Autotuner<S>> {
        Self::with_cache(name, configs, KernelCache::global())
    }

    /// A tuner whose code and choices go to `cache` (choices to its disk
    /// directory, when it has one).
    pub fn with_cache(
        name: &str,
        configs: Vec<(Config, S)>,
        cache: Arc<KernelCache>,
    ) -> Result<Autotuner<S>> {
        if configs.is_empty() {
            return Err(RuntimeError::BadLaunch {
                kernel: name.to_string(),
                message: "an autotuner needs at least one configuration".into(),
            });
        }
        Ok(Autotuner {
            name: name.to_string(),
            disk: cache.disk().cloned(),
            configs: configs
                .into_iter()
                .map(|(c, s)| (c, Launcher::with_cache(s, cache.clone())))
                .collect(),
            warmup: 3,
            reps: 25,
            choices: RwLock::new(HashMap::new()),
            tunings: Mutex::new(Vec::new()),
            tuning: Mutex::new(()),
        })
    }

    /// Times each configuration `reps` times after `warmup` launches
    /// (default 3 and 25).
    pub fn with_reps(mut self, warmup: usize, reps: usize) -> Autotuner<S> {
        self.warmup = warmup;
        self.reps = reps.max(1);
        self
    }

    /// The configurations, in order.
    pub fn configs(&self) -> impl Iterator<Item = &Config> {
        self.configs.iter().map(|(c, _)| c)
    }

    /// The launcher of configuration `index`.
    pub fn launcher(&self, index: usize) -> &Launcher<S> {
        &self.configs[index].1
    }

    /// Every tuning done (or read from disk) so far.
    pub fn tunings(&self) -> Vec<Tuning> {
        self.tunings
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    /// Launches the best configuration for `key` without waiting, tuning
    /// first if `key` has no choice yet. `grid` gives each
    /// configuration's grid.
    pub fn launch(
        &self,
        device: &Device,
        key: &str,
        grid: impl Fn(&Config) -> Grid,
        args: &[Arg],
    ) -> Result<()> {
        let best = self.choose(device, key, &grid, args)?;
        let (config, launcher) = &self.configs[best];
        launcher.launch_async(device, grid(config), args)
    }

    /// The index of the best configuration for `key`: remembered, read
    /// from disk, or found now by timing every configuration on `args`.
    /// On the interpreter always 0, untimed (see the [module](self) docs).
    pub fn choose(
        &self,
        device: &Device,
        key: &str,
        grid: impl Fn(&Config) -> Grid,
        args: &[Arg],
    ) -> Result<usize> {
        if device.is_interpreter() {
            return Ok(0);
        }
        if let Some(i) = self.remembered(key) {
            return Ok(i);
        }
        // One tuning at a time; another thread may have tuned `key` while
        // this one waited.
        let _one_at_a_time = self.tuning.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(i) = self.remembered(key) {
            return Ok(i);
        }
        let record = self.record_name(device, key, args)?;
        let tuning = match self.read_choice(&record) {
            Some(chosen) => Tuning {
                key: key.to_string(),
                times_ms: vec![],
                pruned: vec![],
                chosen,
                from_disk: true,
            },
            None => {
                let (times_ms, pruned) = self.time_all(device, &grid, args)?;
                let chosen = (0..times_ms.len())
                    .min_by(|&a, &b| times_ms[a].total_cmp(&times_ms[b]))
                    .unwrap_or(0);
                self.write_choice(&record, chosen, &times_ms);
                Tuning {
                    key: key.to_string(),
                    times_ms,
                    pruned,
                    chosen,
                    from_disk: false,
                }
            }
        };
        log::info!(
            target: "tile::autotune",
            "`{}` key {key:?}: {} ({})",
            self.name,
            self.configs[tuning.chosen].0,
            if tuning.from_disk { "from the disk cache" } else { "timed now" }
        );
        let chosen = tuning.chosen;
        self.tunings
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(tuning);
        self.choices
            .write()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(key.to_string(), chosen);
        Ok(chosen)
    }

    /// The choice for `key` made earlier in this process.
    fn remembered(&self, key: &str) -> Option<usize> {
        self.choices
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .get(key)
            .copied()
    }

    /// The median time of each configuration on `args`, in milliseconds
    /// (infinite for one the compiler refuses), and the refused ones with
    /// the compiler's reasons. Fails when every configuration is refused.
    fn time_all(
        &self,
        device: &Device,
        grid: &impl Fn(&Config) -> Grid,
        args: &[Arg],
    ) -> Result<(Vec<f64>, Pruned)> {
        let mut medians = Vec::with_capacity(self.configs.len());
        let mut pruned = Vec::new();
        let mut first_refusal = None;
        for (i, (config, launcher)) in self.configs.iter().enumerate() {
            let kernel = match launcher.variant(device, args) {
                Ok(kernel) => kernel,
                Err(e @ RuntimeError::Compile { .. }) => {
                    log::warn!(
                        target: "tile::autotune",
                        "`{}`: configuration {config} pruned: {e}",
                        self.name
                    );
                    pruned.push((i, e.to_string()));
                    first_refusal.get_or_insert(e);
                    medians.push(f64::INFINITY);
                    continue;
                }
                Err(e) => return Err(e),
            };
            let grid = grid(config);
            for _ in 0..self.warmup {
                kernel.launch_async(grid, args)?;
            }
            let mut times =
                device.time_each_ms(self.reps, || Ok(()), || kernel.launch_async(grid, args))?;
            times.sort_by(f32::total_cmp);
            medians.push(f64::from(times[times.len() / 2]));
        }
        match first_refusal {
            Some(e) if pruned.len() == self.configs.len() => Err(e),
            _ => Ok((medians, pruned)),
        }
    }

    /// The file name of the choice for `key` with these arguments on this
    /// device.
    fn record_name(&self, device: &Device, key: &str, args: &[Arg]) -> Result<String> {
        let specialization = Specialization::of(args);
        let facts: Vec<String> = specialization
            .facts
            .iter()
            .map(|f| format!("{f:?}"))
            .collect();
        let mut b = KeyBuilder::new("tile-autotune")
            .field("kernel", &self.name)
            .field("key", key)
            .field("device", device.name()?)
            .field("facts", facts.join(","));
        for (config, launcher) in &self.configs {
            let code = launcher
                .source()
                .cache_key(&specialization)
                .map_or_else(|| "-".to_string(), |k| k.hex());
            b = b.field("config", config.to_string()).field("code", code);
        }
        Ok(format!("{}.tune", b.finish().hex()))
    }

    /// The choice stored on disk, if there is a valid one: a record of
    /// this format and version whose choice is one of this autotuner's
    /// configurations under the same name.
    fn read_choice(&self, record: &str) -> Option<usize> {
        let bytes = self.disk.as_ref()?.read_file(record)?;
        let record: TuneRecord = serde_json::from_slice(&bytes).ok()?;
        if record.format != TUNE_FORMAT || record.version != TUNE_VERSION {
            return None;
        }
        let (config, _) = self.configs.get(record.choice)?;
        (config.to_string() == record.config).then_some(record.choice)
    }

    fn write_choice(&self, record: &str, chosen: usize, times_ms: &[f64]) {
        let Some(disk) = &self.disk else { return };
        let text = TuneRecord {
            format: TUNE_FORMAT.to_string(),
            version: TUNE_VERSION,
            choice: chosen,
            config: self.configs[chosen].0.to_string(),
            times_ms: self
                .configs
                .iter()
                .zip(times_ms)
                .map(|((config, _), &ms)| (config.to_string(), ms.is_finite().then_some(ms)))
                .collect(),
        };
        let written = serde_json::to_vec_pretty(&text)
            .map_err(std::io::Error::other)
            .and_then(|bytes| disk.write_atomic(record, &bytes));
        if let Err(e) = written {
            log::warn!(
                target: "tile::autotune",
                "could not store the choice for `{}` in {}: {e}",
                self.name,
                disk.dir().display()
            );
        }
    }
}

/// The name of the autotune records' format.
const TUNE_FORMAT: &str = "tile-tune";

/// The records' version: 1 was line-based text, 2 JSON, 3 JSON with a
/// missing time (`null`) for a pruned configuration.
const TUNE_VERSION: u32 = 3;

/// An autotuner's choice for one kernel, key, device and argument facts,
/// as stored in the disk cache (JSON): the configuration chosen (by index
/// and by name, which must agree for the record to be used) and each
/// configuration's measured time (`None` where it was pruned).
#[derive(serde::Serialize, serde::Deserialize)]
struct TuneRecord {
    format: String,
    version: u32,
    choice: usize,
    config: String,
    times_ms: Vec<(String, Option<f64>)>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn configs_print_and_look_up() {
        let c = Config::new(4).with("BLOCK", 1024).with("ROWS", 2);
        assert_eq!(c.to_string(), "BLOCK=1024 ROWS=2 warps=4");
        assert_eq!(c.get("ROWS"), Some(2));
        assert_eq!(c.get("COLS"), None);
    }
}
