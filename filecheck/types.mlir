// RUN: tile-opt %s | tile-opt | FileCheck %s

// The two tile types: !tile.ptr<T> for every pointee IRDL allows, and
// !tile.block_ptr<tensor<...>>; both as function arguments and results, and
// !tile.ptr as the element type of a tensor.

// CHECK-LABEL: {{^  }}func.func @pointees
// CHECK-SAME: %arg0: !tile.ptr<f16>, %arg1: !tile.ptr<bf16>, %arg2: !tile.ptr<f32>, %arg3: !tile.ptr<f64>
// CHECK-SAME: %arg4: !tile.ptr<i1>, %arg5: !tile.ptr<i8>, %arg6: !tile.ptr<i16>, %arg7: !tile.ptr<i32>, %arg8: !tile.ptr<i64>
func.func @pointees(%a: !tile.ptr<f16>, %b: !tile.ptr<bf16>, %c: !tile.ptr<f32>, %d: !tile.ptr<f64>,
                    %e: !tile.ptr<i1>, %f: !tile.ptr<i8>, %g: !tile.ptr<i16>, %h: !tile.ptr<i32>, %i: !tile.ptr<i64>) {
  return
}

// CHECK-LABEL: {{^  }}func.func @tensors_of_pointers
// CHECK-SAME: (%arg0: tensor<1024x!tile.ptr<f32>>, %arg1: tensor<16x64x!tile.ptr<bf16>>, %arg2: tensor<1x1x1x!tile.ptr<i8>>)
func.func @tensors_of_pointers(%a: tensor<1024x!tile.ptr<f32>>, %b: tensor<16x64x!tile.ptr<bf16>>, %c: tensor<1x1x1x!tile.ptr<i8>>) {
  return
}

// CHECK-LABEL: {{^  }}func.func @block_pointers
// CHECK-SAME: (%arg0: !tile.block_ptr<tensor<128xf32>>, %arg1: !tile.block_ptr<tensor<16x64xf16>>, %arg2: !tile.block_ptr<tensor<2x4x8xi32>>)
func.func @block_pointers(%a: !tile.block_ptr<tensor<128xf32>>, %b: !tile.block_ptr<tensor<16x64xf16>>, %c: !tile.block_ptr<tensor<2x4x8xi32>>) {
  return
}

// Tile types as results, passed through unchanged.
// CHECK-LABEL: {{^  }}func.func @results
// CHECK-SAME: -> (!tile.ptr<f32>, tensor<8x!tile.ptr<f32>>, !tile.block_ptr<tensor<8x8xbf16>>)
// CHECK: return %arg0, %arg1, %arg2 : !tile.ptr<f32>, tensor<8x!tile.ptr<f32>>, !tile.block_ptr<tensor<8x8xbf16>>
func.func @results(%p: !tile.ptr<f32>, %t: tensor<8x!tile.ptr<f32>>, %b: !tile.block_ptr<tensor<8x8xbf16>>)
    -> (!tile.ptr<f32>, tensor<8x!tile.ptr<f32>>, !tile.block_ptr<tensor<8x8xbf16>>) {
  return %p, %t, %b : !tile.ptr<f32>, tensor<8x!tile.ptr<f32>>, !tile.block_ptr<tensor<8x8xbf16>>
}

// Types survive as operands of upstream ops too.
// CHECK-LABEL: {{^  }}func.func @select_pointer
// CHECK: arith.select %arg0, %arg1, %arg2 : !tile.ptr<i32>
func.func @select_pointer(%c: i1, %p: !tile.ptr<i32>, %q: !tile.ptr<i32>) -> !tile.ptr<i32> {
  %0 = arith.select %c, %p, %q : !tile.ptr<i32>
  return %0 : !tile.ptr<i32>
}
