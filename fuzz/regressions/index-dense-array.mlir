// Found by `tile-tools fuzz` (seed 2): MLIR 22's parser crashed (SIGSEGV)
// on a dense array of index elements, upstream's mlir-opt too.
func.func @block_load_boundary_check_not_i32(%b: !tile.block_ptr<tensor<16xf32>>) {
  %0 = "tile.block_load"(%b) {boundary_check = array<index: 0>, cache_modifier = "", eviction_policy = "", padding = "zero", volatile = false} : (!tile.block_ptr<tensor<16xf32>>) -> tensor<16xf32>
  return
}
