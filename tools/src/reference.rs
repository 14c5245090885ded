//! The f64 references the GPU check and the benchmarks compare with,
//! written once: a sum with the magnitude of its terms (the scale of the
//! rounding error any summation order makes), the softmax of a row, one
//! row of softmax attention, and the points checked of a large output.

/// The sum of `terms`, added in order, and the sum of their magnitudes.
pub fn sum(terms: impl IntoIterator<Item = f64>) -> (f64, f64) {
    terms
        .into_iter()
        .fold((0f64, 0f64), |(s, t), x| (s + x, t + x.abs()))
}

/// The softmax of `row`, in f64: `exp(x - max) / sum(exp(x - max))`.
pub fn softmax(row: &[f32]) -> impl Iterator<Item = f64> + '_ {
    let max = row
        .iter()
        .fold(f64::NEG_INFINITY, |m, &v| m.max(f64::from(v)));
    let den: f64 = row.iter().map(|&v| (f64::from(v) - max).exp()).sum();
    row.iter().map(move |&v| (f64::from(v) - max).exp() / den)
}

/// One row of softmax attention in f64: the scores of `q` against `keys`
/// key rows (`key(j)`), times `scale`, their softmax weighing the value
/// rows (`value(j)`, as long as `q`). Returns the output row and the
/// natural log-sum-exp of the scaled scores.
pub fn attention_row<'a>(
    q: &[f32],
    keys: usize,
    key: impl Fn(usize) -> &'a [f32],
    value: impl Fn(usize) -> &'a [f32],
    scale: f64,
) -> (Vec<f64>, f64) {
    let scores: Vec<f64> = (0..keys)
        .map(|j| {
            let dot: f64 = q
                .iter()
                .zip(key(j))
                .map(|(&a, &b)| f64::from(a) * f64::from(b))
                .sum();
            dot * scale
        })
        .collect();
    let m = scores.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let l: f64 = scores.iter().map(|s| (s - m).exp()).sum();
    let mut out = vec![0f64; q.len()];
    for (j, s) in scores.iter().enumerate() {
        let p = (s - m).exp() / l;
        for (o, &x) in out.iter_mut().zip(value(j)) {
            *o += p * f64::from(x);
        }
    }
    (out, m + l.ln())
}

/// The points of an `m x n` output a check looks at: the four corners,
/// then `count` drawn by a fixed linear congruential sequence.
pub fn sampled_points(m: usize, n: usize, count: usize) -> Vec<(usize, usize)> {
    let mut points = vec![(0, 0), (m - 1, n - 1), (0, n - 1), (m - 1, 0)];
    let mut s: u64 = 0x9e37_79b9_7f4a_7c15;
    for _ in 0..count {
        s = s
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        points.push(((s >> 33) as usize % m, (s >> 13) as usize % n));
    }
    points
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sums_keep_their_magnitudes() {
        assert_eq!(sum([1.0, -2.0, 3.0]), (2.0, 6.0));
        assert_eq!(sum([]), (0.0, 0.0));
    }

    #[test]
    fn softmax_of_rows() {
        let s: Vec<f64> = softmax(&[0.0, 0.0]).collect();
        assert_eq!(s, vec![0.5, 0.5]);
        let s: Vec<f64> = softmax(&[1.0, f32::NEG_INFINITY]).collect();
        assert_eq!(s, vec![1.0, 0.0]);
    }

    #[test]
    fn attention_weighs_values_by_the_softmax_of_scores() {
        // Two keys scoring 0 and ln(3) (scale 1): weights 1/4 and 3/4.
        let q = [1.0f32, 0.0];
        let keys = [[0.0f32, 5.0], [3f32.ln(), 7.0]];
        let values = [[4.0f32, 8.0], [0.0, 4.0]];
        let (out, lse) = attention_row(&q, 2, |j| &keys[j], |j| &values[j], 1.0);
        assert!(
            (out[0] - 1.0).abs() < 1e-6 && (out[1] - 5.0).abs() < 1e-6,
            "{out:?}"
        );
        assert!((lse - 4f64.ln()).abs() < 1e-6, "{lse}");
    }

    #[test]
    fn sampled_points_start_at_the_corners_and_stay_inside() {
        let points = sampled_points(17, 5, 100);
        assert_eq!(points[..4], [(0, 0), (16, 4), (0, 4), (16, 0)]);
        assert_eq!(points.len(), 104);
        assert!(points.iter().all(|&(i, j)| i < 17 && j < 5));
        assert_eq!(points, sampled_points(17, 5, 100));
    }
}
