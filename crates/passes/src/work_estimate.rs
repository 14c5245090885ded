//! An estimate of how much a kernel computes per byte it moves, for the
//! passes that weigh instructions against memory traffic
//! ([`crate::launch_order`]).

use melior::ir::operation::{OperationLike, WalkOrder, WalkResult};
use melior::ir::{OperationRef, Value, ValueLike};
use tile_dialect::float_math::{NativeMath, approximate_math, native_math};
use tile_dialect::ops;
use tile_dialect::view::{TypeTable, op_name, tensor_shape};

/// Instructions of an exact float division (`div.rn.f32`: a reciprocal and
/// its Newton steps).
const DIVISION: f64 = 8.0;

/// Instructions of `tanh` or `erf` by their polynomials
/// ([`tile_dialect::float_math::Composite`]).
const COMPOSITE: f64 = 20.0;

/// Instructions of one approximation (`ex2.approx` and its scaling).
const APPROXIMATION: f64 = 2.0;

/// What the kernel `func` computes per byte it moves: thread instructions
/// estimated from the tile ops (each element of each tensor result one
/// instruction; the float functions by how they are emitted: an
/// approximation instruction two, `tanh` and `erf` by their polynomials
/// twenty, an exact float division eight) over the bytes of its global
/// loads and stores. `None` when it moves nothing.
pub fn work_per_byte(func: &OperationRef) -> Option<f64> {
    let context = tile_dialect::context_of(func.context());
    let types = TypeTable::new(context);
    let (mut work, mut bytes) = (0f64, 0f64);
    func.walk(WalkOrder::PreOrder, |op| {
        let name = op_name(&op);
        let Some(result) = op.result(0).ok().map(Value::from) else {
            if (name == ops::STORE || name == ops::BLOCK_STORE)
                && let Ok(v) = op.operand(1)
            {
                bytes += moved_bytes(&types, v);
            }
            return WalkResult::Advance;
        };
        let elements = tensor_shape(result.r#type()).iter().product::<i64>() as f64;
        if name == ops::LOAD || name == ops::BLOCK_LOAD {
            bytes += moved_bytes(&types, result);
            return WalkResult::Advance;
        }
        let dtype = number_type(&types, result);
        let approximate = op
            .attribute("fastmath")
            .is_ok_and(|a| a.to_string().contains("afn"));
        let how = dtype.and_then(|d| {
            approximate
                .then(|| approximate_math(name, d))
                .flatten()
                .or_else(|| native_math(name, d))
        });
        let cost = match how {
            Some(NativeMath::Composite(_)) => COMPOSITE,
            Some(NativeMath::Approx { .. }) => APPROXIMATION,
            _ if name == "arith.divf" && !approximate => DIVISION,
            _ => 1.0,
        };
        work += cost * elements;
        WalkResult::Advance
    });
    (bytes > 0.0).then(|| work / bytes)
}

/// The number type of the elements of `v`, if they are numbers.
fn number_type(types: &TypeTable, v: Value) -> Option<tile_dialect::DType> {
    types.tile_type(v.r#type())?.elem()?.num()
}

/// The bytes of the tensor `v` (none for a scalar).
fn moved_bytes(types: &TypeTable, v: Value) -> f64 {
    let shape = tensor_shape(v.r#type());
    if shape.is_empty() {
        return 0.0;
    }
    let elem = number_type(types, v).map_or(4, |d| i64::from(d.bits().div_ceil(8)));
    (shape.iter().product::<i64>() * elem) as f64
}

#[cfg(test)]
mod tests {
    use melior::ir::BlockLike;

    /// [`super::work_per_byte`] of the one function of `text`.
    fn estimate(text: &str) -> Option<f64> {
        let context = melior::Context::new();
        crate::register_all(&context).unwrap();
        let module = melior::ir::Module::parse(&context, text).unwrap();
        super::work_per_byte(&module.body().first_operation().unwrap())
    }

    /// Each element of each result counts one instruction, `exp` two, an
    /// exact division eight (two of them), `tanh` twenty, `tanh` and
    /// division marked approximate two and one; loads and stores count
    /// their bytes (f32 in, f16 out): 128 x 47 instructions over 512 + 256
    /// bytes.
    #[test]
    fn every_op_counts_by_how_it_is_emitted() {
        let text = r#"
func.func @k(%x: !tile.ptr<f32>, %y: !tile.ptr<f16>) attributes {tile.kernel} {
  %r = "tile.arange"() {end = 128 : i32, start = 0 : i32} : () -> tensor<128xi32>
  %xs = "tile.splat"(%x) : (!tile.ptr<f32>) -> tensor<128x!tile.ptr<f32>>
  %p = "tile.addptr"(%xs, %r) : (tensor<128x!tile.ptr<f32>>, tensor<128xi32>) -> tensor<128x!tile.ptr<f32>>
  %v = "tile.load"(%p) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 0, 0>, volatile = false} : (tensor<128x!tile.ptr<f32>>) -> tensor<128xf32>
  %e = math.exp %v : tensor<128xf32>
  %d = arith.divf %e, %v : tensor<128xf32>
  %d2 = arith.divf %d, %v : tensor<128xf32>
  %t = math.tanh %d2 : tensor<128xf32>
  %a = math.tanh %t fastmath<afn> : tensor<128xf32>
  %q = arith.divf %a, %v fastmath<afn> : tensor<128xf32>
  %h = arith.truncf %q : tensor<128xf32> to tensor<128xf16>
  %ys = "tile.splat"(%y) : (!tile.ptr<f16>) -> tensor<128x!tile.ptr<f16>>
  %o = "tile.addptr"(%ys, %r) : (tensor<128x!tile.ptr<f16>>, tensor<128xi32>) -> tensor<128x!tile.ptr<f16>>
  "tile.store"(%o, %h) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<128x!tile.ptr<f16>>, tensor<128xf16>) -> ()
  return
}"#;
        assert_eq!(estimate(text), Some(128.0 * 47.0 / 768.0));
    }

    /// Block pointers' loads and stores count their bytes too: a block of
    /// 64 f32 in and out, and three instructions (two constants and the
    /// block pointer).
    #[test]
    fn block_accesses_count_their_bytes() {
        let text = r#"
func.func @k(%x: !tile.ptr<f32>, %n: i64) attributes {tile.kernel} {
  %c0 = arith.constant 0 : i32
  %one = arith.constant 1 : i64
  %b = "tile.make_block_ptr"(%x, %n, %one, %c0) {order = array<i32: 0>, operandSegmentSizes = array<i32: 1, 1, 1, 1>} : (!tile.ptr<f32>, i64, i64, i32) -> !tile.block_ptr<tensor<64xf32>>
  %v = "tile.block_load"(%b) {boundary_check = array<i32: 0>, cache_modifier = "", eviction_policy = "", padding = "zero", volatile = false} : (!tile.block_ptr<tensor<64xf32>>) -> tensor<64xf32>
  "tile.block_store"(%b, %v) {boundary_check = array<i32: 0>, cache_modifier = "", eviction_policy = ""} : (!tile.block_ptr<tensor<64xf32>>, tensor<64xf32>) -> ()
  return
}"#;
        assert_eq!(estimate(text), Some(3.0 / 512.0));
    }

    /// A kernel that moves no tensor has no estimate; a scalar's work is
    /// one instruction.
    #[test]
    fn a_kernel_that_moves_nothing_has_none() {
        let text = r#"
func.func @k(%n: i32) attributes {tile.kernel} {
  %c = arith.constant 1 : i32
  %s = arith.addi %n, %c : i32
  return
}"#;
        assert_eq!(estimate(text), None);
    }
}
