//! Qualifiers shared by many opcodes: state spaces, vector widths, and
//! those that change nothing when threads run one at a time.

use super::Space;

/// The state space a qualifier names.
pub fn space(part: &str) -> Option<Space> {
    match part {
        "global" => Some(Space::Global),
        "shared" | "shared::cta" => Some(Space::Shared),
        "param" => Some(Space::Param),
        _ => None,
    }
}

/// Qualifiers that change nothing here: cache hints, `.volatile`, memory
/// order and scope, `.uni`, `.aligned`, `.sync`.
pub fn ignorable(part: &str) -> bool {
    matches!(
        part,
        "volatile"
            | "relaxed"
            | "acquire"
            | "release"
            | "acq_rel"
            | "weak"
            | "gpu"
            | "cta"
            | "sys"
            | "ca"
            | "cg"
            | "cs"
            | "lu"
            | "cv"
            | "wb"
            | "wt"
            | "nc"
            | "uni"
            | "aligned"
            | "sync"
            | "L1::evict_last"
            | "L1::evict_first"
            | "L1::evict_normal"
            | "L1::no_allocate"
            | "L2::evict_last"
            | "L2::evict_first"
            | "L2::evict_normal"
            | "L2::64B"
            | "L2::128B"
            | "L2::256B"
    )
}

/// The element count of `.v2`/`.v4`.
pub fn vec_width(part: &str) -> Option<u32> {
    match part {
        "v2" => Some(2),
        "v4" => Some(4),
        _ => None,
    }
}
