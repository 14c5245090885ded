// RUN: tile-opt %s --tile-verify | FileCheck %s
// RUN: tile-opt %s --tile-verify --dump-ir-after-each 2>&1 >/dev/null | FileCheck %s --check-prefix=DUMP
// RUN: tile-opt %s -o %t.plain && tile-opt %s --tile-verify -o %t.verified && diff %t.plain %t.verified
// RUN: tile-opt %s --canonicalize --tile-verify --cse --tile-verify | FileCheck %s --check-prefix=PIPE

// --tile-verify checks the tile rules that IRDL cannot express and changes
// nothing: valid IR comes out exactly as it would without the pass (the
// diff above), every op still there.
//
// Its failing case cannot be reached through tile-opt: parsing already
// applies the same rules (a module that breaks one never gets to the pass;
// invalid.mlir covers every rule), no upstream pass breaks them, and
// tile-verify is not registered for --pass-pipeline text. The pass's own
// failure path is covered by the Rust unit test in crates/passes/src/verify.rs.

// CHECK-LABEL: {{^  }}func.func @kernel(
// CHECK-SAME: attributes {tile.kernel}
// CHECK: "tile.program_id"() {axis = 0 : i32} : () -> i32
// CHECK: "tile.make_block_ptr"({{.*}}) {operandSegmentSizes = array<i32: 1, 2, 2, 2>, order = array<i32: 1, 0>}
// CHECK: "tile.block_load"({{.*}}) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = "", padding = "nan", volatile = false}
// CHECK: "tile.reduce"({{.*}}) {axis = 1 : i32, keep_dims = true, kind = "max"} : (tensor<16x64xf32>) -> tensor<16x1xf32>
// CHECK: "tile.broadcast"({{.*}}) : (tensor<16x1xf32>) -> tensor<16x64xf32>
// CHECK: %[[C:.*]] = arith.constant 1.000000e+00 : f32
// CHECK: %[[D:.*]] = arith.addf %[[C]], %[[C]] : f32
// CHECK: "tile.advance"({{.*}}) : (!tile.block_ptr<tensor<16x64xf32>>, i32, i32) -> !tile.block_ptr<tensor<16x64xf32>>
// CHECK: "tile.block_store"({{.*}}) {boundary_check = array<i32: 1>
// CHECK-NEXT: return

// The pass runs (it has its own step in the dumps) and is not a folder: the
// foldable addf is still there after it.
// DUMP: // -----// IR Dump After input //----- //
// DUMP: // -----// IR Dump After tile-verify //----- //
// DUMP: arith.addf
// DUMP-NOT: IR Dump After

// Between upstream passes of a pipeline: the folded IR still verifies.
// PIPE-LABEL: {{^  }}func.func @kernel(
// PIPE-NOT: arith.addf
// PIPE: "tile.block_load"
// PIPE: "tile.block_store"

func.func @kernel(%p: !tile.ptr<f32> {tile.name = "x_ptr"}, %n: i64, %s: i64) attributes {tile.kernel} {
  %pid = "tile.program_id"() {axis = 0 : i32} : () -> i32
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %b = "tile.make_block_ptr"(%p, %n, %n, %s, %s, %pid, %c0) {order = array<i32: 1, 0>, operandSegmentSizes = array<i32: 1, 2, 2, 2>} : (!tile.ptr<f32>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<16x64xf32>>
  %x = "tile.block_load"(%b) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = "", padding = "nan", volatile = false} : (!tile.block_ptr<tensor<16x64xf32>>) -> tensor<16x64xf32>
  %m = "tile.reduce"(%x) {kind = "max", axis = 1 : i32, keep_dims = true} : (tensor<16x64xf32>) -> tensor<16x1xf32>
  %mb = "tile.broadcast"(%m) : (tensor<16x1xf32>) -> tensor<16x64xf32>
  %y = arith.subf %x, %mb : tensor<16x64xf32>
  %one = arith.constant 1.0 : f32
  %two = arith.addf %one, %one : f32
  %t = "tile.splat"(%two) : (f32) -> tensor<16x64xf32>
  %z = arith.mulf %y, %t : tensor<16x64xf32>
  %b2 = "tile.advance"(%b, %c0, %c64) : (!tile.block_ptr<tensor<16x64xf32>>, i32, i32) -> !tile.block_ptr<tensor<16x64xf32>>
  "tile.block_store"(%b2, %z) {boundary_check = array<i32: 1>, cache_modifier = "", eviction_policy = ""} : (!tile.block_ptr<tensor<16x64xf32>>, tensor<16x64xf32>) -> ()
  return
}
