//! What the Python baselines (`bench/triton_*.py`) tell `tile-tools`: one
//! JSON object a line on their standard output, each with the protocol's
//! version, written by `bench/protocol.py` and read here, by
//! [`parse_line`], for every benchmark ([`script::run_script`] runs a
//! script and collects its lines).
//!
//! ```text
//! {"protocol": 1, "kind": "info", "text": "triton=3.6.0 torch=2.11.0 device=NVIDIA_H100"}
//! {"protocol": 1, "kind": "result", "kernel": "row_sum", "size": "65536x1024", "triton_ms": 0.0981, "torch_ms": 0.103, "max_err": 1.2e-07, "ok": true}
//! ```
//!
//! Kinds: `info` (versions, the device, a case that failed: written into
//! the report as `INFO text`), `skip` (why the script cannot run: into the
//! report as `SKIP text`), `log` (progress, shown only), `error` (a
//! failure's message, shown only) and `result` (one case: the fields each
//! script documents, read by the benchmark's own type). A value that could
//! not be measured is `null`; a non-finite measurement is the string
//! `"nan"`, `"inf"` or `"-inf"` ([`measurement`]). Anything else a script
//! prints (Triton's warnings, tracebacks) is not protocol: it is shown as
//! it came ([`Line::Other`]). A line of another protocol version is an
//! error ([`LineError::Version`]): the scripts and `tile-tools` come from
//! one commit.

pub mod script;

pub use script::{ScriptRun, run_or_explain, run_or_skip, run_script};

use serde::{Deserialize, Deserializer, de::Error as _};
use serde_json::{Map, Value};

/// The version of the protocol read here (`VERSION` in
/// `bench/protocol.py`).
pub const VERSION: u64 = 1;

/// One line of a script's output.
#[derive(Clone, Debug, PartialEq)]
pub enum Line {
    /// `result`: one case's fields, for the benchmark's type to read.
    Result(Map<String, Value>),
    /// `info`: for the report.
    Info(String),
    /// `skip`: why the script did not run, for the report.
    Skip(String),
    /// `log`: progress, shown only.
    Log(String),
    /// `error`: a failure's message, shown only.
    Error(String),
    /// Not a protocol line (warnings, tracebacks, a JSON object without a
    /// `protocol` field).
    Other(String),
}

impl Line {
    /// The line's text as the report carries it: `INFO text` or
    /// `SKIP text`; `None` for the other kinds.
    pub fn for_report(&self) -> Option<String> {
        match self {
            Line::Info(text) => Some(format!("INFO {text}")),
            Line::Skip(text) => Some(format!("SKIP {text}")),
            _ => None,
        }
    }
}

/// Why a protocol line cannot be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LineError {
    /// The line is of another protocol version.
    Version(String),
    /// A protocol line without a known kind, or without its text.
    Malformed(String),
}

impl std::fmt::Display for LineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LineError::Version(found) => write!(
                f,
                "protocol version {found}, but tile-tools reads version {VERSION} \
                 (run the bench/ scripts of the same commit as tile-tools)"
            ),
            LineError::Malformed(why) => write!(f, "malformed protocol line: {why}"),
        }
    }
}

/// Reads one line of a script's output: a protocol line (a JSON object
/// with a `protocol` field) of this [`VERSION`], or [`Line::Other`].
pub fn parse_line(line: &str) -> Result<Line, LineError> {
    let other = || Ok(Line::Other(line.to_string()));
    let Ok(Value::Object(mut object)) = serde_json::from_str::<Value>(line.trim()) else {
        return other();
    };
    let Some(version) = object.remove("protocol") else {
        return other();
    };
    if version.as_u64() != Some(VERSION) {
        return Err(LineError::Version(version.to_string()));
    }
    let kind = match object.remove("kind") {
        Some(Value::String(kind)) => kind,
        Some(other) => return Err(LineError::Malformed(format!("kind {other}"))),
        None => return Err(LineError::Malformed("no kind".into())),
    };
    if kind == "result" {
        return Ok(Line::Result(object));
    }
    let text = match object.remove("text") {
        Some(Value::String(text)) => text,
        _ => return Err(LineError::Malformed(format!("{kind} without its text"))),
    };
    match kind.as_str() {
        "info" => Ok(Line::Info(text)),
        "skip" => Ok(Line::Skip(text)),
        "log" => Ok(Line::Log(text)),
        "error" => Ok(Line::Error(text)),
        _ => Err(LineError::Malformed(format!("unknown kind {kind:?}"))),
    }
}

/// Reads a measurement (serde's `deserialize_with`, beside
/// `#[serde(default)]`): a number, `null` (not measured: `None`), or the
/// string `"nan"`, `"inf"` or `"-inf"` (JSON has no non-finite numbers).
pub fn measurement<'de, D: Deserializer<'de>>(d: D) -> Result<Option<f64>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Raw {
        Number(f64),
        Text(String),
    }
    match Option::<Raw>::deserialize(d)? {
        None => Ok(None),
        Some(Raw::Number(x)) => Ok(Some(x)),
        Some(Raw::Text(text)) => match text.as_str() {
            "nan" => Ok(Some(f64::NAN)),
            "inf" => Ok(Some(f64::INFINITY)),
            "-inf" => Ok(Some(f64::NEG_INFINITY)),
            _ => Err(D::Error::custom(format!("{text:?} is not a measurement"))),
        },
    }
}

/// Reads a text that may be unknown (serde's `deserialize_with`): `null`
/// is `-`, as the tables show it.
pub fn text_or_dash<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    Ok(Option::<String>::deserialize(d)?.unwrap_or_else(|| "-".into()))
}

/// Reads a result's fields as `R`.
pub fn read_result<R: serde::de::DeserializeOwned>(
    fields: Map<String, Value>,
) -> Result<R, String> {
    serde_json::from_value(Value::Object(fields)).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A result as the benchmarks read them.
    #[derive(Debug, Deserialize, PartialEq)]
    struct Measured {
        kernel: String,
        #[serde(default, deserialize_with = "measurement")]
        triton_ms: Option<f64>,
        #[serde(default, deserialize_with = "measurement")]
        max_err: Option<f64>,
        #[serde(default)]
        ok: bool,
        #[serde(default, deserialize_with = "text_or_dash")]
        config: String,
    }

    fn result(line: &str) -> Result<Measured, String> {
        match parse_line(line) {
            Ok(Line::Result(fields)) => read_result(fields),
            other => Err(format!("not a result: {other:?}")),
        }
    }

    #[test]
    fn kinds_are_read() {
        let line = r#"{"protocol": 1, "kind": "info", "text": "triton=3.6.0"}"#;
        assert_eq!(parse_line(line), Ok(Line::Info("triton=3.6.0".into())));
        assert_eq!(
            parse_line(line).unwrap().for_report().as_deref(),
            Some("INFO triton=3.6.0")
        );
        let skip = parse_line(r#"{"protocol":1,"kind":"skip","text":"no torch"}"#).unwrap();
        assert_eq!(skip.for_report().as_deref(), Some("SKIP no torch"));
        let log = parse_line(r#"{"protocol":1,"kind":"log","text":"a: 1 ms"}"#).unwrap();
        assert_eq!(
            (log.clone(), log.for_report()),
            (Line::Log("a: 1 ms".into()), None)
        );
        let error = parse_line(r#"{"protocol":1,"kind":"error","text":"x"}"#).unwrap();
        assert_eq!(error, Line::Error("x".into()));
    }

    #[test]
    fn results_read_measurements_dashes_and_defaults() {
        let r = result(
            r#"{"protocol": 1, "kind": "result", "kernel": "row_sum", "triton_ms": 0.0981, "max_err": 1.5e-07, "ok": true, "config": "64x64/w4/s3", "extra": [1]}"#,
        )
        .unwrap();
        assert_eq!(
            r,
            Measured {
                kernel: "row_sum".into(),
                triton_ms: Some(0.0981),
                max_err: Some(1.5e-7),
                ok: true,
                config: "64x64/w4/s3".into(),
            }
        );
        let r = result(r#"{"protocol":1,"kind":"result","kernel":"k","triton_ms":null,"max_err":"nan","config":null}"#)
            .unwrap();
        assert_eq!((r.triton_ms, r.ok, r.config.as_str()), (None, false, "-"));
        assert!(r.max_err.unwrap().is_nan());
        let r = result(r#"{"protocol":1,"kind":"result","kernel":"k","max_err":"-inf"}"#).unwrap();
        assert_eq!(
            (r.max_err, r.config.as_str()),
            (Some(f64::NEG_INFINITY), "")
        );
    }

    #[test]
    fn malformed_lines_are_errors_and_other_lines_are_kept() {
        // Not protocol: kept as they are.
        for text in [
            "",
            "Traceback (most recent call last):",
            "{'a': 1}",
            r#"{"kind": "info", "text": "no version"}"#,
            "[1, 2]",
            r#"{"protocol": 1, "kind": "info""#,
        ] {
            assert_eq!(parse_line(text), Ok(Line::Other(text.into())), "{text}");
        }
        // Protocol lines that cannot be read.
        for text in [
            r#"{"protocol": 1}"#,
            r#"{"protocol": 1, "kind": 7}"#,
            r#"{"protocol": 1, "kind": "info"}"#,
            r#"{"protocol": 1, "kind": "info", "text": 3}"#,
            r#"{"protocol": 1, "kind": "verdict", "text": "x"}"#,
        ] {
            assert!(
                matches!(parse_line(text), Err(LineError::Malformed(_))),
                "{text}"
            );
        }
        // Fields of the wrong type fail the result's type.
        assert!(
            result(r#"{"protocol":1,"kind":"result","kernel":"k","triton_ms":"fast"}"#)
                .unwrap_err()
                .contains("\"fast\" is not a measurement")
        );
        assert!(result(r#"{"protocol":1,"kind":"result","triton_ms":1}"#).is_err());
        assert!(result(r#"{"protocol":1,"kind":"result","kernel":"k","ok":"yes"}"#).is_err());
    }

    #[test]
    fn another_version_is_a_clear_error() {
        for text in [
            r#"{"protocol": 2, "kind": "info", "text": "x"}"#,
            r#"{"protocol": "1", "kind": "info", "text": "x"}"#,
            r#"{"protocol": 0.5, "kind": "result"}"#,
        ] {
            let e = parse_line(text).unwrap_err();
            assert!(matches!(e, LineError::Version(_)), "{text}");
            assert!(e.to_string().contains("tile-tools reads version 1"), "{e}");
        }
    }

    /// `fixture.jsonl` is what `python3 bench/protocol.py` prints (its
    /// self-test: one line of each kind); the Python side's lines read
    /// here as it meant them.
    #[test]
    fn the_python_helpers_lines_are_read() {
        let lines: Vec<Line> = include_str!("protocol/fixture.jsonl")
            .lines()
            .map(|l| parse_line(l).unwrap())
            .collect();
        assert_eq!(
            lines[0],
            Line::Info("triton=3.6.0 torch=2.11.0 device=NVIDIA_H100".into())
        );
        assert_eq!(
            lines[1],
            Line::Skip("cannot import torch and triton: no module".into())
        );
        assert_eq!(
            lines[2],
            Line::Log("pointers f16 64x64x64 64x64x32/w4/s3: 0.0100 ms".into())
        );
        assert_eq!(
            lines[3],
            Line::Error("row_sum 8x8 triton: RuntimeError: boom".into())
        );
        let Line::Result(fields) = lines[4].clone() else {
            panic!("{:?}", lines[4]);
        };
        let r: Measured = read_result(fields).unwrap();
        assert_eq!(r.kernel, "row_sum");
        assert_eq!(r.triton_ms, Some(0.0981));
        assert_eq!(r.max_err, Some(1.235e-7));
        assert!(r.ok);
        assert_eq!(r.config, "-");
        let Line::Result(fields) = lines[5].clone() else {
            panic!("{:?}", lines[5]);
        };
        let r: Measured = read_result(fields).unwrap();
        assert_eq!((r.triton_ms, r.ok), (None, false));
        assert!(r.max_err.unwrap().is_infinite());
        assert_eq!(lines.len(), 6);
    }

    /// Where Python is installed, the helper prints the fixture exactly.
    #[test]
    fn the_fixture_is_what_the_python_helper_prints() {
        let script = concat!(env!("CARGO_MANIFEST_DIR"), "/../bench/protocol.py");
        let Ok(out) = std::process::Command::new("python3").arg(script).output() else {
            println!("skipped: no python3");
            return;
        };
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(
            String::from_utf8_lossy(&out.stdout),
            include_str!("protocol/fixture.jsonl")
        );
    }
}
