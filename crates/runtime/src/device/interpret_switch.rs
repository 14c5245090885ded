//! The environment switch that makes device 0 the CPU interpreter.

/// Environment variable that makes [`Device::new`](crate::Device::new)`(0)`
/// the CPU interpreter and [`Device::count`](crate::Device::count) 1,
/// whatever GPUs there are: set it to `1` (or `true`, `yes`, `on`, in any
/// case) to run kernels on the host. Unset, empty, `0`, `false`, `no` or
/// `off` leave it off; any other value is ignored with a warning. Read
/// afresh by every call.
pub const INTERPRET_VAR: &str = "TILE_INTERPRET";

/// Whether [`INTERPRET_VAR`] asks for the interpreter now.
pub(crate) fn interpret_requested() -> bool {
    let Some(value) = std::env::var_os(INTERPRET_VAR) else {
        return false;
    };
    let text = value.to_string_lossy();
    switch_value(&text).unwrap_or_else(|| {
        log::warn!(
            target: "tile::runtime",
            "{INTERPRET_VAR}={text:?} is neither on (1, true, yes, on) nor off (0, false, no, \
             off, empty): the interpreter stays off"
        );
        false
    })
}

/// The value of an on/off environment variable, or `None` when it is
/// neither.
fn switch_value(text: &str) -> Option<bool> {
    match text.trim().to_ascii_lowercase().as_str() {
        "1" | "true" | "yes" | "on" => Some(true),
        "" | "0" | "false" | "no" | "off" => Some(false),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn on_off_values() {
        for on in ["1", "true", "TRUE", "Yes", "on", " 1 "] {
            assert_eq!(switch_value(on), Some(true), "{on:?}");
        }
        for off in ["", "0", "false", "False", "no", "OFF"] {
            assert_eq!(switch_value(off), Some(false), "{off:?}");
        }
        for neither in ["2", "interpret", "y"] {
            assert_eq!(switch_value(neither), None, "{neither:?}");
        }
    }
}
