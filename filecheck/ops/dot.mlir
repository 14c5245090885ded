// RUN: tile-opt %s --split-input-file | tile-opt --split-input-file | FileCheck %s

// tile.dot: a [M, K] times b [K, N] plus acc [M, N]; M, N, K powers of two of
// at least 16. f16, bf16 and f32 inputs accumulate in f32, i8 in i32;
// input_precision says how f32 inputs multiply (tf32, tf32x3 or ieee) and
// must be ieee for the others.

// CHECK-LABEL: func.func @f16
// CHECK: "tile.dot"(%arg0, %arg1, %arg2) {input_precision = "ieee"} : (tensor<16x32xf16>, tensor<32x64xf16>, tensor<16x64xf32>) -> tensor<16x64xf32>
func.func @f16(%a: tensor<16x32xf16>, %b: tensor<32x64xf16>, %c: tensor<16x64xf32>) {
  %0 = "tile.dot"(%a, %b, %c) {input_precision = "ieee"} : (tensor<16x32xf16>, tensor<32x64xf16>, tensor<16x64xf32>) -> tensor<16x64xf32>
  return
}

// -----

// CHECK-LABEL: func.func @tf32x3
// CHECK: "tile.dot"(%arg0, %arg1, %arg2) {input_precision = "tf32x3"} : (tensor<64x16xf32>, tensor<16x16xf32>, tensor<64x16xf32>) -> tensor<64x16xf32>
func.func @tf32x3(%a: tensor<64x16xf32>, %b: tensor<16x16xf32>, %c: tensor<64x16xf32>) {
  %0 = "tile.dot"(%a, %b, %c) {input_precision = "tf32x3"} : (tensor<64x16xf32>, tensor<16x16xf32>, tensor<64x16xf32>) -> tensor<64x16xf32>
  return
}

// -----

// CHECK-LABEL: func.func @int8
// CHECK: "tile.dot"(%arg0, %arg1, %arg2) {input_precision = "ieee"} : (tensor<32x32xi8>, tensor<32x32xi8>, tensor<32x32xi32>) -> tensor<32x32xi32>
func.func @int8(%a: tensor<32x32xi8>, %b: tensor<32x32xi8>, %c: tensor<32x32xi32>) {
  %0 = "tile.dot"(%a, %b, %c) {input_precision = "ieee"} : (tensor<32x32xi8>, tensor<32x32xi8>, tensor<32x32xi32>) -> tensor<32x32xi32>
  return
}
