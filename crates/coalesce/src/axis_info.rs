//! Axis information: what is known of the values of an integer, boolean or
//! pointer tensor along each of its axes, and how each operation transforms
//! it. This is what proves that a load may read 16 bytes at a time.
//!
//! For axis `d`, with the tensor's elements indexed along `d` in aligned
//! groups (group `g` covers indices `g*n .. (g+1)*n`):
//! - **contiguity** `c`: within each aligned group of `c`, every step along
//!   `d` adds exactly 1 (one element, for pointers);
//! - **divisibility** `v` (a power of two): the first value of every group
//!   of `c` is a multiple of `v` (for pointers, the address in bytes);
//! - **constancy** `k`: within each aligned group of `k`, all values are
//!   equal.
//!
//! A scalar is a tensor of shape `[1]`. Every figure is a power of two, at
//! most [`MAX_DIVISIBILITY`] for divisibility; the weakest facts
//! ([`AxisInfo::unknown`]) are 1 everywhere.
//!
//! ```
//! use tile_coalesce::AxisInfo;
//! use tile_coalesce::axis_info::pow2_divisor;
//!
//! // arange(0, 128): one run of 128 consecutive values starting at a
//! // multiple of every power of two (capped).
//! let offs = AxisInfo::arange(0, 128);
//! assert_eq!(offs.contiguity, [128]);
//! assert_eq!(pow2_divisor(48), 16);
//! // A splat of a scalar divisible by 16 is constant along its axis.
//! let n = AxisInfo::splat(&AxisInfo::scalar(16), &[128]);
//! assert_eq!(n.constancy, [128]);
//! ```

/// The largest divisibility tracked (that of 0).
pub const MAX_DIVISIBILITY: i64 = 1 << 30;

/// Contiguity, divisibility and constancy along each axis, and the value
/// when it is the same known constant everywhere.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AxisInfo {
    /// Runs of consecutive values, per axis.
    pub contiguity: Vec<i64>,
    /// Divisibility of the first value of each run, per axis.
    pub divisibility: Vec<i64>,
    /// Runs of equal values, per axis.
    pub constancy: Vec<i64>,
    /// The value of every element, when known.
    pub constant: Option<i64>,
}

/// The largest power of two dividing `v` (capped at [`MAX_DIVISIBILITY`];
/// that of 0 is the cap).
pub fn pow2_divisor(v: i64) -> i64 {
    if v == 0 {
        MAX_DIVISIBILITY
    } else {
        (1i64 << v.trailing_zeros().min(62)).min(MAX_DIVISIBILITY)
    }
}

/// The greatest common divisor of two powers of two (their minimum).
pub fn gcd(a: i64, b: i64) -> i64 {
    a.min(b)
}

impl AxisInfo {
    /// Nothing known, for a tensor of `rank` axes.
    pub fn unknown(rank: usize) -> AxisInfo {
        AxisInfo {
            contiguity: vec![1; rank.max(1)],
            divisibility: vec![1; rank.max(1)],
            constancy: vec![1; rank.max(1)],
            constant: None,
        }
    }

    /// A scalar that is a multiple of `divisibility`.
    pub fn scalar(divisibility: i64) -> AxisInfo {
        AxisInfo {
            contiguity: vec![1],
            divisibility: vec![divisibility.clamp(1, MAX_DIVISIBILITY)],
            constancy: vec![1],
            constant: None,
        }
    }

    /// The constant `value` everywhere in a tensor of `shape` (`[1]` for a
    /// scalar).
    pub fn constant(value: i64, shape: &[i64]) -> AxisInfo {
        let shape = scalar_shape(shape);
        AxisInfo {
            contiguity: vec![1; shape.len()],
            divisibility: vec![pow2_divisor(value); shape.len()],
            constancy: shape.to_vec(),
            constant: Some(value),
        }
    }

    /// `arange(start, end)`: one run of `end - start` consecutive values.
    pub fn arange(start: i64, end: i64) -> AxisInfo {
        AxisInfo {
            contiguity: vec![(end - start).max(1)],
            divisibility: vec![pow2_divisor(start)],
            constancy: vec![1],
            constant: None,
        }
    }

    /// The number of axes.
    pub fn rank(&self) -> usize {
        self.contiguity.len()
    }

    /// A power of two dividing every element (not only the first of each
    /// run): along an axis of contiguity 1, every element starts a run.
    pub fn element_divisibility(&self) -> i64 {
        if let Some(c) = self.constant {
            return pow2_divisor(c);
        }
        (0..self.rank())
            .filter(|&d| self.contiguity[d] == 1)
            .map(|d| self.divisibility[d])
            .max()
            .unwrap_or(1)
    }

    /// The weakest facts both `self` and `other` satisfy (where control
    /// flow merges, e.g. a loop-carried value).
    pub fn join(&self, other: &AxisInfo) -> AxisInfo {
        if self.rank() != other.rank() {
            return AxisInfo::unknown(self.rank());
        }
        AxisInfo {
            contiguity: zip(&self.contiguity, &other.contiguity, gcd),
            divisibility: zip(&self.divisibility, &other.divisibility, gcd),
            constancy: zip(&self.constancy, &other.constancy, gcd),
            constant: self.constant.filter(|c| Some(*c) == other.constant),
        }
    }

    /// `splat(scalar)` to `shape`.
    pub fn splat(scalar: &AxisInfo, shape: &[i64]) -> AxisInfo {
        let shape = scalar_shape(shape);
        AxisInfo {
            contiguity: vec![1; shape.len()],
            divisibility: vec![scalar.element_divisibility(); shape.len()],
            constancy: shape.to_vec(),
            constant: scalar.constant,
        }
    }

    /// Broadcast from `from` to `to` (same rank; axes of extent 1 grow).
    pub fn broadcast(&self, from: &[i64], to: &[i64]) -> AxisInfo {
        let mut out = self.clone();
        for d in 0..to.len().min(from.len()).min(self.rank()) {
            if from[d] == 1 && to[d] != 1 {
                out.contiguity[d] = 1;
                out.constancy[d] = to[d];
                out.divisibility[d] = self.element_divisibility();
            }
        }
        out
    }

    /// `expand_dims` at `axis`: a new axis of extent 1.
    pub fn expand_dims(&self, axis: usize) -> AxisInfo {
        let mut out = self.clone();
        let axis = axis.min(out.rank());
        out.contiguity.insert(axis, 1);
        out.constancy.insert(axis, 1);
        out.divisibility.insert(axis, self.element_divisibility());
        out
    }

    /// `a + b` (also a pointer plus an offset scaled to bytes: see
    /// [`AxisInfo::add_pointer`]).
    pub fn add(a: &AxisInfo, b: &AxisInfo) -> AxisInfo {
        let rank = a.rank().max(b.rank());
        let (a, b) = (&a.ranked(rank), &b.ranked(rank));
        let contiguity = (0..rank)
            .map(|d| gcd(a.contiguity[d], b.constancy[d]).max(gcd(a.constancy[d], b.contiguity[d])))
            .collect();
        AxisInfo {
            contiguity,
            divisibility: zip(&a.divisibility, &b.divisibility, gcd),
            constancy: zip(&a.constancy, &b.constancy, gcd),
            constant: a.constant.zip(b.constant).map(|(x, y)| x.wrapping_add(y)),
        }
    }

    /// `a - b`.
    pub fn sub(a: &AxisInfo, b: &AxisInfo) -> AxisInfo {
        let rank = a.rank().max(b.rank());
        let (a, b) = (&a.ranked(rank), &b.ranked(rank));
        AxisInfo {
            contiguity: zip(&a.contiguity, &b.constancy, gcd),
            divisibility: zip(&a.divisibility, &b.divisibility, gcd),
            constancy: zip(&a.constancy, &b.constancy, gcd),
            constant: a.constant.zip(b.constant).map(|(x, y)| x.wrapping_sub(y)),
        }
    }

    /// `a * b`.
    pub fn mul(a: &AxisInfo, b: &AxisInfo) -> AxisInfo {
        let rank = a.rank().max(b.rank());
        let (a, b) = (&a.ranked(rank), &b.ranked(rank));
        let contiguity = (0..rank)
            .map(|d| match (a.constant, b.constant) {
                (_, Some(1)) => a.contiguity[d],
                (Some(1), _) => b.contiguity[d],
                _ => 1,
            })
            .collect();
        // Inside a run the values are not multiples of its first one, so
        // only the divisibility every element has carries over.
        let factor = |x: &AxisInfo, y: &AxisInfo, d: usize| {
            if x.contiguity[d] > 1 && y.constant != Some(1) {
                1
            } else {
                x.divisibility[d]
            }
        };
        let divisibility = (0..rank)
            .map(|d| {
                factor(a, b, d)
                    .saturating_mul(factor(b, a, d))
                    .min(MAX_DIVISIBILITY)
            })
            .collect();
        AxisInfo {
            contiguity,
            divisibility,
            constancy: zip(&a.constancy, &b.constancy, gcd),
            constant: a.constant.zip(b.constant).map(|(x, y)| x.wrapping_mul(y)),
        }
    }

    /// `ptr + offset` where elements are `elem_bytes` wide: contiguity in
    /// elements, divisibility in bytes.
    pub fn add_pointer(ptr: &AxisInfo, offset: &AxisInfo, elem_bytes: i64) -> AxisInfo {
        let scaled = AxisInfo {
            divisibility: offset
                .divisibility
                .iter()
                .map(|&v| v.saturating_mul(elem_bytes).min(MAX_DIVISIBILITY))
                .collect(),
            constant: None,
            ..offset.clone()
        };
        AxisInfo {
            constant: None,
            ..AxisInfo::add(ptr, &scaled)
        }
    }

    /// An elementwise op that keeps no arithmetic facts but whose result is
    /// constant wherever all its operands are (a comparison without a
    /// better rule, `and`, `or`, `select`, a division...).
    pub fn uniform_where_all(operands: &[&AxisInfo], rank: usize) -> AxisInfo {
        let mut out = AxisInfo::unknown(rank);
        let mut constancy: Option<Vec<i64>> = None;
        for o in operands {
            let o = o.ranked(rank);
            constancy = Some(match constancy {
                None => o.constancy,
                Some(c) => zip(&c, &o.constancy, gcd),
            });
        }
        if let Some(c) = constancy {
            out.constancy = c;
        }
        out
    }

    /// `lhs < rhs` (and the other orderings: `predicate` is an `arith.cmpi`
    /// predicate). Where one side runs consecutively and the other is
    /// constant, the result changes at most at the constant, so it is
    /// constant over aligned groups no longer than the run that both sides'
    /// divisibility respects. That holds for `x < n` and `x >= n` with the
    /// consecutive side on the left (and the mirrored forms): the boundary
    /// then falls on a multiple of `n`'s divisibility.
    pub fn compare(predicate: &str, lhs: &AxisInfo, rhs: &AxisInfo) -> AxisInfo {
        let rank = lhs.rank().max(rhs.rank());
        let (l, r) = (&lhs.ranked(rank), &rhs.ranked(rank));
        let mut out = AxisInfo::uniform_where_all(&[l, r], rank);
        let left_run = matches!(predicate, "slt" | "ult" | "sge" | "uge");
        let right_run = matches!(predicate, "sgt" | "ugt" | "sle" | "ule");
        for d in 0..rank {
            let run = |x: &AxisInfo, n: &AxisInfo| {
                gcd(
                    gcd(x.contiguity[d], n.constancy[d]),
                    gcd(x.divisibility[d], n.divisibility[d]),
                )
            };
            let mut k = out.constancy[d];
            if left_run {
                k = k.max(run(l, r));
            }
            if right_run {
                k = k.max(run(r, l));
            }
            out.constancy[d] = k;
        }
        out
    }

    /// `a % n` (signed or unsigned remainder) for a dividend known to be
    /// non-negative (`non_negative`; a negative one wraps the other way at
    /// multiples of `n`, and nothing is claimed of it). Where `a` runs
    /// consecutively and `n` is constant, the remainder restarts only at
    /// multiples of `n`, which fall on multiples of `n`'s divisibility: so
    /// it runs over aligned groups as long as the run, the dividend's and
    /// the divisor's divisibility allow (tutorial 03's `(pid_m * BM +
    /// arange(0, BM)) % M` runs 16 long when M is a multiple of 16). An
    /// `n` of 1 gives zeros.
    pub fn rem(a: &AxisInfo, n: &AxisInfo, non_negative: bool) -> AxisInfo {
        let rank = a.rank().max(n.rank());
        let (a, n) = (&a.ranked(rank), &n.ranked(rank));
        if n.constant == Some(1) {
            // Zeros wherever the divisor is (everywhere) 1.
            let mut zero = AxisInfo::constant(0, &n.constancy);
            zero.constancy = n.constancy.clone();
            return zero;
        }
        let mut out = AxisInfo::uniform_where_all(&[a, n], rank);
        if !non_negative {
            return out;
        }
        for d in 0..rank {
            let run = Self::quotient_run(a, n, d);
            if run > 1 {
                out.contiguity[d] = run;
                out.divisibility[d] = if run < a.contiguity[d] {
                    run
                } else {
                    gcd(a.divisibility[d], n.element_divisibility())
                };
            }
        }
        out
    }

    /// `a / n` (signed or unsigned) for a dividend known to be
    /// non-negative: where `a` runs consecutively and `n` is constant, the
    /// quotient changes only at multiples of `n`, so it is constant over
    /// the same aligned groups as [`AxisInfo::rem`] runs over.
    pub fn div(a: &AxisInfo, n: &AxisInfo, non_negative: bool) -> AxisInfo {
        let rank = a.rank().max(n.rank());
        let (a, n) = (&a.ranked(rank), &n.ranked(rank));
        if n.constant == Some(1) {
            return a.clone();
        }
        let mut out = AxisInfo::uniform_where_all(&[a, n], rank);
        if let (Some(x), Some(y)) = (a.constant, n.constant)
            && y != 0
        {
            out.constant = Some(x.wrapping_div(y));
            out.divisibility = vec![pow2_divisor(x.wrapping_div(y)); rank];
        }
        // An exact quotient: a multiple of D divided by a constant c that
        // divides D is a multiple of D / c, whatever the signs. Only where
        // every element of `a` is such a multiple (runs of one: in a
        // longer run only the first is), as Triton's rule.
        if let Some(c) = n.constant.filter(|&c| c > 0) {
            for d in 0..rank {
                if a.contiguity[d] == 1 && a.divisibility[d] % c == 0 {
                    out.divisibility[d] = out.divisibility[d].max(a.divisibility[d] / c);
                }
            }
        }
        if !non_negative {
            return out;
        }
        for d in 0..rank {
            out.constancy[d] = out.constancy[d].max(Self::quotient_run(a, n, d));
        }
        out
    }

    /// The aligned groups along `d` over which a non-negative `a` divided
    /// by `n` keeps one quotient: within `a`'s runs, starting at multiples
    /// of the group (`a`'s divisibility), where `n` is constant and a
    /// multiple of the group. 1 when nothing is known.
    fn quotient_run(a: &AxisInfo, n: &AxisInfo, d: usize) -> i64 {
        let run = gcd(
            a.contiguity[d],
            gcd(a.divisibility[d], n.element_divisibility()),
        );
        if n.constancy[d] < run { 1 } else { run }
    }

    /// `select(cond, a, b)`.
    pub fn select(cond: &AxisInfo, a: &AxisInfo, b: &AxisInfo) -> AxisInfo {
        let rank = cond.rank().max(a.rank()).max(b.rank());
        let (c, a, b) = (&cond.ranked(rank), &a.ranked(rank), &b.ranked(rank));
        let mut out = AxisInfo::uniform_where_all(&[c, a, b], rank);
        for d in 0..rank {
            out.contiguity[d] = gcd(c.constancy[d], gcd(a.contiguity[d], b.contiguity[d]));
            out.divisibility[d] = gcd(a.divisibility[d], b.divisibility[d]);
        }
        out
    }

    /// `min(a, b)` or `max(a, b)` of integers: uniform where both are,
    /// and each element is one of the two, so a multiple of what both
    /// elements are multiples of (where every element's divisibility is
    /// known: runs of one).
    pub fn min_max(a: &AxisInfo, b: &AxisInfo) -> AxisInfo {
        let rank = a.rank().max(b.rank());
        let (a, b) = (&a.ranked(rank), &b.ranked(rank));
        let mut out = AxisInfo::uniform_where_all(&[a, b], rank);
        for d in 0..rank {
            if a.contiguity[d] == 1 && b.contiguity[d] == 1 {
                out.divisibility[d] =
                    out.divisibility[d].max(gcd(a.divisibility[d], b.divisibility[d]));
            }
        }
        out
    }

    /// Repeats a scalar's facts over `rank` axes (a rank-`rank` value is
    /// returned unchanged).
    fn ranked(&self, rank: usize) -> AxisInfo {
        if self.rank() == rank || self.rank() != 1 {
            return self.clone();
        }
        AxisInfo {
            contiguity: vec![self.contiguity[0]; rank],
            divisibility: vec![self.divisibility[0]; rank],
            constancy: vec![self.constancy[0]; rank],
            constant: self.constant,
        }
    }
}

fn scalar_shape(shape: &[i64]) -> &[i64] {
    if shape.is_empty() { &[1] } else { shape }
}

fn zip(a: &[i64], b: &[i64], f: fn(i64, i64) -> i64) -> Vec<i64> {
    a.iter().zip(b).map(|(&x, &y)| f(x, y)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every fact `info` claims, checked against concrete `values` of a
    /// tensor of `shape` (row-major).
    fn holds(info: &AxisInfo, values: &[i64], shape: &[i64]) -> bool {
        let rank = shape.len();
        let strides: Vec<usize> = (0..rank)
            .map(|d| shape[d + 1..].iter().product::<i64>() as usize)
            .collect();
        for (flat, &v) in values.iter().enumerate() {
            if info.constant.is_some_and(|c| c != v) {
                return false;
            }
            for d in 0..rank {
                let i = (flat / strides[d]) as i64 % shape[d];
                let prev = flat.wrapping_sub(strides[d]);
                let c = info.contiguity[d];
                if i % c != 0 && values[prev] + 1 != v {
                    return false;
                }
                if i % c == 0 && v % info.divisibility[d] != 0 {
                    return false;
                }
                if i % info.constancy[d] != 0 && values[prev] != v {
                    return false;
                }
            }
        }
        true
    }

    #[test]
    fn offsets_of_a_vector_add() {
        // pid * 1024 + arange(0, 1024), for a few program ids.
        let block = AxisInfo::constant(1024, &[]);
        let offs = AxisInfo::add(
            &AxisInfo::splat(&AxisInfo::mul(&AxisInfo::scalar(1), &block), &[1024]),
            &AxisInfo::arange(0, 1024),
        );
        assert_eq!(offs.contiguity, vec![1024]);
        assert_eq!(offs.divisibility, vec![1024]);
        for pid in [0i64, 1, 7] {
            let values: Vec<i64> = (0..1024).map(|i| pid * 1024 + i).collect();
            assert!(holds(&offs, &values, &[1024]));
        }
        // A 16-byte aligned f32 pointer plus those offsets.
        let ptr = AxisInfo::add_pointer(&AxisInfo::splat(&AxisInfo::scalar(16), &[1024]), &offs, 4);
        assert_eq!(ptr.contiguity, vec![1024]);
        assert_eq!(ptr.divisibility, vec![16]);
        // offs < n with n a multiple of 16: constant over groups of 16.
        let n = AxisInfo::splat(&AxisInfo::scalar(16), &[1024]);
        let mask = AxisInfo::compare("slt", &offs, &n);
        assert_eq!(mask.constancy, vec![16]);
        let unaligned = AxisInfo::compare(
            "slt",
            &offs,
            &AxisInfo::splat(&AxisInfo::scalar(1), &[1024]),
        );
        assert_eq!(unaligned.constancy, vec![1]);
        // offs <= n moves the boundary off the aligned groups.
        assert_eq!(AxisInfo::compare("sle", &offs, &n).constancy, vec![1]);
        assert_eq!(AxisInfo::compare("sgt", &n, &offs).constancy, vec![16]);
    }

    #[test]
    fn strided_offsets_are_not_contiguous() {
        // arange(0, 64) * 2: every element even, no runs.
        let two = AxisInfo::constant(2, &[64]);
        let strided = AxisInfo::mul(&AxisInfo::arange(0, 64), &two);
        assert_eq!(strided.contiguity, vec![1]);
        assert_eq!(strided.divisibility, vec![2]);
        let values: Vec<i64> = (0..64).map(|i| i * 2).collect();
        assert!(holds(&strided, &values, &[64]));
        // Times 1 keeps the run, on either side.
        let one = AxisInfo::constant(1, &[64]);
        assert_eq!(
            AxisInfo::mul(&AxisInfo::arange(0, 64), &one).contiguity,
            vec![64]
        );
        assert_eq!(
            AxisInfo::mul(&one, &AxisInfo::arange(0, 64)).contiguity,
            vec![64]
        );
    }

    /// `ptr + offset` measures the offset's divisibility in bytes: an
    /// offset that is a multiple of 4 elements moves a 64-byte aligned
    /// pointer by multiples of `4 * elem_bytes` bytes.
    #[test]
    fn pointer_offsets_are_scaled_to_bytes() {
        let ptr = AxisInfo::splat(&AxisInfo::scalar(64), &[128]);
        // arange(0, 128) * 4: multiples of 4 elements, no runs.
        let offs = AxisInfo::mul(&AxisInfo::arange(0, 128), &AxisInfo::constant(4, &[128]));
        assert_eq!(offs.divisibility, vec![4]);
        for (elem_bytes, aligned) in [(1, 4), (2, 8), (4, 16), (8, 32), (32, 64)] {
            let p = AxisInfo::add_pointer(&ptr, &offs, elem_bytes);
            assert_eq!(p.divisibility, vec![aligned], "{elem_bytes}-byte elements");
            assert_eq!(p.contiguity, vec![1]);
            // The addresses 64 * k + 4 * elem_bytes * i, checked.
            for base in [0i64, 64, 192] {
                let bytes: Vec<i64> = (0..128).map(|i| base + 4 * elem_bytes * i).collect();
                assert!(holds(&p, &bytes, &[128]), "{elem_bytes}-byte elements");
            }
        }
    }

    /// `rows[:, None]` and `cols[None, :]` broadcast over a 16 x 64 tile,
    /// and the row-major offsets `rows * 64 + cols`.
    fn row_major_offsets() -> (AxisInfo, AxisInfo, AxisInfo) {
        let rows = AxisInfo::arange(0, 16)
            .expand_dims(1)
            .broadcast(&[16, 1], &[16, 64]);
        let cols = AxisInfo::arange(0, 64)
            .expand_dims(0)
            .broadcast(&[1, 64], &[16, 64]);
        let offs = AxisInfo::add(
            &AxisInfo::mul(&rows, &AxisInfo::constant(64, &[16, 64])),
            &cols,
        );
        (rows, cols, offs)
    }

    /// A scalar operand of a tensor operation stands for its value at every
    /// element: `x * 1` keeps all of `x`'s facts on every axis, on either
    /// side, and `x % 1` is zero at every axis of `x`.
    #[test]
    fn scalar_operands_apply_along_every_axis() {
        let (_, _, offs) = row_major_offsets();
        let one = AxisInfo::constant(1, &[]);
        assert_eq!(AxisInfo::mul(&offs, &one), offs);
        assert_eq!(AxisInfo::mul(&one, &offs), offs);
        let zero = AxisInfo::rem(&offs, &one, true);
        assert_eq!(zero.constant, Some(0));
        assert_eq!(zero.rank(), 2);
    }

    #[test]
    fn two_dimensional_row_major_offsets() {
        let (rows, cols, offs) = row_major_offsets();
        assert_eq!(offs.contiguity, vec![1, 64]);
        assert_eq!(offs.divisibility[1], 64);
        let values: Vec<i64> = (0..16 * 64).collect();
        assert!(holds(&offs, &values, &[16, 64]));
        // The transposed form runs along axis 0.
        let t = AxisInfo::add(
            &rows,
            &AxisInfo::mul(&cols, &AxisInfo::constant(16, &[16, 64])),
        );
        assert_eq!(t.contiguity, vec![16, 1]);
    }

    #[test]
    fn remainders_of_runs_restart_at_the_divisor() {
        // (pid * 128 + arange(0, 128)) % m with m a multiple of 16: runs
        // of 16, checked for several programs and divisors.
        let offs = AxisInfo::add(
            &AxisInfo::splat(
                &AxisInfo::mul(&AxisInfo::scalar(1), &AxisInfo::constant(128, &[])),
                &[128],
            ),
            &AxisInfo::arange(0, 128),
        );
        let m = AxisInfo::splat(&AxisInfo::scalar(16), &[128]);
        let rem = AxisInfo::rem(&offs, &m, true);
        assert_eq!(rem.contiguity, vec![16]);
        assert_eq!(rem.divisibility, vec![16]);
        let quotient = AxisInfo::div(&offs, &m, true);
        assert_eq!(quotient.constancy, vec![16]);
        for pid in [0i64, 1, 3] {
            for n in [16i64, 48, 80, 4096] {
                let x: Vec<i64> = (0..128).map(|i| pid * 128 + i).collect();
                let r: Vec<i64> = x.iter().map(|v| v % n).collect();
                let q: Vec<i64> = x.iter().map(|v| v / n).collect();
                assert!(holds(&rem, &r, &[128]), "pid {pid} n {n}");
                assert!(holds(&quotient, &q, &[128]), "pid {pid} n {n}");
            }
        }
        // Nothing is claimed of a dividend that may be negative, nor of a
        // divisor of unknown divisibility.
        assert_eq!(AxisInfo::rem(&offs, &m, false).contiguity, vec![1]);
        let odd = AxisInfo::splat(&AxisInfo::scalar(1), &[128]);
        assert_eq!(AxisInfo::rem(&offs, &odd, true).contiguity, vec![1]);
        // A negative dividend would break the claim: -4 % 4 == 0 but
        // -3 % 4 == -3.
        let negative: Vec<i64> = (-4..4).map(|v| v % 4).collect();
        let claimed = AxisInfo::rem(
            &AxisInfo::arange(0, 8),
            &AxisInfo::splat(&AxisInfo::scalar(4), &[8]),
            true,
        );
        assert_eq!(claimed.contiguity, vec![4]);
        assert!(!holds(&claimed, &negative, &[8]));
        // % 1 is zero everywhere.
        let one = AxisInfo::constant(1, &[128]);
        assert_eq!(AxisInfo::rem(&offs, &one, false).constant, Some(0));
    }

    /// `a % n` and `a / n` where `n` changes between aligned groups of 16
    /// (each a multiple of 16): the remainder still runs, and the quotient
    /// stays constant, over those groups; where `n` changes every 8 while
    /// the run would be 16, nothing is claimed.
    #[test]
    fn divisors_need_only_be_constant_over_the_run() {
        let offs = AxisInfo::add(
            &AxisInfo::splat(
                &AxisInfo::mul(&AxisInfo::scalar(1), &AxisInfo::constant(128, &[])),
                &[128],
            ),
            &AxisInfo::arange(0, 128),
        );
        let divisor = |constancy: i64| AxisInfo {
            contiguity: vec![1],
            divisibility: vec![16],
            constancy: vec![constancy],
            constant: None,
        };
        // Per aligned group of `k`, a multiple of 16.
        let values = |k: i64| -> Vec<i64> {
            (0..128)
                .map(|i| [16, 48, 32, 80][(i / k % 4) as usize])
                .collect()
        };
        for (k, run) in [(128, 16), (16, 16), (8, 1)] {
            let n = divisor(k);
            let rem = AxisInfo::rem(&offs, &n, true);
            let quotient = AxisInfo::div(&offs, &n, true);
            assert_eq!(rem.contiguity, vec![run], "n constant over {k}");
            assert_eq!(quotient.constancy, vec![run], "n constant over {k}");
            for pid in [0i64, 1, 3] {
                let x: Vec<i64> = (0..128).map(|i| pid * 128 + i).collect();
                let n = values(k);
                let r: Vec<i64> = x.iter().zip(&n).map(|(v, n)| v % n).collect();
                let q: Vec<i64> = x.iter().zip(&n).map(|(v, n)| v / n).collect();
                assert!(holds(&rem, &r, &[128]), "pid {pid}, n constant over {k}");
                assert!(
                    holds(&quotient, &q, &[128]),
                    "pid {pid}, n constant over {k}"
                );
            }
        }
    }

    /// Where one aligned group of the remainder is the dividend's whole run,
    /// its first value `a - q * n` is a multiple of what divides both `a`'s
    /// first value and `n`: `(pid * 64 + arange(0, 16)) % n` with `n` a
    /// multiple of 32 starts its run of 16 at a multiple of 32, not only 16.
    #[test]
    fn remainders_keep_the_divisibility_dividend_and_divisor_share() {
        let offs = AxisInfo::add(
            &AxisInfo::splat(
                &AxisInfo::mul(&AxisInfo::scalar(1), &AxisInfo::constant(64, &[])),
                &[16],
            ),
            &AxisInfo::arange(0, 16),
        );
        assert_eq!((offs.contiguity[0], offs.divisibility[0]), (16, 64));
        for (n_divisibility, divisibility) in [(32, 32), (64, 64), (1024, 64)] {
            let n = AxisInfo::splat(&AxisInfo::scalar(n_divisibility), &[16]);
            let rem = AxisInfo::rem(&offs, &n, true);
            assert_eq!(rem.contiguity, vec![16]);
            assert_eq!(
                rem.divisibility,
                vec![divisibility],
                "n a multiple of {n_divisibility}"
            );
            for pid in 0i64..6 {
                for k in [1i64, 3, 5] {
                    let n = n_divisibility * k;
                    let r: Vec<i64> = (0..16).map(|i| (pid * 64 + i) % n).collect();
                    assert!(holds(&rem, &r, &[16]), "pid {pid} n {n}");
                }
            }
        }
    }

    /// The quotient of two constants is a constant (divisibility that of
    /// the quotient); a zero divisor gives no constant.
    #[test]
    fn exact_quotients_keep_what_the_divisor_leaves_of_the_divisibility() {
        // pid * 2048 (a scalar multiple of 2048) / 2: a multiple of 1024.
        let a = AxisInfo::scalar(2048);
        let two = AxisInfo::constant(2, &[1]);
        assert_eq!(AxisInfo::div(&a, &two, true).divisibility, vec![1024]);
        assert_eq!(AxisInfo::div(&a, &two, false).divisibility, vec![1024]);
        // Not when the divisor does not divide it (2048 / 3), nor for a
        // contiguous run (1024 pid + arange: only its first element is a
        // multiple of 1024, so its halves are not multiples of 512).
        let three = AxisInfo::constant(3, &[1]);
        assert_eq!(AxisInfo::div(&a, &three, true).divisibility, vec![1]);
        let run = AxisInfo::add(
            &AxisInfo::splat(&AxisInfo::scalar(1024), &[1024]),
            &AxisInfo::arange(0, 1024),
        );
        assert_eq!(
            AxisInfo::div(&run, &AxisInfo::constant(2, &[1024]), true).divisibility,
            vec![1]
        );
    }

    #[test]
    fn minima_of_multiples_are_multiples() {
        let n = AxisInfo::splat(&AxisInfo::scalar(16), &[1024]);
        let m = AxisInfo::splat(&AxisInfo::scalar(64), &[1024]);
        let low = AxisInfo::min_max(&n, &m);
        assert_eq!(
            (low.divisibility.clone(), low.constancy.clone()),
            (vec![16], vec![1024])
        );
        // Not from a contiguous run, whose later elements are not multiples.
        let run = AxisInfo::add(&m, &AxisInfo::arange(0, 1024));
        assert_eq!(AxisInfo::min_max(&n, &run).divisibility, vec![1]);
    }

    #[test]
    fn constant_quotients_are_folded() {
        let q = AxisInfo::div(
            &AxisInfo::constant(96, &[]),
            &AxisInfo::constant(3, &[]),
            true,
        );
        assert_eq!((q.constant, q.divisibility), (Some(32), vec![32]));
        let q = AxisInfo::div(
            &AxisInfo::constant(12, &[]),
            &AxisInfo::constant(4, &[]),
            true,
        );
        assert_eq!((q.constant, q.divisibility), (Some(3), vec![1]));
        let q = AxisInfo::div(
            &AxisInfo::constant(12, &[]),
            &AxisInfo::constant(0, &[]),
            true,
        );
        assert_eq!(q.constant, None);
    }

    #[test]
    fn joins_keep_only_common_facts() {
        let a = AxisInfo::scalar(64);
        let b = AxisInfo::scalar(16);
        assert_eq!(a.join(&b).divisibility, vec![16]);
        let c = AxisInfo::constant(3, &[]);
        assert_eq!(c.join(&c).constant, Some(3));
        assert_eq!(c.join(&AxisInfo::constant(4, &[])).constant, None);
        assert_eq!(pow2_divisor(0), MAX_DIVISIBILITY);
        assert_eq!(pow2_divisor(-48), 16);
    }
}
