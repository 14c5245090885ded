//! Shape ops that move elements: permute, join, split and cat (a reshape
//! keeps the row-major order and only renames the shape).
//!
//! ```
//! use tile_dialect::DType;
//! use tile_interpreter::rearrange::{join, permute, split};
//! use tile_interpreter::value::Tensor;
//!
//! let m = Tensor::ints(vec![2, 3], DType::I32, vec![0, 1, 2, 3, 4, 5]);
//! let t = permute(&m, &[1, 0]);
//! assert_eq!(t.shape, vec![3, 2]);
//! assert_eq!(t.as_ints(), Some(&[0, 3, 1, 4, 2, 5][..]));
//! let pairs = join(&m, &t.reshaped(vec![2, 3])).unwrap();
//! assert_eq!(pairs.as_ints(), Some(&[0, 0, 1, 3, 2, 1, 3, 4, 4, 2, 5, 5][..]));
//! let (lo, hi) = split(&pairs).unwrap();
//! assert_eq!(lo, m);
//! assert_eq!(hi.as_ints(), Some(&[0, 3, 1, 4, 2, 5][..]));
//! ```

use crate::value::{Elems, Tensor, row_major_strides, unflatten};

/// The axes reordered: result axis `i` is `src`'s axis `order[i]`
/// (`order` a permutation of `src`'s axes).
pub fn permute(src: &Tensor, order: &[usize]) -> Tensor {
    let shape: Vec<usize> = order.iter().map(|&a| src.shape[a]).collect();
    let strides = row_major_strides(&src.shape);
    let n = src.len();
    let picks = (0..n).map(|flat| {
        let at = unflatten(flat, &shape);
        at.iter()
            .zip(order)
            .map(|(&i, &a)| i as usize * strides[a])
            .sum()
    });
    let elems = src.elems.gather(picks);
    Tensor {
        shape,
        dtype: src.dtype,
        elems,
    }
}

/// `a` and `b` interleaved along a new last axis of size 2; `None` when
/// their shapes or element kinds differ.
pub fn join(a: &Tensor, b: &Tensor) -> Option<Tensor> {
    if a.shape != b.shape || a.dtype != b.dtype {
        return None;
    }
    let both = concat(&a.elems, &b.elems)?;
    let n = a.len();
    let mut shape = a.shape.clone();
    shape.push(2);
    Some(Tensor {
        shape,
        dtype: a.dtype,
        elems: both.gather((0..2 * n).map(|i| (i % 2) * n + i / 2)),
    })
}

/// The two halves along a last axis of size 2; `None` for another shape.
pub fn split(src: &Tensor) -> Option<(Tensor, Tensor)> {
    if src.shape.len() < 2 || src.shape.last() != Some(&2) {
        return None;
    }
    let shape = src.shape[..src.shape.len() - 1].to_vec();
    let n = src.len() / 2;
    let half = |k: usize| Tensor {
        shape: shape.clone(),
        dtype: src.dtype,
        elems: src.elems.gather((0..n).map(|i| 2 * i + k)),
    };
    Some((half(0), half(1)))
}

/// `a` then `b` along `axis`; `None` when the other axes or the element
/// kinds differ.
pub fn cat(a: &Tensor, b: &Tensor, axis: usize) -> Option<Tensor> {
    let fits = a.shape.len() == b.shape.len()
        && axis < a.shape.len()
        && a.dtype == b.dtype
        && (0..a.shape.len()).all(|i| i == axis || a.shape[i] == b.shape[i]);
    if !fits {
        return None;
    }
    let both = concat(&a.elems, &b.elems)?;
    let mut shape = a.shape.clone();
    shape[axis] += b.shape[axis];
    let (sa, sb) = (row_major_strides(&a.shape), row_major_strides(&b.shape));
    let n: usize = shape.iter().product();
    let picks = (0..n).map(|flat| {
        let mut at = unflatten(flat, &shape);
        let from_b = at[axis] as usize >= a.shape[axis];
        if from_b {
            at[axis] -= a.shape[axis] as i64;
        }
        let strides = if from_b { &sb } else { &sa };
        let within: usize = at.iter().zip(strides).map(|(&i, &s)| i as usize * s).sum();
        if from_b { a.len() + within } else { within }
    });
    let elems = both.gather(picks);
    Some(Tensor {
        shape,
        dtype: a.dtype,
        elems,
    })
}

/// The elements of `a` followed by those of `b`, when of one kind.
fn concat(a: &Elems, b: &Elems) -> Option<Elems> {
    Some(match (a, b) {
        (Elems::Int(x), Elems::Int(y)) => Elems::Int([&x[..], y].concat()),
        (Elems::Float(x), Elems::Float(y)) => Elems::Float([&x[..], y].concat()),
        (Elems::Ptr(x), Elems::Ptr(y)) => Elems::Ptr([&x[..], y].concat()),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use tile_dialect::DType;

    #[test]
    fn permute_moves_every_axis() {
        let x = Tensor::ints(vec![2, 3, 4], DType::I32, (0..24).collect());
        let p = permute(&x, &[2, 0, 1]);
        assert_eq!(p.shape, vec![4, 2, 3]);
        // p[k, i, j] = x[i, j, k] = 12 i + 4 j + k
        let v = p.as_ints().unwrap();
        assert_eq!(v[0..6], [0, 4, 8, 12, 16, 20]);
        assert_eq!(v[6..12], [1, 5, 9, 13, 17, 21]);
    }

    #[test]
    fn cat_along_each_axis() {
        let a = Tensor::ints(vec![2, 2], DType::I32, vec![0, 1, 2, 3]);
        let b = Tensor::ints(vec![2, 2], DType::I32, vec![4, 5, 6, 7]);
        let rows = cat(&a, &b, 0).unwrap();
        assert_eq!(rows.shape, vec![4, 2]);
        assert_eq!(rows.as_ints(), Some(&[0, 1, 2, 3, 4, 5, 6, 7][..]));
        let cols = cat(&a, &b, 1).unwrap();
        assert_eq!(cols.shape, vec![2, 4]);
        assert_eq!(cols.as_ints(), Some(&[0, 1, 4, 5, 2, 3, 6, 7][..]));
        let c = Tensor::ints(vec![2, 1], DType::I32, vec![8, 9]);
        assert!(cat(&a, &c, 0).is_none());
        assert_eq!(cat(&a, &c, 1).unwrap().shape, vec![2, 3]);
    }

    #[test]
    fn split_undoes_join() {
        let a = Tensor::floats(vec![4, 2], DType::F32, (0..8).map(f64::from).collect());
        let b = Tensor::floats(vec![4, 2], DType::F32, (8..16).map(f64::from).collect());
        let j = join(&a, &b).unwrap();
        assert_eq!(j.shape, vec![4, 2, 2]);
        assert_eq!(split(&j), Some((a, b)));
        assert!(split(&Tensor::ints(vec![2], DType::I8, vec![1, 2])).is_none());
    }
}
