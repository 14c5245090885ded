//! Running a baseline script: `python SCRIPT --warmup W --reps R ARGS...`
//! ([`timing_args`]), its output echoed as it comes (`  | LINE`, its
//! standard error passing straight through) and its protocol lines
//! collected ([`ScriptRun`]).

use super::{Line, LineError, parse_line, read_result};
use crate::timing::Timing;
use serde::de::DeserializeOwned;
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Stdio};

/// What one run of a script gave.
#[derive(Clone, Debug)]
pub struct ScriptRun<R> {
    /// The `result` lines, read as `R`.
    pub results: Vec<R>,
    /// The `info` and `skip` lines, as the report carries them
    /// ([`Line::for_report`]).
    pub info: Vec<String>,
    /// Whether the script exited with status 0.
    pub success: bool,
    /// The command line that ran it.
    pub command: String,
}

impl<R> Default for ScriptRun<R> {
    fn default() -> Self {
        ScriptRun {
            results: Vec::new(),
            info: Vec::new(),
            success: false,
            command: String::new(),
        }
    }
}

impl<R> ScriptRun<R> {
    /// Adds one line of the script's output. A line that cannot be read is
    /// said so and skipped; a line of another protocol version is returned
    /// as the error.
    pub fn read(&mut self, line: &str) -> Result<(), String>
    where
        R: DeserializeOwned,
    {
        match parse_line(line) {
            Ok(Line::Result(fields)) => match read_result(fields) {
                Ok(result) => self.results.push(result),
                Err(e) => println!("  unreadable result: {e}"),
            },
            Ok(line) => self.info.extend(line.for_report()),
            Err(e @ LineError::Version(_)) => return Err(e.to_string()),
            Err(e) => println!("  {e}"),
        }
        Ok(())
    }
}

/// The arguments every script takes first: `--warmup W --reps R`.
pub fn timing_args(timing: Timing) -> Vec<String> {
    vec![
        "--warmup".into(),
        timing.warmup.to_string(),
        "--reps".into(),
        timing.reps.to_string(),
    ]
}

/// `python script args...` as a shell would show it.
pub fn command_line(python: &str, script: &Path, args: &[String]) -> String {
    let mut words = vec![python.to_string(), script.display().to_string()];
    words.extend(args.iter().cloned());
    words.join(" ")
}

/// Runs `python script args...`, echoing its output as it comes, and reads
/// its protocol lines ([`super`]). An error when the script cannot be
/// started, or speaks another protocol version (its output is still
/// echoed to the end).
pub fn run_script<R: DeserializeOwned>(
    python: &str,
    script: &Path,
    args: &[String],
) -> Result<ScriptRun<R>, String> {
    if !script.is_file() {
        return Err(format!("{} not found", script.display()));
    }
    let mut child = Command::new(python)
        .arg(script)
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .map_err(|e| format!("cannot run `{python}`: {e}"))?;
    let mut run = ScriptRun {
        command: command_line(python, script, args),
        ..ScriptRun::default()
    };
    let mut mismatch = None;
    if let Some(stdout) = child.stdout.take() {
        for line in BufReader::new(stdout).lines() {
            let line = line.map_err(|e| format!("reading the script's output: {e}"))?;
            println!("  | {line}");
            if let Err(e) = run.read(&line) {
                mismatch.get_or_insert(e);
            }
        }
    }
    let status = child
        .wait()
        .map_err(|e| format!("waiting for `{python}`: {e}"))?;
    run.success = status.success();
    match mismatch {
        Some(e) => Err(format!("{}: {e}", script.display())),
        None => Ok(run),
    }
}

/// Prints `running COMMAND` and runs the script ([`run_script`]); when it
/// cannot run, a run without results whose one `info` line says why.
pub fn run_or_explain<R: DeserializeOwned>(
    python: &str,
    script: &Path,
    args: &[String],
) -> ScriptRun<R> {
    let command = command_line(python, script, args);
    println!("running {command}");
    run_script(python, script, args).unwrap_or_else(|e| ScriptRun {
        info: vec![e],
        command,
        ..ScriptRun::default()
    })
}

/// The baselines of a benchmark: with `python` (the interpreter and the
/// script), [`run_or_explain`]; without (`--ours-only`), a run whose one
/// `info` line says they were not run, its command `-`.
pub fn run_or_skip<R: DeserializeOwned>(
    python: Option<(&str, &Path)>,
    args: &[String],
) -> ScriptRun<R> {
    match python {
        Some((python, script)) => run_or_explain(python, script, args),
        None => ScriptRun {
            info: vec!["baselines not run (--ours-only)".into()],
            command: "-".into(),
            ..ScriptRun::default()
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, serde::Deserialize, PartialEq)]
    struct Case {
        kernel: String,
        #[serde(default, deserialize_with = "crate::protocol::measurement")]
        torch_ms: Option<f64>,
    }

    /// A stand-in for a script, run by `sh`.
    fn fake(dir: &Path, body: &str) -> std::path::PathBuf {
        let script = dir.join("fake.sh");
        std::fs::write(&script, body).unwrap();
        script
    }

    #[test]
    fn lines_are_collected_by_kind() {
        let mut run = ScriptRun::<Case>::default();
        for line in [
            r#"{"protocol": 1, "kind": "info", "text": "triton=3.6.0"}"#,
            "UserWarning: something",
            r#"{"protocol": 1, "kind": "log", "text": "config a: 1 ms"}"#,
            r#"{"protocol": 1, "kind": "result", "kernel": "softmax", "torch_ms": 0.25}"#,
            r#"{"protocol": 1, "kind": "result", "torch_ms": 0.25}"#,
            r#"{"protocol": 1, "kind": "nonsense"}"#,
            r#"{"protocol": 1, "kind": "skip", "text": "no GPU"}"#,
        ] {
            run.read(line).unwrap();
        }
        assert_eq!(run.info, vec!["INFO triton=3.6.0", "SKIP no GPU"]);
        assert_eq!(
            run.results,
            vec![Case {
                kernel: "softmax".into(),
                torch_ms: Some(0.25)
            }]
        );
        let e = run
            .read(r#"{"protocol": 2, "kind": "info", "text": "x"}"#)
            .unwrap_err();
        assert!(e.contains("protocol version 2"), "{e}");
    }

    #[test]
    fn the_script_is_run_and_its_output_read() {
        let dir = tempfile::tempdir().unwrap();
        let script = fake(
            dir.path(),
            "printf '{\"protocol\": 1, \"kind\": \"info\", \"text\": \"args=%s\"}\\n' \"$*\"\n\
             echo noise\n\
             echo '{\"protocol\": 1, \"kind\": \"result\", \"kernel\": \"softmax\", \"torch_ms\": 0.25}'\n\
             exit 1\n",
        );
        let args = vec!["--reps".to_string(), "3".to_string()];
        let run: ScriptRun<Case> = run_script("sh", &script, &args).unwrap();
        assert!(!run.success);
        assert!(run.command.starts_with("sh ") && run.command.ends_with("fake.sh --reps 3"));
        assert_eq!(run.info, vec!["INFO args=--reps 3".to_string()]);
        assert_eq!(run.results.len(), 1);
        assert_eq!(run.results[0].torch_ms, Some(0.25));
        // No interpreter, or no script: an error saying which.
        let e = run_script::<Case>("/nonexistent/python3", &script, &args).unwrap_err();
        assert!(e.contains("cannot run `/nonexistent/python3`"), "{e}");
        let e = run_script::<Case>("sh", &dir.path().join("missing.py"), &args).unwrap_err();
        assert!(e.contains("missing.py not found"), "{e}");
        let explained: ScriptRun<Case> =
            run_or_explain("sh", &dir.path().join("missing.py"), &args);
        assert!(explained.results.is_empty() && !explained.success);
        assert!(
            explained.info[0].ends_with("missing.py not found"),
            "{:?}",
            explained.info
        );
        assert!(explained.command.ends_with("missing.py --reps 3"));
        let skipped: ScriptRun<Case> = run_or_skip(None, &args);
        assert_eq!(skipped.info, vec!["baselines not run (--ours-only)"]);
        assert_eq!(skipped.command, "-");
    }

    #[test]
    fn another_protocol_version_fails_the_run() {
        let dir = tempfile::tempdir().unwrap();
        let script = fake(
            dir.path(),
            "echo '{\"protocol\": 2, \"kind\": \"info\", \"text\": \"new\"}'\necho after\n",
        );
        let e = run_script::<Case>("sh", &script, &[]).unwrap_err();
        assert!(e.contains("fake.sh: protocol version 2"), "{e}");
        assert!(e.contains("tile-tools reads version 1"), "{e}");
    }
}
