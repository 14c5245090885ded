// Found by `tile-tools fuzz` (seed 1, from to-simt-dot-errors.mlir's tf32x3
// case): a loop carrying tile.num_stages = 2^31 - 1 (which only the
// pipeliner should set) made tile-to-simt allocate a ring of that many
// stages and abort (memory allocation failed). The verifier now holds a
// loop's tile.num_stages to 1 to 8 as it does tile.loop_stages.
// Error: a loop's num_stages must be from 1 to 8, got 2147483647
module attributes {tile.compute_capability = 80 : i32, tile.num_stages = 2147483647 : i32, tile.num_warps = 4 : i32} {
  func.func @f32_k32(%a: !tile.ptr<f32>, %b: !tile.ptr<f32>, %c: !tile.ptr<f32>, %m: i64, %n: i64, %k: i64, %steps: i32) attributes {tile.kernel} {
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %ck_i32 = arith.constant 32 : i32
    %c1_i64 = arith.constant 1 : i64
    %acc0 = arith.constant dense<0.0> : tensor<32x32xf32, #tile.mma<2 : i32, array<i32: 2, 2>, 8 : i32>>
    %pa = "tile.make_block_ptr"(%a, %m, %k, %k, %c1_i64, %c0_i32, %c0_i32) {operandSegmentSizes = array<i32: 1, 2, 2, 2>, order = array<i32: 1, 0>} : (!tile.ptr<f32>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<32x32xf32>>
    %pb = "tile.make_block_ptr"(%b, %k, %n, %n, %c1_i64, %c0_i32, %c0_i32) {operandSegmentSizes = array<i32: 1, 2, 2, 2>, order = array<i32: 1, 0>} : (!tile.ptr<f32>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<32x32xf32>>
    %r:3 = scf.for %i = %c0_i32 to %steps step %c1_i32 iter_args(%acc = %acc0, %qa = %pa, %qb = %pb) -> (tensor<32x32xf32, #tile.mma<2 : i32, array<i32: 2, 2>, 8 : i32>>, !tile.block_ptr<tensor<32x32xf32>>, !tile.block_ptr<tensor<32x32xf32>>) : i32 {
      %x = "tile.block_load"(%qa) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = "", padding = "zero", tile.async_copy, tile.vector_width = 4 : i32, volatile = false} : (!tile.block_ptr<tensor<32x32xf32>>) -> tensor<32x32xf32, #tile.blocked<array<i32: 1, 4>, array<i32: 8, 4>, array<i32: 4, 1>, array<i32: 1, 0>>>
      %y = "tile.block_load"(%qb) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = "", padding = "zero", tile.async_copy, tile.vector_width = 4 : i32, volatile = false} : (!tile.block_ptr<tensor<32x32xf32>>) -> tensor<32x32xf32, #tile.blocked<array<i32: 1, 4>, array<i32: 4, 8>, array<i32: 4, 1>, array<i32: 1, 0>>>
      %d = "tile.dot"(%x, %y, %acc) {input_precision = "tf32x3"} : (tensor<32x32xf32, #tile.blocked<array<i32: 1, 4>, array<i32: 8, 4>, array<i32: 4, 1>, array<i32: 1, 0>>>, tensor<32x32xf32, #tile.blocked<array<i32: 1, 4>, array<i32: 4, 8>, array<i32: 4, 1>, array<i32: 1, 0>>>, tensor<32x32xf32, #tile.mma<2 : i32, array<i32: 2, 2>, 8 : i32>>) -> tensor<32x32xf32, #tile.mma<2 : i32, array<i32: 2, 2>, 8 : i32>>
      %na = "tile.advance"(%qa, %c0_i32, %ck_i32) : (!tile.block_ptr<tensor<32x32xf32>>, i32, i32) -> !tile.block_ptr<tensor<32x32xf32>>
      %nb = "tile.advance"(%qb, %ck_i32, %c0_i32) : (!tile.block_ptr<tensor<32x32xf32>>, i32, i32) -> !tile.block_ptr<tensor<32x32xf32>>
      scf.yield %d, %na, %nb : tensor<32x32xf32, #tile.mma<2 : i32, array<i32: 2, 2>, 8 : i32>>, !tile.block_ptr<tensor<32x32xf32>>, !tile.block_ptr<tensor<32x32xf32>>
    } {tile.num_stages = 2147483647 : i64}
    %pc = "tile.make_block_ptr"(%c, %m, %n, %n, %c1_i64, %c0_i32, %c0_i32) {operandSegmentSizes = array<i32: 1, 2, 2, 2>, order = array<i32: 1, 0>} : (!tile.ptr<f32>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<32x32xf32>>
    %o = "tile.convert_layout"(%r#0) : (tensor<32x32xf32, #tile.mma<2 : i32, array<i32: 2, 2>, 8 : i32>>) -> tensor<32x32xf32, #tile.blocked<array<i32: 1, 4>, array<i32: 4, 8>, array<i32: 4, 1>, array<i32: 1, 0>>>
    "tile.block_store"(%pc, %o) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = "", tile.vector_width = 4 : i32} : (!tile.block_ptr<tensor<32x32xf32>>, tensor<32x32xf32, #tile.blocked<array<i32: 1, 4>, array<i32: 4, 8>, array<i32: 4, 1>, array<i32: 1, 0>>>) -> ()
    return
  }
}