//! `cvt` qualifiers: the two types, the rounding mode, `.sat` and `.ftz`;
//! `cvt.rna.tf32.f32`; `cvt.rn.{f16x2,bf16x2}.f32`.

use super::{Op, Round, Ty};

/// Decodes the qualifiers after `cvt`.
pub fn decode_cvt(rest: &[&str]) -> Option<Op> {
    match rest {
        ["rna", "tf32", "f32"] => return Some(Op::CvtTf32),
        ["rn", "f16x2", "f32"] => return Some(Op::CvtPack { bf16: false }),
        ["rn", "bf16x2", "f32"] => return Some(Op::CvtPack { bf16: true }),
        _ => {}
    }
    let n = rest.len();
    if n < 2 {
        return None;
    }
    let (dst, src) = (Ty::parse(rest[n - 2])?, Ty::parse(rest[n - 1])?);
    let mut round = None;
    let mut integral = false;
    let mut sat = false;
    let mut ftz = false;
    for p in &rest[..n - 2] {
        match *p {
            "rn" | "rz" | "rm" | "rp" | "rni" | "rzi" | "rmi" | "rpi" => {
                integral = p.len() == 3;
                round = Some(match &p[..2] {
                    "rn" => Round::Nearest,
                    "rz" => Round::Zero,
                    "rm" => Round::Down,
                    _ => Round::Up,
                });
            }
            "sat" => sat = true,
            "ftz" => ftz = true,
            _ => return None,
        }
    }
    Some(Op::Cvt {
        dst,
        src,
        round,
        integral,
        sat,
        ftz,
    })
}
