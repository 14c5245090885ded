// RUN: tile-opt %s --split-input-file | FileCheck %s

// Bare top-level ops are wrapped in a module; a part that already has its
// own top-level `module` (possibly after attribute aliases) is used as is,
// with its attributes, not nested in another module.

// CHECK: {{^}}module {
// CHECK-NEXT: func.func @bare()
func.func @bare() {
  return
}

// -----

// CHECK: {{^}}// -----
// CHECK-NEXT: {{^}}module attributes {tile.test = "explicit"} {
// CHECK-NEXT: func.func @explicit()
// CHECK-NOT: module
// CHECK: {{^}}}
module attributes {tile.test = "explicit"} {
  func.func @explicit() {
    return
  }
}

// -----

// CHECK: {{^}}// -----
// CHECK-NEXT: {{^}}module attributes {tile.layout = {rows = 16 : i32}} {
// CHECK-NEXT: func.func @after_alias()
#tile_alias = {rows = 16 : i32}
module attributes {tile.layout = #tile_alias} {
  func.func @after_alias() {
    return
  }
}
