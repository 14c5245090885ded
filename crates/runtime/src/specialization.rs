//! What a compiled kernel may assume about its arguments.
//!
//! As Triton's, a kernel is specialized on facts per argument: a pointer or
//! integer that is a multiple of 16 (for a pointer: its address, in bytes),
//! and an integer equal to 1. Beyond Triton, a multiple of 8 or of 4 is a
//! fact too: a row of f16 elements whose stride is a multiple of 8 (N =
//! 3000) starts 16 bytes aligned, and f32 rows of a multiple of 4 do, which
//! 16 alone cannot show. The compiler uses them to prove
//! alignment and unit strides, which is what lets loads and stores become
//! 128-bit vector accesses; a launch whose arguments break a fact the kernel
//! was compiled for is refused ([`KernelSpec::check_args`]), since a
//! misaligned vector access would fault.
//!
//! [`KernelSpec::check_args`]: crate::KernelSpec::check_args
//!
//!
//! ```
//! use tile_runtime::{Arg, Fact, Specialization};
//!
//! let facts = Specialization::of(&[Arg::I32(4096), Arg::I32(1), Arg::I32(1001)]);
//! assert_eq!(facts.fact(0), Fact::DivisibleBy16);
//! assert_eq!(facts.fact(1), Fact::EqualToOne);
//! assert_eq!(facts.fact(2), Fact::None);
//! assert_eq!(Fact::of(&Arg::I32(3000)), Fact::DivisibleBy8);
//! // Code for these facts runs any launch whose arguments have them.
//! assert!(facts.is_of(&[Arg::I32(32), Arg::I32(1), Arg::I32(7)]));
//! assert!(!facts.is_of(&[Arg::I32(33), Arg::I32(1), Arg::I32(7)]));
//! ```

use crate::kernel::Arg;
use std::fmt;

/// The divisor of [`Fact::DivisibleBy16`].
pub const DIVISOR: u64 = 16;

/// What is known of one argument.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
pub enum Fact {
    /// Nothing.
    #[default]
    None,
    /// The value (a pointer's address in bytes, or an integer) is a
    /// multiple of 16.
    DivisibleBy16,
    /// The value is a multiple of 8, not of 16.
    DivisibleBy8,
    /// The value is a multiple of 4, not of 8.
    DivisibleBy4,
    /// The integer equals 1.
    EqualToOne,
}

impl Fact {
    /// The strongest fact that holds for `arg`: [`Fact::EqualToOne`] for an
    /// integer 1, [`Fact::DivisibleBy16`] for a multiple of 16 (0 included)
    /// or a 16-byte aligned pointer, then [`Fact::DivisibleBy8`] and
    /// [`Fact::DivisibleBy4`], [`Fact::None`] otherwise and for floats.
    pub fn of(arg: &Arg) -> Fact {
        let integer = match *arg {
            Arg::Ptr { ptr, .. } => return Fact::divisible(ptr.0),
            Arg::I32(v) => i64::from(v),
            Arg::I64(v) => v,
            Arg::F32(_) | Arg::F16(_) | Arg::BF16(_) => return Fact::None,
        };
        if integer == 1 {
            Fact::EqualToOne
        } else {
            Fact::divisible(integer.unsigned_abs())
        }
    }

    /// The divisibility fact of `v`.
    fn divisible(v: u64) -> Fact {
        if v.is_multiple_of(DIVISOR) {
            Fact::DivisibleBy16
        } else if v.is_multiple_of(8) {
            Fact::DivisibleBy8
        } else if v.is_multiple_of(4) {
            Fact::DivisibleBy4
        } else {
            Fact::None
        }
    }

    /// The power of two the fact says divides the value (16, 8 or 4).
    pub fn divisor(self) -> Option<u32> {
        match self {
            Fact::DivisibleBy16 => Some(16),
            Fact::DivisibleBy8 => Some(8),
            Fact::DivisibleBy4 => Some(4),
            Fact::None | Fact::EqualToOne => None,
        }
    }

    /// True when `arg` satisfies this fact: a value with a larger
    /// power-of-two divisor has the smaller ones too.
    pub fn holds_for(self, arg: &Arg) -> bool {
        let got = Fact::of(arg);
        match self {
            Fact::None => true,
            Fact::EqualToOne => got == Fact::EqualToOne,
            want => match (want.divisor(), got.divisor()) {
                (Some(w), Some(g)) => g >= w,
                _ => false,
            },
        }
    }
}

impl fmt::Display for Fact {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Fact::None => "nothing assumed",
            Fact::DivisibleBy16 => "divisible by 16",
            Fact::DivisibleBy8 => "divisible by 8",
            Fact::DivisibleBy4 => "divisible by 4",
            Fact::EqualToOne => "equal to 1",
        })
    }
}

/// One [`Fact`] per kernel argument, in order. Empty means nothing is
/// assumed of any argument (the default, valid for every launch).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Specialization {
    /// The facts, one per argument (or none at all).
    pub facts: Vec<Fact>,
}

impl Specialization {
    /// Assumes nothing.
    pub fn none() -> Specialization {
        Specialization::default()
    }

    /// The strongest facts that hold for `args` (see [`Fact::of`]): compile
    /// with this to get the fastest code for these arguments and any others
    /// with the same facts.
    pub fn of(args: &[Arg]) -> Specialization {
        Specialization {
            facts: args.iter().map(Fact::of).collect(),
        }
    }

    /// True when this is exactly `Specialization::of(args)`, computed
    /// without allocating.
    pub fn is_of(&self, args: &[Arg]) -> bool {
        self.facts.len() == args.len()
            && self.facts.iter().zip(args).all(|(f, a)| *f == Fact::of(a))
    }

    /// The fact about argument `index` ([`Fact::None`] past the end).
    pub fn fact(&self, index: usize) -> Fact {
        self.facts.get(index).copied().unwrap_or_default()
    }

    /// True when nothing is assumed.
    pub fn is_none(&self) -> bool {
        self.facts.iter().all(|f| *f == Fact::None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::DevicePtr;

    fn ptr(addr: u64) -> Arg {
        Arg::Ptr {
            ptr: DevicePtr(addr),
            extent_bytes: None,
            owner: None,
            elem: None,
        }
    }

    #[test]
    fn facts_follow_the_values() {
        assert_eq!(Fact::of(&ptr(0x7000_0000_0100)), Fact::DivisibleBy16);
        assert_eq!(Fact::of(&ptr(0x7000_0000_0104)), Fact::DivisibleBy4);
        assert_eq!(Fact::of(&ptr(0x7000_0000_0102)), Fact::None);
        assert_eq!(Fact::of(&Arg::I32(1)), Fact::EqualToOne);
        assert_eq!(Fact::of(&Arg::I64(1)), Fact::EqualToOne);
        assert_eq!(Fact::of(&Arg::I32(0)), Fact::DivisibleBy16);
        assert_eq!(Fact::of(&Arg::I32(-32)), Fact::DivisibleBy16);
        // 1000 = 8 * 125, 3000 = 8 * 375, 1500 = 4 * 375.
        assert_eq!(Fact::of(&Arg::I32(1000)), Fact::DivisibleBy8);
        assert_eq!(Fact::of(&Arg::I32(3000)), Fact::DivisibleBy8);
        assert_eq!(Fact::of(&Arg::I32(1500)), Fact::DivisibleBy4);
        assert_eq!(Fact::of(&Arg::I32(-12)), Fact::DivisibleBy4);
        assert_eq!(Fact::of(&Arg::I32(1001)), Fact::None);
        assert_eq!(Fact::of(&Arg::I32(6)), Fact::None);
        assert_eq!(Fact::of(&Arg::I64(1 << 40)), Fact::DivisibleBy16);
        assert_eq!(Fact::of(&Arg::F32(16.0)), Fact::None);
    }

    #[test]
    fn a_fact_holds_only_for_matching_values() {
        assert!(Fact::None.holds_for(&Arg::I32(3)));
        assert!(Fact::DivisibleBy16.holds_for(&Arg::I32(4096)));
        assert!(!Fact::DivisibleBy16.holds_for(&Arg::I32(4097)));
        assert!(!Fact::DivisibleBy16.holds_for(&Arg::I32(1)));
        assert!(Fact::EqualToOne.holds_for(&Arg::I64(1)));
        assert!(!Fact::EqualToOne.holds_for(&Arg::I64(2)));
        assert!(!Fact::DivisibleBy16.holds_for(&ptr(0x1008)));
        // A multiple of 16 is a multiple of 8 and of 4; not the reverse.
        assert!(Fact::DivisibleBy8.holds_for(&Arg::I32(32)));
        assert!(Fact::DivisibleBy8.holds_for(&Arg::I32(24)));
        assert!(!Fact::DivisibleBy8.holds_for(&Arg::I32(12)));
        assert!(Fact::DivisibleBy4.holds_for(&Arg::I32(12)));
        assert!(Fact::DivisibleBy4.holds_for(&ptr(0x1008)));
        assert!(!Fact::DivisibleBy4.holds_for(&Arg::I32(1)));
        assert!(!Fact::DivisibleBy4.holds_for(&Arg::I32(6)));
    }

    #[test]
    fn is_of_matches_of() {
        let args = [ptr(0x100), Arg::I32(1), Arg::I32(7)];
        assert!(Specialization::of(&args).is_of(&args));
        assert!(!Specialization::of(&args).is_of(&args[..2]));
        assert!(!Specialization::of(&args).is_of(&[ptr(0x104), Arg::I32(1), Arg::I32(7)]));
        assert!(!Specialization::none().is_of(&args));
        assert!(Specialization::none().is_of(&[]));
    }

    #[test]
    fn specialization_of_arguments() {
        let s = Specialization::of(&[ptr(0x100), Arg::I32(1), Arg::I32(7)]);
        assert_eq!(
            s.facts,
            vec![Fact::DivisibleBy16, Fact::EqualToOne, Fact::None]
        );
        assert_eq!(s.fact(5), Fact::None);
        assert!(!s.is_none());
        assert!(Specialization::none().is_none());
    }
}
