//! `tile.print` on the host: the lines the GPU's `vprintf` would print,
//! element by element in row-major order (`pid (x, y, z) idx (i, j)
//! prefix: value`). Floats are C's `%f` (six decimals; `inf`, `nan`),
//! integers decimal or, with `hex`, `0x` and the bits of the element's
//! width widened to at least 32 (an i8 of -1 is `0xff`).

use crate::value::{Elems, Tensor, unflatten};
use tile_dialect::DType;

/// One element as the GPU prints it.
fn element(elems: &Elems, i: usize, d: DType, hex: bool) -> String {
    match elems {
        Elems::Float(v) => c_fixed(v[i]),
        Elems::Int(v) if hex => {
            let bits = if d.bits() >= 64 {
                u64::MAX
            } else {
                (1u64 << d.bits()) - 1
            };
            format!("0x{:x}", (v[i] as u64) & bits)
        }
        Elems::Int(v) => v[i].to_string(),
        Elems::Ptr(p) => format!("{:?}", p[i]),
    }
}

/// C's `%f`.
fn c_fixed(x: f64) -> String {
    if x.is_nan() {
        return if x.is_sign_negative() { "-nan" } else { "nan" }.to_string();
    }
    if x.is_infinite() {
        return if x < 0.0 { "-inf" } else { "inf" }.to_string();
    }
    format!("{x:.6}")
}

/// The lines `tile.print` of `value` (none: the prefix alone) prints in
/// program `pid`.
pub fn lines(pid: [u32; 3], prefix: &str, hex: bool, value: Option<&Tensor>) -> Vec<String> {
    let head = format!("pid ({}, {}, {})", pid[0], pid[1], pid[2]);
    let Some(t) = value else {
        return vec![format!("{head} {prefix}")];
    };
    if t.shape.is_empty() {
        return vec![format!(
            "{head} {prefix}: {}",
            element(&t.elems, 0, t.dtype, hex)
        )];
    }
    (0..t.elems.len())
        .map(|i| {
            let idx: Vec<String> = unflatten(i, &t.shape).iter().map(i64::to_string).collect();
            format!(
                "{head} idx ({}) {prefix}: {}",
                idx.join(", "),
                element(&t.elems, i, t.dtype, hex)
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_follow_the_gpu_format() {
        let t = Tensor {
            shape: vec![2, 2],
            dtype: DType::F32,
            elems: Elems::Float(vec![1.5, -0.25, f64::INFINITY, 1e-7]),
        };
        assert_eq!(
            lines([1, 0, 2], "x", false, Some(&t)),
            [
                "pid (1, 0, 2) idx (0, 0) x: 1.500000",
                "pid (1, 0, 2) idx (0, 1) x: -0.250000",
                "pid (1, 0, 2) idx (1, 0) x: inf",
                "pid (1, 0, 2) idx (1, 1) x: 0.000000",
            ]
        );
        assert_eq!(lines([0, 0, 0], "hi", false, None), ["pid (0, 0, 0) hi"]);
    }

    #[test]
    fn hex_shows_the_bits_of_the_element_width() {
        let i8s = Tensor::ints(vec![], DType::I8, vec![-1]);
        assert_eq!(
            lines([0; 3], "b", true, Some(&i8s)),
            ["pid (0, 0, 0) b: 0xff"]
        );
        assert_eq!(
            lines([0; 3], "b", false, Some(&i8s)),
            ["pid (0, 0, 0) b: -1"]
        );
        let i64s = Tensor::ints(vec![1], DType::I64, vec![-2]);
        assert_eq!(
            lines([0; 3], "w", true, Some(&i64s)),
            ["pid (0, 0, 0) idx (0) w: 0xfffffffffffffffe"]
        );
    }
}
