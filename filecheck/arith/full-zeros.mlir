// RUN: tile-opt %s | tile-opt | FileCheck %s

// full and zeros are splat arith.constant dense<...> tensors of a
// power-of-two shape.

// CHECK-LABEL: {{^  }}func.func @constants
// CHECK: arith.constant dense<0.000000e+00> : tensor<16x64xf32>
// CHECK: arith.constant dense<0> : tensor<1024xi32>
// CHECK: arith.constant dense<1.500000e+00> : tensor<128xf16>
// CHECK: arith.constant dense<-3> : tensor<8x8xi64>
// CHECK: arith.constant dense<0xFF800000> : tensor<64xf32>
// CHECK: arith.constant dense<true> : tensor<32xi1>
// CHECK: arith.constant dense<2.000000e+00> : tensor<4x4xbf16>
func.func @constants() {
  %0 = arith.constant dense<0.0> : tensor<16x64xf32>
  %1 = arith.constant dense<0> : tensor<1024xi32>
  %2 = arith.constant dense<1.5> : tensor<128xf16>
  %3 = arith.constant dense<-3> : tensor<8x8xi64>
  %4 = arith.constant dense<0xFF800000> : tensor<64xf32>
  %5 = arith.constant dense<true> : tensor<32xi1>
  %6 = arith.constant dense<2.0> : tensor<4x4xbf16>
  return
}

// A zeros accumulator used as the `other` of a masked load.
// CHECK-LABEL: {{^  }}func.func @zeros_as_other
// CHECK: %[[Z:.*]] = arith.constant dense<0.000000e+00> : tensor<16x64xf32>
// CHECK: "tile.load"(%arg0, %arg1, %[[Z]])
func.func @zeros_as_other(%p: tensor<16x64x!tile.ptr<f32>>, %m: tensor<16x64xi1>) -> tensor<16x64xf32> {
  %z = arith.constant dense<0.0> : tensor<16x64xf32>
  %0 = "tile.load"(%p, %m, %z) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 1>, volatile = false} : (tensor<16x64x!tile.ptr<f32>>, tensor<16x64xi1>, tensor<16x64xf32>) -> tensor<16x64xf32>
  return %0 : tensor<16x64xf32>
}
