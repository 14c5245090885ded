// RUN: not tile-opt %s --split-input-file --tile-to-simt 2>&1 | FileCheck %s

// An op of a dialect tile-to-simt has no lowering for is refused at the
// op, with its name, not lowered as if it were elementwise arithmetic.

// CHECK: error: 'llvm.add' op cannot be lowered to SIMT code yet
func.func @llvm_in_a_kernel(%x: i32) attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %y = "llvm.add"(%x, %x) : (i32, i32) -> i32
  return
}
