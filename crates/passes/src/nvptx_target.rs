//! What LLVM 22's NVPTX backend accepts as a target: the chips it knows,
//! the oldest PTX ISA version each needs, and the `+ptxNN` features. LLVM
//! ends the whole process ("LLVM ERROR: PTX version 6.0 does not support
//! target 'sm_90'") on a version too old for the chip, so every path that
//! hands a chip and features to LLVM checks them here first: the
//! compiler's options (`tile_codegen::target`) and `tile-opt`'s
//! `nvvm-attach-target` steps.
//!
//! ```
//! use tile_passes::nvptx_target::{check_ptx, min_ptx, ptx_version};
//!
//! assert_eq!(min_ptx("sm_90"), Some(78));
//! assert_eq!(ptx_version("+ptx80"), Ok(Some(80)));
//! assert!(check_ptx("sm_90", Some(60)).unwrap_err().contains("needs PTX 7.8"));
//! assert!(check_ptx("sm_70", Some(60)).is_ok());
//! ```

/// The chips LLVM 22 knows (`llc -march=nvptx64 -mcpu=help`), each with
/// the oldest PTX ISA version (times ten) LLVM accepts for it (for sm_80
/// and later measured with `llc`: the oldest `+ptxNN` that compiles a
/// kernel; for older chips as LLVM's `NVPTX.td` requires them).
const CHIPS: &[(&str, u32)] = &[
    ("sm_20", 32),
    ("sm_21", 32),
    ("sm_30", 32),
    ("sm_32", 40),
    ("sm_35", 32),
    ("sm_37", 41),
    ("sm_50", 40),
    ("sm_52", 41),
    ("sm_53", 42),
    ("sm_60", 50),
    ("sm_61", 50),
    ("sm_62", 50),
    ("sm_70", 60),
    ("sm_72", 61),
    ("sm_75", 63),
    ("sm_80", 70),
    ("sm_86", 71),
    ("sm_87", 74),
    ("sm_88", 90),
    ("sm_89", 78),
    ("sm_90", 78),
    ("sm_90a", 80),
    ("sm_100", 86),
    ("sm_100a", 86),
    ("sm_100f", 88),
    ("sm_101", 86),
    ("sm_101a", 86),
    ("sm_101f", 88),
    ("sm_103", 88),
    ("sm_103a", 88),
    ("sm_103f", 88),
    ("sm_110", 90),
    ("sm_110a", 90),
    ("sm_110f", 90),
    ("sm_120", 87),
    ("sm_120a", 87),
    ("sm_120f", 88),
    ("sm_121", 88),
    ("sm_121a", 88),
    ("sm_121f", 88),
];

/// The PTX ISA versions (times ten) LLVM 22 knows, as `+ptxNN` features.
pub const PTX_VERSIONS: &[u32] = &[
    32, 40, 41, 42, 43, 50, 60, 61, 62, 63, 64, 65, 70, 71, 72, 73, 74, 75, 76, 77, 78, 80, 81, 82,
    83, 84, 85, 86, 87, 88, 90,
];

/// The names of every chip LLVM 22 knows, oldest first.
pub fn chips() -> impl Iterator<Item = &'static str> {
    CHIPS.iter().map(|&(name, _)| name)
}

/// The oldest PTX version (times ten) LLVM accepts for `chip`, or `None`
/// for a chip LLVM does not know.
pub fn min_ptx(chip: &str) -> Option<u32> {
    CHIPS
        .iter()
        .find(|&&(name, _)| name == chip)
        .map(|&(_, v)| v)
}

/// The PTX version `features` asks for (`+ptx80` gives 80), `None` when it
/// names none (LLVM then uses the chip's minimum). Any other feature, a
/// version LLVM does not know or two versions are refused.
pub fn ptx_version(features: &str) -> Result<Option<u32>, String> {
    let mut version = None;
    for feature in features.split(',').map(str::trim).filter(|f| !f.is_empty()) {
        let n = feature
            .strip_prefix("+ptx")
            .and_then(|n| n.parse::<u32>().ok())
            .filter(|n| PTX_VERSIONS.contains(n))
            .ok_or_else(|| {
                format!(
                    "features must be one PTX version like +ptx80 (LLVM 22 knows +ptx{} to \
                     +ptx{}), got '{feature}'",
                    PTX_VERSIONS[0],
                    PTX_VERSIONS[PTX_VERSIONS.len() - 1]
                )
            })?;
        if version.replace(n).is_some() {
            return Err(format!(
                "features name more than one PTX version: '{features}'"
            ));
        }
    }
    Ok(version)
}

/// Checks that PTX `version` can target `chip`, a chip LLVM knows (an
/// unknown chip passes: LLVM only warns about it).
pub fn check_ptx(chip: &str, version: Option<u32>) -> Result<(), String> {
    match (min_ptx(chip), version) {
        (Some(min), Some(v)) if v < min => Err(format!(
            "PTX {}.{} cannot target {chip}: it needs PTX {}.{} or later (+ptx{min}), or no PTX \
             version in features",
            v / 10,
            v % 10,
            min / 10,
            min % 10,
        )),
        _ => Ok(()),
    }
}

/// Checks the chip and features of every `nvvm-attach-target` in a pass
/// pipeline's text (`nvvm-attach-target{chip=sm_90 features=+ptx80}`, or
/// a step's options alone, `chip=sm_90 features=+ptx60`) as LLVM will
/// read them; upstream's default chip is sm_50.
pub fn check_attach_target_options(options: &str) -> Result<(), String> {
    let value = |key: &str| {
        options
            .split(|c: char| c.is_whitespace() || c == '{' || c == '}' || c == ',')
            .find_map(|word| word.strip_prefix(key))
            .map(|v| v.trim_matches(|c| c == '"' || c == '\''))
    };
    let chip = value("chip=").unwrap_or("sm_50");
    // `features=+ptx80,+ptx81` splits at the comma: read features whole.
    let features = options
        .find("features=")
        .map(|at| {
            options[at + "features=".len()..]
                .split(|c: char| c.is_whitespace() || c == '}')
                .next()
                .unwrap_or("")
                .trim_matches(|c| c == '"' || c == '\'')
        })
        .unwrap_or("");
    match ptx_version(features) {
        // Other features are LLVM's to warn about; only the version aborts.
        Err(_) => Ok(()),
        Ok(version) => check_ptx(chip, version),
    }
}

/// Checks every `nvvm-attach-target` step of a pipeline text.
pub fn check_pipeline(pipeline: &str) -> Result<(), String> {
    let mut rest = pipeline;
    while let Some(at) = rest.find("nvvm-attach-target") {
        rest = &rest[at + "nvvm-attach-target".len()..];
        let options = match rest.strip_prefix('{') {
            Some(body) => body.split('}').next().unwrap_or(""),
            None => "",
        };
        check_attach_target_options(options)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn attach_target_steps_llvm_would_abort_on_are_refused() {
        let bad = "builtin.module(nvvm-attach-target{chip=sm_90 features=+ptx60 O=3},cse)";
        assert!(check_pipeline(bad).unwrap_err().contains("needs PTX 7.8"));
        // Upstream's default chip is sm_50, which needs PTX 4.0.
        assert!(check_pipeline("nvvm-attach-target{features=+ptx40}").is_ok());
        assert!(check_pipeline("nvvm-attach-target{features=+ptx32}").is_err());
        assert!(
            check_pipeline("nvvm-attach-target{features=+ptx32 chip=sm_70}")
                .unwrap_err()
                .contains("sm_70")
        );
        assert!(check_pipeline("nvvm-attach-target{chip=sm_90 features=+ptx80}").is_ok());
        assert!(check_pipeline("nvvm-attach-target,cse").is_ok());
        assert!(check_attach_target_options("chip=sm_90a features=+ptx78").is_err());
        assert!(check_attach_target_options("chip=\"sm_90\" features=\"+ptx80\"").is_ok());
        // A chip LLVM does not know only draws its warning.
        assert!(check_attach_target_options("chip=sm_999 features=+ptx32").is_ok());
        // Quoted values are read without their quotes.
        for quoted in [
            "chip=\"sm_70\" features=+ptx32",
            "chip=sm_70 features=\"+ptx32\"",
            "chip='sm_70' features='+ptx32'",
        ] {
            assert!(
                check_attach_target_options(quoted)
                    .unwrap_err()
                    .contains("sm_70")
            );
        }
        // A whole step: the chip ends at the brace or at a comma.
        let step = "nvvm-attach-target{features=+ptx32 chip=sm_70}";
        assert!(
            check_attach_target_options(step)
                .unwrap_err()
                .contains("sm_70")
        );
        let listed = "chip=sm_70,O=3 features=+ptx32";
        assert!(
            check_attach_target_options(listed)
                .unwrap_err()
                .contains("sm_70")
        );
    }
}
