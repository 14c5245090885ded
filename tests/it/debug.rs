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

/// Both kernels compile to PTX that loads without a toolkit: `vprintf`
/// and `__assertfail` are the driver's, and the assertion is in the PTX
/// only in a debug build (whose cache key differs).
#[test]
fn debug_kernels_compile_to_ptx_calling_only_what_the_driver_provides() {
    let context = tile::context().unwrap();
    let print = debug::print_kernel(&context).unwrap();
    let ptx = tile::compile(&print, &tile::Options::default())
        .unwrap()
        .ptx;
    assert_eq!(
        ptx.matches("call.uni (retval0), vprintf").count(),
        5,
        "{ptx}"
    );
    let assert = debug::assert_kernel(&context).unwrap();
    for on in [false, true] {
        let options = tile::Options {
            debug: on,
            ..tile::Options::default()
        };
        let ptx = tile::compile(&assert, &options).unwrap().ptx;
        assert_eq!(
            ptx.contains("call.uni __assertfail"),
            on,
            "debug {on}: {ptx}"
        );
        if on {
            // __assertfail(message, file, line, function, char size): the
            // file's bytes and the line are the device_assert call's.
            let file: Vec<String> = "tools/src/gpu_check/debug.rs"
                .bytes()
                .map(|b| b.to_string())
                .collect();
            assert!(ptx.contains(&file.join(", ")), "{ptx}");
            let line = format!("[param2], {};", debug::assert_line());
            assert!(ptx.contains(&line), "no `{line}` in {ptx}");
        }
    }
}
