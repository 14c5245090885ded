// RUN: not tile-opt %s --tile-to-simt 2>&1 | FileCheck %s
// RUN: sed 's/tile.compute_capability = 80/tile.compute_capability = 89/' %s | not tile-opt --tile-to-simt 2>&1 | FileCheck %s --check-prefix=SM89
// RUN: sed 's/tile.compute_capability = 80/tile.compute_capability = 70/' %s | not tile-opt --tile-to-simt 2>&1 | FileCheck %s --check-prefix=SM70
// RUN: sed 's/tile.compute_capability = 80/tile.compute_capability = 75/' %s | not tile-opt --tile-to-simt 2>&1 | FileCheck %s --check-prefix=SM75
// RUN: sed 's/tile.compute_capability = 80/tile.compute_capability = 60/' %s | not tile-opt --tile-to-simt 2>&1 | FileCheck %s --check-prefix=SM60

// A kernel over the chip's shared memory is refused at the op that first
// needs the most: here two conversions of the same 256x256 f32 tile (and
// one of i32 after them) each need 263152 bytes, over sm_80's 166912; the
// error names the first, at its line.
// Not a loop's stages: the advice is smaller tiles. Each chip has its
// own limit (the CUDA programming guide's opt-in maximum).
// CHECK: to-simt-shared-limit.mlir:[[@LINE+10]]:10: error: 'tile.convert_layout' op the kernel needs 263152 bytes of shared memory, more than the 166912 a block may have on sm_80: smaller tiles fit
// SM89: error: 'tile.convert_layout' op the kernel needs 263152 bytes of shared memory, more than the 101376 a block may have on sm_89: smaller tiles fit
// SM70: error: 'tile.convert_layout' op the kernel needs 263152 bytes of shared memory, more than the 98304 a block may have on sm_70: smaller tiles fit
// SM75: error: 'tile.convert_layout' op the kernel needs 263152 bytes of shared memory, more than the 65536 a block may have on sm_75: smaller tiles fit
// SM60: error: 'tile.convert_layout' op the kernel needs 263152 bytes of shared memory, more than the 49152 a block may have on sm_60: smaller tiles fit
module attributes {tile.compute_capability = 80 : i32, tile.num_warps = 4 : i32} {
  func.func @two_peaks(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}) attributes {tile.kernel} {
    %r = "tile.arange"() {end = 65536 : i32, start = 0 : i32} : () -> tensor<65536xi32, #tile.blocked<array<i32: 4>, array<i32: 32>, array<i32: 4>, array<i32: 0>>>
    %r2 = "tile.reshape"(%r) : (tensor<65536xi32, #tile.blocked<array<i32: 4>, array<i32: 32>, array<i32: 4>, array<i32: 0>>>) -> tensor<256x256xi32, #tile.blocked<array<i32: 1, 4>, array<i32: 4, 8>, array<i32: 4, 1>, array<i32: 1, 0>>>
    %f = arith.sitofp %r2 : tensor<256x256xi32, #tile.blocked<array<i32: 1, 4>, array<i32: 4, 8>, array<i32: 4, 1>, array<i32: 1, 0>>> to tensor<256x256xf32, #tile.blocked<array<i32: 1, 4>, array<i32: 4, 8>, array<i32: 4, 1>, array<i32: 1, 0>>>
    %a = "tile.convert_layout"(%f) : (tensor<256x256xf32, #tile.blocked<array<i32: 1, 4>, array<i32: 4, 8>, array<i32: 4, 1>, array<i32: 1, 0>>>) -> tensor<256x256xf32, #tile.blocked<array<i32: 4, 1>, array<i32: 8, 4>, array<i32: 1, 4>, array<i32: 0, 1>>>
    %b = "tile.convert_layout"(%f) : (tensor<256x256xf32, #tile.blocked<array<i32: 1, 4>, array<i32: 4, 8>, array<i32: 4, 1>, array<i32: 1, 0>>>) -> tensor<256x256xf32, #tile.blocked<array<i32: 4, 1>, array<i32: 8, 4>, array<i32: 1, 4>, array<i32: 0, 1>>>
    %s = arith.addf %a, %b : tensor<256x256xf32, #tile.blocked<array<i32: 4, 1>, array<i32: 8, 4>, array<i32: 1, 4>, array<i32: 0, 1>>>
    %xs = "tile.splat"(%x) : (!tile.ptr<f32>) -> tensor<256x256x!tile.ptr<f32>, #tile.blocked<array<i32: 4, 1>, array<i32: 8, 4>, array<i32: 1, 4>, array<i32: 0, 1>>>
    %rr = "tile.convert_layout"(%r2) : (tensor<256x256xi32, #tile.blocked<array<i32: 1, 4>, array<i32: 4, 8>, array<i32: 4, 1>, array<i32: 1, 0>>>) -> tensor<256x256xi32, #tile.blocked<array<i32: 4, 1>, array<i32: 8, 4>, array<i32: 1, 4>, array<i32: 0, 1>>>
    %p = "tile.addptr"(%xs, %rr) : (tensor<256x256x!tile.ptr<f32>, #tile.blocked<array<i32: 4, 1>, array<i32: 8, 4>, array<i32: 1, 4>, array<i32: 0, 1>>>, tensor<256x256xi32, #tile.blocked<array<i32: 4, 1>, array<i32: 8, 4>, array<i32: 1, 4>, array<i32: 0, 1>>>) -> tensor<256x256x!tile.ptr<f32>, #tile.blocked<array<i32: 4, 1>, array<i32: 8, 4>, array<i32: 1, 4>, array<i32: 0, 1>>>
    "tile.store"(%p, %s) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<256x256x!tile.ptr<f32>, #tile.blocked<array<i32: 4, 1>, array<i32: 8, 4>, array<i32: 1, 4>, array<i32: 0, 1>>>, tensor<256x256xf32, #tile.blocked<array<i32: 4, 1>, array<i32: 8, 4>, array<i32: 1, 4>, array<i32: 0, 1>>>) -> ()
    return
  }
}
