// RUN: rm -rf %t && tile-opt %s --canonicalize --cse --dump-ir-dir=%t > %t.out
// RUN: ls %t | FileCheck %s --check-prefix=LS
// RUN: cat %t/00-input.mlir | FileCheck %s --check-prefix=INPUT
// RUN: cat %t/01-canonicalize.mlir | FileCheck %s --check-prefix=CANON
// RUN: cat %t/02-cse.mlir | FileCheck %s --check-prefix=CSE
// RUN: diff %t/02-cse.mlir %t.out

// --dump-ir-dir=DIR writes the input and the IR after each pass to
// DIR/NN-<step>.mlir (creating DIR); the last file is the final output.

// LS: 00-input.mlir
// LS-NEXT: 01-canonicalize.mlir
// LS-NEXT: 02-cse.mlir
// LS-NOT: {{.}}

// INPUT: arith.addi %{{.*}}, %{{.*}} : i32
// INPUT: arith.extsi %arg0
// INPUT: arith.extsi %arg0

// CANON-NOT: arith.addi
// CANON: arith.constant 5 : i32
// CANON: arith.extsi %arg0
// CANON: arith.extsi %arg0

// CSE: arith.constant 5 : i32
// CSE: arith.extsi %arg0
// CSE-NOT: arith.extsi
// CSE: "tile.splat"

func.func @f(%n: i32) -> (i32, i64, i64, tensor<4xi32>) {
  %a = arith.constant 2 : i32
  %b = arith.constant 3 : i32
  %c = arith.addi %a, %b : i32
  %x = arith.extsi %n : i32 to i64
  %y = arith.extsi %n : i32 to i64
  %s = "tile.splat"(%c) : (i32) -> tensor<4xi32>
  return %c, %x, %y, %s : i32, i64, i64, tensor<4xi32>
}
