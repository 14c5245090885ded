// RUN: tile-opt %s --split-input-file | FileCheck %s
// RUN: tile-opt %s --split-input-file | tile-opt --split-input-file | FileCheck %s
// RUN: not tile-opt %s 2>&1 | FileCheck %s --check-prefix=WHOLE

// --split-input-file: each part between `// -----` lines is its own module,
// processed on its own (so the same symbol may appear in two parts), and the
// printed modules are joined by a `// -----` line.

// CHECK: {{^}}module {
// CHECK-NEXT: func.func @first() -> i32 {
// CHECK-NEXT: "tile.program_id"() {axis = 0 : i32} : () -> i32
// CHECK: {{^}}}
// CHECK-NEXT: {{^}}// -----{{$}}
// CHECK-NEXT: {{^}}module {
// CHECK-NEXT: func.func @same() {
// CHECK-NEXT: "tile.arange"() {end = 8 : i32, start = 0 : i32}
// CHECK: {{^}}}
// CHECK-NEXT: {{^}}// -----{{$}}
// CHECK-NEXT: {{^}}module {
// CHECK-NEXT: func.func @same() {
// CHECK-NEXT: "tile.arange"() {end = 16 : i32, start = 0 : i32}
// CHECK: {{^}}}
// CHECK-NOT: {{.}}

// Without the flag the markers are plain comments and the two @same clash
// (see the WHOLE lines at the end).

func.func @first() -> i32 {
  %0 = "tile.program_id"() {axis = 0 : i32} : () -> i32
  return %0 : i32
}

// -----
func.func @same() {
  %0 = "tile.arange"() {start = 0 : i32, end = 8 : i32} : () -> tensor<8xi32>
  return
}
// -----
// WHOLE: {{.*}}split-input-file.mlir:[[@LINE+1]]:1: error: redefinition of symbol named 'same'
func.func @same() {
  %0 = "tile.arange"() {start = 0 : i32, end = 16 : i32} : () -> tensor<16xi32>
  return
}
// WHOLE: {{.*}}split-input-file.mlir:[[@LINE-10]]:1: note: see existing symbol definition here
