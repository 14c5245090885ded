//! The sm_80 tensor-core and asynchronous-copy instructions: `mma.sync`,
//! `ldmatrix` and `cp.async` with its groups.

use super::Op;

/// The shape of an `mma.sync` (`.mMnNkK`): always 16 x 8 here, with K
/// given by the operand type (16 for f16/bf16, 8 for tf32, 32 for 8-bit
/// integers).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MmaShape {
    /// K: the depth of one product.
    pub k: u32,
}

/// The element type of `mma.sync`'s A and B operands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MmaInput {
    /// `.f16`: two to a 32-bit register.
    F16,
    /// `.bf16`: two to a 32-bit register.
    Bf16,
    /// `.tf32`: one to a register (an f32 whose low 13 mantissa bits are
    /// ignored).
    Tf32,
    /// `.s8`: four to a register.
    S8,
    /// `.u8`: four to a register.
    U8,
}

impl MmaInput {
    /// Elements packed in one 32-bit register.
    pub fn per_register(self) -> u32 {
        match self {
            MmaInput::F16 | MmaInput::Bf16 => 2,
            MmaInput::Tf32 => 1,
            MmaInput::S8 | MmaInput::U8 => 4,
        }
    }

    /// True for the 8-bit integer inputs.
    pub fn is_int(self) -> bool {
        matches!(self, MmaInput::S8 | MmaInput::U8)
    }

    /// The K of `mma.sync.m16n8kK` on sm_80 for this input type.
    pub fn k(self) -> u32 {
        match self {
            MmaInput::F16 | MmaInput::Bf16 => 16,
            MmaInput::Tf32 => 8,
            MmaInput::S8 | MmaInput::U8 => 32,
        }
    }

    pub(super) fn parse(s: &str) -> Option<MmaInput> {
        Some(match s {
            "f16" => MmaInput::F16,
            "bf16" => MmaInput::Bf16,
            "tf32" => MmaInput::Tf32,
            "s8" => MmaInput::S8,
            "u8" => MmaInput::U8,
            _ => return None,
        })
    }
}

/// A decoded `mma.sync.aligned.m16n8kK.row.col.D.A.B.C`: f32 accumulators
/// for float inputs, s32 for 8-bit integers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mma {
    /// The shape.
    pub shape: MmaShape,
    /// A's element type.
    pub a: MmaInput,
    /// B's element type.
    pub b: MmaInput,
    /// `.satfinite` (integer accumulators clamp instead of wrapping).
    pub satfinite: bool,
}

/// Decodes `mma.*`: the shapes and types our lowering emits for sm_80
/// (`m16n8k16` f16/bf16 and `m16n8k8` tf32 into f32, `m16n8k32` s8/u8
/// into s32), `.row.col` only.
pub fn decode_mma(rest: &[&str]) -> Option<Op> {
    let mut parts = rest
        .iter()
        .copied()
        .filter(|p| !matches!(*p, "sync" | "aligned"));
    let shape = parts.next()?;
    if parts.next()? != "row" || parts.next()? != "col" {
        return None;
    }
    let mut satfinite = false;
    let mut types = Vec::new();
    for p in parts {
        if p == "satfinite" {
            satfinite = true;
        } else {
            types.push(p);
        }
    }
    let [d, a, b, c] = types[..] else { return None };
    let (a, b) = (MmaInput::parse(a)?, MmaInput::parse(b)?);
    let acc = if a.is_int() { "s32" } else { "f32" };
    let same_family = a.is_int() == b.is_int() && (a.is_int() || a == b);
    if d != acc || c != acc || !same_family || shape != format!("m16n8k{}", a.k()) {
        return None;
    }
    Some(Op::Mma(Mma {
        shape: MmaShape { k: a.k() },
        a,
        b,
        satfinite,
    }))
}

/// Decodes `ldmatrix.sync.aligned.m8n8.xN{.trans}{.shared}.b16`.
pub fn decode_ldmatrix(rest: &[&str]) -> Option<Op> {
    let mut count = None;
    let mut trans = false;
    let mut shared = false;
    for p in rest {
        match *p {
            "sync" | "aligned" | "m8n8" | "b16" => {}
            "x1" => count = Some(1),
            "x2" => count = Some(2),
            "x4" => count = Some(4),
            "trans" => trans = true,
            "shared" | "shared::cta" => shared = true,
            _ => return None,
        }
    }
    Some(Op::Ldmatrix {
        count: count?,
        trans,
        shared,
    })
}

/// Decodes `cp.async.{ca,cg}.shared{::cta}.global{.L2::...}`,
/// `cp.async.commit_group`, `cp.async.wait_group` and
/// `cp.async.wait_all`.
pub fn decode_cp(rest: &[&str]) -> Option<Op> {
    match rest {
        ["async", "commit_group"] => Some(Op::CpAsyncCommit),
        ["async", "wait_group"] => Some(Op::CpAsyncWait { all: false }),
        ["async", "wait_all"] => Some(Op::CpAsyncWait { all: true }),
        ["async", level, dst, "global", hints @ ..]
            if matches!(*level, "ca" | "cg")
                && matches!(*dst, "shared" | "shared::cta")
                && hints.iter().all(|h| h.starts_with("L2::")) =>
        {
            Some(Op::CpAsync)
        }
        _ => None,
    }
}
