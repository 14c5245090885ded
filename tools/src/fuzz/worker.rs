//! The worker of `tile-tools fuzz`: reads inputs (a little-endian u32
//! length, then the text) from stdin until it closes, compiles each to PTX
//! and answers one byte each on stdout.

use super::Outcome;
use std::io::{Read, Write};

/// The answer byte of each outcome the worker can report.
const COMPILED: u8 = 0;
const REFUSED: u8 = 1;
const PANICKED: u8 = 2;

/// The outcome an answer byte reports.
pub fn outcome(byte: u8) -> Outcome {
    match byte {
        COMPILED => Outcome::Compiled,
        REFUSED => Outcome::Refused,
        _ => Outcome::Panicked,
    }
}

/// Serves inputs until stdin closes; returns the exit status.
pub fn serve() -> i32 {
    // Panics are answered, not printed (the parent saves the input).
    std::panic::set_hook(Box::new(|_| {}));
    let Ok(context) = tile::context() else {
        return 2;
    };
    let options = tile::Options {
        dump: None,
        ..tile::Options::default()
    };
    let (mut stdin, mut stdout) = (std::io::stdin().lock(), std::io::stdout().lock());
    loop {
        let mut len = [0u8; 4];
        if stdin.read_exact(&mut len).is_err() {
            return 0;
        }
        let mut bytes = vec![0u8; u32::from_le_bytes(len) as usize];
        if stdin.read_exact(&mut bytes).is_err() {
            return 0;
        }
        let text = String::from_utf8_lossy(&bytes);
        let answer = match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            tile_codegen::compile_text(&context, &text, "fuzz.mlir", &options)
        })) {
            Ok(Ok(_)) => COMPILED,
            Ok(Err(_)) => REFUSED,
            Err(_) => PANICKED,
        };
        if stdout
            .write_all(&[answer])
            .and_then(|()| stdout.flush())
            .is_err()
        {
            return 0;
        }
    }
}
