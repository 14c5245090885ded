//! Fused multiply-add: `a * b + c` rounded once (`math.fma`).

use super::kernel::KernelBuilder;
use super::tile::{Operand, Tile};
use crate::error::{Rule, SourceLoc};

impl<'k> KernelBuilder<'k> {
    /// `a * b + c` with one rounding, elementwise over float tiles of one
    /// element type (literals take it; shapes broadcast).
    pub(super) fn fma(
        &'k self,
        a: Operand<'k>,
        b: Operand<'k>,
        c: Operand<'k>,
        at: &SourceLoc,
    ) -> Tile<'k> {
        let name = "math.fma";
        let Some(v) = self.coerce(name, &[a, b, c], at) else {
            return self.poison();
        };
        let dtypes: Vec<_> = v.iter().map(|(_, t)| t.num()).collect();
        let Some(d) = dtypes[0] else {
            return self
                .fail(
                    name,
                    Rule::WrongOperand {
                        what: "operands",
                        expected: "float tiles",
                        found: v[0].1.to_string(),
                    },
                    at,
                )
                .unwrap_or_else(|| self.poison());
        };
        if let Some(other) = dtypes.iter().find(|&&t| t != Some(d)) {
            return self
                .fail(
                    name,
                    Rule::DTypeMismatch {
                        expected: d.to_string(),
                        found: other.map_or("a non-number".into(), |t| t.to_string()),
                    },
                    at,
                )
                .unwrap_or_else(|| self.poison());
        }
        if !d.is_float() {
            return self
                .fail(
                    name,
                    Rule::UnsupportedDType {
                        what: name,
                        dtype: d,
                    },
                    at,
                )
                .unwrap_or_else(|| self.poison());
        }
        let ids: Vec<u32> = v.iter().map(|(id, _)| *id).collect();
        self.emit1(name, at, &ids, &[], v[0].1.clone())
    }
}
