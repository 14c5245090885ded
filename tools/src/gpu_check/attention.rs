//! The GPU cases of the flash-attention forward
//! (`tile_examples::flash_attention`): fixed-length and ragged batches,
//! causal or not, head dimensions 64 and 128, f16 and bf16, against an f64
//! reference of softmax attention on the same (rounded) inputs.
//!
//! Inputs: q and k within [-2, 2) ([`QK_RANGE`]), so the scaled scores
//! spread with a standard deviation near 1.3 and the softmax weighs keys
//! unevenly (the running max moves, the rescaling matters), and v within
//! [-1, 1): outputs stay far above the tolerance even over 4096 keys (an
//! output of zeros, or one key block missing, fails; see the tests).
//!
//! Tolerances: the output is rounded to its type, and the kernel rounds the
//! probabilities to that type before the second product (as every
//! flash-attention kernel does), so each output may differ from the exact
//! one by a few units of the type's precision at the scale of `v`:
//! [`out_tolerance`]. The log-sum-exp is computed in f32 throughout:
//! within [`LSE_TOLERANCE`].

use super::{GUARD, Outcome, POISON, Specializing, chip_options, inputs, summarize, verdict};
use crate::elements::{from_bits, to_bits};
use crate::reference::attention_row;
use tile::{Arg, Device};
use tile_dialect::DType;
use tile_examples::flash_attention::{self, AttentionConfig};

/// Absolute tolerance of the log-sum-exp (an f32 output).
pub const LSE_TOLERANCE: f64 = 2e-4;

/// q and k are drawn within `[-QK_RANGE, QK_RANGE)`, v within [-1, 1).
pub const QK_RANGE: f32 = 2.0;

/// The bits written over the output before a run: NaN in f16 and bf16.
const POISON_16: u16 = 0xFFFF;

/// Absolute tolerance of an output of `dtype`: four of its half-units at 1.
pub fn out_tolerance(dtype: DType) -> f64 {
    match dtype {
        DType::BF16 => 4.0 * 2f64.powi(-8),
        _ => 4.0 * 2f64.powi(-11),
    }
}

/// One attention launch.
#[derive(Clone, Debug)]
pub struct Case {
    /// Sequence lengths (one per batch element); with `varlen` false they
    /// must be equal.
    pub seqlens: Vec<usize>,
    /// Heads.
    pub heads: usize,
    /// The kernel's parameters (head dimension, blocks, causal, varlen).
    pub config: AttentionConfig,
    /// Inputs and output type.
    pub dtype: DType,
    /// Warps per program.
    pub warps: u32,
    /// Pipeline stages (`Options::num_stages`).
    pub stages: u32,
    /// The chip compiled for (`sm_90`: wgmma; `sm_80`: mma.sync).
    pub chip: &'static str,
    /// Whether the GPU launch is also compared with the interpreter (off
    /// for sizes where the interpreter would take minutes).
    pub cross_check: bool,
}

impl Case {
    /// `batch` sequences of `t` tokens, `heads` heads of `head_dim`, f16,
    /// 64 x 64 blocks on 4 warps, 3 stages, sm_90.
    pub fn new(batch: usize, t: usize, heads: usize, head_dim: i64) -> Case {
        Case {
            seqlens: vec![t; batch],
            heads,
            config: AttentionConfig::new(head_dim).blocks(64, 64),
            dtype: DType::F16,
            warps: 4,
            stages: 3,
            chip: "sm_90",
            cross_check: true,
        }
    }

    /// Packed sequences of the given lengths.
    pub fn ragged(seqlens: &[usize], heads: usize, head_dim: i64) -> Case {
        let mut case = Case::new(1, 1, heads, head_dim);
        case.seqlens = seqlens.to_vec();
        case.config = case.config.varlen(true);
        case
    }

    /// A line naming the case.
    pub fn name(&self) -> String {
        let c = &self.config;
        let lens = if c.varlen {
            format!("seqlens={:?}", self.seqlens)
        } else {
            format!("B={} T={}", self.seqlens.len(), self.seqlens[0])
        };
        format!(
            "{lens} H={} D={} {}{} {} blocks {}x{} warps={} stages={} {}",
            self.heads,
            c.head_dim,
            if c.causal { "causal" } else { "full" },
            if c.varlen { " varlen" } else { "" },
            self.dtype,
            c.block_m,
            c.block_n,
            self.warps,
            self.stages,
            self.chip
        )
    }

    /// Runs the case on `device` and checks the output and the
    /// log-sum-exp.
    pub fn run(&self, device: &Device) -> Outcome {
        let err = |e: &dyn std::fmt::Display| e.to_string();
        let context = tile::context().map_err(|e| err(&e))?;
        let kernel = flash_attention::attention_fwd(&context, self.config, self.dtype)
            .map_err(|e| err(&e))?;
        let options = chip_options(self.chip, self.warps, self.stages);
        let loaded = Specializing::with_options(device, &kernel, options);
        let (h, d) = (self.heads, self.config.head_dim as usize);
        let total: usize = self.seqlens.iter().sum();
        let mut cu = vec![0i32];
        for &t in &self.seqlens {
            cu.push(cu.last().copied().unwrap_or(0) + t as i32);
        }
        let len = total * h * d;
        let q = Tensor::new(device, len, 3 + len as u64, QK_RANGE, self.dtype)?;
        let k = Tensor::new(device, len, 5 + len as u64, QK_RANGE, self.dtype)?;
        let v = Tensor::new(device, len, 7 + len as u64, 1.0, self.dtype)?;
        let o = device
            .upload(&vec![POISON_16; len + GUARD])
            .map_err(|e| err(&e))?;
        let lse = device
            .upload(&vec![POISON; total * h + GUARD])
            .map_err(|e| err(&e))?;
        let cu_buffer = device.upload(&cu).map_err(|e| err(&e))?;
        let sm_scale = 1.0 / (d as f32).sqrt();
        let t_max = self.seqlens.iter().copied().max().unwrap_or(0);
        let args = [
            q.arg,
            k.arg,
            v.arg,
            Arg::from(&o),
            Arg::from(&lse),
            Arg::from(&cu_buffer),
            Arg::from(t_max as i32),
            Arg::from(h as i32),
            Arg::from(sm_scale),
        ];
        let grid = (
            t_max.div_ceil(self.config.block_m as usize) as u32,
            (self.seqlens.len() * h) as u32,
        );
        if self.cross_check {
            loaded.launch(grid, &args)?;
        } else {
            let jit = loaded.jit()?;
            jit.launch(device, grid, &args).map_err(|e| err(&e))?;
        }
        let got_o: Vec<u16> = device.download(&o).map_err(|e| err(&e))?;
        let got_lse: Vec<f32> = device.download(&lse).map_err(|e| err(&e))?;
        let (want_o, want_lse) = reference(
            &q.values,
            &k.values,
            &v.values,
            &cu,
            h,
            d,
            f64::from(sm_scale),
            self.config.causal,
        );
        let tol = out_tolerance(self.dtype);
        let mut errors = Vec::new();
        for (i, (&g, &w)) in got_o.iter().zip(&want_o).enumerate() {
            let g = from_bits(self.dtype, g);
            if g.is_nan() || (f64::from(g) - w).abs() > tol {
                errors.push(format!("o[{i}] = {g}, want {w:.6}"));
            }
        }
        for (i, &g) in got_o.iter().enumerate().skip(len) {
            if g != POISON_16 {
                errors.push(format!("o guard [{i}] was written: {g:#x}"));
            }
        }
        let o_outcome = summarize(errors).map_err(|e| format!("{e} (tol {tol:e})"));
        let mut lse_errors = Vec::new();
        for (i, (&g, &w)) in got_lse.iter().zip(&want_lse).enumerate() {
            if g.is_nan() || (f64::from(g) - w).abs() > LSE_TOLERANCE {
                lse_errors.push(format!("lse[{i}] = {g}, want {w:.6}"));
            }
        }
        let lse_outcome = verdict(&got_lse, want_lse.len(), lse_errors)
            .map_err(|e| format!("log-sum-exp: {e} (tol {LSE_TOLERANCE:e})"));
        o_outcome.and(lse_outcome)
    }
}

/// Softmax attention in f64 over packed sequences (`cu`: where each
/// begins, then the total): the output `[total, h, d]` and the natural
/// log-sum-exp of each row's scaled scores `[total, h]`.
#[allow(clippy::too_many_arguments)]
pub fn reference(
    q: &[f32],
    k: &[f32],
    v: &[f32],
    cu: &[i32],
    h: usize,
    d: usize,
    sm_scale: f64,
    causal: bool,
) -> (Vec<f64>, Vec<f64>) {
    let total = *cu.last().unwrap_or(&0) as usize;
    let mut out = vec![0f64; total * h * d];
    let mut lse = vec![0f64; total * h];
    let at = |token: usize, head: usize| (token * h + head) * d;
    for seq in cu.windows(2) {
        let (bos, eos) = (seq[0] as usize, seq[1] as usize);
        for head in 0..h {
            let key = |j: usize| &k[at(bos + j, head)..at(bos + j, head) + d];
            let value = |j: usize| &v[at(bos + j, head)..at(bos + j, head) + d];
            for i in bos..eos {
                let keys = if causal { i + 1 } else { eos };
                let qi = &q[at(i, head)..at(i, head) + d];
                let (row, row_lse) = attention_row(qi, keys - bos, key, value, sm_scale);
                lse[i * h + head] = row_lse;
                out[at(i, head)..at(i, head) + d].copy_from_slice(&row);
            }
        }
    }
    (out, lse)
}

/// An input uploaded as f16 or bf16, and the values the kernel reads.
struct Tensor {
    values: Vec<f32>,
    arg: Arg,
    _buffer: tile::Buffer<u16>,
}

impl Tensor {
    /// `len` values in [-range, range), rounded to `dtype`.
    fn new(
        device: &Device,
        len: usize,
        seed: u64,
        range: f32,
        dtype: DType,
    ) -> Result<Tensor, String> {
        let bits: Vec<u16> = inputs(len, seed)
            .iter()
            .map(|&x| to_bits(dtype, x / 8.0 * range))
            .collect();
        let values = bits.iter().map(|&b| from_bits(dtype, b)).collect();
        let buffer = device.upload(&bits).map_err(|e| e.to_string())?;
        Ok(Tensor {
            values,
            arg: Arg::from(&buffer),
            _buffer: buffer,
        })
    }
}

/// The cases. Without `large`: T in 1, 17, 128 and a ragged batch, at
/// sizes the interpreter runs in seconds (CI). With `large` (a GPU): also
/// T 1000 and 4096, ragged batches with long sequences, both head
/// dimensions and types, the benchmark's blocks and warps, sm_80.
pub fn cases(large: bool) -> Vec<Case> {
    let mut out = Vec::new();
    let mut push = |case: Case| {
        for causal in [false, true] {
            out.push(Case {
                config: case.config.causal(causal),
                ..case.clone()
            });
        }
    };
    for (t, d) in [(1, 64), (17, 64), (128, 128), (70, 128)] {
        push(Case::new(2, t, 2, d));
    }
    push(Case::ragged(&[17, 1, 130, 64], 2, 64));
    push(Case {
        dtype: DType::BF16,
        ..Case::ragged(&[33, 100], 1, 128)
    });
    if !large {
        return out;
    }
    for (t, d) in [(1000, 64), (1000, 128)] {
        push(Case::new(2, t, 2, d));
    }
    for (t, d, dtype) in [(4096, 64, DType::F16), (4096, 128, DType::BF16)] {
        push(Case {
            dtype,
            cross_check: false,
            ..Case::new(1, t, 2, d)
        });
    }
    push(Case {
        cross_check: false,
        ..Case::ragged(&[1, 4096, 17, 1000, 2500, 128], 2, 128)
    });
    // The benchmark's configurations (blocks, warps, stages).
    for (d, bm, bn, warps, stages) in [
        (64, 128, 128, 8, 3),
        (128, 128, 64, 8, 3),
        (128, 128, 128, 8, 3),
        (64, 128, 128, 4, 3),
        (64, 128, 64, 4, 3),
        (128, 128, 64, 4, 2),
        (64, 128, 64, 8, 2),
    ] {
        for dtype in [DType::F16, DType::BF16] {
            push(Case {
                dtype,
                warps,
                stages,
                config: AttentionConfig::new(d).blocks(bm, bn),
                ..Case::new(2, 1000, 3, d)
            });
        }
    }
    for (t, d) in [(300, 64), (130, 128)] {
        push(Case {
            chip: "sm_80",
            ..Case::new(2, t, 2, d)
        });
    }
    // Narrow heads on sm_80: `p @ v`'s layout keeps the 4 warps along M,
    // as `p`'s does, so `p` is read from registers (one and two blocks of
    // 16 rows a warp).
    for (d, bm) in [(16, 64), (32, 128)] {
        push(Case {
            chip: "sm_80",
            config: AttentionConfig::new(d).blocks(bm, 16),
            ..Case::new(2, 300, 2, d)
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Inputs as the cases draw them, as f32 values (f16-rounded).
    fn drawn(len: usize, seed: u64, range: f32) -> Vec<f32> {
        inputs(len, seed)
            .iter()
            .map(|&x| from_bits(DType::F16, to_bits(DType::F16, x / 8.0 * range)))
            .collect()
    }

    /// The check can fail: over 1024 keys the exact outputs reach far
    /// beyond the tolerance (zeros would fail), and leaving out the last
    /// block of 64 keys moves some output by more than the tolerance.
    #[test]
    fn outputs_stand_out_of_the_tolerance() {
        let (t, d) = (1024usize, 64usize);
        let q = drawn(t * d, 3, QK_RANGE);
        let k = drawn(t * d, 5, QK_RANGE);
        let v = drawn(t * d, 7, 1.0);
        let scale = 1.0 / (d as f64).sqrt();
        let tol = out_tolerance(DType::F16);
        let (all, _) = reference(&q, &k, &v, &[0, t as i32], 1, d, scale, false);
        let largest = all.iter().fold(0f64, |m, x| m.max(x.abs()));
        assert!(largest > 50.0 * tol, "largest output {largest}");
        let short = t - 64;
        let (fewer, _) = reference(&q, &k, &v, &[0, short as i32], 1, d, scale, false);
        let moved = fewer
            .iter()
            .zip(&all)
            .fold(0f64, |m, (a, b)| m.max((a - b).abs()));
        assert!(
            moved > 4.0 * tol,
            "one block fewer moves outputs by {moved}"
        );
    }
}
