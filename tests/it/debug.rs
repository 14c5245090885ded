//! `device_print` and `device_assert` on the CPU interpreter, checked as
//! the GPU check checks them (`tile-tools gpu-check debug`): each case runs
//! in a child process (this test binary, running only `debug_child`), and
//! its output is compared with what the case must print: every element
//! once in the GPU's format; an assertion's message with its file and
//! line, only in a debug build.

use std::process::Command;
use tile::Device;
use tile_tools::gpu_check::debug;

/// Set in a child: the case it runs.
const CHILD_VAR: &str = "TILE_DEBUG_CHILD_CASE";

/// The child's side; does nothing when run as an ordinary test.
#[test]
fn debug_child() {
    if let Ok(case) = std::env::var(CHILD_VAR) {
        debug::child(&Device::interpreter(), &case).unwrap();
    }
}

#[test]
fn prints_and_assertions_reach_the_output_with_the_users_file_and_line() {
    let exe = std::env::current_exe().unwrap();
    let cases = debug::cases(|case| {
        let mut c = Command::new(&exe);
        c.args(["debug::debug_child", "--exact", "--nocapture"])
            .env(CHILD_VAR, case);
        c
    });
    let failed: Vec<String> = cases
        .iter()
        .filter_map(|(case, o)| o.as_ref().err().map(|e| format!("{case}: {e}")))
        .collect();
    assert_eq!(cases.len(), 4);
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}
