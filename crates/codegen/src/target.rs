//! The chips and PTX versions we compile for, and the check of
//! [`Options`] that runs before any MLIR or LLVM call: LLVM's NVPTX
//! backend ends the whole process on a PTX version too old for the chip
//! ("LLVM ERROR: PTX version 6.0 does not support target 'sm_90'") and on
//! an instruction the chip lacks (tensor-core `mma` before sm_80), and
//! only warns on a chip or feature it does not know.
//!
//! ```
//! use tile_codegen::{Options, target};
//!
//! assert!(target::validate(&Options::default()).is_ok());
//! let bad = Options { chip: "sm_75".into(), ..Options::default() };
//! assert!(target::validate(&bad).unwrap_err().contains("older than sm_80"));
//! // For a device of another generation: its chip, and the PTX it needs.
//! let b200 = target::for_chip(&Options::default(), "sm_100").unwrap();
//! assert_eq!((b200.chip.as_str(), b200.features.as_str()), ("sm_100", "+ptx86"));
//! ```

use crate::options::Options;

/// A chip LLVM 22's NVPTX backend knows and we generate code for: its name
/// and the oldest PTX ISA version (times ten) LLVM accepts for it.
struct Chip {
    name: &'static str,
    min_ptx: u32,
}

const fn chip(name: &'static str, min_ptx: u32) -> Chip {
    Chip { name, min_ptx }
}

/// sm_80 and later, as LLVM 22 lists them (`llc -march=nvptx64
/// -mcpu=help`), with the PTX minimum LLVM enforces for each (measured:
/// the oldest `+ptxNN` with which `llc` compiles a kernel for the chip).
const CHIPS: &[Chip] = &[
    chip("sm_80", 70),
    chip("sm_86", 71),
    chip("sm_87", 74),
    chip("sm_88", 90),
    chip("sm_89", 78),
    chip("sm_90", 78),
    chip("sm_90a", 80),
    chip("sm_100", 86),
    chip("sm_100a", 86),
    chip("sm_100f", 88),
    chip("sm_101", 86),
    chip("sm_101a", 86),
    chip("sm_101f", 88),
    chip("sm_103", 88),
    chip("sm_103a", 88),
    chip("sm_103f", 88),
    chip("sm_110", 90),
    chip("sm_110a", 90),
    chip("sm_110f", 90),
    chip("sm_120", 87),
    chip("sm_120a", 87),
    chip("sm_120f", 88),
    chip("sm_121", 88),
    chip("sm_121a", 88),
    chip("sm_121f", 88),
];

/// Chips LLVM knows that are older than the oldest we generate code for:
/// our `dot` lowers to `mma.sync.m16n8k16`, our pipelining to `cp.async`,
/// both sm_80 instructions.
const OLDER_CHIPS: &[&str] = &[
    "sm_20", "sm_21", "sm_30", "sm_32", "sm_35", "sm_37", "sm_50", "sm_52", "sm_53", "sm_60",
    "sm_61", "sm_62", "sm_70", "sm_72", "sm_75",
];

/// The PTX ISA versions (times ten) LLVM 22 knows, as `+ptxNN` features.
const PTX_VERSIONS: &[u32] = &[
    32, 40, 41, 42, 43, 50, 60, 61, 62, 63, 64, 65, 70, 71, 72, 73, 74, 75, 76, 77, 78, 80, 81, 82,
    83, 84, 85, 86, 87, 88, 90,
];

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

/// Checks that PTX `version` (from [`ptx_version`]) can target `chip`.
pub fn check_chip(chip: &str, version: Option<u32>) -> Result<(), String> {
    let Some(known) = CHIPS.iter().find(|c| c.name == chip) else {
        if OLDER_CHIPS.contains(&chip) {
            return Err(format!(
                "chip {chip} is older than sm_80, the oldest we generate code for (tensor-core \
                 mma.sync m16n8k16 and cp.async)"
            ));
        }
        return Err(format!(
            "chip must be one LLVM 22 knows, from sm_80 on ({}), got '{chip}'",
            CHIPS.iter().map(|c| c.name).collect::<Vec<_>>().join(", ")
        ));
    };
    match version {
        Some(v) if v < known.min_ptx => Err(format!(
            "PTX {}.{} cannot target {chip}: it needs PTX {}.{} or later (+ptx{}), or no PTX \
             version in features",
            v / 10,
            v % 10,
            known.min_ptx / 10,
            known.min_ptx % 10,
            known.min_ptx
        )),
        _ => Ok(()),
    }
}

/// `options` for a GPU whose chip is `chip` (`"sm_90"`, as
/// `Device::chip` gives it): the chip replaced, and the PTX version raised
/// to the chip's minimum when the options ask for an older one (PTX is
/// forward compatible, so the newer version runs wherever the older one
/// would). A chip we do not generate code for is refused as
/// [`validate`] refuses it.
pub fn for_chip(options: &Options, chip: &str) -> Result<Options, String> {
    let known = CHIPS.iter().find(|c| c.name == chip);
    let features = match (ptx_version(&options.features)?, known) {
        (Some(v), Some(known)) if v < known.min_ptx => format!("+ptx{}", known.min_ptx),
        _ => options.features.clone(),
    };
    let options = Options {
        chip: chip.to_string(),
        features,
        ..options.clone()
    };
    validate(&options)?;
    Ok(options)
}

/// Checks every option before anything is compiled: warps, stages, the
/// optimization level, the chip and the features against it.
pub fn validate(options: &Options) -> Result<(), String> {
    let warps = options.num_warps;
    if warps == 0 || !warps.is_power_of_two() || warps > 32 {
        return Err(format!(
            "num_warps must be a power of two from 1 to 32, got {warps}"
        ));
    }
    if !(1..=8).contains(&options.num_stages) {
        return Err(format!(
            "num_stages must be from 1 to 8, got {}",
            options.num_stages
        ));
    }
    if options.opt_level > 3 {
        return Err(format!(
            "opt_level must be from 0 to 3, got {}",
            options.opt_level
        ));
    }
    check_chip(&options.chip, ptx_version(&options.features)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_follow_the_device_chip() {
        let o = Options::default();
        let a100 = for_chip(&o, "sm_80").unwrap();
        assert_eq!(
            (a100.chip.as_str(), a100.features.as_str()),
            ("sm_80", "+ptx81")
        );
        let b200 = for_chip(&o, "sm_100").unwrap();
        assert_eq!(
            (b200.chip.as_str(), b200.features.as_str()),
            ("sm_100", "+ptx86")
        );
        assert_eq!(b200.num_warps, o.num_warps);
        assert!(
            for_chip(&o, "sm_75")
                .unwrap_err()
                .contains("older than sm_80")
        );
    }

    fn options(chip: &str, features: &str) -> Options {
        Options {
            chip: chip.into(),
            features: features.into(),
            dump: None,
            ..Options::default()
        }
    }

    #[test]
    fn chips_and_ptx_versions_llvm_would_abort_on_are_refused() {
        assert!(validate(&options("sm_90", "+ptx80")).is_ok());
        assert!(validate(&options("sm_90", "")).is_ok());
        assert!(validate(&options("sm_120a", "+ptx87")).is_ok());
        for (chip, features, says) in [
            ("", "+ptx80", "chip must be"),
            ("sm_90 ", "+ptx80", "chip must be"),
            ("sm_999", "", "chip must be"),
            ("sm_90f", "", "chip must be"),
            ("sm_75", "", "older than sm_80"),
            ("sm_90", "+ptx60", "needs PTX 7.8"),
            ("sm_90a", "+ptx78", "needs PTX 8.0"),
            ("sm_90", "+ptx99", "LLVM 22 knows"),
            ("sm_90", "garbage", "LLVM 22 knows"),
            ("sm_90", "+ptx80,+ptx81", "more than one"),
            ("sm_90", "+ptx80}", "LLVM 22 knows"),
        ] {
            let e = validate(&options(chip, features)).unwrap_err();
            assert!(e.contains(says), "{chip} {features}: {e}");
        }
        let mut o = options("sm_90", "");
        o.opt_level = 4;
        assert!(validate(&o).unwrap_err().contains("opt_level"));
        o.opt_level = 3;
        o.num_stages = 0;
        assert!(validate(&o).unwrap_err().contains("num_stages"));
        o.num_stages = 3;
        o.num_warps = 3;
        assert!(validate(&o).unwrap_err().contains("num_warps"));
    }
}
