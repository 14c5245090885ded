//! What `fuzz --programs` expects of a program: whether it must be refused
//! (the generator knows which of its choices are invalid) and, for each
//! element it stores, the value a plain Rust evaluation gives with a bound
//! on how far a correct execution may be from it.
//!
//! The bound is carried through the expression, element by element: each
//! operation adds its own rounding (one f32 ulp of its result, two where
//! the GPU may fuse a product into a sum or uses an approximation) to what
//! its operands' bounds can do to it (a product scales them, a square root
//! takes their square root, an f16 rounding adds an f16 ulp). A comparison
//! whose operands are within their bounds of each other may go either way:
//! `where` then allows both branches. Nothing is compared against the
//! buffer's largest value, so an element near zero is checked as tightly
//! as its own magnitude allows.

use half::f16;

/// A value computed by the reference and how far a correct execution may
/// be from it (`err` is infinite where nothing can be said).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bounded {
    /// The reference's f32 result, as f64.
    pub v: f64,
    /// The largest allowed distance from `v`.
    pub err: f64,
}

/// One f32 ulp at the magnitude of `x` (the smallest subnormal near zero).
pub fn ulp32(x: f64) -> f64 {
    let a = x.abs();
    if !a.is_finite() {
        return f64::INFINITY;
    }
    let min = f64::from(f32::from_bits(1));
    if a < f64::from(f32::MIN_POSITIVE) {
        return min;
    }
    (2f64).powi(a.log2().floor() as i32 - 23).max(min)
}

/// One f16 ulp at the magnitude of `x`.
fn ulp16(x: f64) -> f64 {
    let a = x.abs();
    if !a.is_finite() {
        return f64::INFINITY;
    }
    let min = 2f64.powi(-24);
    if a < 2f64.powi(-14) {
        return min;
    }
    2f64.powi(a.log2().floor() as i32 - 10).max(min)
}

fn round32(x: f64) -> f64 {
    f64::from(x as f32)
}

impl Bounded {
    /// An exact value (a loaded element, a literal).
    pub fn exact(v: f32) -> Bounded {
        Bounded {
            v: f64::from(v),
            err: 0.0,
        }
    }

    /// `v` rounded to f32, allowed `err` plus `ulps` f32 ulps of the
    /// largest result the bound allows (a correct execution rounds its own
    /// result, which may be that one).
    fn rounded(v: f64, err: f64, ulps: f64) -> Bounded {
        let v = round32(v);
        Bounded {
            v,
            err: if v.is_finite() {
                err + ulps * ulp32(v.abs() + err)
            } else {
                err
            },
        }
        .settle()
    }

    /// Where the value is not finite, only an exact one says anything.
    fn settle(self) -> Bounded {
        if (!self.v.is_finite() && self.err > 0.0) || self.err.is_nan() {
            Bounded {
                v: self.v,
                err: f64::INFINITY,
            }
        } else {
            self
        }
    }

    /// `self + other` (`sign` -1 for a difference). `fusable` lists which
    /// operands are products the GPU may fuse into the sum: their own last
    /// rounding may then not happen.
    pub fn add(self, other: Bounded, sign: f64, fusable: [bool; 2]) -> Bounded {
        let skipped = |b: &Bounded, fused: bool| {
            if fused && b.v.is_finite() {
                ulp32(b.v)
            } else {
                0.0
            }
        };
        let slack = skipped(&self, fusable[0]) + skipped(&other, fusable[1]);
        Bounded::rounded(self.v + sign * other.v, self.err + other.err + slack, 1.0)
    }

    /// `self * other`.
    pub fn mul(self, other: Bounded) -> Bounded {
        let err = self.v.abs() * other.err + other.v.abs() * self.err + self.err * other.err;
        Bounded::rounded(self.v * other.v, err, 1.0)
    }

    /// `self * b + c` in one rounding (or two, if a lowering splits it).
    pub fn fma(self, b: Bounded, c: Bounded) -> Bounded {
        let err = self.v.abs() * b.err + b.v.abs() * self.err + self.err * b.err + c.err;
        let product = self.v * b.v;
        let split = if product.is_finite() {
            ulp32(product)
        } else {
            0.0
        };
        Bounded::rounded(product + c.v, err + split, 1.0)
    }

    /// The smaller (`min` true) or larger of the two, NaN if either is.
    pub fn extreme(self, other: Bounded, min: bool) -> Bounded {
        if self.v.is_nan() || other.v.is_nan() {
            return Bounded {
                v: f64::NAN,
                err: self.err.max(other.err),
            }
            .settle();
        }
        let v = if min {
            self.v.min(other.v)
        } else {
            self.v.max(other.v)
        };
        Bounded {
            v,
            err: self.err.max(other.err),
        }
        .settle()
    }

    /// `a < b ? yes : no`; both branches allowed where `a` and `b` are
    /// within their bounds of each other.
    pub fn select(a: Bounded, b: Bounded, yes: Bounded, no: Bounded) -> Bounded {
        let slack = a.err + b.err;
        let undecided = slack > 0.0 && (a.v - b.v).abs() <= slack;
        if !undecided {
            return if a.v < b.v { yes } else { no };
        }
        if yes.v.is_nan() || no.v.is_nan() {
            return Bounded {
                v: yes.v,
                err: f64::INFINITY,
            };
        }
        Bounded {
            v: yes.v,
            err: yes.err.max(no.err) + (yes.v - no.v).abs(),
        }
        .settle()
    }

    /// `exp2` of the value clamped to [-8, 8], through `ex2.approx` (2 ulp).
    pub fn exp2_clamped(self) -> Bounded {
        let clamped = self.extreme(Bounded::exact(-8.0), false);
        let clamped = clamped.extreme(Bounded::exact(8.0), true);
        let v = clamped.v.exp2();
        let spread = v * (clamped.err.exp2() - 1.0);
        Bounded::rounded(v, spread, 3.0)
    }

    /// `sqrt(|a|)`.
    pub fn sqrt_abs(self) -> Bounded {
        Bounded::rounded(self.v.abs().sqrt(), self.err.sqrt(), 2.0)
    }

    /// Rounded to f16 and back: an operand within its bound of a rounding
    /// boundary may round to either neighbour.
    pub fn through_f16(self) -> Bounded {
        let v = f16::from_f64(self.v).to_f64();
        let err = if self.err == 0.0 {
            0.0
        } else {
            self.err + ulp16(self.v.abs() + self.err)
        };
        Bounded { v, err }.settle()
    }

    /// Whether `got` is within the bound (a NaN reference asks for a NaN,
    /// an exact infinity for the same infinity).
    pub fn admits(&self, got: f32) -> bool {
        let got = f64::from(got);
        if self.err.is_infinite() {
            return true;
        }
        if self.v.is_nan() {
            return got.is_nan();
        }
        if !self.v.is_finite() {
            return got == self.v;
        }
        (got - self.v).abs() <= self.err
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_exact_sum_admits_only_its_rounding() {
        let s = Bounded::exact(1.0).add(Bounded::exact(2.0f32.powi(-30)), 1.0, [false; 2]);
        assert_eq!(s.v, 1.0);
        assert!(s.admits(1.0));
        assert!(!s.admits(1.0 + 2.0f32.powi(-20)));
    }

    #[test]
    fn a_value_near_zero_is_checked_at_its_own_scale() {
        // 1e-6 - 1e-6 with exact operands: the error is ulps of 1e-6 and
        // its difference, nowhere near the buffer's largest value.
        let d = Bounded::exact(1e-6).add(Bounded::exact(1e-6), -1.0, [false; 2]);
        assert_eq!(d.v, 0.0);
        assert!(d.err < 1e-12, "{d:?}");
        assert!(!d.admits(1e-9));
    }

    #[test]
    fn a_close_comparison_allows_both_branches_and_a_clear_one_does_not() {
        let a = Bounded { v: 1.0, err: 0.5 };
        let b = Bounded::exact(1.2);
        let s = Bounded::select(a, b, Bounded::exact(10.0), Bounded::exact(-10.0));
        assert!(s.admits(10.0) && s.admits(-10.0));
        let clear = Bounded::select(
            Bounded::exact(1.0),
            b,
            Bounded::exact(10.0),
            Bounded::exact(-10.0),
        );
        assert!(clear.admits(10.0) && !clear.admits(-10.0));
    }

    #[test]
    fn f16_rounding_of_an_inexact_value_may_go_either_way() {
        // 1 + 2^-11 is the midpoint between two f16 neighbours.
        let near = Bounded {
            v: 1.0 + 2f64.powi(-11),
            err: 2f64.powi(-20),
        };
        let r = near.through_f16();
        assert!(r.admits(1.0) && r.admits(1.0 + 2f32.powi(-10)));
        let exact = Bounded::exact(1.0 + 2f32.powi(-11)).through_f16();
        assert!(exact.admits(1.0) && !exact.admits(1.0 + 2f32.powi(-10)));
    }

    #[test]
    fn nan_asks_for_nan_and_infinity_for_the_same_infinity() {
        let nan =
            Bounded::exact(f32::INFINITY).add(Bounded::exact(f32::INFINITY), -1.0, [false; 2]);
        assert!(nan.v.is_nan() && nan.admits(f32::NAN) && !nan.admits(0.0));
        let inf = Bounded::exact(f32::INFINITY);
        assert!(inf.admits(f32::INFINITY) && !inf.admits(f32::NEG_INFINITY));
    }
}
