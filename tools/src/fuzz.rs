//! `tile-tools fuzz`: the compiler under mutated IR, in a process of its
//! own, so that an abort, a signal or a hang is seen and recorded instead
//! of ending the campaign.
//!
//! Seeds are the FileCheck inputs (`filecheck/**/*.mlir`, each part of a
//! `--split-input-file` file on its own). Each input is a seed changed by a
//! few [`mutate`] steps (lines deleted, duplicated or swapped, integers
//! replaced by boundary values, types swapped, text cut short, tokens
//! inserted). A worker process (`tile-tools fuzz --worker`) parses each
//! input as tile IR and compiles it to PTX (`tile_codegen::compile_text`,
//! sm_90), and answers with one byte: compiled, refused with a typed
//! error, or panicked (caught). The parent gives each input a deadline; a
//! worker that dies (an abort, a signal) or misses the deadline is
//! replaced, and the input is written to the output directory
//! (`crash-<n>-<how>.mlir`, `hang-<n>.mlir`) for a regression test.
//!
//! ```text
//! tile-tools fuzz [--programs] [--inputs N] [--seed S] [--corpus DIR] [--out DIR] [--timeout-ms MS]
//! ```
//!
//! With `--programs`, the inputs are instead random programs through the
//! Rust builder, launched on the GPU (checked against the interpreter) or,
//! without one, on the interpreter (its `programs` module). The generator
//! knows which programs are valid: a valid one refused, or an invalid one
//! accepted, is a finding; and every element a program stores is judged
//! against a plain Rust evaluation with a per-element bound (`judge`).
//!
//! The summary counts each outcome; the exit status is 1 when anything
//! crashed, hung or panicked, or (`--programs`) was wrongly refused,
//! wrongly accepted or wrong. What the mutated-IR fuzzer does
//! not check: what a compiled input computes.

mod judge;
mod mutate;
mod programs;
mod worker;

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

pub use mutate::mutate;

/// What became of one input.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// Compiled to PTX.
    Compiled,
    /// Refused with a typed error.
    Refused,
    /// A Rust panic, caught in the worker (a defect: errors are typed).
    Panicked,
    /// The worker died: an abort or a signal (a defect, unless upstream's
    /// parser crashes on the same text).
    Crashed,
    /// No answer before the deadline.
    Hung,
}

/// The command line of `tile-tools fuzz`: the compiler under mutated IR,
/// each input in a worker process (no GPU needed).
#[derive(clap::Args, Clone, Debug, PartialEq, Eq)]
pub struct Cli {
    /// Random programs through the Rust builder instead, on the GPU
    /// (checked against the interpreter) or on the interpreter.
    #[arg(long)]
    pub programs: bool,
    /// How many inputs.
    #[arg(long, value_name = "N", default_value_t = 1000)]
    pub inputs: usize,
    /// The random seed.
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,
    /// The seeds' directory (its `.mlir` files).
    #[arg(long, value_name = "DIR", default_value = "filecheck")]
    pub corpus: PathBuf,
    /// Where crashing and hanging inputs are written.
    #[arg(long, value_name = "DIR", default_value = "fuzz-out")]
    pub out: PathBuf,
    /// Each input's deadline, in milliseconds (at least 1).
    #[arg(long = "timeout-ms", value_name = "MS", default_value = "10000", value_parser = timeout)]
    pub timeout: Duration,
    /// Internal: be a worker process, reading inputs on standard input.
    #[arg(long, hide = true)]
    pub worker: bool,
}

/// Reads a deadline in milliseconds (a value parser of clap).
fn timeout(ms: &str) -> Result<Duration, String> {
    let ms: u64 = ms
        .parse()
        .map_err(|_| format!("want milliseconds, got {ms:?}"))?;
    Ok(Duration::from_millis(ms.max(1)))
}

/// `tile-tools fuzz`: runs the campaign (or, with `--worker`, is the
/// worker); returns the exit status.
pub fn main(cli: &Cli) -> i32 {
    if cli.worker {
        return worker::serve();
    }
    let result = if cli.programs {
        std::fs::create_dir_all(&cli.out)
            .map_err(|e| format!("{}: {e}", cli.out.display()))
            .and_then(|()| programs::campaign(cli.inputs, cli.seed, &cli.out))
    } else {
        campaign(cli)
    };
    match result {
        Ok(bad) => i32::from(bad),
        Err(e) => {
            eprintln!("tile-tools fuzz: {e}");
            2
        }
    }
}

/// The seeds: every part of every `.mlir` file under `dir`.
pub fn seeds(dir: &Path) -> Result<Vec<String>, String> {
    let mut files = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let entries = std::fs::read_dir(&d).map_err(|e| format!("{}: {e}", d.display()))?;
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "mlir") {
                files.push(path);
            }
        }
    }
    files.sort();
    let mut out = Vec::new();
    for f in files {
        let text = std::fs::read_to_string(&f).map_err(|e| format!("{}: {e}", f.display()))?;
        out.extend(
            text.split("// -----")
                .map(str::to_string)
                .filter(|part| part.contains("func.func")),
        );
    }
    if out.is_empty() {
        return Err(format!("no seeds under {}", dir.display()));
    }
    Ok(out)
}

/// A running worker: its stdin, and its answers as they come.
struct Worker {
    child: Child,
    stdin: ChildStdin,
    answers: Receiver<u8>,
}

impl Worker {
    fn spawn() -> Result<Worker, String> {
        let exe = std::env::current_exe().map_err(|e| format!("the fuzzer's own path: {e}"))?;
        let mut child = Command::new(exe)
            .args(["fuzz", "--worker"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("starting a worker: {e}"))?;
        let stdin = child.stdin.take().ok_or("a worker without stdin")?;
        let mut stdout = child.stdout.take().ok_or("a worker without stdout")?;
        let (send, answers) = mpsc::channel();
        std::thread::spawn(move || {
            let mut byte = [0u8];
            while stdout.read_exact(&mut byte).is_ok() {
                if send.send(byte[0]).is_err() {
                    break;
                }
            }
        });
        Ok(Worker {
            child,
            stdin,
            answers,
        })
    }

    /// Sends `input`; the outcome, or how the worker died.
    fn run(&mut self, input: &str, timeout: Duration) -> (Outcome, String) {
        let frame = (input.len() as u32).to_le_bytes();
        let sent = self
            .stdin
            .write_all(&frame)
            .and_then(|()| self.stdin.write_all(input.as_bytes()))
            .and_then(|()| self.stdin.flush());
        if sent.is_err() {
            return (Outcome::Crashed, self.death());
        }
        match self.answers.recv_timeout(timeout) {
            Ok(byte) => (worker::outcome(byte), String::new()),
            Err(RecvTimeoutError::Timeout) => {
                let _ = self.child.kill();
                let _ = self.child.wait();
                (Outcome::Hung, "hung".into())
            }
            Err(RecvTimeoutError::Disconnected) => (Outcome::Crashed, self.death()),
        }
    }

    /// How the worker ended: `signal-N` or `exit-N`.
    fn death(&mut self) -> String {
        use std::os::unix::process::ExitStatusExt;
        match self.child.wait() {
            Ok(status) => match status.signal() {
                Some(sig) => format!("signal-{sig}"),
                None => format!("exit-{}", status.code().unwrap_or(-1)),
            },
            Err(_) => "unknown".into(),
        }
    }
}

/// Runs `cli.inputs` mutated inputs; true when any crashed, hung or
/// panicked.
fn campaign(cli: &Cli) -> Result<bool, String> {
    let seeds = seeds(&cli.corpus)?;
    std::fs::create_dir_all(&cli.out).map_err(|e| format!("{}: {e}", cli.out.display()))?;
    let mut rng = fastrand::Rng::with_seed(cli.seed);
    let mut worker = Worker::spawn()?;
    let mut counts: std::collections::BTreeMap<String, usize> = Default::default();
    let started = Instant::now();
    let mut slowest = Duration::ZERO;
    let mut bad = false;
    for n in 0..cli.inputs {
        let seed = &seeds[rng.usize(..seeds.len())];
        let input = mutate(seed, &mut rng);
        let t = Instant::now();
        let (outcome, how) = worker.run(&input, cli.timeout);
        slowest = slowest.max(t.elapsed());
        *counts.entry(format!("{outcome:?}")).or_default() += 1;
        let saved = match outcome {
            Outcome::Crashed => Some(format!("crash-{n}-{how}.mlir")),
            Outcome::Hung => Some(format!("hang-{n}.mlir")),
            Outcome::Panicked => Some(format!("panic-{n}.mlir")),
            Outcome::Compiled | Outcome::Refused => None,
        };
        if let Some(name) = saved {
            bad = true;
            let path = cli.out.join(&name);
            std::fs::write(&path, &input).map_err(|e| format!("{}: {e}", path.display()))?;
            println!("{outcome:?}: {}", path.display());
            if matches!(outcome, Outcome::Crashed | Outcome::Hung) {
                worker = Worker::spawn()?;
            }
        }
        if (n + 1) % 1000 == 0 {
            println!(
                "{} inputs, {:.0} s: {counts:?}",
                n + 1,
                started.elapsed().as_secs_f64()
            );
        }
    }
    println!(
        "fuzz: {} inputs from {} seeds (seed {}) in {:.1} s, slowest {:.2} s: {counts:?}",
        cli.inputs,
        seeds.len(),
        cli.seed,
        started.elapsed().as_secs_f64(),
        slowest.as_secs_f64()
    );
    Ok(bad)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(args: &str) -> Result<Cli, String> {
        match crate::parse(&format!("fuzz {args}")) {
            Ok(crate::Command::Fuzz(cli)) => Ok(cli),
            Ok(_) => Err("another subcommand".to_string()),
            Err(e) => Err(e.to_string()),
        }
    }

    #[test]
    fn arguments_are_read() {
        let cli = parse("--inputs 5 --seed 9 --timeout-ms 300").unwrap();
        assert_eq!((cli.inputs, cli.seed), (5, 9));
        assert_eq!(cli.timeout, Duration::from_millis(300));
        let defaults = parse("").unwrap();
        assert_eq!((defaults.inputs, defaults.seed), (1000, 1));
        assert_eq!(defaults.timeout, Duration::from_secs(10));
        assert_eq!(defaults.corpus, PathBuf::from("filecheck"));
        assert!(parse("--inputs x").is_err());
        assert!(parse("--nope 1").is_err());
        assert!(parse("--programs --inputs 3").unwrap().programs);
        assert!(parse("--worker").unwrap().worker);
    }
}
