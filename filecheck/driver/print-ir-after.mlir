// RUN: tile-opt %s --canonicalize --cse --mlir-print-ir-after-all 2>&1 >/dev/null | FileCheck %s --check-prefix=ALL
// RUN: tile-opt %s --canonicalize --cse --mlir-print-ir-after=cse 2>&1 >/dev/null | FileCheck %s --check-prefix=ONE
// RUN: tile-opt %s --canonicalize --cse --mlir-print-ir-after=cse,canonicalize 2>&1 >/dev/null | FileCheck %s --check-prefix=LIST
// RUN: tile-opt %s --pass-pipeline='builtin.module(func.func(canonicalize,cse))' --mlir-print-ir-after-all 2>&1 >/dev/null | FileCheck %s --check-prefix=PIPELINE
// RUN: tile-opt %s --canonicalize --mlir-print-ir-after > %t 2>&1 || echo "exit code $?" >> %t
// RUN: FileCheck %s --check-prefix=NO-VALUE --input-file=%t
// RUN: tile-opt %s --canonicalize --mlir-print-ir-after=canonicalize,nonexistent > %t 2>&1 || echo "exit code $?" >> %t
// RUN: FileCheck %s --check-prefix=UNKNOWN --input-file=%t

// mlir-opt's printing flags. --mlir-print-ir-after-all prints the input
// and the IR after every step, in command-line order, to stderr.
// ALL: // -----// IR Dump After input //----- //
// ALL: arith.addi
// ALL: // -----// IR Dump After canonicalize //----- //
// ALL-NOT: arith.addi
// ALL: arith.extsi %arg0
// ALL: arith.extsi %arg0
// ALL: // -----// IR Dump After cse //----- //
// ALL: arith.extsi %arg0
// ALL-NOT: arith.extsi %arg0

// --mlir-print-ir-after=cse prints after cse alone: not the input, not
// after canonicalize.
// ONE-NOT: IR Dump After input
// ONE-NOT: IR Dump After canonicalize
// ONE: // -----// IR Dump After cse //----- //
// ONE-NOT: IR Dump

// A list names several passes; they print in pipeline order.
// LIST-NOT: IR Dump After input
// LIST: // -----// IR Dump After canonicalize //----- //
// LIST: // -----// IR Dump After cse //----- //

// Inside a --pass-pipeline every pass prints through MLIR's own
// instrumentation, under its name and argument.
// PIPELINE: IR Dump After Canonicalizer (canonicalize)
// PIPELINE: IR Dump After CSE (cse)
// PIPELINE: // -----// IR Dump After pass-pipeline //----- //

// NO-VALUE: tile-opt: --mlir-print-ir-after needs =VALUE
// NO-VALUE-NEXT: exit code 2

// A name that is no step of the run would print nothing: refused, naming
// the steps there are, before the input is read.
// UNKNOWN: tile-opt: --mlir-print-ir-after=nonexistent: no such pass in this run (it runs: input, canonicalize)
// UNKNOWN-NEXT: exit code 2

func.func @f(%arg0: i32) -> (i32, i64, i64) {
  %a = arith.constant 2 : i32
  %b = arith.constant 3 : i32
  %c = arith.addi %a, %b : i32
  %d = arith.extsi %arg0 : i32 to i64
  %e = arith.extsi %arg0 : i32 to i64
  return %c, %d, %e : i32, i64, i64
}
