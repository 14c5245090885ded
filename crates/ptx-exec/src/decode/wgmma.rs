//! The sm_90 warpgroup instructions: `wgmma.mma_async` and its
//! `fence`, `commit_group` and `wait_group`.

use super::{MmaInput, Op};

/// A decoded `wgmma.mma_async.sync.aligned.m64nNkK.D.A.B{.satfinite}`:
/// a warpgroup's 64 x N product of depth K (16 for f16/bf16, 8 for tf32,
/// 32 for 8-bit integers), f32 accumulators for float inputs, s32 for
/// integers. Whether A comes from registers or from shared memory is
/// read from its operand (a vector of registers or a 64-bit descriptor).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Wgmma {
    /// N: a multiple of 8 from 8 to 256.
    pub n: u32,
    /// A's element type.
    pub a: MmaInput,
    /// B's element type.
    pub b: MmaInput,
    /// `.satfinite` (integer accumulators clamp instead of wrapping).
    pub satfinite: bool,
}

/// The warpgroup's synchronisation of its asynchronous products.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WgmmaSync {
    /// `wgmma.fence`: register accesses before it are ordered before the
    /// products after it.
    Fence,
    /// `wgmma.commit_group`: the uncommitted products become a group.
    Commit,
    /// `wgmma.wait_group N`: all but the newest N groups complete.
    Wait,
}

/// Decodes `wgmma.*` (after the head).
pub fn decode_wgmma(rest: &[&str]) -> Option<Op> {
    let aligned = |tail: &[&str]| tail == ["sync", "aligned"];
    match rest {
        ["fence", tail @ ..] if aligned(tail) => Some(Op::WgmmaSync(WgmmaSync::Fence)),
        ["commit_group", tail @ ..] if aligned(tail) => Some(Op::WgmmaSync(WgmmaSync::Commit)),
        ["wait_group", tail @ ..] if aligned(tail) => Some(Op::WgmmaSync(WgmmaSync::Wait)),
        ["mma_async", "sync", "aligned", shape, types @ ..] => mma_async(shape, types),
        _ => None,
    }
}

fn mma_async(shape: &str, types: &[&str]) -> Option<Op> {
    let (satfinite, types) = match types {
        ["satfinite", t @ ..] => (true, t),
        t => (false, t),
    };
    let [d, a, b] = types else { return None };
    let (a, b) = (MmaInput::parse(a)?, MmaInput::parse(b)?);
    let acc = if a.is_int() { "s32" } else { "f32" };
    let same_family = a.is_int() == b.is_int() && (a.is_int() || a == b);
    let n: u32 = shape
        .strip_prefix("m64n")?
        .strip_suffix(&format!("k{}", a.k()))?
        .parse()
        .ok()?;
    let n_ok = n.is_multiple_of(8) && (8..=256).contains(&n);
    (*d == acc && same_family && n_ok && (!satfinite || a.is_int())).then_some(Op::Wgmma(Wgmma {
        n,
        a,
        b,
        satfinite,
    }))
}
