// RUN: tile-opt %s | tile-opt | FileCheck %s
// RUN: tile-opt %s --canonicalize | FileCheck %s --check-prefix=FOLD

// cdiv is arith.ceildivsi: the loop trip count over blocks of a dimension.

// CHECK-LABEL: {{^  }}func.func @num_blocks
// CHECK: %[[C64:.*]] = arith.constant 64 : i32
// CHECK: %[[N:.*]] = arith.ceildivsi %arg0, %[[C64]] : i32
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[N]] step
func.func @num_blocks(%d: i32) {
  %c64 = arith.constant 64 : i32
  %n = arith.ceildivsi %d, %c64 : i32
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  scf.for %i = %c0 to %n step %c1 : i32 {
    %p = "tile.program_id"() {axis = 0 : i32} : () -> i32
  }
  return
}

// On tensors, and with constant operands, which canonicalize folds:
// ceil(1000 / 64) = 16.
// CHECK-LABEL: {{^  }}func.func @tensor_and_const
// CHECK: arith.ceildivsi %arg0, %arg1 : tensor<16xi64>
// CHECK: arith.ceildivsi %{{.*}}, %{{.*}} : i32
// FOLD-LABEL: {{^  }}func.func @tensor_and_const
// FOLD: %[[C16:.*]] = arith.constant 16 : i32
// FOLD-NEXT: %[[T:.*]] = arith.ceildivsi %arg0, %arg1 : tensor<16xi64>
// FOLD-NEXT: return %[[T]], %[[C16]] : tensor<16xi64>, i32
func.func @tensor_and_const(%a: tensor<16xi64>, %b: tensor<16xi64>) -> (tensor<16xi64>, i32) {
  %0 = arith.ceildivsi %a, %b : tensor<16xi64>
  %c1000 = arith.constant 1000 : i32
  %c64 = arith.constant 64 : i32
  %1 = arith.ceildivsi %c1000, %c64 : i32
  return %0, %1 : tensor<16xi64>, i32
}
