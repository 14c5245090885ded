// RUN: cat %s | tile-opt - | FileCheck %s
// RUN: cat %s | tile-opt | FileCheck %s
// RUN: sed 's/axis = 2 : i64/axis = 5 : i64/' %s | not tile-opt - 2>&1 | FileCheck %s --check-prefix=ERR
// RUN: cat %s | tile-opt - --mlir-print-debuginfo | FileCheck %s --check-prefix=LOC

// Input from standard input, with `-` or with no input argument; errors and
// locations then name the file <stdin>.

// CHECK-LABEL: {{^  }}func.func @from_stdin
// CHECK: "tile.program_id"() {axis = 2 : i64} : () -> i32

// ERR: <stdin>:[[@LINE+4]]:8: error: 'tile.program_id' op grid axis 5 is out of range for rank 3 (valid: 0..3)

// LOC: loc("<stdin>":[[@LINE+2]]:8)
func.func @from_stdin() -> i32 {
  %0 = "tile.program_id"() {axis = 2 : i64} : () -> i32
  return %0 : i32
}
