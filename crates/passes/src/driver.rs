//! `tile-opt`: an mlir-opt-style driver for tile IR.
//!
//! ```text
//! tile-opt [INPUT|-] [-o OUTPUT] [--split-input-file] [--mlir-print-debuginfo]
//!          [--dump-ir-after-each] [--dump-ir-dir=DIR] [--PASS[=OPTIONS]]...
//!          [--pass-pipeline=PIPELINE]
//! ```
//!
//! Passes run in command-line order, MLIR's verifier (with the dialect's
//! IRDL constraints) after each. The tile rules run on the parsed input and
//! wherever `--tile-verify` is named. `--PASS` names one of ours (`tile-...`) or
//! any upstream pass (`--canonicalize`, `--cse`, `--convert-scf-to-cf`, ...).
//! Errors print as `file:line:col: error: message`; any failure exits 1.

use crate::{
    TilePass, find_pass, parse_module, register_all, register_upstream_passes, tile_passes,
};
use melior::Context;
use melior::ir::Module;
use melior::pass::PassManager;
use std::io::{Read, Write};
use std::path::PathBuf;
use tile_dialect::diagnostics::DiagnosticCapture;
use tile_dialect::{Diagnostic, Error};

/// The marker between the parts of a `--split-input-file` input.
pub const SPLIT_MARKER: &str = "// -----";

/// One step of the pipeline the command line describes.
enum Step {
    /// One of our passes.
    Tile(&'static TilePass),
    /// An upstream pass with its options, as a pipeline element.
    Upstream { name: String, element: String },
    /// A whole textual pipeline (`--pass-pipeline=`).
    Pipeline(String),
}

impl Step {
    fn name(&self) -> &str {
        match self {
            Step::Tile(p) => p.flag,
            Step::Upstream { name, .. } => name,
            Step::Pipeline(_) => "pass-pipeline",
        }
    }
}

#[derive(Default)]
struct Options {
    input: Option<String>,
    output: Option<String>,
    split: bool,
    debug_info: bool,
    dump_after_each: bool,
    dump_dir: Option<PathBuf>,
    steps: Vec<Step>,
}

const USAGE: &str = "usage: tile-opt [INPUT|-] [-o OUTPUT] [--split-input-file] [--mlir-print-debuginfo]
                [--dump-ir-after-each] [--dump-ir-dir=DIR] [--PASS[=OPTIONS]]... [--pass-pipeline=PIPELINE]";

fn parse_args(args: &[String]) -> Result<Option<Options>, String> {
    let mut o = Options::default();
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let (flag, value) = match arg.split_once('=') {
            Some((f, v)) => (f, Some(v.to_string())),
            None => (arg.as_str(), None),
        };
        match flag {
            "-h" | "--help" => return Ok(None),
            "-o" => o.output = Some(it.next().ok_or("-o needs a file name")?.clone()),
            "--split-input-file" | "-split-input-file" => o.split = true,
            "--mlir-print-debuginfo" | "-mlir-print-debuginfo" => o.debug_info = true,
            "--dump-ir-after-each" => o.dump_after_each = true,
            "--dump-ir-dir" => o.dump_dir = Some(value.ok_or("--dump-ir-dir needs =DIR")?.into()),
            "--pass-pipeline" => o.steps.push(Step::Pipeline(
                value.ok_or("--pass-pipeline needs =PIPELINE")?,
            )),
            "-" => o.input = Some("-".into()),
            f if f.starts_with('-') => {
                let name = f.trim_start_matches('-');
                if name.is_empty() {
                    return Err(format!("unknown option '{arg}'"));
                }
                if let Some(p) = find_pass(name) {
                    if value.is_some() {
                        return Err(format!("pass '{name}' takes no options"));
                    }
                    o.steps.push(Step::Tile(p));
                } else {
                    let element = match value {
                        Some(v) => format!("{name}{{{}}}", v.trim_matches('"')),
                        None => name.to_string(),
                    };
                    o.steps.push(Step::Upstream {
                        name: name.to_string(),
                        element,
                    });
                }
            }
            _ if o.input.is_none() => o.input = Some(arg.clone()),
            _ => {
                return Err(format!(
                    "unexpected argument '{arg}' (one input file at most)"
                ));
            }
        }
    }
    Ok(Some(o))
}

/// Runs `tile-opt` with `args` (without the program name), reading standard
/// input when no file is named. Returns the process exit code.
pub fn run(args: &[String], stdout: &mut dyn Write, stderr: &mut dyn Write) -> i32 {
    match crate::stack::with_compile_stack(|| run_inner(args, stdout, stderr)) {
        Ok(code) => code,
        Err(message) => {
            let _ = writeln!(stderr, "tile-opt: {message}");
            2
        }
    }
}

fn run_inner(
    args: &[String],
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> Result<i32, String> {
    let Some(options) = parse_args(args)? else {
        writeln!(stdout, "{USAGE}\n\nOur passes:").map_err(|e| e.to_string())?;
        for p in tile_passes() {
            writeln!(stdout, "  --{:<24} {}", p.flag, p.summary).map_err(|e| e.to_string())?;
        }
        writeln!(
            stdout,
            "and every upstream MLIR pass (--canonicalize, --cse, ...)."
        )
        .map_err(|e| e.to_string())?;
        return Ok(0);
    };
    let (name, text) = read_input(options.input.as_deref())?;
    let context = Context::new();
    register_all(&context).map_err(|e| e.to_string())?;
    register_upstream_passes();
    // Validate upstream pass names before doing any work.
    for step in &options.steps {
        build_pass_manager(&context, step)?;
    }
    let chunks: Vec<(usize, &str)> = if options.split {
        split_chunks(&text)
    } else {
        vec![(0, text.as_str())]
    };
    let mut outputs = Vec::new();
    let mut failed = false;
    for (index, (line_offset, chunk)) in chunks.iter().enumerate() {
        // Leading newlines keep line numbers those of the whole file.
        let padded = format!("{}{}", "\n".repeat(*line_offset), chunk);
        match process(&context, &options, &padded, &name, index, stderr) {
            Ok(printed) => outputs.push(printed),
            Err(diagnostics) => {
                failed = true;
                for d in diagnostics {
                    let _ = writeln!(stderr, "{d}");
                }
            }
        }
    }
    let joined = outputs.join(&format!("{SPLIT_MARKER}\n"));
    match &options.output {
        Some(path) if path != "-" => {
            std::fs::write(path, joined).map_err(|e| format!("cannot write {path}: {e}"))?
        }
        _ => stdout
            .write_all(joined.as_bytes())
            .map_err(|e| e.to_string())?,
    }
    Ok(if failed { 1 } else { 0 })
}

fn read_input(input: Option<&str>) -> Result<(String, String), String> {
    match input {
        None | Some("-") => {
            let mut text = String::new();
            std::io::stdin()
                .read_to_string(&mut text)
                .map_err(|e| format!("cannot read standard input: {e}"))?;
            Ok(("<stdin>".into(), text))
        }
        Some(path) => {
            let text =
                std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))?;
            Ok((path.to_string(), text))
        }
    }
}

/// Splits at lines that are exactly the split marker; each part comes with
/// the number of lines before it.
fn split_chunks(text: &str) -> Vec<(usize, &str)> {
    let mut chunks = Vec::new();
    let mut start = 0;
    let mut start_line = 0;
    let mut offset = 0;
    for (line_number, line) in text.split_inclusive('\n').enumerate() {
        if line.trim_end() == SPLIT_MARKER {
            chunks.push((start_line, &text[start..offset]));
            start = offset + line.len();
            start_line = line_number + 1;
        }
        offset += line.len();
    }
    chunks.push((start_line, &text[start..]));
    chunks
}

fn build_pass_manager<'c>(context: &'c Context, step: &Step) -> Result<PassManager<'c>, String> {
    let pm = PassManager::new(context);
    pm.enable_verifier(true);
    match step {
        Step::Tile(p) => pm.add_pass((p.create)()),
        Step::Upstream { name, element } => {
            crate::pipeline::add_elements(&pm.as_operation_pass_manager(), element)
                .map_err(|e| format!("unknown or invalid pass '--{name}': {e}"))?
        }
        Step::Pipeline(text) => {
            crate::pipeline::add_pipeline(&pm.as_operation_pass_manager(), text)
                .map_err(|e| format!("invalid pass pipeline '{text}': {e}"))?
        }
    }
    Ok(pm)
}

fn print(module: &Module, debug_info: bool) -> String {
    crate::print_module(module, debug_info)
}

/// Parses, runs every step and prints one input; diagnostics on failure.
fn process(
    context: &Context,
    options: &Options,
    text: &str,
    name: &str,
    index: usize,
    stderr: &mut dyn Write,
) -> Result<String, Vec<Diagnostic>> {
    let mut module = parse_module(context, text, name).map_err(|e| match e {
        Error::Parse { diagnostics } | Error::Invalid { diagnostics, .. } => diagnostics,
        other => vec![Diagnostic {
            severity: "error",
            location: name.into(),
            message: other.to_string(),
        }],
    })?;
    let dump_dir = options.dump_dir.as_ref().map(|d| {
        if options.split {
            d.join(format!("part{index}"))
        } else {
            d.clone()
        }
    });
    let dump = |module: &Module,
                stage: usize,
                step: &str,
                stderr: &mut dyn Write|
     -> Result<(), Vec<Diagnostic>> {
        let text = print(module, options.debug_info);
        if options.dump_after_each {
            let _ = write!(
                stderr,
                "// -----// IR Dump After {step} //----- //\n{text}\n"
            );
        }
        if let Some(dir) = &dump_dir {
            let path = dir.join(format!("{stage:02}-{step}.mlir"));
            std::fs::create_dir_all(dir)
                .and_then(|()| std::fs::write(&path, text))
                .map_err(|e| {
                    vec![Diagnostic {
                        severity: "error",
                        location: path.display().to_string(),
                        message: format!("cannot write IR dump: {e}"),
                    }]
                })?;
        }
        Ok(())
    };
    dump(&module, 0, "input", stderr)?;
    for (i, step) in options.steps.iter().enumerate() {
        let pm = build_pass_manager(context, step).map_err(|m| {
            vec![Diagnostic {
                severity: "error",
                location: name.into(),
                message: m,
            }]
        })?;
        let capture = DiagnosticCapture::new(context);
        let result = pm.run(&mut module);
        let mut diagnostics = capture.finish();
        if result.is_err() {
            diagnostics.push(Diagnostic {
                severity: "error",
                location: name.into(),
                message: format!("pass '{}' failed", step.name()),
            });
            return Err(diagnostics);
        }
        dump(&module, i + 1, step.name(), stderr)?;
    }
    Ok(print(&module, options.debug_info))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_keep_line_offsets() {
        let text = "a\n// -----\nb\nc\n// -----\nd";
        assert_eq!(
            split_chunks(text),
            vec![(0, "a\n"), (2, "b\nc\n"), (5, "d")]
        );
    }

    #[test]
    fn pass_flags_and_options() {
        let args: Vec<String> = [
            "in.mlir",
            "--tile-verify",
            "--canonicalize=max-iterations=2",
            "--cse",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        let o = parse_args(&args).unwrap().unwrap();
        let names: Vec<&str> = o.steps.iter().map(Step::name).collect();
        assert_eq!(names, ["tile-verify", "canonicalize", "cse"]);
        assert!(
            matches!(&o.steps[1], Step::Upstream { element, .. } if element == "canonicalize{max-iterations=2}")
        );
        assert!(parse_args(&["--tile-verify=x".to_string()]).is_err());
    }
}
