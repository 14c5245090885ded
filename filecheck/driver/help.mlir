// RUN: tile-opt --help | FileCheck %s
// RUN: tile-opt -h | FileCheck %s
// RUN: tile-opt %s --help --no-such-pass | FileCheck %s

// --help (or -h) prints the usage and our passes, and exits 0 without
// reading any input.

// CHECK: usage: tile-opt [INPUT|-] [-o OUTPUT] [--split-input-file] [--mlir-print-debuginfo]
// CHECK-NEXT: [--mlir-print-ir-after-all] [--mlir-print-ir-after=PASS[,PASS...]]
// CHECK-NEXT: [--dump-ir-dir=DIR] [--PASS[=OPTIONS]]... [--pass-pipeline=PIPELINE]
// CHECK: --mlir-print-ir-after-all print the IR to stderr after every pass
// CHECK: --pass-pipeline=PIPELINE run a textual pipeline
// CHECK: Our passes:
// CHECK-NEXT: --tile-verify check the tile dialect's rules (shapes, axes, orders) that IRDL cannot express
// CHECK-NEXT: --tile-while-to-for rewrite while loops that count (i < n, i += c) as scf.for
// CHECK-NEXT: --tile-launch-order start the programs whose accesses are adjacent in memory one after another
// CHECK-NEXT: --tile-assign-layouts give every tensor a blocked or sliced layout
// CHECK-NEXT: --tile-remove-conversions compute cheap values again in the layout a conversion wants
// CHECK-NEXT: --tile-predicate give masked loads an explicit other
// CHECK-NEXT: --tile-vectorize give loads and stores the widest access
// CHECK-NEXT: --tile-software-pipeline mark K loops whose dot operands are copied ahead into shared memory
// CHECK-NEXT: --tile-to-simt lower laid-out tile IR to per-thread code in a gpu.module
// CHECK-NEXT: and every upstream MLIR pass (--canonicalize, --cse, ...).
// CHECK-NOT: module
