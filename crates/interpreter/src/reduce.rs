//! `tile.reduce`: sum, max and min along one axis.
//!
//! Float sums are pairwise (a balanced tree, as the GPU's in-thread trees
//! and shuffle butterflies are), rounding each addition to the element
//! type; f16 and bf16 are accumulated in f32 and rounded once, as on the
//! GPU. The GPU's grouping depends on the layout, so float sums agree with
//! it within a bound, not bit for bit. Integer sums wrap. Float max and min
//! ignore NaN operands (`maxnum`/`minnum`, Triton's default); integer ones
//! are signed.
//!
//! ```
//! use tile_dialect::{DType, ReduceKind};
//! use tile_interpreter::{reduce::reduce, value::Tensor};
//!
//! // Row sums of a 2 x 3 i32 tile, and the row maxima.
//! let t = Tensor::ints(vec![2, 3], DType::I32, vec![1, 2, 3, 4, 5, 6]);
//! let sums = reduce(&t, ReduceKind::Sum, 1, vec![2], DType::I32);
//! assert_eq!(sums.as_ints(), Some(&[6, 15][..]));
//! let maxima = reduce(&t, ReduceKind::Max, 1, vec![2], DType::I32);
//! assert_eq!(maxima.as_ints(), Some(&[3, 6][..]));
//! ```

use crate::exec::maxnum;
use crate::float;
use crate::value::{Elems, Tensor, signed, wrap};
use tile_dialect::{DType, ReduceKind};

/// Reduces `src` along `axis` into a tensor of `shape` (the result type's,
/// with or without the kept axis) and type `d`.
pub fn reduce(src: &Tensor, kind: ReduceKind, axis: usize, shape: Vec<usize>, d: DType) -> Tensor {
    if kind.is_arg() {
        return arg_reduce(src, kind, axis, shape);
    }
    let picks = columns(src, axis);
    let elems = match &src.elems {
        Elems::Float(v) => Elems::Float(
            picks
                .into_iter()
                .map(|c| reduce_floats(c.map(|j| v[j]).collect(), kind, d))
                .collect(),
        ),
        Elems::Int(v) => Elems::Int(
            picks
                .into_iter()
                .map(|c| reduce_ints(c.map(|j| signed(v[j], src.dtype)), kind, d))
                .collect(),
        ),
        Elems::Ptr(_) => unreachable!("the verifier refuses reductions of pointers"),
    };
    Tensor {
        shape,
        dtype: d,
        elems,
    }
}

/// For each element of the result, the flat indices of its column along
/// `axis`, in order.
fn columns(src: &Tensor, axis: usize) -> Vec<impl Iterator<Item = usize> + use<>> {
    let outer: usize = src.shape[..axis].iter().product();
    let len = src.shape[axis];
    let inner: usize = src.shape[axis + 1..].iter().product();
    let mut picks = Vec::with_capacity(outer * inner);
    for o in 0..outer {
        for i in 0..inner {
            picks.push((0..len).map(move |k| (o * len + k) * inner + i));
        }
    }
    picks
}

/// `argmax` / `argmin`: the first index of the largest (smallest) element,
/// a NaN beating every number (torch's rule).
fn arg_reduce(src: &Tensor, kind: ReduceKind, axis: usize, shape: Vec<usize>) -> Tensor {
    let max = kind == ReduceKind::ArgMax;
    // True when `b` strictly beats `a` (so the earlier index keeps ties).
    let beats_f = |b: f64, a: f64| {
        if a.is_nan() {
            false
        } else if b.is_nan() {
            true
        } else if max {
            b > a
        } else {
            b < a
        }
    };
    let beats_i = |b: i64, a: i64| if max { b > a } else { b < a };
    let mut out = Vec::new();
    for column in columns(src, axis) {
        let idx: Vec<usize> = column.collect();
        let index = match &src.elems {
            Elems::Float(v) => {
                let mut best = 0;
                for (k, &j) in idx.iter().enumerate().skip(1) {
                    if beats_f(v[j], v[idx[best]]) {
                        best = k;
                    }
                }
                best as i64
            }
            Elems::Int(v) => {
                let val = |j: usize| signed(v[j], src.dtype);
                let mut best = 0;
                for (k, &j) in idx.iter().enumerate().skip(1) {
                    if beats_i(val(j), val(idx[best])) {
                        best = k;
                    }
                }
                best as i64
            }
            Elems::Ptr(_) => unreachable!("the verifier refuses reductions of pointers"),
        };
        out.push(index);
    }
    Tensor {
        shape,
        dtype: DType::I32,
        elems: Elems::Int(out),
    }
}

fn reduce_floats(mut v: Vec<f64>, kind: ReduceKind, d: DType) -> f64 {
    match kind {
        ReduceKind::Sum => {
            // f16/bf16 accumulate in f32 and round once at the end.
            let acc = if d == DType::F64 {
                DType::F64
            } else {
                DType::F32
            };
            while v.len() > 1 {
                let half = v.len().div_ceil(2);
                for i in 0..v.len() / 2 {
                    v[i] = float::round(v[2 * i] + v[2 * i + 1], acc);
                }
                if v.len() % 2 == 1 {
                    v[half - 1] = v[v.len() - 1];
                }
                v.truncate(half);
            }
            float::round(v.first().copied().unwrap_or(0.0), d)
        }
        ReduceKind::Max => v.into_iter().fold(f64::NAN, maxnum),
        ReduceKind::Min => -v.into_iter().fold(f64::NAN, |a, x| maxnum(a, -x)),
        ReduceKind::ArgMax | ReduceKind::ArgMin => unreachable!("handled by arg_reduce"),
    }
}

fn reduce_ints(v: impl Iterator<Item = i64>, kind: ReduceKind, d: DType) -> i64 {
    let r = match kind {
        ReduceKind::Sum => v.fold(0i64, i64::wrapping_add),
        ReduceKind::Max => v.max().unwrap_or(i64::MIN),
        ReduceKind::Min => v.min().unwrap_or(i64::MAX),
        ReduceKind::ArgMax | ReduceKind::ArgMin => unreachable!("handled by arg_reduce"),
    };
    wrap(r, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sums_rows_and_columns() {
        let t = Tensor::floats(vec![2, 3], DType::F32, vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
        let rows = reduce(&t, ReduceKind::Sum, 1, vec![2], DType::F32);
        assert_eq!(rows.as_floats().unwrap(), &[6.0, 15.0]);
        let cols = reduce(&t, ReduceKind::Sum, 0, vec![1, 3], DType::F32);
        assert_eq!(cols.as_floats().unwrap(), &[5.0, 7.0, 9.0]);
        let max = reduce(&t, ReduceKind::Max, 1, vec![2], DType::F32);
        assert_eq!(max.as_floats().unwrap(), &[3.0, 6.0]);
        let min = reduce(&t, ReduceKind::Min, 0, vec![3], DType::F32);
        assert_eq!(min.as_floats().unwrap(), &[1.0, 2.0, 3.0]);
    }

    #[test]
    fn float_sums_are_pairwise_and_rounded_per_step() {
        // Sequentially 1 + 2^-24 + 2^-24 + ... stays 1; pairwise the small
        // terms meet first and survive.
        let mut v = vec![1.0];
        v.extend(std::iter::repeat_n(2f64.powi(-24), 3));
        assert_eq!(
            reduce_floats(v, ReduceKind::Sum, DType::F32),
            1.0 + 2f64.powi(-23)
        );
    }

    #[test]
    fn max_ignores_nan_and_integer_sums_wrap() {
        assert_eq!(
            reduce_floats(vec![f64::NAN, 1.0, -2.0], ReduceKind::Max, DType::F32),
            1.0
        );
        assert_eq!(
            reduce_floats(vec![f64::NAN, 1.0, -2.0], ReduceKind::Min, DType::F32),
            -2.0
        );
        assert_eq!(
            reduce_ints(
                [i32::MAX as i64, 1].into_iter(),
                ReduceKind::Sum,
                DType::I32
            ),
            i32::MIN as i64
        );
        assert_eq!(
            reduce_ints([-3, 2].into_iter(), ReduceKind::Max, DType::I32),
            2
        );
    }

    #[test]
    fn argmax_takes_the_first_of_ties_and_nan_wins() {
        let nan = f64::NAN;
        let t = Tensor::floats(
            vec![3, 4],
            DType::F32,
            vec![
                1.0, 5.0, 5.0, 2.0, 1.0, nan, 7.0, nan, -1.0, -3.0, -3.0, 0.0,
            ],
        );
        let am = reduce(&t, ReduceKind::ArgMax, 1, vec![3], DType::I32);
        assert_eq!(am.as_ints(), Some(&[1, 1, 3][..]));
        let an = reduce(&t, ReduceKind::ArgMin, 1, vec![3], DType::I32);
        assert_eq!(an.as_ints(), Some(&[0, 1, 1][..]));
        let cols = reduce(&t, ReduceKind::ArgMax, 0, vec![1, 4], DType::I32);
        assert_eq!(cols.as_ints(), Some(&[0, 1, 1, 1][..]));
        let i = Tensor::ints(vec![4], DType::I8, vec![-1, 127, -128, 127]);
        assert_eq!(
            reduce(&i, ReduceKind::ArgMax, 0, vec![], DType::I32).as_ints(),
            Some(&[1][..])
        );
        assert_eq!(
            reduce(&i, ReduceKind::ArgMin, 0, vec![], DType::I32).as_ints(),
            Some(&[2][..])
        );
    }
}
