//! The typing rules of the debugging ops: `tile.print` and `tile.assert`.

use super::R;
use crate::DType;
use crate::error::Rule;
use crate::types::TileType;

/// `tile.print`: the operand, if any, a number, scalar or tensor (pointers
/// and block pointers are refused: what they address is not a value to
/// print).
pub fn print(value: Option<&TileType>) -> R<()> {
    if let Some(v) = value
        && v.num().is_none()
    {
        return Err(Rule::WrongOperand {
            what: "printed value",
            expected: "a number or a tensor of numbers",
            found: v.to_string(),
        });
    }
    Ok(())
}

/// `tile.assert`: the condition is `i1`, a scalar or a tensor.
pub fn assert(condition: &TileType) -> R<()> {
    if condition.num() != Some(DType::I1) {
        return Err(Rule::WrongOperand {
            what: "assertion condition",
            expected: "i1 (a comparison result), a scalar or a tensor",
            found: condition.to_string(),
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::Elem;

    #[test]
    fn print_takes_numbers_and_refuses_pointers() {
        let f32s = TileType::tensor(&[4, 8], Elem::Num(DType::F32));
        let scalar = TileType::scalar(DType::I64);
        assert_eq!(print(Some(&f32s)), Ok(()));
        assert_eq!(print(Some(&scalar)), Ok(()));
        assert_eq!(print(None), Ok(()));
        let ptrs = TileType::tensor(&[4], Elem::Ptr(DType::F32));
        assert!(matches!(
            print(Some(&ptrs)),
            Err(Rule::WrongOperand {
                what: "printed value",
                ..
            })
        ));
    }

    #[test]
    fn assert_takes_i1_only() {
        assert_eq!(assert(&TileType::scalar(DType::I1)), Ok(()));
        assert_eq!(
            assert(&TileType::tensor(&[16], Elem::Num(DType::I1))),
            Ok(())
        );
        assert!(assert(&TileType::tensor(&[16], Elem::Num(DType::I32))).is_err());
    }
}
