//! The cross-entropy forward's launch (`tile_examples::cross_entropy`),
//! shared by the GPU check ([`super::op_kernels`]) and `tile-tools bench`:
//! the targets, the buffers and arguments, and the check of the
//! predictions (exact: the first maximum of each row).

use super::Outcome;
use tile::{Arg, Buffer, Device};

/// The target class of each of `rows` rows of `v` logits.
pub fn targets(rows: usize, v: usize) -> Vec<i32> {
    (0..rows).map(|r| ((r * 7919) % v) as i32).collect()
}

/// The kernel's buffers on the device.
pub struct Buffers {
    /// The logits, `rows x v`.
    pub logits: Buffer<f32>,
    /// The target of each row.
    pub targets: Buffer<i32>,
    /// The loss of each row (as initialized, poisoned).
    pub loss: Buffer<f32>,
    /// The prediction of each row, -1 before the launch.
    pub predictions: Buffer<i32>,
}

impl Buffers {
    /// Uploads `logits`, `targets` and the initial `loss` (its poison, and
    /// a guard after it if the check wants one).
    pub fn upload(
        device: &Device,
        logits: &[f32],
        targets: &[i32],
        loss: &[f32],
    ) -> Result<Buffers, String> {
        let err = |e: tile::RuntimeError| e.to_string();
        Ok(Buffers {
            logits: device.upload(logits).map_err(err)?,
            targets: device.upload(targets).map_err(err)?,
            loss: device.upload(loss).map_err(err)?,
            predictions: device.upload(&vec![-1i32; targets.len()]).map_err(err)?,
        })
    }

    /// The arguments for rows of `v` logits: `X, T, Loss, Pred, stride, V`.
    pub fn args(&self, v: usize) -> Vec<Arg> {
        vec![
            Arg::from(&self.logits),
            Arg::from(&self.targets),
            Arg::from(&self.loss),
            Arg::from(&self.predictions),
            Arg::from(v as i32),
            Arg::from(v as i32),
        ]
    }

    /// Checks the predictions against `want`, exactly.
    pub fn check_predictions(&self, device: &Device, want: &[i32]) -> Outcome {
        let got = device
            .download(&self.predictions)
            .map_err(|e| e.to_string())?;
        match (0..want.len()).find(|&r| got[r] != want[r]) {
            None => Ok(()),
            Some(r) => Err(format!("row {r}: argmax {}, want {}", got[r], want[r])),
        }
    }
}
