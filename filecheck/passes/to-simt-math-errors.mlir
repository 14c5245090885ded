// RUN: not tile-opt %s --split-input-file --tile-assign-layouts --tile-predicate --tile-to-simt 2>&1 | FileCheck %s

// Float math that would need libdevice (not linked) is refused at the op,
// not left to fail when the PTX is loaded.

// CHECK: error: 'math.exp' op on f64 would need NVIDIA's libdevice, which this compiler does not link
func.func @double(%a: f64) attributes {tile.kernel} {
  %0 = math.exp %a : f64
  return
}

// -----

// CHECK: error: 'arith.remf' op on f32 would need NVIDIA's libdevice
func.func @remainder(%a: f32, %b: f32) attributes {tile.kernel} {
  %0 = arith.remf %a, %b : f32
  return
}
