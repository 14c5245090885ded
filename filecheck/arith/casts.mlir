// RUN: tile-opt %s --split-input-file | tile-opt --split-input-file | FileCheck %s

// Casts between f16/bf16/f32 and i1/i32/i64, scalar and tensor, as the
// builder's .to() emits them.

// CHECK-LABEL: {{^  }}func.func @float_float
// CHECK: arith.extf %arg0 : tensor<64xf16> to tensor<64xf32>
// CHECK: arith.extf %arg1 : tensor<64xbf16> to tensor<64xf32>
// CHECK: arith.truncf %arg2 : tensor<64xf32> to tensor<64xf16>
// CHECK: arith.truncf %arg2 : tensor<64xf32> to tensor<64xbf16>
func.func @float_float(%h: tensor<64xf16>, %b: tensor<64xbf16>, %f: tensor<64xf32>) {
  %0 = arith.extf %h : tensor<64xf16> to tensor<64xf32>
  %1 = arith.extf %b : tensor<64xbf16> to tensor<64xf32>
  %2 = arith.truncf %f : tensor<64xf32> to tensor<64xf16>
  %3 = arith.truncf %f : tensor<64xf32> to tensor<64xbf16>
  return
}

// -----

// CHECK-LABEL: {{^  }}func.func @int_int
// CHECK: arith.extsi %arg0 : tensor<16x16xi32> to tensor<16x16xi64>
// CHECK: arith.trunci %arg1 : tensor<16x16xi64> to tensor<16x16xi32>
// CHECK: arith.extui %arg2 : tensor<16x16xi1> to tensor<16x16xi32>
// CHECK: arith.extsi %arg3 : i32 to i64
func.func @int_int(%i: tensor<16x16xi32>, %l: tensor<16x16xi64>, %m: tensor<16x16xi1>, %s: i32) {
  %0 = arith.extsi %i : tensor<16x16xi32> to tensor<16x16xi64>
  %1 = arith.trunci %l : tensor<16x16xi64> to tensor<16x16xi32>
  %2 = arith.extui %m : tensor<16x16xi1> to tensor<16x16xi32>
  %3 = arith.extsi %s : i32 to i64
  return
}

// -----

// CHECK-LABEL: {{^  }}func.func @int_float
// CHECK: arith.sitofp %arg0 : tensor<128xi32> to tensor<128xf32>
// CHECK: arith.sitofp %arg1 : tensor<128xi64> to tensor<128xbf16>
// CHECK: arith.uitofp %arg2 : tensor<128xi1> to tensor<128xf16>
// CHECK: arith.fptosi %arg3 : tensor<128xf32> to tensor<128xi32>
// CHECK: arith.fptosi %arg3 : tensor<128xf32> to tensor<128xi64>
func.func @int_float(%i: tensor<128xi32>, %l: tensor<128xi64>, %m: tensor<128xi1>, %f: tensor<128xf32>) {
  %0 = arith.sitofp %i : tensor<128xi32> to tensor<128xf32>
  %1 = arith.sitofp %l : tensor<128xi64> to tensor<128xbf16>
  %2 = arith.uitofp %m : tensor<128xi1> to tensor<128xf16>
  %3 = arith.fptosi %f : tensor<128xf32> to tensor<128xi32>
  %4 = arith.fptosi %f : tensor<128xf32> to tensor<128xi64>
  return
}

// -----

// A load in f16, compute in f32, store back in f16.
// CHECK-LABEL: {{^  }}func.func @mixed_precision
// CHECK: %[[H:.*]] = "tile.load"(%arg0) {{.*}} -> tensor<256xf16>
// CHECK: %[[F:.*]] = arith.extf %[[H]] : tensor<256xf16> to tensor<256xf32>
// CHECK: %[[E:.*]] = math.exp %[[F]] : tensor<256xf32>
// CHECK: %[[T:.*]] = arith.truncf %[[E]] : tensor<256xf32> to tensor<256xf16>
// CHECK: "tile.store"(%arg0, %[[T]])
func.func @mixed_precision(%p: tensor<256x!tile.ptr<f16>>) {
  %0 = "tile.load"(%p) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 0, 0>, volatile = false} : (tensor<256x!tile.ptr<f16>>) -> tensor<256xf16>
  %1 = arith.extf %0 : tensor<256xf16> to tensor<256xf32>
  %2 = math.exp %1 : tensor<256xf32>
  %3 = arith.truncf %2 : tensor<256xf32> to tensor<256xf16>
  "tile.store"(%p, %3) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<256x!tile.ptr<f16>>, tensor<256xf16>) -> ()
  return
}
