// RUN: tile-opt %s --split-input-file | tile-opt --split-input-file | FileCheck %s

// tile.atomic_rmw and tile.atomic_cas through a tensor of pointers or a
// scalar pointer, with their ordering and scope; the result is the old
// values.

// CHECK-LABEL: {{^  }}func.func @atomics
// CHECK: "tile.atomic_rmw"(%arg0, %arg1, %arg2) {kind = "add", operandSegmentSizes = array<i32: 1, 1, 1>, scope = "gpu", sem = "acq_rel"} : (tensor<128x!tile.ptr<f32>>, tensor<128xf32>, tensor<128xi1>) -> tensor<128xf32>
// CHECK: "tile.atomic_rmw"(%arg3, %arg4) {kind = "xchg", operandSegmentSizes = array<i32: 1, 1, 0>, scope = "sys", sem = "relaxed"} : (!tile.ptr<i64>, i64) -> i64
// CHECK: "tile.atomic_cas"(%arg3, %arg4, %arg4) {scope = "cta", sem = "release"} : (!tile.ptr<i64>, i64, i64) -> i64
func.func @atomics(%p: tensor<128x!tile.ptr<f32>>, %v: tensor<128xf32>, %m: tensor<128xi1>, %q: !tile.ptr<i64>, %w: i64) {
  %0 = "tile.atomic_rmw"(%p, %v, %m) {kind = "add", sem = "acq_rel", scope = "gpu", operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<128x!tile.ptr<f32>>, tensor<128xf32>, tensor<128xi1>) -> tensor<128xf32>
  %1 = "tile.atomic_rmw"(%q, %w) {kind = "xchg", sem = "relaxed", scope = "sys", operandSegmentSizes = array<i32: 1, 1, 0>} : (!tile.ptr<i64>, i64) -> i64
  %2 = "tile.atomic_cas"(%q, %w, %w) {sem = "release", scope = "cta"} : (!tile.ptr<i64>, i64, i64) -> i64
  return
}
