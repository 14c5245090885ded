// Found by `tile-tools fuzz` (seed 1, from launch-order.mlir's
// loop-carried pointers, every 32 made 512): a loop carrying a [512, 512]
// f16 sum and its tensor of pointers over 4 warps. LLVM's NVPTX back end
// spent 116 s in its straight-line strength reduction (the worker's 10 s
// ran out); a loop's carried tiles are held to the registers one tile may
// take, together. Since 2026-12-02 that is 1024 registers a thread, which
// a [512, 512] tile alone exceeds, so this is the same loop at [256, 256]:
// each tile fits, the sum (512) and the pointers (1024) together do not.
// Error: the loop carries tiles that take 1536 registers in each thread
func.func @loop_carried_pointers(%x: !tile.ptr<f16>, %y: !tile.ptr<f16>, %stride: i32, %iters: i32) attributes {tile.kernel} {
  %pm = "tile.program_id"() {axis = 0 : i32} : () -> i32
  %pn = "tile.program_id"() {axis = 1 : i32} : () -> i32
  %rows_c = arith.constant 256 : i32
  %rows_s = arith.muli %pm, %rows_c : i32
  %rows_a = "tile.arange"() {end = 256 : i32, start = 0 : i32} : () -> tensor<256xi32>
  %rows_sp = "tile.splat"(%rows_s) : (i32) -> tensor<256xi32>
  %rows = arith.addi %rows_sp, %rows_a : tensor<256xi32>
  %cols_c = arith.constant 256 : i32
  %cols_s = arith.muli %pn, %cols_c : i32
  %cols_a = "tile.arange"() {end = 256 : i32, start = 0 : i32} : () -> tensor<256xi32>
  %cols_sp = "tile.splat"(%cols_s) : (i32) -> tensor<256xi32>
  %cols = arith.addi %cols_sp, %cols_a : tensor<256xi32>
  %o_re = "tile.expand_dims"(%rows) {axis = 1 : i32} : (tensor<256xi32>) -> tensor<256x1xi32>
  %o_ce = "tile.expand_dims"(%cols) {axis = 0 : i32} : (tensor<256xi32>) -> tensor<1x256xi32>
  %o_ss = "tile.splat"(%stride) : (i32) -> tensor<256x1xi32>
  %o_rm = arith.muli %o_re, %o_ss : tensor<256x1xi32>
  %o_rb = "tile.broadcast"(%o_rm) : (tensor<256x1xi32>) -> tensor<256x256xi32>
  %o_cb = "tile.broadcast"(%o_ce) : (tensor<1x256xi32>) -> tensor<256x256xi32>
  %o = arith.addi %o_rb, %o_cb : tensor<256x256xi32>
  %px_b = "tile.splat"(%x) : (!tile.ptr<f16>) -> tensor<256x256x!tile.ptr<f16>>
  %px = "tile.addptr"(%px_b, %o) : (tensor<256x256x!tile.ptr<f16>>, tensor<256x256xi32>) -> tensor<256x256x!tile.ptr<f16>>
  %z = arith.constant dense<0.0> : tensor<256x256xf16>
  %k0 = arith.constant 0 : i32
  %k1 = arith.constant 1 : i32
  %s32 = arith.muli %stride, %rows_c : i32
  %step = "tile.splat"(%s32) : (i32) -> tensor<256x256xi32>
  %acc:2 = scf.for %k = %k0 to %iters step %k1 iter_args(%a = %z, %p = %px) -> (tensor<256x256xf16>, tensor<256x256x!tile.ptr<f16>>) : i32 {
    %v = "tile.load"(%p) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 0, 0>, volatile = false} : (tensor<256x256x!tile.ptr<f16>>) -> tensor<256x256xf16>
    %a2 = arith.addf %a, %v : tensor<256x256xf16>
    %p2 = "tile.addptr"(%p, %step) : (tensor<256x256x!tile.ptr<f16>>, tensor<256x256xi32>) -> tensor<256x256x!tile.ptr<f16>>
    scf.yield %a2, %p2 : tensor<256x256xf16>, tensor<256x256x!tile.ptr<f16>>
  }
  %py_b = "tile.splat"(%y) : (!tile.ptr<f16>) -> tensor<256x256x!tile.ptr<f16>>
  %py = "tile.addptr"(%py_b, %o) : (tensor<256x256x!tile.ptr<f16>>, tensor<256x256xi32>) -> tensor<256x256x!tile.ptr<f16>>
  "tile.store"(%py, %acc#0) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<256x256x!tile.ptr<f16>>, tensor<256x256xf16>) -> ()
  return
}

