// RUN: rm -rf %t && tile-opt %s --split-input-file --tile-verify --dump-ir-dir=%t > /dev/null
// RUN: (cd %t && find . -type f | LC_ALL=C sort) | FileCheck %s --check-prefix=FILES
// RUN: cat %t/part0/01-tile-verify.mlir | FileCheck %s --check-prefix=PART0
// RUN: cat %t/part1/00-input.mlir | FileCheck %s --check-prefix=PART1

// With --split-input-file each part dumps into DIR/partN/.

// FILES: ./part0/00-input.mlir
// FILES-NEXT: ./part0/01-tile-verify.mlir
// FILES-NEXT: ./part1/00-input.mlir
// FILES-NEXT: ./part1/01-tile-verify.mlir
// FILES-NOT: {{.}}

// PART0: func.func @part0
// PART0-NOT: @part1
// PART1: func.func @part1
// PART1-NOT: @part0

func.func @part0() {
  %0 = "tile.num_programs"() {axis = 0 : i32} : () -> i32
  return
}

// -----

func.func @part1() {
  %0 = "tile.num_programs"() {axis = 1 : i32} : () -> i32
  return
}
