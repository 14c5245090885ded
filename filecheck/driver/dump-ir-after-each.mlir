// RUN: tile-opt %s --canonicalize --cse --dump-ir-after-each 2>&1 >/dev/null | FileCheck %s
// RUN: tile-opt %s --canonicalize --cse --dump-ir-after-each 2>/dev/null | FileCheck %s --check-prefix=OUT

// --dump-ir-after-each prints the input and the IR after each pass to stderr,
// in command-line order, under mlir-opt-style headers; stdout still gets
// only the final IR.

// CHECK: // -----// IR Dump After input //----- //
// CHECK-NEXT: module {
// CHECK: %[[A:.*]] = arith.constant 2 : i32
// CHECK: %[[B:.*]] = arith.constant 3 : i32
// CHECK: arith.addi %[[A]], %[[B]] : i32
// CHECK: arith.extsi %arg0 : i32 to i64
// CHECK: arith.extsi %arg0 : i32 to i64

// canonicalize folds 2 + 3 but leaves the two extsi (that is cse's job).
// CHECK: // -----// IR Dump After canonicalize //----- //
// CHECK-NEXT: module {
// CHECK-NOT: arith.addi
// CHECK: arith.constant 5 : i32
// CHECK: arith.extsi %arg0 : i32 to i64
// CHECK: arith.extsi %arg0 : i32 to i64

// CHECK: // -----// IR Dump After cse //----- //
// CHECK-NEXT: module {
// CHECK: arith.extsi %arg0 : i32 to i64
// CHECK-NOT: arith.extsi
// CHECK: "tile.splat"
// CHECK-NOT: IR Dump After

// OUT-NOT: IR Dump
// OUT: {{^}}module {
// OUT: arith.constant 5 : i32
// OUT: arith.extsi
// OUT-NOT: arith.extsi

func.func @f(%n: i32) -> (i32, i64, i64, tensor<4xi32>) {
  %a = arith.constant 2 : i32
  %b = arith.constant 3 : i32
  %c = arith.addi %a, %b : i32
  %x = arith.extsi %n : i32 to i64
  %y = arith.extsi %n : i32 to i64
  %s = "tile.splat"(%c) : (i32) -> tensor<4xi32>
  return %c, %x, %y, %s : i32, i64, i64, tensor<4xi32>
}
