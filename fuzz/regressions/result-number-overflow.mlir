// Found by `tile-tools fuzz` (seed 3): MLIR 22's parser aborted ("LLVM ERROR:
// out of memory") on a result number of 2^31 - 1, upstream's mlir-opt too.

// An scf.for with i32 bounds carrying an accumulator tensor and a tensor of
// pointers, the shape of a row-sum loop over column blocks.

func.func @row_sum(%p: !tile.ptr<f32>, %n: i32) -> f32 {
  %acc0 = arith.constant dense<0.0> : tensor<64xf32>
  %offs = "tile.arange"() {start = 0 : i32, end = 64 : i32} : () -> tensor<64xi32>
  %base = "tile.splat"(%p) : (!tile.ptr<f32>) -> tensor<64x!tile.ptr<f32>>
  %ptrs0 = "tile.addptr"(%base, %offs) : (tensor<64x!tile.ptr<f32>>, tensor<64xi32>) -> tensor<64x!tile.ptr<f32>>
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %step = "tile.splat"(%c64) : (i32) -> tensor<64xi32>
  %r:2 = scf.for %i = %c0 to %n step %c64 iter_args(%acc = %acc0, %ptrs = %ptrs0) -> (tensor<64xf32>, tensor<64x!tile.ptr<f32>>) : i32 {
    %x = "tile.load"(%ptrs) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 0, 0>, volatile = false} : (tensor<64x!tile.ptr<f32>>) -> tensor<64xf32>
    %s = arith.addf %acc, %x : tensor<64xf32>
    %next = "tile.addptr"(%ptrs, %step) : (tensor<64x!tile.ptr<f32>>, tensor<64xi32>) -> tensor<64x!tile.ptr<f32>>
    scf.yield %s, %next : tensor<64xf32>, tensor<64x!tile.ptr<f32>>
  }
  %total = "tile.reduce"(%r#2147483647) {kind = "sum", axis = 0 : i32, keep_dims = false} : (tensor<64xf32>) -> f32
  return %total : f32
}
