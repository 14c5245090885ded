// RUN: not tile-opt %s --split-input-file 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not=note:
// RUN: not tile-opt %s --split-input-file 2>/dev/null | FileCheck %s --check-prefix=OUT --implicit-check-not=func.func

// Every way tile IR can be rejected, one case per split chunk: first IRDL's
// structural checks (done by MLIR's verifier while parsing), then the Rust
// rules of rules.rs that IRDL cannot express (applied by verify.rs to the
// parsed IR). Each diagnostic is checked in full with its file:line:col.
// Line numbers are those of the whole file even with --split-input-file.
// The valid chunks still print, after all the diagnostics (stdout is written
// at the end), joined by `// -----`.

//===----------------------------------------------------------------------===//
// IRDL: structure, required attributes, enumerated values, type parameters
//===----------------------------------------------------------------------===//

func.func @program_id_wrong_result_type() {
  // CHECK: {{.*}}invalid.mlir:[[@LINE+2]]:8: error: expected 'i32' but got 'i64'
  // CHECK-NEXT: {{.*}}invalid.mlir:[[@LINE+1]]:8: note: see current operation: %0 = "tile.program_id"() {axis = 0 : i32} : () -> i64
  %0 = "tile.program_id"() {axis = 0 : i32} : () -> i64
  return
}

// -----

func.func @program_id_missing_axis() {
  // CHECK: {{.*}}invalid.mlir:[[@LINE+2]]:8: error: 'tile.program_id' op attribute "axis" is expected but not provided
  // CHECK-NEXT: {{.*}}invalid.mlir:[[@LINE+1]]:8: note: see current operation: %0 = "tile.program_id"() : () -> i32
  %0 = "tile.program_id"() : () -> i32
  return
}

// -----

func.func @block_load_missing_volatile(%b: !tile.block_ptr<tensor<16xf32>>) {
  // CHECK: {{.*}}invalid.mlir:[[@LINE+2]]:8: error: 'tile.block_load' op attribute "volatile" is expected but not provided
  // CHECK-NEXT: {{.*}}invalid.mlir:[[@LINE+1]]:8: note: see current operation:
  %0 = "tile.block_load"(%b) {boundary_check = array<i32: 0>, cache_modifier = "", eviction_policy = "", padding = "zero"} : (!tile.block_ptr<tensor<16xf32>>) -> tensor<16xf32>
  return
}

// -----

func.func @load_missing_segment_sizes(%p: !tile.ptr<f32>) {
  // CHECK: {{.*}}invalid.mlir:[[@LINE+2]]:8: error: 'operandSegmentSizes' attribute is expected but not provided
  // CHECK-NEXT: {{.*}}invalid.mlir:[[@LINE+1]]:8: note: see current operation:
  %0 = "tile.load"(%p) {cache_modifier = "", eviction_policy = "", volatile = false} : (!tile.ptr<f32>) -> f32
  return
}

// -----

func.func @block_load_bad_padding_string(%b: !tile.block_ptr<tensor<16xf32>>) {
  // CHECK: {{.*}}invalid.mlir:[[@LINE+2]]:8: error: '"reflect"' does not satisfy the constraint
  // CHECK-NEXT: {{.*}}invalid.mlir:[[@LINE+1]]:8: note: see current operation: %0 = "tile.block_load"(%arg0) {{.*}}padding = "reflect"
  %0 = "tile.block_load"(%b) {boundary_check = array<i32: 0>, cache_modifier = "", eviction_policy = "", padding = "reflect", volatile = false} : (!tile.block_ptr<tensor<16xf32>>) -> tensor<16xf32>
  return
}

// -----

// "wb" is a store cache modifier: a load does not take it.
func.func @load_store_only_cache_modifier(%p: !tile.ptr<f32>) {
  // CHECK: {{.*}}invalid.mlir:[[@LINE+2]]:8: error: '"wb"' does not satisfy the constraint
  // CHECK-NEXT: {{.*}}invalid.mlir:[[@LINE+1]]:8: note: see current operation: %0 = "tile.load"(%arg0) {cache_modifier = "wb"
  %0 = "tile.load"(%p) {cache_modifier = "wb", eviction_policy = "", operandSegmentSizes = array<i32: 1, 0, 0>, volatile = false} : (!tile.ptr<f32>) -> f32
  return
}

// -----

func.func @store_bad_eviction_policy(%p: !tile.ptr<f32>, %v: f32) {
  // CHECK: {{.*}}invalid.mlir:[[@LINE+2]]:3: error: '"evict_never"' does not satisfy the constraint
  // CHECK-NEXT: {{.*}}invalid.mlir:[[@LINE+1]]:3: note: see current operation: "tile.store"(%arg0, %arg1) {cache_modifier = "", eviction_policy = "evict_never"
  "tile.store"(%p, %v) {cache_modifier = "", eviction_policy = "evict_never", operandSegmentSizes = array<i32: 1, 1, 0>} : (!tile.ptr<f32>, f32) -> ()
  return
}

// -----

func.func @reduce_bad_kind(%t: tensor<16x64xf32>) {
  // CHECK: {{.*}}invalid.mlir:[[@LINE+2]]:8: error: '"prod"' does not satisfy the constraint
  // CHECK-NEXT: {{.*}}invalid.mlir:[[@LINE+1]]:8: note: see current operation: %0 = "tile.reduce"(%arg0) {axis = 1 : i32, keep_dims = false, kind = "prod"}
  %0 = "tile.reduce"(%t) {kind = "prod", axis = 1 : i32, keep_dims = false} : (tensor<16x64xf32>) -> tensor<16xf32>
  return
}

// -----

// The result of advance must be the type of its operand.
func.func @advance_changes_type(%b: !tile.block_ptr<tensor<16x64xf32>>, %z: i32) {
  // CHECK: {{.*}}invalid.mlir:[[@LINE+2]]:8: error: expected '!tile.block_ptr<tensor<16x64xf32>>' but got '!tile.block_ptr<tensor<16x32xf32>>'
  // CHECK-NEXT: {{.*}}invalid.mlir:[[@LINE+1]]:8: note: see current operation: %0 = "tile.advance"
  %0 = "tile.advance"(%b, %z, %z) : (!tile.block_ptr<tensor<16x64xf32>>, i32, i32) -> !tile.block_ptr<tensor<16x32xf32>>
  return
}

// -----

// A scalar offset must be i32 or i64.
func.func @addptr_scalar_float_offset(%p: !tile.ptr<f32>, %o: f32) {
  // CHECK: {{.*}}invalid.mlir:[[@LINE+2]]:8: error: 'f32' does not satisfy the constraint
  // CHECK-NEXT: {{.*}}invalid.mlir:[[@LINE+1]]:8: note: see current operation: %0 = "tile.addptr"(%arg0, %arg1) : (!tile.ptr<f32>, f32) -> !tile.ptr<f32>
  %0 = "tile.addptr"(%p, %o) : (!tile.ptr<f32>, f32) -> !tile.ptr<f32>
  return
}

// -----

// !tile.ptr takes exactly one parameter.
// CHECK: {{.*}}invalid.mlir:[[@LINE+1]]:41: error: expected 1 type arguments, but had 2
func.func @ptr_two_parameters(%p: !tile.ptr<f32, i32>) {
  return
}

// -----

// CHECK: {{.*}}invalid.mlir:[[@LINE+1]]:35: error: 'index' does not satisfy the constraint
func.func @ptr_to_index(%p: !tile.ptr<index>) {
  return
}

// -----

// CHECK: {{.*}}invalid.mlir:[[@LINE+1]]:42: error: expected base type 'builtin.tensor' but got 'builtin.f32'
func.func @block_ptr_to_scalar(%p: !tile.block_ptr<f32>) {
  return
}

//===----------------------------------------------------------------------===//
// Rust rules: grid axes and ranges
//===----------------------------------------------------------------------===//

// -----

func.func @program_id_axis_3() {
  // CHECK: {{.*}}invalid.mlir:[[@LINE+1]]:8: error: 'tile.program_id' op grid axis 3 is out of range for rank 3 (valid: 0..3)
  %0 = "tile.program_id"() {axis = 3 : i32} : () -> i32
  return
}

// -----

func.func @num_programs_negative_axis() {
  // CHECK: {{.*}}invalid.mlir:[[@LINE+1]]:8: error: 'tile.num_programs' op grid axis -1 is out of range for rank 3 (valid: 0..3)
  %0 = "tile.num_programs"() {axis = -1 : i32} : () -> i32
  return
}

// -----

func.func @arange_not_power_of_two() {
  // CHECK: {{.*}}invalid.mlir:[[@LINE+1]]:8: error: 'tile.arange' op range 0..100 must be non-empty, within i32, and of power-of-two length
  %0 = "tile.arange"() {start = 0 : i32, end = 100 : i32} : () -> tensor<100xi32>
  return
}

// -----

func.func @arange_empty() {
  // CHECK: {{.*}}invalid.mlir:[[@LINE+1]]:8: error: 'tile.arange' op range 5..5 must be non-empty, within i32, and of power-of-two length
  %0 = "tile.arange"() {start = 5 : i32, end = 5 : i32} : () -> tensor<1xi32>
  return
}

// -----

func.func @arange_outside_i32() {
  // CHECK: {{.*}}invalid.mlir:[[@LINE+1]]:8: error: 'tile.arange' op range 4294967296..4294967312 must be non-empty, within i32, and of power-of-two length
  %0 = "tile.arange"() {start = 4294967296 : i64, end = 4294967312 : i64} : () -> tensor<16xi32>
  return
}

// -----

func.func @arange_wrong_result_type() {
  // CHECK: {{.*}}invalid.mlir:[[@LINE+1]]:8: error: 'tile.arange' op result type must be tensor<16xi32>, found tensor<32xi32>
  %0 = "tile.arange"() {start = 0 : i32, end = 16 : i32} : () -> tensor<32xi32>
  return
}

//===----------------------------------------------------------------------===//
// Rust rules: shapes
//===----------------------------------------------------------------------===//

// -----

func.func @splat_of_tensor(%t: tensor<16xf32>) {
  // CHECK: {{.*}}invalid.mlir:[[@LINE+1]]:8: error: 'tile.splat' op splat source must be a scalar, found tensor<16xf32>
  %0 = "tile.splat"(%t) : (tensor<16xf32>) -> tensor<16xf32>
  return
}

// -----

func.func @splat_not_power_of_two(%n: i32) {
  // CHECK: {{.*}}invalid.mlir:[[@LINE+1]]:8: error: 'tile.splat' op splat shape [100] has a dimension that is not a power of two
  %0 = "tile.splat"(%n) : (i32) -> tensor<100xi32>
  return
}

// -----

func.func @broadcast_impossible(%t: tensor<16x1xf32>) {
  // CHECK: {{.*}}invalid.mlir:[[@LINE+1]]:8: error: 'tile.broadcast' op cannot broadcast shape [16, 1] to [32, 64]: only axes of size 1 can grow
  %0 = "tile.broadcast"(%t) : (tensor<16x1xf32>) -> tensor<32x64xf32>
  return
}

// -----

// tile.broadcast keeps the rank: a new axis needs expand_dims first.
func.func @broadcast_adds_axis(%t: tensor<64xf32>) {
  // CHECK: {{.*}}invalid.mlir:[[@LINE+1]]:8: error: 'tile.broadcast' op cannot broadcast shape [64] to [16, 64]: only axes of size 1 can grow
  %0 = "tile.broadcast"(%t) : (tensor<64xf32>) -> tensor<16x64xf32>
  return
}

// -----

func.func @expand_dims_axis_out_of_range(%t: tensor<16xf32>) {
  // CHECK: {{.*}}invalid.mlir:[[@LINE+1]]:8: error: 'tile.expand_dims' op expand_dims axis 2 is out of range for rank 2 (valid: 0..2)
  %0 = "tile.expand_dims"(%t) {axis = 2 : i32} : (tensor<16xf32>) -> tensor<16x1xf32>
  return
}

// -----

func.func @expand_dims_wrong_result(%t: tensor<16xf32>) {
  // CHECK: {{.*}}invalid.mlir:[[@LINE+1]]:8: error: 'tile.expand_dims' op result type must be tensor<16x1xf32>, found tensor<1x16xf32>
  %0 = "tile.expand_dims"(%t) {axis = 1 : i32} : (tensor<16xf32>) -> tensor<1x16xf32>
  return
}

//===----------------------------------------------------------------------===//
// Rust rules: pointers, loads and stores
//===----------------------------------------------------------------------===//

// -----

func.func @addptr_shape_mismatch(%p: tensor<16x!tile.ptr<f32>>, %o: tensor<32xi32>) {
  // CHECK: {{.*}}invalid.mlir:[[@LINE+1]]:8: error: 'tile.addptr' op shapes [16] and [32] do not match and cannot be broadcast together
  %0 = "tile.addptr"(%p, %o) : (tensor<16x!tile.ptr<f32>>, tensor<32xi32>) -> tensor<16x!tile.ptr<f32>>
  return
}

// -----

func.func @addptr_float_offset(%p: tensor<16x!tile.ptr<f32>>, %o: tensor<16xf32>) {
  // CHECK: {{.*}}invalid.mlir:[[@LINE+1]]:8: error: 'tile.addptr' op addptr offset must be i32 or i64 (scalar or tensor), found tensor<16xf32>
  %0 = "tile.addptr"(%p, %o) : (tensor<16x!tile.ptr<f32>>, tensor<16xf32>) -> tensor<16x!tile.ptr<f32>>
  return
}

// -----

func.func @addptr_base_not_pointer(%p: tensor<16xi32>, %o: tensor<16xi32>) {
  // CHECK: {{.*}}invalid.mlir:[[@LINE+1]]:8: error: 'tile.addptr' op addptr base must be a pointer or a tensor of pointers, found tensor<16xi32>
  %0 = "tile.addptr"(%p, %o) : (tensor<16xi32>, tensor<16xi32>) -> tensor<16xi32>
  return
}

// -----

func.func @load_from_numbers(%p: tensor<16xf32>) {
  // CHECK: {{.*}}invalid.mlir:[[@LINE+1]]:8: error: 'tile.load' op load pointer must be a pointer, a tensor of pointers or a block pointer, found tensor<16xf32>
  %0 = "tile.load"(%p) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 0, 0>, volatile = false} : (tensor<16xf32>) -> tensor<16xf32>
  return
}

// -----

func.func @load_wrong_result(%p: !tile.ptr<f32>) {
  // CHECK: {{.*}}invalid.mlir:[[@LINE+1]]:8: error: 'tile.load' op result type must be f32, found f16
  %0 = "tile.load"(%p) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 0, 0>, volatile = false} : (!tile.ptr<f32>) -> f16
  return
}

// -----

func.func @load_mask_shape_mismatch(%p: tensor<16x!tile.ptr<f32>>, %m: tensor<32xi1>) {
  // CHECK: {{.*}}invalid.mlir:[[@LINE+1]]:8: error: 'tile.load' op mask of shape [32] cannot be broadcast to the pointer tile [16]
  %0 = "tile.load"(%p, %m) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>, volatile = false} : (tensor<16x!tile.ptr<f32>>, tensor<32xi1>) -> tensor<16xf32>
  return
}

// -----

func.func @load_mask_not_i1(%p: tensor<16x!tile.ptr<f32>>, %m: tensor<16xi32>) {
  // CHECK: {{.*}}invalid.mlir:[[@LINE+1]]:8: error: 'tile.load' op mask must be i1 (a comparison result), found tensor<16xi32>
  %0 = "tile.load"(%p, %m) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>, volatile = false} : (tensor<16x!tile.ptr<f32>>, tensor<16xi32>) -> tensor<16xf32>
  return
}

// -----

func.func @load_other_dtype_mismatch(%p: tensor<16x!tile.ptr<f32>>, %m: tensor<16xi1>, %o: tensor<16xf16>) {
  // CHECK: {{.*}}invalid.mlir:[[@LINE+1]]:8: error: 'tile.load' op element type mismatch: expected f32, found f16 (cast explicitly with .to())
  %0 = "tile.load"(%p, %m, %o) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 1>, volatile = false} : (tensor<16x!tile.ptr<f32>>, tensor<16xi1>, tensor<16xf16>) -> tensor<16xf32>
  return
}

// -----

func.func @load_other_shape_mismatch(%p: tensor<16x!tile.ptr<f32>>, %m: tensor<16xi1>, %o: tensor<8xf32>) {
  // CHECK: {{.*}}invalid.mlir:[[@LINE+1]]:8: error: 'tile.load' op other of shape [8] cannot be broadcast to the pointer tile [16]
  %0 = "tile.load"(%p, %m, %o) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 1>, volatile = false} : (tensor<16x!tile.ptr<f32>>, tensor<16xi1>, tensor<8xf32>) -> tensor<16xf32>
  return
}

// -----

func.func @load_other_without_mask(%p: tensor<16x!tile.ptr<f32>>, %o: tensor<16xf32>) {
  // CHECK: {{.*}}invalid.mlir:[[@LINE+1]]:8: error: 'tile.load' op other is only meaningful with a mask
  %0 = "tile.load"(%p, %o) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 0, 1>, volatile = false} : (tensor<16x!tile.ptr<f32>>, tensor<16xf32>) -> tensor<16xf32>
  return
}

// -----

func.func @load_boundary_check(%p: tensor<16x!tile.ptr<f32>>) {
  // CHECK: {{.*}}invalid.mlir:[[@LINE+1]]:8: error: 'tile.load' op boundary_check needs a block pointer; mask a tensor of pointers instead
  %0 = "tile.load"(%p) {boundary_check = array<i32: 0>, cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 0, 0>, volatile = false} : (tensor<16x!tile.ptr<f32>>) -> tensor<16xf32>
  return
}

// -----

func.func @load_padding(%p: tensor<16x!tile.ptr<f32>>) {
  // CHECK: {{.*}}invalid.mlir:[[@LINE+1]]:8: error: 'tile.load' op padding_option needs a block pointer; use mask and other with a tensor of pointers
  %0 = "tile.load"(%p) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 0, 0>, padding = "zero", volatile = false} : (tensor<16x!tile.ptr<f32>>) -> tensor<16xf32>
  return
}

// -----

func.func @store_value_shape_mismatch(%p: tensor<16x!tile.ptr<f32>>, %v: tensor<32xf32>) {
  // CHECK: {{.*}}invalid.mlir:[[@LINE+1]]:3: error: 'tile.store' op stored value of shape [32] does not match the pointer tile [16]
  "tile.store"(%p, %v) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<16x!tile.ptr<f32>>, tensor<32xf32>) -> ()
  return
}

// -----

func.func @store_dtype_mismatch(%p: tensor<16x!tile.ptr<f32>>, %v: tensor<16xf16>) {
  // CHECK: {{.*}}invalid.mlir:[[@LINE+1]]:3: error: 'tile.store' op element type mismatch: expected f32, found f16 (cast explicitly with .to())
  "tile.store"(%p, %v) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<16x!tile.ptr<f32>>, tensor<16xf16>) -> ()
  return
}

// -----

func.func @store_mask_shape_mismatch(%p: tensor<16x!tile.ptr<f32>>, %v: tensor<16xf32>, %m: tensor<8xi1>) {
  // CHECK: {{.*}}invalid.mlir:[[@LINE+1]]:3: error: 'tile.store' op mask of shape [8] cannot be broadcast to the pointer tile [16]
  "tile.store"(%p, %v, %m) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<16x!tile.ptr<f32>>, tensor<16xf32>, tensor<8xi1>) -> ()
  return
}

// -----

func.func @store_boundary_check(%p: tensor<16x!tile.ptr<f32>>, %v: tensor<16xf32>) {
  // CHECK: {{.*}}invalid.mlir:[[@LINE+1]]:3: error: 'tile.store' op boundary_check needs a block pointer; mask a tensor of pointers instead
  "tile.store"(%p, %v) {boundary_check = array<i32: 0>, cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<16x!tile.ptr<f32>>, tensor<16xf32>) -> ()
  return
}

// -----

// A valid function between invalid ones is still printed (see the end).
func.func @valid_in_the_middle(%p: tensor<16x!tile.ptr<f32>>, %v: tensor<16xf32>) {
  "tile.store"(%p, %v) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<16x!tile.ptr<f32>>, tensor<16xf32>) -> ()
  return
}

//===----------------------------------------------------------------------===//
// Rust rules: block pointers
//===----------------------------------------------------------------------===//

// -----

func.func @make_block_ptr_rank_mismatch(%p: !tile.ptr<f32>, %n: i64, %z: i32) {
  // CHECK: {{.*}}invalid.mlir:[[@LINE+1]]:8: error: 'tile.make_block_ptr' op block pointer parts disagree in rank: shape 2, strides 1, offsets 2, block_shape 2, order 2
  %0 = "tile.make_block_ptr"(%p, %n, %n, %n, %z, %z) {order = array<i32: 1, 0>, operandSegmentSizes = array<i32: 1, 2, 1, 2>} : (!tile.ptr<f32>, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<16x64xf32>>
  return
}

// -----

func.func @make_block_ptr_order_not_permutation(%p: !tile.ptr<f32>, %n: i64, %z: i32) {
  // CHECK: {{.*}}invalid.mlir:[[@LINE+1]]:8: error: 'tile.make_block_ptr' op order [1, 1] is not a permutation of 0..2
  %0 = "tile.make_block_ptr"(%p, %n, %n, %n, %n, %z, %z) {order = array<i32: 1, 1>, operandSegmentSizes = array<i32: 1, 2, 2, 2>} : (!tile.ptr<f32>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<16x64xf32>>
  return
}

// -----

func.func @make_block_ptr_not_power_of_two(%p: !tile.ptr<f32>, %n: i64, %z: i32) {
  // CHECK: {{.*}}invalid.mlir:[[@LINE+1]]:8: error: 'tile.make_block_ptr' op block_shape [16, 48] has a dimension that is not a power of two
  %0 = "tile.make_block_ptr"(%p, %n, %n, %n, %n, %z, %z) {order = array<i32: 1, 0>, operandSegmentSizes = array<i32: 1, 2, 2, 2>} : (!tile.ptr<f32>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<16x48xf32>>
  return
}

// -----

func.func @make_block_ptr_wrong_dtype(%p: !tile.ptr<f32>, %n: i64, %z: i32) {
  // CHECK: {{.*}}invalid.mlir:[[@LINE+1]]:8: error: 'tile.make_block_ptr' op result type must be !tile.block_ptr<tensor<16xf32>>, found !tile.block_ptr<tensor<16xf16>>
  %0 = "tile.make_block_ptr"(%p, %n, %n, %z) {order = array<i32: 0>, operandSegmentSizes = array<i32: 1, 1, 1, 1>} : (!tile.ptr<f32>, i64, i64, i32) -> !tile.block_ptr<tensor<16xf16>>
  return
}

// -----

func.func @advance_wrong_offset_count(%b: !tile.block_ptr<tensor<16x64xf32>>, %z: i32) {
  // CHECK: {{.*}}invalid.mlir:[[@LINE+1]]:8: error: 'tile.advance' op advance needs 2 offsets for a rank-2 block pointer, found 1
  %0 = "tile.advance"(%b, %z) : (!tile.block_ptr<tensor<16x64xf32>>, i32) -> !tile.block_ptr<tensor<16x64xf32>>
  return
}

// -----

func.func @block_load_boundary_check_out_of_range(%b: !tile.block_ptr<tensor<16x64xf32>>) {
  // CHECK: {{.*}}invalid.mlir:[[@LINE+1]]:8: error: 'tile.block_load' op boundary_check axis 2 is out of range for rank 2 (valid: 0..2)
  %0 = "tile.block_load"(%b) {boundary_check = array<i32: 0, 2>, cache_modifier = "", eviction_policy = "", padding = "zero", volatile = false} : (!tile.block_ptr<tensor<16x64xf32>>) -> tensor<16x64xf32>
  return
}

// -----

func.func @block_load_duplicate_axis(%b: !tile.block_ptr<tensor<16x64xf32>>) {
  // CHECK: {{.*}}invalid.mlir:[[@LINE+1]]:8: error: 'tile.block_load' op boundary_check lists axis 1 twice
  %0 = "tile.block_load"(%b) {boundary_check = array<i32: 1, 1>, cache_modifier = "", eviction_policy = "", padding = "zero", volatile = false} : (!tile.block_ptr<tensor<16x64xf32>>) -> tensor<16x64xf32>
  return
}

// -----

func.func @block_load_boundary_check_not_i32(%b: !tile.block_ptr<tensor<16xf32>>) {
  // CHECK: {{.*}}invalid.mlir:[[@LINE+1]]:8: error: 'tile.block_load' op attribute 'boundary_check' must be an array<i32: ...> of axes
  %0 = "tile.block_load"(%b) {boundary_check = array<i64: 0>, cache_modifier = "", eviction_policy = "", padding = "zero", volatile = false} : (!tile.block_ptr<tensor<16xf32>>) -> tensor<16xf32>
  return
}

// -----

func.func @block_load_nan_padding_on_integers(%b: !tile.block_ptr<tensor<16xi32>>) {
  // CHECK: {{.*}}invalid.mlir:[[@LINE+1]]:8: error: 'tile.block_load' op bad padding: nan padding needs a floating-point element type, not i32
  %0 = "tile.block_load"(%b) {boundary_check = array<i32: 0>, cache_modifier = "", eviction_policy = "", padding = "nan", volatile = false} : (!tile.block_ptr<tensor<16xi32>>) -> tensor<16xi32>
  return
}

// -----

func.func @block_load_padding_wrong_float_type(%b: !tile.block_ptr<tensor<16xf32>>) {
  // CHECK: {{.*}}invalid.mlir:[[@LINE+1]]:8: error: 'tile.block_load' op bad padding: constant of type f16 for elements of type f32
  %0 = "tile.block_load"(%b) {boundary_check = array<i32: 0>, cache_modifier = "", eviction_policy = "", padding = 1.0 : f16, volatile = false} : (!tile.block_ptr<tensor<16xf32>>) -> tensor<16xf32>
  return
}

// -----

func.func @block_load_float_padding_on_integers(%b: !tile.block_ptr<tensor<16xi32>>) {
  // CHECK: {{.*}}invalid.mlir:[[@LINE+1]]:8: error: 'tile.block_load' op bad padding: constant of type f32 for elements of type i32
  %0 = "tile.block_load"(%b) {boundary_check = array<i32: 0>, cache_modifier = "", eviction_policy = "", padding = 1.5 : f32, volatile = false} : (!tile.block_ptr<tensor<16xi32>>) -> tensor<16xi32>
  return
}

// -----

func.func @block_load_wrong_result(%b: !tile.block_ptr<tensor<16x64xf32>>) {
  // CHECK: {{.*}}invalid.mlir:[[@LINE+1]]:8: error: 'tile.block_load' op result type must be tensor<16x64xf32>, found tensor<16x64xf16>
  %0 = "tile.block_load"(%b) {boundary_check = array<i32: 0>, cache_modifier = "", eviction_policy = "", padding = "zero", volatile = false} : (!tile.block_ptr<tensor<16x64xf32>>) -> tensor<16x64xf16>
  return
}

// -----

func.func @block_store_value_shape_mismatch(%b: !tile.block_ptr<tensor<16x64xf32>>, %v: tensor<64x16xf32>) {
  // CHECK: {{.*}}invalid.mlir:[[@LINE+1]]:3: error: 'tile.block_store' op stored value of shape [64, 16] does not match the pointer tile [16, 64]
  "tile.block_store"(%b, %v) {boundary_check = array<i32: 0>, cache_modifier = "", eviction_policy = ""} : (!tile.block_ptr<tensor<16x64xf32>>, tensor<64x16xf32>) -> ()
  return
}

// -----

func.func @block_store_dtype_mismatch(%b: !tile.block_ptr<tensor<16x64xf32>>, %v: tensor<16x64xbf16>) {
  // CHECK: {{.*}}invalid.mlir:[[@LINE+1]]:3: error: 'tile.block_store' op element type mismatch: expected f32, found bf16 (cast explicitly with .to())
  "tile.block_store"(%b, %v) {boundary_check = array<i32: 0>, cache_modifier = "", eviction_policy = ""} : (!tile.block_ptr<tensor<16x64xf32>>, tensor<16x64xbf16>) -> ()
  return
}

// -----

func.func @block_store_negative_axis(%b: !tile.block_ptr<tensor<16x64xf32>>, %v: tensor<16x64xf32>) {
  // CHECK: {{.*}}invalid.mlir:[[@LINE+1]]:3: error: 'tile.block_store' op boundary_check axis -1 is out of range for rank 2 (valid: 0..2)
  "tile.block_store"(%b, %v) {boundary_check = array<i32: -1>, cache_modifier = "", eviction_policy = ""} : (!tile.block_ptr<tensor<16x64xf32>>, tensor<16x64xf32>) -> ()
  return
}

//===----------------------------------------------------------------------===//
// Rust rules: reductions
//===----------------------------------------------------------------------===//

// -----

func.func @reduce_axis_out_of_range(%t: tensor<16x64xf32>) {
  // CHECK: {{.*}}invalid.mlir:[[@LINE+1]]:8: error: 'tile.reduce' op reduce axis 2 is out of range for rank 2 (valid: 0..2)
  %0 = "tile.reduce"(%t) {kind = "sum", axis = 2 : i32, keep_dims = false} : (tensor<16x64xf32>) -> tensor<16xf32>
  return
}

// -----

// keep_dims keeps the reduced axis as size 1.
func.func @reduce_result_mismatch(%t: tensor<16x64xf32>) {
  // CHECK: {{.*}}invalid.mlir:[[@LINE+1]]:8: error: 'tile.reduce' op result type must be tensor<16x1xf32>, found tensor<16xf32>
  %0 = "tile.reduce"(%t) {kind = "max", axis = 1 : i32, keep_dims = true} : (tensor<16x64xf32>) -> tensor<16xf32>
  return
}

// -----

// argmax and argmin give i32 indices, whatever they search.
func.func @argmax_result_not_i32(%t: tensor<16x64xf32>) {
  // CHECK: {{.*}}invalid.mlir:[[@LINE+1]]:8: error: 'tile.reduce' op result type must be tensor<16xi32>, found tensor<16xf32>
  %0 = "tile.reduce"(%t) {kind = "argmax", axis = 1 : i32, keep_dims = false} : (tensor<16x64xf32>) -> tensor<16xf32>
  return
}

// -----

func.func @scan_axis_out_of_range(%t: tensor<16x64xf32>) {
  // CHECK: {{.*}}invalid.mlir:[[@LINE+1]]:8: error: 'tile.scan' op scan axis 2 is out of range for rank 2 (valid: 0..2)
  %0 = "tile.scan"(%t) {kind = "sum", axis = 2 : i32, reverse = false} : (tensor<16x64xf32>) -> tensor<16x64xf32>
  return
}

// -----

func.func @scan_i1(%t: tensor<16xi1>) {
  // CHECK: {{.*}}invalid.mlir:[[@LINE+1]]:8: error: 'tile.scan' op scan is not defined for element type i1
  %0 = "tile.scan"(%t) {kind = "max", axis = 0 : i32, reverse = false} : (tensor<16xi1>) -> tensor<16xi1>
  return
}

// -----

func.func @scan_bad_kind(%t: tensor<16x64xf32>) {
  // CHECK: {{.*}}invalid.mlir:[[@LINE+2]]:8: error: '"argmax"' does not satisfy the constraint
  // CHECK-NEXT: {{.*}}invalid.mlir:[[@LINE+1]]:8: note: see current operation
  %0 = "tile.scan"(%t) {kind = "argmax", axis = 1 : i32, reverse = false} : (tensor<16x64xf32>) -> tensor<16x64xf32>
  return
}

// -----

// Bitwise atomics are for integers.
func.func @atomic_and_f32(%p: tensor<16x!tile.ptr<f32>>, %v: tensor<16xf32>) {
  // CHECK: {{.*}}invalid.mlir:[[@LINE+1]]:8: error: 'tile.atomic_rmw' op atomic and is not defined for element type f32
  %0 = "tile.atomic_rmw"(%p, %v) {kind = "and", sem = "acq_rel", scope = "gpu", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<16x!tile.ptr<f32>>, tensor<16xf32>) -> tensor<16xf32>
  return
}

// -----

func.func @atomic_bad_scope(%p: !tile.ptr<i32>, %v: i32) {
  // CHECK: {{.*}}invalid.mlir:[[@LINE+2]]:8: error: '"block"' does not satisfy the constraint
  // CHECK-NEXT: {{.*}}invalid.mlir:[[@LINE+1]]:8: note: see current operation
  %0 = "tile.atomic_cas"(%p, %v, %v) {sem = "acq_rel", scope = "block"} : (!tile.ptr<i32>, i32, i32) -> i32
  return
}

// -----

func.func @reduce_i1(%t: tensor<16xi1>) {
  // CHECK: {{.*}}invalid.mlir:[[@LINE+1]]:8: error: 'tile.reduce' op reduce is not defined for element type i1
  %0 = "tile.reduce"(%t) {kind = "max", axis = 0 : i32, keep_dims = false} : (tensor<16xi1>) -> i1
  return
}

// -----

func.func @dot_inner_dims_differ(%a: tensor<16x32xf16>, %b: tensor<16x16xf16>, %c: tensor<16x16xf32>) {
  // CHECK: {{.*}}invalid.mlir:[[@LINE+1]]:8: error: 'tile.dot' op dot multiplies an [M, K] matrix by a [K, N] one, got [16, 32] and [16, 16]
  %0 = "tile.dot"(%a, %b, %c) {input_precision = "ieee"} : (tensor<16x32xf16>, tensor<16x16xf16>, tensor<16x16xf32>) -> tensor<16x16xf32>
  return
}

// -----

func.func @dot_too_small(%a: tensor<8x16xf16>, %b: tensor<16x16xf16>, %c: tensor<8x16xf32>) {
  // CHECK: {{.*}}invalid.mlir:[[@LINE+1]]:8: error: 'tile.dot' op dot needs M, N and K to be powers of two of at least 16, got M = 8, N = 16, K = 16
  %0 = "tile.dot"(%a, %b, %c) {input_precision = "ieee"} : (tensor<8x16xf16>, tensor<16x16xf16>, tensor<8x16xf32>) -> tensor<8x16xf32>
  return
}

// -----

func.func @dot_mixed_inputs(%a: tensor<16x16xf16>, %b: tensor<16x16xbf16>, %c: tensor<16x16xf32>) {
  // CHECK: {{.*}}invalid.mlir:[[@LINE+1]]:8: error: 'tile.dot' op dot takes two f16, two bf16, two f32 or two i8 inputs, got f16 and bf16 (cast explicitly with .to())
  %0 = "tile.dot"(%a, %b, %c) {input_precision = "ieee"} : (tensor<16x16xf16>, tensor<16x16xbf16>, tensor<16x16xf32>) -> tensor<16x16xf32>
  return
}

// -----

func.func @dot_f16_accumulator(%a: tensor<16x16xf16>, %b: tensor<16x16xf16>, %c: tensor<16x16xf16>) {
  // CHECK: {{.*}}invalid.mlir:[[@LINE+1]]:8: error: 'tile.dot' op the accumulator of this dot must be tensor<16x16xf32>, found tensor<16x16xf16>
  %0 = "tile.dot"(%a, %b, %c) {input_precision = "ieee"} : (tensor<16x16xf16>, tensor<16x16xf16>, tensor<16x16xf16>) -> tensor<16x16xf16>
  return
}

// -----

func.func @dot_tf32_on_f16(%a: tensor<16x16xf16>, %b: tensor<16x16xf16>, %c: tensor<16x16xf32>) {
  // CHECK: {{.*}}invalid.mlir:[[@LINE+1]]:8: error: 'tile.dot' op input_precision "tf32" applies to f32 inputs; these are f16
  %0 = "tile.dot"(%a, %b, %c) {input_precision = "tf32"} : (tensor<16x16xf16>, tensor<16x16xf16>, tensor<16x16xf32>) -> tensor<16x16xf32>
  return
}

// -----

func.func @dot_unknown_precision(%a: tensor<16x16xf32>, %b: tensor<16x16xf32>, %c: tensor<16x16xf32>) {
  // CHECK: {{.*}}invalid.mlir:[[@LINE+2]]:8: error: '"bf16x3"' does not satisfy the constraint
  // CHECK-NEXT: {{.*}}invalid.mlir:[[@LINE+1]]:8: note: see current operation: %0 = "tile.dot"(%arg0, %arg1, %arg2) {input_precision = "bf16x3"}
  %0 = "tile.dot"(%a, %b, %c) {input_precision = "bf16x3"} : (tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<16x16xf32>
  return
}

//===----------------------------------------------------------------------===//
// Where errors are reported
//===----------------------------------------------------------------------===//

// -----

// Inside a loop body.
func.func @error_in_loop_body(%b: !tile.block_ptr<tensor<16xf32>>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  scf.for %i = %c0 to %n step %c1 : i32 {
    // CHECK: {{.*}}invalid.mlir:[[@LINE+1]]:10: error: 'tile.block_load' op boundary_check axis 1 is out of range for rank 1 (valid: 0..1)
    %0 = "tile.block_load"(%b) {boundary_check = array<i32: 1>, cache_modifier = "", eviction_policy = "", padding = "zero", volatile = false} : (!tile.block_ptr<tensor<16xf32>>) -> tensor<16xf32>
  }
  return
}

// -----

// Every broken op of a function is reported, in order; an op with an
// explicit location (the builder's Rust source line) is reported there.
func.func @two_errors_one_with_location() {
  // CHECK: {{^}}kernel.rs:12:5: error: 'tile.program_id' op grid axis 3 is out of range for rank 3 (valid: 0..3)
  %0 = "tile.program_id"() {axis = 3 : i32} : () -> i32 loc("kernel.rs":12:5)
  // CHECK-NEXT: {{.*}}invalid.mlir:[[@LINE+1]]:8: error: 'tile.arange' op range 0..3 must be non-empty, within i32, and of power-of-two length
  %1 = "tile.arange"() {start = 0 : i32, end = 3 : i32} : () -> tensor<3xi32>
  return
}

// -----

// A pointer is not a value to print.
func.func @print_pointers(%p: tensor<16x!tile.ptr<f32>>) {
  // CHECK: {{.*}}invalid.mlir:[[@LINE+1]]:3: error: 'tile.print' op printed value must be a number or a tensor of numbers, found tensor<16x!tile.ptr<f32>>
  "tile.print"(%p) {prefix = "p", hex = false} : (tensor<16x!tile.ptr<f32>>) -> ()
  return
}

// -----

func.func @assert_not_i1(%t: tensor<16xi32>) {
  // CHECK: {{.*}}invalid.mlir:[[@LINE+1]]:3: error: 'tile.assert' op assertion condition must be i1 (a comparison result), a scalar or a tensor, found tensor<16xi32>
  "tile.assert"(%t) {message = "m"} : (tensor<16xi32>) -> ()
  return
}

// -----

// The ops that move elements.
func.func @reshape_size(%t: tensor<16x4xf32>) {
  // CHECK: {{.*}}invalid.mlir:[[@LINE+1]]:8: error: 'tile.reshape' op cannot reshape [16, 4] (64 elements) to [8, 4] (32 elements)
  %0 = "tile.reshape"(%t) : (tensor<16x4xf32>) -> tensor<8x4xf32>
  return
}

// -----

func.func @permute_not_a_permutation(%t: tensor<16x4xf32>) {
  // CHECK: {{.*}}invalid.mlir:[[@LINE+1]]:8: error: 'tile.permute' op order [1, 1] is not a permutation of 0..2
  %0 = "tile.permute"(%t) {order = array<i32: 1, 1>} : (tensor<16x4xf32>) -> tensor<4x16xf32>
  return
}

// -----

func.func @permute_wrong_result(%t: tensor<16x4xf32>) {
  // CHECK: {{.*}}invalid.mlir:[[@LINE+1]]:8: error: 'tile.permute' op result type must be tensor<4x16xf32>, found tensor<16x4xf32>
  %0 = "tile.permute"(%t) {order = array<i32: 1, 0>} : (tensor<16x4xf32>) -> tensor<16x4xf32>
  return
}

// -----

func.func @join_mismatch(%a: tensor<16xf32>, %b: tensor<16xf16>) {
  // CHECK: {{.*}}invalid.mlir:[[@LINE+1]]:8: error: 'tile.join' op element type mismatch: expected f32, found f16 (cast explicitly with .to())
  %0 = "tile.join"(%a, %b) : (tensor<16xf32>, tensor<16xf16>) -> tensor<16x2xf32>
  return
}

// -----

func.func @split_last_axis(%t: tensor<16x4xf32>) {
  // CHECK: {{.*}}invalid.mlir:[[@LINE+1]]:12: error: 'tile.split' op split source must be a tensor of rank 2 or more whose last axis has size 2, found tensor<16x4xf32>
  %0, %1 = "tile.split"(%t) : (tensor<16x4xf32>) -> (tensor<16xf32>, tensor<16xf32>)
  return
}

// -----

func.func @split_halves_differ(%t: tensor<16x2xf32>) {
  // CHECK: {{.*}}invalid.mlir:[[@LINE+1]]:12: error: 'tile.split' op result type must be tensor<16xf32>, found tensor<16xf16>
  %0, %1 = "tile.split"(%t) : (tensor<16x2xf32>) -> (tensor<16xf32>, tensor<16xf16>)
  return
}

// -----

func.func @cat_other_axis(%a: tensor<4x8xf32>, %b: tensor<4x4xf32>) {
  // CHECK: {{.*}}invalid.mlir:[[@LINE+1]]:8: error: 'tile.cat' op cat along axis 0 needs operands of one rank that agree on every other axis, got [4, 8] and [4, 4]
  %0 = "tile.cat"(%a, %b) {axis = 0 : i32} : (tensor<4x8xf32>, tensor<4x4xf32>) -> tensor<8x8xf32>
  return
}

// -----

func.func @cat_not_power_of_two(%a: tensor<4x8xf32>, %b: tensor<4x4xf32>) {
  // CHECK: {{.*}}invalid.mlir:[[@LINE+1]]:8: error: 'tile.cat' op cat result [4, 12] has a dimension that is not a power of two
  %0 = "tile.cat"(%a, %b) {axis = 1 : i32} : (tensor<4x8xf32>, tensor<4x4xf32>) -> tensor<4x12xf32>
  return
}

// -----

// The axis of a concatenation is within the operands' rank: the lowering
// (`simt/rearrange.rs`) relies on it.
func.func @cat_axis_out_of_range(%a: tensor<32xi8>, %b: tensor<32xi8>) {
  // CHECK: {{.*}}invalid.mlir:[[@LINE+1]]:8: error: 'tile.cat' op cat axis 1 is out of range for rank 1 (valid: 0..1)
  %0 = "tile.cat"(%a, %b) {axis = 1 : i32} : (tensor<32xi8>, tensor<32xi8>) -> tensor<64xi8>
  return
}

// -----

func.func @fp8_arithmetic(%a: tensor<4xf8E4M3FN>) {
  // CHECK: {{.*}}invalid.mlir:[[@LINE+1]]:8: error: 'arith.addf' op does not take f8E4M3FN: 8-bit floats are only loaded, stored, moved and converted; convert to f16 or f32 first
  %0 = arith.addf %a, %a : tensor<4xf8E4M3FN>
  return
}

// -----

func.func @fp8_reduction(%a: tensor<4xf8E5M2>) {
  // CHECK: {{.*}}invalid.mlir:[[@LINE+1]]:8: error: 'tile.reduce' op does not take f8E5M2: 8-bit floats are only loaded, stored, moved and converted; convert to f16 or f32 first
  %0 = "tile.reduce"(%a) {kind = "sum", axis = 0 : i32, keep_dims = false} : (tensor<4xf8E5M2>) -> f8E5M2
  return
}

// -----

//===----------------------------------------------------------------------===//
// Rust rules: hints (multiple_of, max_contiguous, max_constancy) on any op
//===----------------------------------------------------------------------===//

func.func @hint_one_value_for_two_axes(%a: tensor<4x8xi32>, %b: tensor<4x8xi32>) {
  // CHECK: {{.*}}invalid.mlir:[[@LINE+1]]:8: error: 'arith.addi' op multiple_of needs one value per axis of shape [4, 8] (one for a scalar), each from 1 to 2^30 and, for runs, at most its axis; got [16]
  %0 = arith.addi %a, %b {tile.multiple_of = array<i32: 16>} : tensor<4x8xi32>
  return
}

// -----

func.func @hint_run_longer_than_its_axis(%a: tensor<8xi32>, %b: tensor<8xi32>) {
  // CHECK: {{.*}}invalid.mlir:[[@LINE+1]]:8: error: 'arith.addi' op max_contiguous needs one value per axis of shape [8] (one for a scalar), each from 1 to 2^30 and, for runs, at most its axis; got [16]
  %0 = arith.addi %a, %b {tile.max_contiguous = array<i32: 16>} : tensor<8xi32>
  return
}

// -----

func.func @hint_on_floats(%a: tensor<8xf32>, %b: tensor<8xf32>) {
  // CHECK: {{.*}}invalid.mlir:[[@LINE+1]]:8: error: 'arith.addf' op max_constancy applies to integers and pointers, not to tensor<8xf32>
  %0 = arith.addf %a, %b {tile.max_constancy = array<i32: 8>} : tensor<8xf32>
  return
}

// -----

func.func @hint_on_a_loop(%n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  // CHECK: {{.*}}invalid.mlir:[[@LINE+1]]:8: error: 'scf.for' op multiple_of applies to a value an op computes, not to a kernel argument or a loop's or branch's result (an argument's facts come from specialization)
  %0 = scf.for %i = %c0 to %n step %c1 iter_args(%s = %c0) -> (i32) : i32 {
    scf.yield %i : i32
  } {tile.multiple_of = array<i32: 16>}
  return
}

// -----

func.func @hint_not_an_array(%a: i32, %b: i32) {
  // CHECK: {{.*}}invalid.mlir:[[@LINE+1]]:8: error: 'arith.addi' op attribute 'tile.multiple_of' must be an array<i32: ...>
  %0 = arith.addi %a, %b {tile.multiple_of = 16 : i32} : i32
  return
}

// -----

func.func @valid_at_the_end() -> i32 {
  %0 = "tile.program_id"() {axis = 2 : i32} : () -> i32
  return %0 : i32
}

// After all diagnostics, the output of the two valid chunks, in order.
// CHECK: {{^}}module {
// CHECK-NEXT: func.func @valid_in_the_middle(
// CHECK: {{^}}// -----
// CHECK-NEXT: {{^}}module {
// CHECK-NEXT: func.func @valid_at_the_end() -> i32 {
// CHECK-NEXT: "tile.program_id"() {axis = 2 : i32} : () -> i32

// OUT: {{^}}module {
// OUT-NEXT: func.func @valid_in_the_middle(%arg0: tensor<16x!tile.ptr<f32>>, %arg1: tensor<16xf32>) {
// OUT-NEXT: "tile.store"(%arg0, %arg1)
// OUT-NEXT: return
// OUT-NEXT: }
// OUT-NEXT: }
// OUT-NEXT: {{^}}// -----
// OUT-NEXT: {{^}}module {
// OUT-NEXT: func.func @valid_at_the_end() -> i32 {
