//! `device_print` and `device_assert`, checked from the outside: a kernel
//! prints or asserts in a child process, and the parent reads what the
//! child wrote. On the GPU that is `vprintf`'s output and CUDA's assertion
//! message (the context is lost after an assertion fires, so each case
//! needs its own process); on the interpreter (`TILE_INTERPRET=1`, and the
//! test in CI) the same lines come from the interpreter.
//!
//! `tile-tools gpu-check debug` runs the cases; each spawns
//! `tile-tools gpu-check debug-child CASE` and checks its output.

use std::process::Command;
use tile::{Arg, Device, Kernel, Options};
use tile_dialect::DType;

type Outcome = Result<(), String>;

fn err(e: impl std::fmt::Display) -> String {
    e.to_string()
}

/// The programs of the print kernel.
pub const PRINT_PROGRAMS: u32 = 2;
/// Rows and columns of each program's f32 tile.
const ROWS: usize = 4;
const COLS: usize = 8;
/// i8 elements of each program.
const BYTES: usize = 4;
/// The i64 scalar printed.
const WIDE: i64 = -(1 << 40) - 3;

/// The f32 input: element `i` is `i / 4 - 3` (exact in six decimals).
fn floats() -> Vec<f32> {
    (0..PRINT_PROGRAMS as usize * ROWS * COLS)
        .map(|i| i as f32 * 0.25 - 3.0)
        .collect()
}

/// The i8 input, negatives included.
fn bytes() -> Vec<i8> {
    (0..PRINT_PROGRAMS as usize * BYTES)
        .map(|i| (i as i32 * 37 - 100) as i8)
        .collect()
}

/// Prints a 4x8 f32 tile (4 warps: most elements are held by several
/// threads, and must print once), an i8 tile in hex, an i64 argument and
/// the program id as two operands, and a bare message.
pub fn print_kernel(context: &melior::Context) -> Result<Kernel<'_>, tile::IrError> {
    Kernel::build(context, "print_kernel", |k| {
        let (x, b) = (k.arg_ptr("x", DType::F32), k.arg_ptr("b", DType::I8));
        let wide = k.arg("wide", DType::I64);
        let pid = k.program_id(0);
        let rows = k.arange(0, ROWS as i32).expand_dims(1);
        let cols = k.arange(0, COLS as i32).expand_dims(0);
        let offs = pid * (ROWS * COLS) as i32 + rows * COLS as i32 + cols;
        let v = k.load(x + offs).build();
        k.device_print("v", &[v]);
        let bytes = k
            .load(b + (pid * BYTES as i32 + k.arange(0, BYTES as i32)))
            .build();
        k.device_print_hex("b", &[bytes]);
        k.device_print("w", &[wide, pid]);
        k.device_print("hello 100%", &[]);
    })
}

/// The lines the print kernel must print, sorted.
pub fn expected_print_lines() -> Vec<String> {
    let (x, b) = (floats(), bytes());
    let mut lines = Vec::new();
    for p in 0..PRINT_PROGRAMS as usize {
        let head = format!("pid ({p}, 0, 0)");
        for r in 0..ROWS {
            for c in 0..COLS {
                let v = x[p * ROWS * COLS + r * COLS + c];
                lines.push(format!("{head} idx ({r}, {c}) v: {v:.6}"));
            }
        }
        for i in 0..BYTES {
            let v = b[p * BYTES + i] as u8;
            lines.push(format!("{head} idx ({i}) b: 0x{v:x}"));
        }
        lines.push(format!("{head} w (operand 0): {WIDE}"));
        lines.push(format!("{head} w (operand 1): {p}"));
        lines.push(format!("{head} hello 100%"));
    }
    lines.sort();
    lines
}

/// Compares the `pid (..)` lines of `output` with the expected ones.
pub fn check_print_output(output: &str) -> Outcome {
    let mut got: Vec<String> = output
        .lines()
        .filter(|l| l.starts_with("pid ("))
        .map(str::to_string)
        .collect();
    got.sort();
    let want = expected_print_lines();
    if got == want {
        return Ok(());
    }
    let missing: Vec<&String> = want.iter().filter(|l| !got.contains(l)).collect();
    let extra: Vec<&String> = got.iter().filter(|l| !want.contains(l)).collect();
    Err(format!(
        "{} lines printed, {} expected; missing {:?}; unexpected {:?}",
        got.len(),
        want.len(),
        missing.iter().take(4).collect::<Vec<_>>(),
        extra.iter().take(4).collect::<Vec<_>>()
    ))
}

/// The line of the `device_assert` call in [`assert_kernel`], found in
/// this file's text (so it cannot drift from the call).
pub fn assert_line() -> usize {
    include_str!("debug.rs")
        .lines()
        .position(|l| l.trim_start().starts_with("k.device_assert(v.lt(limit)"))
        .expect("assert_kernel calls device_assert")
        + 1
}

/// The assertion's message.
pub const ASSERT_MESSAGE: &str = "x must stay below the limit";

/// Doubles 256 elements after asserting each is below `limit`.
pub fn assert_kernel(context: &melior::Context) -> Result<Kernel<'_>, tile::IrError> {
    Kernel::build(context, "assert_kernel", |k| {
        let x = k.arg_ptr("x", DType::I32);
        let limit = k.arg("limit", DType::I32);
        let offs = k.program_id(0) * 256 + k.arange(0, 256);
        let v = k.load(x + offs).build();
        k.device_assert(v.lt(limit), ASSERT_MESSAGE);
        k.store(x + offs, v * 2).build();
    })
}

/// What an assertion child does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AssertCase {
    /// A debug build whose assertion fails in one element.
    Fires,
    /// A debug build whose assertion holds everywhere.
    Holds,
    /// A release build whose assertion would fail: it is not compiled in.
    Dropped,
}

impl AssertCase {
    /// Every case.
    pub const ALL: [AssertCase; 3] = [AssertCase::Fires, AssertCase::Holds, AssertCase::Dropped];

    /// The case's name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            AssertCase::Fires => "assert-fires",
            AssertCase::Holds => "assert-holds",
            AssertCase::Dropped => "assert-dropped",
        }
    }

    fn debug(self) -> bool {
        self != AssertCase::Dropped
    }

    /// The limit: element 300 (program 1) is 300, the largest is 511.
    fn limit(self) -> i32 {
        match self {
            AssertCase::Holds => 512,
            AssertCase::Fires | AssertCase::Dropped => 300,
        }
    }
}

/// The child's side of the print case: launches the print kernel and
/// waits. Returns what it reports on its last line.
pub fn print_child(device: &Device) -> Result<String, String> {
    let context = tile::context().map_err(err)?;
    let kernel = print_kernel(&context).map_err(err)?;
    let jit = tile::jit(&kernel, Options::default()).map_err(err)?;
    let (x, b) = (
        device.upload(&floats()).map_err(err)?,
        device.upload(&bytes()).map_err(err)?,
    );
    jit.launch(
        device,
        PRINT_PROGRAMS,
        &[(&x).into(), (&b).into(), Arg::I64(WIDE)],
    )
    .map_err(err)?;
    device.synchronize().map_err(err)?;
    Ok("printed".into())
}

/// The child's side of an assertion case: launches the assertion kernel
/// over 512 elements and reports the launch's outcome (`ok` and the
/// results' check, or the error).
pub fn assert_child(device: &Device, case: AssertCase) -> Result<String, String> {
    let context = tile::context().map_err(err)?;
    let kernel = assert_kernel(&context).map_err(err)?;
    let options = Options {
        debug: case.debug(),
        ..Options::default()
    };
    let jit = tile::jit(&kernel, options).map_err(err)?;
    let input: Vec<i32> = (0..512).collect();
    let x = device.upload(&input).map_err(err)?;
    let args = [(&x).into(), Arg::I32(case.limit())];
    let outcome = jit
        .launch(device, 2, &args)
        .and_then(|()| device.synchronize());
    Ok(match outcome {
        Ok(()) => {
            let got = device.download(&x).map_err(err)?;
            let doubled = got.iter().zip(&input).all(|(g, i)| *g == 2 * i);
            format!("ok, doubled: {doubled}")
        }
        Err(e) => format!("error: {e}"),
    })
}

/// Checks an assertion child's output (stdout and stderr together).
pub fn check_assert_output(case: AssertCase, output: &str) -> Outcome {
    let report = output
        .lines()
        .rev()
        .find_map(|l| l.strip_prefix("RESULT: "))
        .ok_or("the child reported no result")?;
    let at = format!("{}:{}", file!(), assert_line());
    match case {
        AssertCase::Fires => {
            if !report.starts_with("error: ") {
                return Err(format!("the assertion did not stop the kernel: {report}"));
            }
            for needle in [ASSERT_MESSAGE, at.as_str()] {
                if !output.contains(needle) {
                    return Err(format!("no `{needle}` in the output: {output}"));
                }
            }
            Ok(())
        }
        AssertCase::Holds | AssertCase::Dropped => {
            if report != "ok, doubled: true" {
                return Err(format!("expected a clean run, got: {report}"));
            }
            if output.contains(ASSERT_MESSAGE) {
                return Err(format!("an assertion message appeared: {output}"));
            }
            Ok(())
        }
    }
}

/// Runs `command` (a child running one case) and returns its stdout and
/// stderr together.
pub fn run_child(mut command: Command) -> Result<String, String> {
    let out = command.output().map_err(err)?;
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    if !out.status.success() {
        return Err(format!("the child failed ({}): {text}", out.status));
    }
    Ok(text)
}

/// The cases `tile-tools gpu-check debug` runs, by name, each checked
/// on the output of `child(name)`.
pub fn cases(child: impl Fn(&str) -> Command) -> Vec<(String, Outcome)> {
    let mut out = vec![(
        "print".to_string(),
        run_child(child("print")).and_then(|o| check_print_output(&o)),
    )];
    for case in AssertCase::ALL {
        let outcome = run_child(child(case.name())).and_then(|o| check_assert_output(case, &o));
        out.push((case.name().to_string(), outcome));
    }
    out
}

/// The child's side of case `name`: runs it and prints `RESULT: ...`.
pub fn child(device: &Device, name: &str) -> Outcome {
    let report = match name {
        "print" => print_child(device),
        _ => match AssertCase::ALL.iter().find(|c| c.name() == name) {
            Some(&case) => assert_child(device, case),
            None => return Err(format!("no debug case `{name}`")),
        },
    };
    match report {
        Ok(r) => println!("RESULT: {r}"),
        Err(e) => println!("RESULT: error: {e}"),
    }
    Ok(())
}
