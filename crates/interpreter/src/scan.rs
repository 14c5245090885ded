//! `tile.scan`: inclusive running sums, products, maxima and minima along
//! one axis, forwards or in reverse.
//!
//! Each output combines the inputs before it (after it, in reverse) from
//! left to right, rounding after every step: f16 and bf16 sums and
//! products are accumulated in f32 and each output is rounded once to the
//! element type, as on the GPU. The GPU groups the terms of a float sum or
//! product differently (per thread, then across lanes and warps), so it
//! agrees with this within rounding, not bit for bit. Integer scans wrap;
//! float max and min ignore NaN (`maxnum`/`minnum`); integer ones are
//! signed.
//!
//! ```
//! use tile_dialect::{DType, ScanKind};
//! use tile_interpreter::{scan::scan, value::Tensor};
//!
//! let t = Tensor::ints(vec![2, 3], DType::I32, vec![1, 2, 3, 4, 5, 6]);
//! let rows = scan(&t, ScanKind::Sum, 1, false);
//! assert_eq!(rows.as_ints(), Some(&[1, 3, 6, 4, 9, 15][..]));
//! let back = scan(&t, ScanKind::Max, 0, true);
//! assert_eq!(back.as_ints(), Some(&[4, 5, 6, 4, 5, 6][..]));
//! ```

use crate::exec::maxnum;
use crate::float;
use crate::value::{Elems, Tensor, signed, wrap};
use tile_dialect::{DType, ScanKind};

/// The scan of `src` along `axis` (a tensor of the same shape and type).
pub fn scan(src: &Tensor, kind: ScanKind, axis: usize, reverse: bool) -> Tensor {
    let len = src.shape[axis];
    let inner: usize = src.shape[axis + 1..].iter().product();
    let outer: usize = src.shape[..axis].iter().product();
    let d = src.dtype;
    let mut elems = src.elems.clone();
    for o in 0..outer {
        for i in 0..inner {
            let mut order: Vec<usize> = (0..len).map(|k| (o * len + k) * inner + i).collect();
            if reverse {
                order.reverse();
            }
            match &mut elems {
                Elems::Float(v) => scan_floats(v, &order, kind, d),
                Elems::Int(v) => scan_ints(v, &order, kind, d),
                Elems::Ptr(_) => unreachable!("the verifier refuses scans of pointers"),
            }
        }
    }
    Tensor {
        shape: src.shape.clone(),
        dtype: d,
        elems,
    }
}

fn scan_floats(v: &mut [f64], order: &[usize], kind: ScanKind, d: DType) {
    let acc_type = if d == DType::F64 {
        DType::F64
    } else {
        DType::F32
    };
    let mut acc: Option<f64> = None;
    for &j in order {
        let x = v[j];
        let next = match acc {
            None => x,
            Some(a) => match kind {
                ScanKind::Sum => float::round(a + x, acc_type),
                ScanKind::Prod => float::round(a * x, acc_type),
                ScanKind::Max => maxnum(a, x),
                ScanKind::Min => -maxnum(-a, -x),
            },
        };
        acc = Some(next);
        v[j] = float::round(next, d);
    }
}

fn scan_ints(v: &mut [i64], order: &[usize], kind: ScanKind, d: DType) {
    let mut acc: Option<i64> = None;
    for &j in order {
        let x = signed(v[j], d);
        let next = match acc {
            None => x,
            Some(a) => match kind {
                ScanKind::Sum => wrap(a.wrapping_add(x), d),
                ScanKind::Prod => wrap(a.wrapping_mul(x), d),
                ScanKind::Max => a.max(x),
                ScanKind::Min => a.min(x),
            },
        };
        acc = Some(next);
        v[j] = wrap(next, d);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scans_each_axis_both_ways() {
        let t = Tensor::floats(vec![2, 3], DType::F32, vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
        let cols = scan(&t, ScanKind::Sum, 0, false);
        assert_eq!(cols.as_floats().unwrap(), &[1.0, 2.0, 3.0, 5.0, 7.0, 9.0]);
        let rev = scan(&t, ScanKind::Prod, 1, true);
        assert_eq!(rev.as_floats().unwrap(), &[6.0, 6.0, 3.0, 120.0, 30.0, 6.0]);
    }

    #[test]
    fn integers_wrap_and_nan_is_ignored_by_max() {
        let t = Tensor::ints(vec![3], DType::I8, vec![100, 100, -128]);
        let s = scan(&t, ScanKind::Sum, 0, false);
        assert_eq!(s.as_ints(), Some(&[100, -56, 72][..]));
        let f = Tensor::floats(vec![3], DType::F32, vec![f64::NAN, 2.0, 1.0]);
        let m = scan(&f, ScanKind::Max, 0, false);
        let got = m.as_floats().unwrap();
        assert!(got[0].is_nan());
        assert_eq!(&got[1..], &[2.0, 2.0]);
    }

    #[test]
    fn half_sums_accumulate_in_f32() {
        // 2048 + 1 + 1 in f16 would stay 2048 step by step; in f32 it is
        // 2050, which f16 holds.
        let t = Tensor::floats(vec![3], DType::F16, vec![2048.0, 1.0, 1.0]);
        let s = scan(&t, ScanKind::Sum, 0, false);
        assert_eq!(s.as_floats().unwrap(), &[2048.0, 2048.0, 2050.0]);
    }
}
