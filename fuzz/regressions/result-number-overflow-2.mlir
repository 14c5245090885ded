// Found by `tile-tools fuzz` (seed 3): MLIR 22's parser aborted ("LLVM ERROR:
// out of memory") on a result number of 2^31 - 1, upstream's mlir-opt too.

// An upstream lowering on tile IR: scf.for becomes blocks whose arguments
// carry the accumulator tensor and the block pointer; the tile ops move into
// the loop body block unchanged and still pass the tile rules afterwards.

func.func @loop(%b: !tile.block_ptr<tensor<64xf32>>, %n: i32) -> f32 {
  %zero = arith.constant dense<0.0> : tensor<64xf32>
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %r:2 = scf.for %i = %c0 to %n step %c64 iter_args(%acc = %zero, %p = %b) -> (tensor<64xf32>, !tile.block_ptr<tensor<64xf32>>) : i32 {
    %x = "tile.block_load"(%p) {boundary_check = array<i32: 0>, cache_modifier = "", eviction_policy = "", padding = "zero", volatile = false} : (!tile.block_ptr<tensor<64xf32>>) -> tensor<64xf32>
    %s = arith.addf %acc, %x : tensor<64xf32>
    %q = "tile.advance"(%p, %c64) : (!tile.block_ptr<tensor<64xf32>>, i32) -> !tile.block_ptr<tensor<64xf32>>
    scf.yield %s, %q : tensor<64xf32>, !tile.block_ptr<tensor<64xf32>>
  }
  %t = "tile.reduce"(%r#2147483647) {kind = "sum", axis = 0 : i32, keep_dims = false} : (tensor<64xf32>) -> f32
  return %t : f32
}