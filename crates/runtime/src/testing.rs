//! A guard for tests that need a GPU (or the CPU interpreter).

use crate::device::{Device, INTERPRET_VAR};

/// Environment variable that turns a missing GPU into a test failure: set
/// it (to anything but `0` or the empty string) on a machine that must run
/// the GPU tests, so they cannot pass by skipping.
pub const REQUIRE_GPU_VAR: &str = "TILE_REQUIRE_GPU";

/// For tests that need a GPU: device 0, or `None` after printing
/// `skipped: no CUDA device` (with the test's name) to stdout and stderr.
///
/// While [`INTERPRET_VAR`] is on, device 0 is the CPU interpreter: it is
/// returned after printing `interpreted: on the tile CPU interpreter`
/// (with the test's name) the same way.
///
/// `cargo test` captures a passing test's output; run it with
/// `-- --nocapture` to see these lines. If a device is visible but
/// cannot be opened, or [`REQUIRE_GPU_VAR`] is set and there is no device
/// (or device 0 is the interpreter), this panics: the test fails instead
/// of skipping.
///
/// ```
/// # fn main() -> Result<(), tile_runtime::RuntimeError> {
/// let Some(device) = tile_runtime::device_or_skip("upload_round_trip") else {
///     return Ok(());
/// };
/// let buf = device.upload(&[1.0f32, 2.0])?;
/// assert_eq!(device.download(&buf)?, vec![1.0, 2.0]);
/// # Ok(())
/// # }
/// ```
pub fn device_or_skip(test_name: &str) -> Option<Device> {
    if Device::count() == 0 {
        let reason = match Device::new(0) {
            Err(e) => e.to_string(),
            Ok(_) => "the driver reports no device".to_string(),
        };
        if gpu_required() {
            panic!("{test_name}: {REQUIRE_GPU_VAR} is set but there is no CUDA device: {reason}");
        }
        let line = skip_line(test_name);
        println!("{line}");
        eprintln!("{line}");
        return None;
    }
    match Device::new(0) {
        Ok(device) if device.is_interpreter() => {
            if gpu_required() {
                panic!(
                    "{test_name}: {REQUIRE_GPU_VAR} is set but {INTERPRET_VAR} makes device 0 \
                     the CPU interpreter; unset one of them"
                );
            }
            let line = interpreter_line(test_name);
            println!("{line}");
            eprintln!("{line}");
            Some(device)
        }
        Ok(device) => Some(device),
        Err(e) => panic!("{test_name}: a CUDA device is visible but cannot be opened: {e}"),
    }
}

/// The line printed for a skipped test.
fn skip_line(test_name: &str) -> String {
    format!("skipped: no CUDA device ({test_name})")
}

/// The line printed for a test run on the interpreter.
fn interpreter_line(test_name: &str) -> String {
    format!("interpreted: on the tile CPU interpreter, {INTERPRET_VAR} is on ({test_name})")
}

/// Held by the crate's tests that read [`INTERPRET_VAR`] (through
/// [`Device::new`], [`Device::count`] or [`device_or_skip`]) or set it, so
/// that a test that sets it does not change it under another.
#[cfg(test)]
pub(crate) fn env_lock() -> std::sync::MutexGuard<'static, ()> {
    static LOCK: std::sync::Mutex<()> = std::sync::Mutex::new(());
    LOCK.lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

fn gpu_required() -> bool {
    std::env::var(REQUIRE_GPU_VAR).is_ok_and(|v| !v.is_empty() && v != "0")
}

/// `len` deterministic, varied f32 values for a test input (`seed` picks
/// the sequence): multiples of 1/8 in [-64, 64), exactly representable, so
/// sums of two are exact too. Programs that compare results across
/// processes (the JIT against ahead-of-time code) make the same inputs
/// with it.
pub fn pattern_f32(len: usize, seed: u32) -> Vec<f32> {
    let mut state = u64::from(seed).wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    (0..len)
        .map(|_| {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            ((state >> 54) as i32 - 512) as f32 / 8.0
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn patterns_are_deterministic_exact_and_varied() {
        let a = pattern_f32(1000, 1);
        assert_eq!(a, pattern_f32(1000, 1));
        assert_ne!(a, pattern_f32(1000, 2));
        assert!(
            a.iter()
                .all(|v| (-64.0..64.0).contains(v) && (v * 8.0).fract() == 0.0)
        );
        let distinct: std::collections::BTreeSet<i32> =
            a.iter().map(|v| (v * 8.0) as i32).collect();
        assert!(distinct.len() > 500, "{}", distinct.len());
    }

    #[test]
    fn skip_and_interpreter_lines_name_the_test() {
        assert_eq!(
            skip_line("round_trip"),
            "skipped: no CUDA device (round_trip)"
        );
        assert_eq!(
            interpreter_line("round_trip"),
            "interpreted: on the tile CPU interpreter, TILE_INTERPRET is on (round_trip)"
        );
    }

    /// Without a driver (CI) the guard skips; with one it hands out device 0;
    /// with the interpreter on, the interpreter.
    #[test]
    fn device_or_skip_matches_device_count() {
        let _env = env_lock();
        let got = device_or_skip("device_or_skip_matches_device_count");
        assert_eq!(got.is_some(), Device::count() > 0);
        if let Some(device) = got {
            assert_eq!(
                device.is_interpreter(),
                crate::device::interpret_requested()
            );
        }
    }
}
