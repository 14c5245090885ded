//! Opcodes decoded once, when the module is read: the operation, its
//! types and the qualifiers that change its result. Qualifiers that do
//! not change a single-threaded result (cache hints, `.volatile`, memory
//! order and scope on a CPU that runs one thread at a time, `.uni`,
//! `.aligned`) are accepted and dropped. Anything else is refused:
//! [`decode`] returns `None` and the reader reports the opcode as
//! unsupported.

mod cvt;
mod qualifiers;
mod tensor;
mod ty;
mod wgmma;

use qualifiers::{ignorable, space, vec_width};
pub use tensor::{Mma, MmaInput, MmaShape};
pub use ty::{Kind, Ty};
pub use wgmma::{Wgmma, WgmmaSync};

/// A state space.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Space {
    /// `.global`.
    Global,
    /// `.shared` (`.shared::cta`).
    Shared,
    /// `.param`.
    Param,
    /// No state space: a generic address.
    Generic,
}

/// Two-operand operations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Binary {
    /// `add`.
    Add,
    /// `sub`.
    Sub,
    /// `mul` on floats, `mul.lo` on integers.
    MulLo,
    /// `mul.hi`.
    MulHi,
    /// `mul.wide`: the destination is twice as wide.
    MulWide,
    /// `div`.
    Div,
    /// `rem`.
    Rem,
    /// `min`.
    Min,
    /// `max`.
    Max,
    /// `and`.
    And,
    /// `or`.
    Or,
    /// `xor`.
    Xor,
    /// `shl`.
    Shl,
    /// `shr`.
    Shr,
    /// `copysign` (magnitude of the second operand, sign of the first).
    Copysign,
}

/// One-operand operations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unary {
    /// `neg`.
    Neg,
    /// `abs`.
    Abs,
    /// `not`.
    Not,
    /// `rcp` (`.rn` exact or `.approx`).
    Rcp,
    /// `sqrt`.
    Sqrt,
    /// `rsqrt.approx`.
    Rsqrt,
    /// `ex2.approx`.
    Ex2,
    /// `lg2.approx`.
    Lg2,
    /// `tanh.approx`.
    Tanh,
    /// `sin.approx`.
    Sin,
    /// `cos.approx`.
    Cos,
}

/// A `setp` comparison.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cmp {
    /// A relation. For floats, `unordered` says what it gives when either
    /// operand is NaN: false for `eq`, `lt`, ... and true for `equ`,
    /// `ltu`, ...; integers have no NaN.
    Rel {
        /// The relation.
        rel: Rel,
        /// True for the unordered forms (`equ`, `neu`, `ltu`, ...).
        unordered: bool,
    },
    /// Neither operand is NaN.
    Num,
    /// Either operand is NaN.
    Nan,
}

/// The relation of a `setp` (`lo`/`ls`/`hi`/`hs` are the unsigned
/// spellings of `lt`/`le`/`gt`/`ge`; the type says how to compare).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rel {
    /// Equal.
    Eq,
    /// Not equal.
    Ne,
    /// Less than.
    Lt,
    /// At most.
    Le,
    /// Greater.
    Gt,
    /// At least.
    Ge,
}

impl Rel {
    /// Whether `x rel y`.
    pub fn holds<T: PartialOrd>(self, x: T, y: T) -> bool {
        match self {
            Rel::Eq => x == y,
            Rel::Ne => x != y,
            Rel::Lt => x < y,
            Rel::Le => x <= y,
            Rel::Gt => x > y,
            Rel::Ge => x >= y,
        }
    }
}

/// A `setp` relation, ordered or not.
fn rel(rel: Rel, unordered: bool) -> Cmp {
    Cmp::Rel { rel, unordered }
}

/// How `setp` combines its result with a predicate operand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BoolOp {
    /// `.and`.
    And,
    /// `.or`.
    Or,
    /// `.xor`.
    Xor,
}

/// A float rounding mode.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Round {
    /// To nearest even.
    Nearest,
    /// Towards zero.
    Zero,
    /// Towards minus infinity.
    Down,
    /// Towards plus infinity.
    Up,
}

/// The `shfl.sync` modes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shfl {
    /// `up`.
    Up,
    /// `down`.
    Down,
    /// `bfly`.
    Bfly,
    /// `idx`.
    Idx,
}

/// Atomic operations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Atomic {
    /// `add`.
    Add,
    /// `min`.
    Min,
    /// `max`.
    Max,
    /// `and`.
    And,
    /// `or`.
    Or,
    /// `xor`.
    Xor,
    /// `exch`.
    Exch,
    /// `cas`.
    Cas,
    /// `inc`.
    Inc,
    /// `dec`.
    Dec,
}

/// A decoded operation.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Op {
    /// `mov`.
    Mov(Ty),
    /// `ld`: `vec` elements of `ty`.
    Ld {
        /// Where.
        space: Space,
        /// Element type.
        ty: Ty,
        /// Elements (1, 2 or 4).
        vec: u32,
    },
    /// `st`.
    St {
        /// Where.
        space: Space,
        /// Element type.
        ty: Ty,
        /// Elements (1, 2 or 4).
        vec: u32,
    },
    /// A two-operand operation; `nan`: `.NaN` (min/max propagate NaN).
    Binary {
        /// Which.
        op: Binary,
        /// Operand type (of each half, for a packed pair).
        ty: Ty,
        /// Subnormals flushed to zero.
        ftz: bool,
        /// `min.NaN` / `max.NaN`.
        nan: bool,
        /// `.f16x2`/`.bf16x2`/`.s16x2`/`.u16x2`: the operation on each
        /// 16-bit half.
        packed: bool,
    },
    /// `mad.lo`, `mad.hi` (`wide` false) or `mad.wide`.
    Mad {
        /// Operand type.
        ty: Ty,
        /// `.hi`.
        hi: bool,
        /// `.wide`.
        wide: bool,
    },
    /// `fma.rn`.
    Fma(Ty),
    /// A one-operand operation; `approx` for `.approx`.
    Unary {
        /// Which.
        op: Unary,
        /// Operand type.
        ty: Ty,
        /// Subnormals flushed to zero.
        ftz: bool,
    },
    /// `setp.cmp.ty` with an optional combining predicate.
    Setp {
        /// The comparison.
        cmp: Cmp,
        /// Operand type (of each half, for a packed pair).
        ty: Ty,
        /// `.and`/`.or`/`.xor` with a third predicate operand.
        combine: Option<BoolOp>,
        /// `.f16x2`/`.bf16x2`: `p|q` get the low and the high halves'
        /// comparisons.
        packed: bool,
    },
    /// `selp`.
    Selp(Ty),
    /// `cvt`.
    Cvt {
        /// Destination type.
        dst: Ty,
        /// Source type.
        src: Ty,
        /// Rounding mode (`None`: exact or the type's default).
        round: Option<Round>,
        /// Rounding to an integral value (`.rni`, ...).
        integral: bool,
        /// `.sat`.
        sat: bool,
        /// `.ftz`.
        ftz: bool,
    },
    /// `bfe` (bit field extract).
    Bfe(Ty),
    /// `bfi` (bit field insert).
    Bfi(Ty),
    /// `prmt.b32` in its default mode: four bytes picked from two
    /// registers by the selector's nibbles.
    Prmt,
    /// `cvta` (`to`: to the space from generic).
    Cvta {
        /// `.to`.
        to: bool,
        /// The space.
        space: Space,
    },
    /// `bra`.
    Bra,
    /// `ret` or `exit`.
    Exit,
    /// `bar.sync` / `barrier.sync`.
    Barrier,
    /// `shfl.sync`.
    Shfl(Shfl),
    /// `atom` (`red`: no result).
    Atom {
        /// Where.
        space: Space,
        /// Which.
        op: Atomic,
        /// Operand type.
        ty: Ty,
        /// `red` (no destination).
        red: bool,
        /// Elements (1; 2 or 4 for `.v2`/`.v4` float `add`).
        vec: u32,
    },
    /// `membar`/`fence`: nothing to do when threads run one at a time.
    Fence,
    /// `add.cc`, `addc{.cc}`, `sub.cc`, `subc{.cc}`: 32- or 64-bit
    /// integer addition with the carry flag (see [`Carry`]).
    Carry(Carry),
    /// `cvt.rna.tf32.f32`: to TF32 (10 mantissa bits), ties away from 0.
    CvtTf32,
    /// `cvt.rn.{f16x2,bf16x2}.f32 d, a, b`: both rounded to nearest even,
    /// `a`'s in the upper half of `d`, `b`'s in the lower.
    CvtPack {
        /// `.bf16x2` (else `.f16x2`).
        bf16: bool,
    },
    /// `mma.sync.aligned`: a warp's 16 x 8 x K product on tensor cores.
    Mma(Mma),
    /// `ldmatrix.sync.aligned.m8n8`: `count` 8 x 8 matrices of `b16`.
    Ldmatrix {
        /// 1, 2 or 4 matrices.
        count: u32,
        /// `.trans`: each thread gets a column pair instead of a row pair.
        trans: bool,
        /// `.shared` (else a generic address).
        shared: bool,
    },
    /// `cp.async.{ca,cg}.shared.global [dst], [src], size{, src-size or
    /// ignore-src}`.
    CpAsync,
    /// `cp.async.commit_group`.
    CpAsyncCommit,
    /// `cp.async.wait_group N` or (`all`) `cp.async.wait_all`.
    CpAsyncWait {
        /// `wait_all`: commit the pending copies and wait for every group.
        all: bool,
    },
    /// `wgmma.mma_async.sync.aligned`: a warpgroup's 64 x N x K product.
    Wgmma(Wgmma),
    /// `wgmma.fence`, `wgmma.commit_group`, `wgmma.wait_group`.
    WgmmaSync(WgmmaSync),
}

/// An addition or subtraction through the carry flag (`CC.CF`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Carry {
    /// Operand width in bits (32 or 64).
    pub bits: u32,
    /// `sub`/`subc` (the flag is the borrow).
    pub sub: bool,
    /// `addc`/`subc`: the flag is an input.
    pub carry_in: bool,
    /// `.cc`: the flag is written.
    pub carry_out: bool,
}

fn carry(sub: bool, carry_in: bool, rest: &[&str]) -> Option<Op> {
    let ty = Ty::parse(rest.last()?)?;
    let ok = !ty.is_float()
        && matches!(ty.bits, 32 | 64)
        && rest[..rest.len() - 1].iter().all(|p| *p == "cc");
    ok.then_some(Op::Carry(Carry {
        bits: ty.bits,
        sub,
        carry_in,
        carry_out: rest.contains(&"cc"),
    }))
}

/// Decodes an opcode (`ld.global.v4.b32`, `setp.lt.s32`, ...); `None` when
/// it is outside the supported subset.
pub fn decode(opcode: &str) -> Option<Op> {
    let parts: Vec<&str> = opcode.split('.').collect();
    let (head, rest) = parts.split_first()?;
    let ty = || rest.last().and_then(|t| Ty::parse(t));
    let has = |q: &str| rest.contains(&q);
    let only = |allowed: &[&str]| {
        rest[..rest.len().saturating_sub(1)]
            .iter()
            .all(|p| allowed.contains(p) || ignorable(p))
    };
    match *head {
        "mov" if rest.len() == 1 => Some(Op::Mov(ty()?)),
        "ld" | "st" => {
            let mut sp = Space::Generic;
            let mut vec = 1;
            for p in &rest[..rest.len() - 1] {
                if let Some(s) = space(p) {
                    sp = s;
                } else if let Some(v) = vec_width(p) {
                    vec = v;
                } else if !ignorable(p) {
                    return None;
                }
            }
            let ty = ty()?;
            Some(if *head == "ld" {
                Op::Ld { space: sp, ty, vec }
            } else {
                Op::St { space: sp, ty, vec }
            })
        }
        "add" | "sub" if has("cc") => carry(*head == "sub", false, rest),
        "addc" | "subc" => carry(*head == "subc", true, rest),
        "add" | "sub" | "mul" | "div" | "rem" | "min" | "max" | "and" | "or" | "xor" | "shl"
        | "shr" | "copysign" => {
            let (ty, packed) = match rest.last().copied() {
                Some("f16x2") if matches!(*head, "add" | "sub" | "mul" | "min" | "max") => {
                    (Ty::parse("f16")?, true)
                }
                Some("bf16x2") if matches!(*head, "add" | "sub" | "mul" | "min" | "max") => {
                    (Ty::parse("bf16")?, true)
                }
                // sm_90's packed 16-bit integers (LLVM makes them of i16
                // reductions): each half wraps or compares on its own.
                Some(pair @ ("s16x2" | "u16x2"))
                    if matches!(*head, "add" | "sub" | "min" | "max") =>
                {
                    (Ty::parse(&pair[..3])?, true)
                }
                _ => (ty()?, false),
            };
            let op = match (*head, ty.is_float()) {
                ("add", _) => Binary::Add,
                ("sub", _) => Binary::Sub,
                ("mul", true) => Binary::MulLo,
                ("mul", false) if has("lo") => Binary::MulLo,
                ("mul", false) if has("hi") => Binary::MulHi,
                ("mul", false) if has("wide") => Binary::MulWide,
                ("div", _) => Binary::Div,
                ("rem", false) => Binary::Rem,
                ("min", _) => Binary::Min,
                ("max", _) => Binary::Max,
                ("and", false) => Binary::And,
                ("or", false) => Binary::Or,
                ("xor", false) => Binary::Xor,
                ("shl", false) => Binary::Shl,
                ("shr", false) => Binary::Shr,
                ("copysign", true) => Binary::Copysign,
                _ => return None,
            };
            // Floats: round to nearest only (`.rn`, or no mode: the same).
            // `div.full.f32` (within 2 ulp over the full range) runs as
            // the correctly rounded quotient, one of the results it
            // allows; `div.approx` is not modelled.
            let plain = only(&["rn", "ftz", "lo", "hi", "wide", "NaN"]);
            let full = op == Binary::Div
                && ty.bits == 32
                && ty.is_float()
                && has("full")
                && only(&["full", "ftz"]);
            if !(plain || full) {
                return None;
            }
            Some(Op::Binary {
                op,
                ty,
                ftz: has("ftz"),
                nan: has("NaN"),
                packed,
            })
        }
        "mad" => {
            let ty = ty()?;
            if ty.is_float() || !only(&["lo", "hi", "wide"]) {
                return None;
            }
            Some(Op::Mad {
                ty,
                hi: has("hi"),
                wide: has("wide"),
            })
        }
        "fma" if has("rn") && only(&["rn"]) => Some(Op::Fma(ty()?)),
        "neg" | "abs" | "not" | "rcp" | "sqrt" | "rsqrt" | "ex2" | "lg2" | "tanh" | "sin"
        | "cos" => {
            let ty = ty()?;
            let op = match *head {
                "neg" => Unary::Neg,
                "abs" => Unary::Abs,
                "not" => Unary::Not,
                "rcp" => Unary::Rcp,
                "sqrt" => Unary::Sqrt,
                "rsqrt" => Unary::Rsqrt,
                "ex2" => Unary::Ex2,
                "lg2" => Unary::Lg2,
                "tanh" => Unary::Tanh,
                "sin" => Unary::Sin,
                _ => Unary::Cos,
            };
            let approx_only = matches!(
                op,
                Unary::Rsqrt | Unary::Ex2 | Unary::Lg2 | Unary::Tanh | Unary::Sin | Unary::Cos
            );
            if (approx_only && !has("approx"))
                || (matches!(op, Unary::Rcp | Unary::Sqrt) && !has("rn") && !has("approx"))
                || !only(&["rn", "approx", "ftz"])
            {
                return None;
            }
            Some(Op::Unary {
                op,
                ty,
                ftz: has("ftz"),
            })
        }
        "setp" => {
            let (ty, packed) = match rest.last().copied() {
                Some("f16x2") => (Ty::parse("f16")?, true),
                Some("bf16x2") => (Ty::parse("bf16")?, true),
                _ => (ty()?, false),
            };
            let cmp = match *rest.first()? {
                "eq" => rel(Rel::Eq, false),
                "ne" => rel(Rel::Ne, false),
                "lt" | "lo" => rel(Rel::Lt, false),
                "le" | "ls" => rel(Rel::Le, false),
                "gt" | "hi" => rel(Rel::Gt, false),
                "ge" | "hs" => rel(Rel::Ge, false),
                "equ" => rel(Rel::Eq, true),
                "neu" => rel(Rel::Ne, true),
                "ltu" => rel(Rel::Lt, true),
                "leu" => rel(Rel::Le, true),
                "gtu" => rel(Rel::Gt, true),
                "geu" => rel(Rel::Ge, true),
                "num" => Cmp::Num,
                "nan" => Cmp::Nan,
                _ => return None,
            };
            let combine = match rest.get(1).copied() {
                Some("and") => Some(BoolOp::And),
                Some("or") => Some(BoolOp::Or),
                Some("xor") => Some(BoolOp::Xor),
                _ => None,
            };
            let expected = 2 + usize::from(combine.is_some());
            if rest.len() != expected && !(rest.len() == expected + 1 && has("ftz")) {
                return None;
            }
            Some(Op::Setp {
                cmp,
                ty,
                combine,
                packed,
            })
        }
        "selp" if rest.len() == 1 => Some(Op::Selp(ty()?)),
        "bfe" if rest.len() == 1 => Some(Op::Bfe(ty()?)),
        "prmt" if rest == ["b32"] => Some(Op::Prmt),
        "bfi" if matches!(rest, ["b32"] | ["b64"]) => Some(Op::Bfi(ty()?)),
        "cvt" => cvt::decode_cvt(rest),
        "mma" => tensor::decode_mma(rest),
        "ldmatrix" => tensor::decode_ldmatrix(rest),
        "cp" => tensor::decode_cp(rest),
        "wgmma" => wgmma::decode_wgmma(rest),
        "cvta" => {
            let to = has("to");
            let sp = rest.iter().find_map(|p| space(p))?;
            (rest.last() == Some(&"u64")).then_some(Op::Cvta { to, space: sp })
        }
        "bra" => Some(Op::Bra),
        "ret" | "exit" if rest.is_empty() => Some(Op::Exit),
        "bar" | "barrier" if rest.first() == Some(&"sync") && rest.iter().all(|p| ignorable(p)) => {
            Some(Op::Barrier)
        }
        "shfl" if has("sync") && rest.last() == Some(&"b32") => {
            let mode = match rest.get(1).copied()? {
                "up" => Shfl::Up,
                "down" => Shfl::Down,
                "bfly" => Shfl::Bfly,
                "idx" => Shfl::Idx,
                _ => return None,
            };
            Some(Op::Shfl(mode))
        }
        "atom" | "red" => {
            let mut sp = Space::Generic;
            let mut op = None;
            let mut vec = 1;
            for p in &rest[..rest.len() - 1] {
                if let Some(s) = space(p) {
                    sp = s;
                    continue;
                }
                if let Some(v) = vec_width(p) {
                    vec = v;
                    continue;
                }
                op = Some(match *p {
                    "add" => Atomic::Add,
                    "min" => Atomic::Min,
                    "max" => Atomic::Max,
                    "and" => Atomic::And,
                    "or" => Atomic::Or,
                    "xor" => Atomic::Xor,
                    "exch" => Atomic::Exch,
                    "cas" => Atomic::Cas,
                    "inc" => Atomic::Inc,
                    "dec" => Atomic::Dec,
                    // f16/bf16 adds never flush subnormals: nor does this.
                    "noftz" => continue,
                    _ if ignorable(p) => continue,
                    _ => return None,
                });
            }
            let (op, ty) = (op?, ty()?);
            if vec > 1 && !(op == Atomic::Add && ty.is_float()) {
                return None;
            }
            Some(Op::Atom {
                space: sp,
                op,
                ty,
                red: *head == "red",
                vec,
            })
        }
        "membar" | "fence" if !has("proxy") => Some(Op::Fence),
        // Orders generic-proxy writes before async-proxy reads (`wgmma`'s
        // of shared memory): one coherent copy here, nothing to order.
        "fence" if matches!(rest, ["proxy", "async"] | ["proxy", "async", "shared::cta"]) => {
            Some(Op::Fence)
        }
        _ => None,
    }
}
