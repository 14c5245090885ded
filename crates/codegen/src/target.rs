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
use tile_passes::nvptx_target;

/// The oldest chip we generate code for: our `dot` lowers to
/// `mma.sync.m16n8k16`, our pipelining to `cp.async`, both sm_80
/// instructions. Chips LLVM lists before it are refused.
const OLDEST_CHIP: &str = "sm_80";

pub use tile_passes::nvptx_target::ptx_version;

/// Checks that we generate code for `chip` (sm_80 or later, as LLVM 22
/// knows it) and that PTX `version` (from [`ptx_version`]) can target it.
pub fn check_chip(chip: &str, version: Option<u32>) -> Result<(), String> {
    let chips: Vec<&str> = nvptx_target::chips().collect();
    let ours = chips.iter().position(|&c| c == OLDEST_CHIP).unwrap_or(0);
    let Some(at) = chips.iter().position(|&c| c == chip) else {
        return Err(format!(
            "chip must be one LLVM 22 knows, from {OLDEST_CHIP} on ({}), got '{chip}'",
            chips[ours..].join(", ")
        ));
    };
    if at >= ours {
        nvptx_target::check_ptx(chip, version)
    } else {
        Err(format!(
            "chip {chip} is older than {OLDEST_CHIP}, the oldest we generate code for (tensor-core \
             mma.sync m16n8k16 and cp.async)"
        ))
    }
}

/// `options` for a GPU whose chip is `chip` (`"sm_90"`, as
/// `Device::chip` gives it): the chip replaced, and the PTX version raised
/// to the chip's minimum when the options ask for an older one (PTX is
/// forward compatible, so the newer version runs wherever the older one
/// would). A chip we do not generate code for is refused as
/// [`validate`] refuses it.
pub fn for_chip(options: &Options, chip: &str) -> Result<Options, String> {
    let features = match (ptx_version(&options.features)?, nvptx_target::min_ptx(chip)) {
        (Some(v), Some(min)) if v < min => format!("+ptx{min}"),
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
    let most = tile_dialect::limits::MAX_NUM_STAGES;
    if !(1..=most).contains(&options.num_stages) {
        return Err(format!(
            "num_stages must be from 1 to {most}, got {}",
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
        // Features that already meet the chip's minimum are kept as the
        // caller wrote them (sm_90 needs PTX 7.8, sm_80 7.0).
        for (chip, features) in [("sm_90", " +ptx78"), ("sm_80", "+ptx70,")] {
            let o = Options {
                features: features.into(),
                ..Options::default()
            };
            assert_eq!(for_chip(&o, chip).unwrap().features, features, "{chip}");
        }
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
