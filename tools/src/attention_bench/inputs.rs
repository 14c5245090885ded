//! The inputs of an attention-bench case and the check of ours on
//! sampled rows against an f64 reference.

use super::{Case, err};
use crate::gpu_check::attention::QK_RANGE;
use crate::gpu_check::inputs;
use crate::reference::attention_row;
use tile::{Arg, Device};

/// The inputs of one case on the device, and their values.
pub(super) struct Inputs {
    q: Vec<f32>,
    k: Vec<f32>,
    v: Vec<f32>,
    /// q, k, v and the output, f16.
    pub(super) buffers: [tile::Buffer<u16>; 4],
    lse: tile::Buffer<f32>,
    cu: tile::Buffer<i32>,
}

impl Inputs {
    /// Uploads the inputs of `c` (and a zeroed output).
    pub(super) fn new(device: &Device, c: &Case) -> Result<Inputs, String> {
        let len = c.b * c.t * c.h * c.d;
        // q and k within [-QK_RANGE, QK_RANGE), v within [-1, 1), as the
        // GPU check draws them (scores spread enough that outputs stand
        // far out of the tolerance).
        let make = |seed: u64, range: f32| -> (Vec<f32>, Vec<u16>) {
            let bits: Vec<u16> = inputs(len, seed)
                .iter()
                .map(|&x| half::f16::from_f32(x / 8.0 * range).to_bits())
                .collect();
            let values = bits.iter().map(|&b| half::f16::from_bits(b).to_f32());
            (values.collect(), bits)
        };
        let (q, qb) = make(3, QK_RANGE);
        let (k, kb) = make(5, QK_RANGE);
        let (v, vb) = make(7, 1.0);
        let up = |bits: &[u16]| device.upload(bits).map_err(err);
        Ok(Inputs {
            buffers: [up(&qb)?, up(&kb)?, up(&vb)?, up(&vec![0u16; len])?],
            lse: device.alloc(c.b * c.t * c.h).map_err(err)?,
            cu: device.upload(&vec![0i32; c.b + 1]).map_err(err)?,
            q,
            k,
            v,
        })
    }

    /// The kernel's arguments.
    pub(super) fn args(&self, c: &Case) -> Vec<Arg> {
        let mut args: Vec<Arg> = self.buffers.iter().map(Arg::from).collect();
        args.push(Arg::from(&self.lse));
        args.push(Arg::from(&self.cu));
        args.push(Arg::from(c.t as i32));
        args.push(Arg::from(c.h as i32));
        args.push(Arg::from(1.0 / (c.d as f32).sqrt()));
        args
    }

    /// Checks 48 sampled rows (the first and last of each sequence, and
    /// rows at block edges) against the f64 reference.
    pub(super) fn check(&self, device: &Device, c: &Case) -> Result<(), String> {
        let o: Vec<u16> = device.download(&self.buffers[3]).map_err(err)?;
        let lse: Vec<f32> = device.download(&self.lse).map_err(err)?;
        let scale = 1.0 / (c.d as f64).sqrt();
        let at = |b: usize, t: usize, h: usize| ((b * c.t + t) * c.h + h) * c.d;
        for s in 0..48usize {
            let (b, h) = (s % c.b, (s * 7) % c.h);
            let t = match s % 4 {
                0 => 0,
                1 => c.t - 1,
                2 => (s * 131) % c.t,
                _ => ((s * 64) + 63) % c.t,
            };
            let keys = if c.causal { t + 1 } else { c.t };
            let q = &self.q[at(b, t, h)..at(b, t, h) + c.d];
            let key = |j: usize| &self.k[at(b, j, h)..at(b, j, h) + c.d];
            let value = |j: usize| &self.v[at(b, j, h)..at(b, j, h) + c.d];
            let (want, want_lse) = attention_row(q, keys, key, value, scale);
            let got_lse = f64::from(lse[(b * c.t + t) * c.h + h]);
            if (got_lse - want_lse).abs() > 2e-4 || got_lse.is_nan() {
                return Err(format!("lse[{b},{t},{h}] = {got_lse}, want {want_lse}"));
            }
            for (dd, &want) in want.iter().enumerate() {
                let got = f64::from(half::f16::from_bits(o[at(b, t, h) + dd]).to_f32());
                if (got - want).abs() > 4.0 * 2f64.powi(-11) || got.is_nan() {
                    return Err(format!("o[{b},{t},{h},{dd}] = {got}, want {want}"));
                }
            }
        }
        Ok(())
    }
}
