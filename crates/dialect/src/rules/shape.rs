//! The typing rules of the ops that move elements between places:
//! `tile.reshape`, `tile.permute`, `tile.join`, `tile.split` and
//! `tile.cat`. Each keeps the element type; numbers and pointers alike
//! may move.

use super::{R, check_axes, tensor_operand, tensor_shape};
use crate::error::Rule;
use crate::types::{Elem, TileType};

/// `tile.reshape`: the same number of elements in a power-of-two shape.
pub fn reshape(src: &TileType, shape: &[i64]) -> R<TileType> {
    let (from, elem) = tensor_operand("reshape source", src)?;
    tensor_shape("reshape shape", shape)?;
    if from.iter().product::<i64>() != shape.iter().product::<i64>() {
        return Err(Rule::ReshapeSize {
            from,
            to: shape.to_vec(),
        });
    }
    Ok(TileType::tensor(shape, elem))
}

/// `tile.permute`: `order` is a permutation of the source's axes; result
/// axis `i` is source axis `order[i]`.
pub fn permute(src: &TileType, order: &[i64]) -> R<TileType> {
    let (from, elem) = tensor_operand("permute source", src)?;
    let permutation =
        order.len() == from.len() && (0..from.len() as i64).all(|a| order.contains(&a));
    if !permutation {
        return Err(Rule::OrderNotPermutation {
            order: order.to_vec(),
        });
    }
    let shape: Vec<i64> = order.iter().map(|&a| from[a as usize]).collect();
    Ok(TileType::tensor(&shape, elem))
}

/// Two operands of one tensor type, as `join` and `cat` (with `axis`
/// free) need them.
fn same_type(
    what: &'static str,
    lhs: &TileType,
    rhs: &TileType,
    axis: Option<usize>,
) -> R<(Vec<i64>, Vec<i64>, Elem)> {
    let (a, ea) = tensor_operand(what, lhs)?;
    let (b, eb) = tensor_operand(what, rhs)?;
    if ea != eb {
        return Err(Rule::DTypeMismatch {
            expected: ea.to_string(),
            found: eb.to_string(),
        });
    }
    let agree = a.len() == b.len()
        && a.iter()
            .zip(&b)
            .enumerate()
            .all(|(i, (x, y))| Some(i) == axis || x == y);
    if !agree {
        return Err(Rule::UnequalShapes {
            lhs: a,
            rhs: b,
            axis,
        });
    }
    Ok((a, b, ea))
}

/// `tile.join`: two tensors of one type; the result adds a last axis of 2.
pub fn join(lhs: &TileType, rhs: &TileType) -> R<TileType> {
    let (mut shape, _, elem) = same_type("join operand", lhs, rhs, None)?;
    shape.push(2);
    crate::limits::check_tile(&shape)?;
    Ok(TileType::tensor(&shape, elem))
}

/// `tile.split`: a tensor whose last axis has size 2 (and some axis before
/// it); each of the two results drops that axis.
pub fn split(src: &TileType) -> R<TileType> {
    let (mut shape, elem) = tensor_operand("split source", src)?;
    if shape.len() < 2 || shape.last() != Some(&2) {
        return Err(Rule::WrongOperand {
            what: "split source",
            expected: "a tensor of rank 2 or more whose last axis has size 2",
            found: src.to_string(),
        });
    }
    shape.pop();
    Ok(TileType::tensor(&shape, elem))
}

/// `tile.cat`: two tensors of one element type whose shapes agree but
/// along `axis`; the result's extent along `axis` is the sum, a power of
/// two.
pub fn cat(lhs: &TileType, rhs: &TileType, axis: i64) -> R<TileType> {
    let (a, _) = tensor_operand("cat operand", lhs)?;
    check_axes("cat", &[axis], a.len())?;
    let (mut shape, b, elem) = same_type("cat operand", lhs, rhs, Some(axis as usize))?;
    shape[axis as usize] += b[axis as usize];
    tensor_shape("cat result", &shape)?;
    Ok(TileType::tensor(&shape, elem))
}
