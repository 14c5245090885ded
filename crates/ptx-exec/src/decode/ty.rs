//! Instruction types: kind and width.

/// What kind of value a type holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// `.bN`: untyped bits.
    Bits,
    /// `.uN`.
    Unsigned,
    /// `.sN`.
    Signed,
    /// `.f16`, `.f32`, `.f64`.
    Float,
    /// `.bf16`.
    BFloat,
    /// `.pred`.
    Pred,
}

/// An instruction type: kind and width in bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ty {
    /// What it holds.
    pub kind: Kind,
    /// Its width in bits.
    pub bits: u32,
}

impl Ty {
    /// Reads a type suffix (`u32`, `f16`, `pred`, ...).
    pub fn parse(s: &str) -> Option<Ty> {
        let (kind, bits) = match s {
            "pred" => {
                return Some(Ty {
                    kind: Kind::Pred,
                    bits: 1,
                });
            }
            "bf16" => {
                return Some(Ty {
                    kind: Kind::BFloat,
                    bits: 16,
                });
            }
            _ => {
                let kind = match s.as_bytes().first()? {
                    b'b' => Kind::Bits,
                    b'u' => Kind::Unsigned,
                    b's' => Kind::Signed,
                    b'f' => Kind::Float,
                    _ => return None,
                };
                (kind, s[1..].parse::<u32>().ok()?)
            }
        };
        let ok = match kind {
            Kind::Float => matches!(bits, 16 | 32 | 64),
            _ => matches!(bits, 8 | 16 | 32 | 64),
        };
        ok.then_some(Ty { kind, bits })
    }

    /// Bytes in memory.
    pub fn bytes(self) -> u32 {
        self.bits.div_ceil(8)
    }

    /// True for `.f*` and `.bf16`.
    pub fn is_float(self) -> bool {
        matches!(self.kind, Kind::Float | Kind::BFloat)
    }
}
