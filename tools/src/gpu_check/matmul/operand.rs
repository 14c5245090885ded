//! The matmul's operands: uploaded in their type (f16, bf16, f32, i8),
//! with the values the kernel reads, and TF32 as tensor cores read f32.

use crate::gpu_check::inputs;
use tile::{Arg, Device};
use tile_dialect::DType;

/// `x` as a `tf32` product reads it: the low 13 bits of its significand
/// dropped, as tensor cores read an f32 operand.
pub(crate) fn tf32(x: f32) -> f32 {
    if !x.is_finite() {
        return x;
    }
    f32::from_bits(x.to_bits() & !0x1fff)
}

/// An operand uploaded in its type, and the values the kernel reads.
pub(crate) struct Operand {
    pub(crate) values: Vec<f32>,
    arg: Arg,
    _keep: Box<dyn std::any::Any>,
}

impl Operand {
    pub(crate) fn new(device: &Device, len: usize, seed: u64, d: DType) -> Result<Operand, String> {
        let raw = inputs(len, seed);
        let e = |e: tile::RuntimeError| e.to_string();
        let (values, arg, keep): (Vec<f32>, Arg, Box<dyn std::any::Any>) = match d {
            DType::F16 => {
                let bits: Vec<u16> = raw
                    .iter()
                    .map(|&x| half::f16::from_f32(x).to_bits())
                    .collect();
                let values = bits
                    .iter()
                    .map(|&b| half::f16::from_bits(b).to_f32())
                    .collect();
                let buffer = device.upload(&bits).map_err(e)?;
                (values, Arg::from(&buffer), Box::new(buffer))
            }
            DType::BF16 => {
                let bits: Vec<u16> = raw
                    .iter()
                    .map(|&x| half::bf16::from_f32(x).to_bits())
                    .collect();
                let values = bits
                    .iter()
                    .map(|&b| half::bf16::from_bits(b).to_f32())
                    .collect();
                let buffer = device.upload(&bits).map_err(e)?;
                (values, Arg::from(&buffer), Box::new(buffer))
            }
            DType::F32 => {
                let buffer = device.upload(&raw).map_err(e)?;
                (raw, Arg::from(&buffer), Box::new(buffer))
            }
            DType::I8 => {
                let ints: Vec<i8> = raw.iter().map(|&x| x.floor() as i8).collect();
                let values = ints.iter().map(|&i| f32::from(i)).collect();
                let buffer = device.upload(&ints).map_err(e)?;
                (values, Arg::from(&buffer), Box::new(buffer))
            }
            other => return Err(format!("no matmul inputs of {other}")),
        };
        Ok(Operand {
            values,
            arg,
            _keep: keep,
        })
    }

    pub(crate) fn arg(&self) -> Arg {
        self.arg
    }
}
