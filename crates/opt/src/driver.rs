//! `tile-opt`: an mlir-opt-style driver for tile IR.
//!
//! ```text
//! tile-opt [INPUT|-] [-o OUTPUT] [--split-input-file] [--mlir-print-debuginfo]
//!          [--mlir-print-ir-after-all] [--mlir-print-ir-after=PASS[,PASS...]]
//!          [--dump-ir-dir=DIR] [--PASS[=OPTIONS]]... [--pass-pipeline=PIPELINE]
//! ```
//!
//! Passes run in command-line order, MLIR's verifier (with the dialect's
//! IRDL constraints) after each. The tile rules run on the parsed input and
//! wherever `--tile-verify` is named. `--PASS` names one of ours (`tile-...`) or
//! any upstream pass (`--canonicalize`, `--cse`, `--convert-scf-to-cf`, ...).
//! Errors print as `file:line:col: error: message`; any failure exits 1.
//!
//! The command line is read with `lexopt`: flags are double-dash (`--cse`,
//! not mlir-opt's also-accepted `-cse`), a value follows `=` or comes as
//! the next word (`-o FILE`), and the flags stay in order, which is the
//! pipeline's order; any `--NAME` that is not an option of the driver is
//! a pass.

use lexopt::prelude::*;
use melior::Context;
use melior::ir::Module;
use melior::pass::{PassIrPrintingOptions, PassManager};
use std::io::{Read, Write};
use std::path::PathBuf;
use tile_dialect::diagnostics::DiagnosticCapture;
use tile_dialect::{Diagnostic, Error};
use tile_passes::{
    TilePass, find_pass, parse_module, register_all, register_upstream_passes, tile_passes,
};

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
    /// `--mlir-print-ir-after-all` (or its old name `--dump-ir-after-each`).
    print_after_all: bool,
    /// `--mlir-print-ir-after=`: the passes after which to print.
    print_after: Vec<String>,
    dump_dir: Option<PathBuf>,
    steps: Vec<Step>,
}

impl Options {
    /// Whether the IR is printed to stderr after `step`.
    fn prints_after(&self, step: &str) -> bool {
        self.print_after_all || self.print_after.iter().any(|p| p == step)
    }
}

const USAGE: &str =
    "usage: tile-opt [INPUT|-] [-o OUTPUT] [--split-input-file] [--mlir-print-debuginfo]
                [--mlir-print-ir-after-all] [--mlir-print-ir-after=PASS[,PASS...]]
                [--dump-ir-dir=DIR] [--PASS[=OPTIONS]]... [--pass-pipeline=PIPELINE]

  -o OUTPUT                     write the result to OUTPUT (`-`: standard output)
  --split-input-file            run on each part between `// -----` lines
  --mlir-print-debuginfo        print locations
  --mlir-print-ir-after-all     print the IR to stderr after every pass (inside a
                                --pass-pipeline too), and the input first
  --mlir-print-ir-after=PASSES  print the IR to stderr after the passes named
                                (comma-separated) where they are given as flags
  --dump-ir-dir=DIR             write the input and the IR after each step to DIR
  --pass-pipeline=PIPELINE      run a textual pipeline, e.g. builtin.module(cse)
  --PASS[=OPTIONS]              run a pass: one of ours (below) or upstream";

/// The message of a command-line mistake, for `tile-opt: <message>`.
fn usage_error(e: lexopt::Error) -> String {
    match e {
        lexopt::Error::MissingValue { option: Some(o) } if o == "-o" => {
            "-o needs a file name".to_string()
        }
        lexopt::Error::MissingValue { option: Some(o) } => format!("{o} needs =VALUE"),
        other => other.to_string(),
    }
}

fn parse_args(args: &[String]) -> Result<Option<Options>, String> {
    let mut o = Options::default();
    let mut parser = lexopt::Parser::from_args(args);
    let text = |v: std::ffi::OsString| v.into_string().map_err(|v| format!("not UTF-8: {v:?}"));
    while let Some(arg) = parser.next().map_err(usage_error)? {
        match arg {
            Short('h') | Long("help") => return Ok(None),
            Short('o') => o.output = Some(text(parser.value().map_err(usage_error)?)?),
            Long("split-input-file") => o.split = true,
            Long("mlir-print-debuginfo") => o.debug_info = true,
            Long("mlir-print-ir-after-all" | "dump-ir-after-each") => o.print_after_all = true,
            Long("mlir-print-ir-after") => {
                let passes = text(parser.value().map_err(usage_error)?)?;
                o.print_after
                    .extend(passes.split(',').map(|p| p.trim().to_string()));
            }
            Long("dump-ir-dir") => {
                o.dump_dir = Some(parser.value().map_err(usage_error)?.into());
            }
            Long("pass-pipeline") => o
                .steps
                .push(Step::Pipeline(text(parser.value().map_err(usage_error)?)?)),
            Long(name) => {
                let name = name.to_string();
                let value = parser.optional_value().map(text).transpose()?;
                if let Some(p) = find_pass(&name) {
                    if value.is_some() {
                        return Err(format!("pass '{name}' takes no options"));
                    }
                    o.steps.push(Step::Tile(p));
                } else {
                    let element = match value {
                        Some(v) => format!("{name}{{{}}}", v.trim_matches('"')),
                        None => name.clone(),
                    };
                    o.steps.push(Step::Upstream { name, element });
                }
            }
            Value(v) if o.input.is_none() => o.input = Some(text(v)?),
            Value(v) => {
                return Err(format!(
                    "unexpected argument '{}' (one input file at most)",
                    v.to_string_lossy()
                ));
            }
            Short(c) => return Err(format!("unknown option '-{c}'")),
        }
    }
    Ok(Some(o))
}

/// Runs `tile-opt` with `args` (without the program name), reading standard
/// input when no file is named. Returns the process exit code.
pub fn run(args: &[String], stdout: &mut dyn Write, stderr: &mut dyn Write) -> i32 {
    match tile_passes::stack::with_compile_stack(|| run_inner(args, stdout, stderr)) {
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
    check_print_after(&options)?;
    let (name, text) = read_input(options.input.as_deref())?;
    let context = Context::new();
    register_all(&context).map_err(|e| e.to_string())?;
    register_upstream_passes();
    // Validate upstream pass names before doing any work, and the targets
    // LLVM would abort on (a PTX version too old for the chip).
    for step in &options.steps {
        build_pass_manager(&context, step)?;
        match step {
            Step::Upstream { name, element } if name == "nvvm-attach-target" => {
                tile_passes::nvptx_target::check_pipeline(element)
            }
            Step::Pipeline(text) => tile_passes::nvptx_target::check_pipeline(text),
            _ => Ok(()),
        }
        .map_err(|e| format!("{}: {e}", step.name()))?;
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

/// Refuses an `--mlir-print-ir-after=` name that is not a step of this
/// run (or `input`): it would print nothing, silently.
fn check_print_after(options: &Options) -> Result<(), String> {
    for wanted in &options.print_after {
        if wanted != "input" && !options.steps.iter().any(|s| s.name() == wanted.as_str()) {
            let steps: Vec<&str> = options.steps.iter().map(Step::name).collect();
            return Err(format!(
                "--mlir-print-ir-after={wanted}: no such pass in this run (it runs: input{}{})",
                if steps.is_empty() { "" } else { ", " },
                steps.join(", ")
            ));
        }
    }
    Ok(())
}

/// Reads the input, at most
/// [`MAX_SOURCE_BYTES`](tile_dialect::limits::MAX_SOURCE_BYTES) of it: a
/// longer input (`/dev/zero`, a runaway generator) is an error as soon as
/// the limit is passed, not after memory runs out.
fn read_input(input: Option<&str>) -> Result<(String, String), String> {
    let (name, reader): (String, Box<dyn Read>) = match input {
        None | Some("-") => ("<stdin>".into(), Box::new(std::io::stdin())),
        Some(path) => (
            path.to_string(),
            Box::new(std::fs::File::open(path).map_err(|e| format!("cannot read {path}: {e}"))?),
        ),
    };
    let limit = tile_dialect::limits::MAX_SOURCE_BYTES;
    let mut bytes = Vec::new();
    reader
        .take(limit as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read {name}: {e}"))?;
    if bytes.len() > limit {
        return Err(format!(
            "{name} is longer than {limit} bytes, the most tile-opt reads"
        ));
    }
    let text = String::from_utf8(bytes).map_err(|e| format!("cannot read {name}: {e}"))?;
    Ok((name, text))
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
            tile_passes::pipeline::add_elements(&pm.as_operation_pass_manager(), element)
                .map_err(|e| format!("unknown or invalid pass '--{name}': {e}"))?
        }
        Step::Pipeline(text) => {
            tile_passes::pipeline::add_pipeline(&pm.as_operation_pass_manager(), text)
                .map_err(|e| format!("invalid pass pipeline '{text}': {e}"))?
        }
    }
    Ok(pm)
}

fn print(module: &Module, debug_info: bool) -> String {
    tile_passes::print_module(module, debug_info)
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
        if options.prints_after(step) {
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
        if options.print_after_all && matches!(step, Step::Pipeline(_)) {
            // Each pass inside the pipeline prints through MLIR's own
            // instrumentation, to the process's stderr.
            pm.enable_ir_printing(&PassIrPrintingOptions {
                before_all: false,
                after_all: true,
                module_scope: false,
                on_change: false,
                on_failure: false,
                flags: melior::ir::operation::OperationPrintingFlags::new(),
                tree_printing_path: PathBuf::new(),
            });
        }
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
