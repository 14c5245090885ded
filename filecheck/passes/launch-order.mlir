// RUN: tile-opt %s --split-input-file --tile-launch-order | FileCheck %s
// RUN: tile-opt %s --split-input-file --tile-launch-order --tile-assign-layouts --tile-remove-conversions --tile-predicate --tile-vectorize --tile-software-pipeline --tile-to-simt %to-ptx | FileCheck %s --check-prefix=PTX

// tile-launch-order: the programs of a 2-D grid are renumbered so that the
// ones the GPU starts one after another (hardware axis 0 fastest) touch
// adjacent memory, when the kernel's loads and stores say that the memory
// after each tile's runs belongs to the next program along grid axis 1
// rather than axis 0. The new indices are computed once at the top of the
// kernel from the start order, in unsigned 32-bit arithmetic, and a grid
// of 2^32 programs or more keeps the hardware's indices.

// In PTX the renumbering is a division by the grid's size along y, once.
// PTX-LABEL: .entry rows_on_axis_0(
// PTX: mov.u32 {{.*}}%nctaid.y
// PTX: div.u32
// PTX-LABEL: .entry columns_on_axis_0(
// PTX-NOT: div.u32
// PTX-LABEL: .entry transpose_square(

// The usual 2-D form: row blocks on axis 0, column blocks on axis 1 of a
// row-major tensor. The program whose memory follows each tile's 32 rows
// is the next along axis 1: the programs are renumbered, and every
// program_id reads the new index.
// CHECK-LABEL: func.func @rows_on_axis_0
// CHECK-NEXT: %[[H0:.*]] = "tile.program_id"() {axis = 0 : i32}
// CHECK-NEXT: %[[H1:.*]] = "tile.program_id"() {axis = 1 : i32}
// CHECK-NEXT: %[[N0:.*]] = "tile.num_programs"() {axis = 0 : i32}
// CHECK-NEXT: %[[N1:.*]] = "tile.num_programs"() {axis = 1 : i32}
// CHECK-NEXT: %[[ROW:.*]] = arith.muli %[[H1]], %[[N0]] : i32
// CHECK-NEXT: %[[L:.*]] = arith.addi %[[ROW]], %[[H0]] : i32
// CHECK-NEXT: %[[Q:.*]] = arith.divui %[[L]], %[[N1]] : i32
// CHECK-NEXT: %[[R:.*]] = arith.remui %[[L]], %[[N1]] : i32
// CHECK-NEXT: %[[W0:.*]] = arith.extui %[[N0]] : i32 to i64
// CHECK-NEXT: %[[W1:.*]] = arith.extui %[[N1]] : i32 to i64
// CHECK-NEXT: %[[T:.*]] = arith.muli %[[W0]], %[[W1]] : i64
// CHECK-NEXT: %[[LIM:.*]] = arith.constant 4294967296 : i64
// CHECK-NEXT: %[[FITS:.*]] = arith.cmpi ult, %[[T]], %[[LIM]] : i64
// CHECK-NEXT: %[[P0:.*]] = arith.select %[[FITS]], %[[Q]], %[[H0]] : i32
// CHECK-NEXT: %[[P1:.*]] = arith.select %[[FITS]], %[[R]], %[[H1]] : i32
// CHECK-NOT: tile.program_id
// CHECK: arith.muli %[[P0]], %{{.*}} : i32
// CHECK: arith.muli %[[P1]], %{{.*}} : i32
func.func @rows_on_axis_0(%x: !tile.ptr<f16>, %y: !tile.ptr<f16>, %stride: i32) attributes {tile.kernel} {
  %pm = "tile.program_id"() {axis = 0 : i32} : () -> i32
  %pn = "tile.program_id"() {axis = 1 : i32} : () -> i32
  %rows_c = arith.constant 32 : i32
  %rows_s = arith.muli %pm, %rows_c : i32
  %rows_a = "tile.arange"() {end = 32 : i32, start = 0 : i32} : () -> tensor<32xi32>
  %rows_sp = "tile.splat"(%rows_s) : (i32) -> tensor<32xi32>
  %rows = arith.addi %rows_sp, %rows_a : tensor<32xi32>
  %cols_c = arith.constant 32 : i32
  %cols_s = arith.muli %pn, %cols_c : i32
  %cols_a = "tile.arange"() {end = 32 : i32, start = 0 : i32} : () -> tensor<32xi32>
  %cols_sp = "tile.splat"(%cols_s) : (i32) -> tensor<32xi32>
  %cols = arith.addi %cols_sp, %cols_a : tensor<32xi32>
  %o_re = "tile.expand_dims"(%rows) {axis = 1 : i32} : (tensor<32xi32>) -> tensor<32x1xi32>
  %o_ce = "tile.expand_dims"(%cols) {axis = 0 : i32} : (tensor<32xi32>) -> tensor<1x32xi32>
  %o_ss = "tile.splat"(%stride) : (i32) -> tensor<32x1xi32>
  %o_rm = arith.muli %o_re, %o_ss : tensor<32x1xi32>
  %o_rb = "tile.broadcast"(%o_rm) : (tensor<32x1xi32>) -> tensor<32x32xi32>
  %o_cb = "tile.broadcast"(%o_ce) : (tensor<1x32xi32>) -> tensor<32x32xi32>
  %o = arith.addi %o_rb, %o_cb : tensor<32x32xi32>
  %px_b = "tile.splat"(%x) : (!tile.ptr<f16>) -> tensor<32x32x!tile.ptr<f16>>
  %px = "tile.addptr"(%px_b, %o) : (tensor<32x32x!tile.ptr<f16>>, tensor<32x32xi32>) -> tensor<32x32x!tile.ptr<f16>>
  %v = "tile.load"(%px) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 0, 0>, volatile = false} : (tensor<32x32x!tile.ptr<f16>>) -> tensor<32x32xf16>
  %py_b = "tile.splat"(%y) : (!tile.ptr<f16>) -> tensor<32x32x!tile.ptr<f16>>
  %py = "tile.addptr"(%py_b, %o) : (tensor<32x32x!tile.ptr<f16>>, tensor<32x32xi32>) -> tensor<32x32x!tile.ptr<f16>>
  "tile.store"(%py, %v) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<32x32x!tile.ptr<f16>>, tensor<32x32xf16>) -> ()
  return
}

// -----

// A third grid axis is not renumbered: `program_id(2)` (here a batch
// offset of the input) still reads the block's z index.
// CHECK-LABEL: func.func @third_axis_kept
// CHECK: arith.divui
// CHECK: %[[Z:.*]] = "tile.program_id"() {axis = 2 : i32}
// CHECK: "tile.addptr"(%arg0, %[[Z]])
func.func @third_axis_kept(%x: !tile.ptr<f16>, %y: !tile.ptr<f16>, %stride: i32) attributes {tile.kernel} {
  %pm = "tile.program_id"() {axis = 0 : i32} : () -> i32
  %pn = "tile.program_id"() {axis = 1 : i32} : () -> i32
  %pz = "tile.program_id"() {axis = 2 : i32} : () -> i32
  %rows_c = arith.constant 32 : i32
  %rows_s = arith.muli %pm, %rows_c : i32
  %rows_a = "tile.arange"() {end = 32 : i32, start = 0 : i32} : () -> tensor<32xi32>
  %rows_sp = "tile.splat"(%rows_s) : (i32) -> tensor<32xi32>
  %rows = arith.addi %rows_sp, %rows_a : tensor<32xi32>
  %cols_c = arith.constant 32 : i32
  %cols_s = arith.muli %pn, %cols_c : i32
  %cols_a = "tile.arange"() {end = 32 : i32, start = 0 : i32} : () -> tensor<32xi32>
  %cols_sp = "tile.splat"(%cols_s) : (i32) -> tensor<32xi32>
  %cols = arith.addi %cols_sp, %cols_a : tensor<32xi32>
  %o_re = "tile.expand_dims"(%rows) {axis = 1 : i32} : (tensor<32xi32>) -> tensor<32x1xi32>
  %o_ce = "tile.expand_dims"(%cols) {axis = 0 : i32} : (tensor<32xi32>) -> tensor<1x32xi32>
  %o_ss = "tile.splat"(%stride) : (i32) -> tensor<32x1xi32>
  %o_rm = arith.muli %o_re, %o_ss : tensor<32x1xi32>
  %o_rb = "tile.broadcast"(%o_rm) : (tensor<32x1xi32>) -> tensor<32x32xi32>
  %o_cb = "tile.broadcast"(%o_ce) : (tensor<1x32xi32>) -> tensor<32x32xi32>
  %o = arith.addi %o_rb, %o_cb : tensor<32x32xi32>
  %xz = "tile.addptr"(%x, %pz) : (!tile.ptr<f16>, i32) -> !tile.ptr<f16>
  %px_b = "tile.splat"(%xz) : (!tile.ptr<f16>) -> tensor<32x32x!tile.ptr<f16>>
  %px = "tile.addptr"(%px_b, %o) : (tensor<32x32x!tile.ptr<f16>>, tensor<32x32xi32>) -> tensor<32x32x!tile.ptr<f16>>
  %v = "tile.load"(%px) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 0, 0>, volatile = false} : (tensor<32x32x!tile.ptr<f16>>) -> tensor<32x32xf16>
  %py_b = "tile.splat"(%y) : (!tile.ptr<f16>) -> tensor<32x32x!tile.ptr<f16>>
  %py = "tile.addptr"(%py_b, %o) : (tensor<32x32x!tile.ptr<f16>>, tensor<32x32xi32>) -> tensor<32x32x!tile.ptr<f16>>
  "tile.store"(%py, %v) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<32x32x!tile.ptr<f16>>, tensor<32x32xf16>) -> ()
  return
}

// -----

// The same accesses under three accurate tanh a element (polynomials of
// about twenty instructions each): the kernel computes more per byte than
// memory delivers, the renumbering's instructions would cost time, and
// the order written stays.
// CHECK-LABEL: func.func @instruction_bound
// CHECK-NEXT: "tile.program_id"() {axis = 0 : i32}
// CHECK-NEXT: "tile.program_id"() {axis = 1 : i32}
// CHECK-NOT: tile.num_programs
// CHECK-NOT: arith.divui
// CHECK: return
func.func @instruction_bound(%x: !tile.ptr<f16>, %y: !tile.ptr<f16>, %stride: i32) attributes {tile.kernel} {
  %pm = "tile.program_id"() {axis = 0 : i32} : () -> i32
  %pn = "tile.program_id"() {axis = 1 : i32} : () -> i32
  %rows_c = arith.constant 32 : i32
  %rows_s = arith.muli %pm, %rows_c : i32
  %rows_a = "tile.arange"() {end = 32 : i32, start = 0 : i32} : () -> tensor<32xi32>
  %rows_sp = "tile.splat"(%rows_s) : (i32) -> tensor<32xi32>
  %rows = arith.addi %rows_sp, %rows_a : tensor<32xi32>
  %cols_c = arith.constant 32 : i32
  %cols_s = arith.muli %pn, %cols_c : i32
  %cols_a = "tile.arange"() {end = 32 : i32, start = 0 : i32} : () -> tensor<32xi32>
  %cols_sp = "tile.splat"(%cols_s) : (i32) -> tensor<32xi32>
  %cols = arith.addi %cols_sp, %cols_a : tensor<32xi32>
  %o_re = "tile.expand_dims"(%rows) {axis = 1 : i32} : (tensor<32xi32>) -> tensor<32x1xi32>
  %o_ce = "tile.expand_dims"(%cols) {axis = 0 : i32} : (tensor<32xi32>) -> tensor<1x32xi32>
  %o_ss = "tile.splat"(%stride) : (i32) -> tensor<32x1xi32>
  %o_rm = arith.muli %o_re, %o_ss : tensor<32x1xi32>
  %o_rb = "tile.broadcast"(%o_rm) : (tensor<32x1xi32>) -> tensor<32x32xi32>
  %o_cb = "tile.broadcast"(%o_ce) : (tensor<1x32xi32>) -> tensor<32x32xi32>
  %o = arith.addi %o_rb, %o_cb : tensor<32x32xi32>
  %px_b = "tile.splat"(%x) : (!tile.ptr<f16>) -> tensor<32x32x!tile.ptr<f16>>
  %px = "tile.addptr"(%px_b, %o) : (tensor<32x32x!tile.ptr<f16>>, tensor<32x32xi32>) -> tensor<32x32x!tile.ptr<f16>>
  %v = "tile.load"(%px) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 0, 0>, volatile = false} : (tensor<32x32x!tile.ptr<f16>>) -> tensor<32x32xf16>
  %py_b = "tile.splat"(%y) : (!tile.ptr<f16>) -> tensor<32x32x!tile.ptr<f16>>
  %py = "tile.addptr"(%py_b, %o) : (tensor<32x32x!tile.ptr<f16>>, tensor<32x32xi32>) -> tensor<32x32x!tile.ptr<f16>>
  %w = arith.extf %v : tensor<32x32xf16> to tensor<32x32xf32>
  %t1 = math.tanh %w : tensor<32x32xf32>
  %t2 = math.tanh %t1 : tensor<32x32xf32>
  %t3 = math.tanh %t2 : tensor<32x32xf32>
  %h = arith.truncf %t3 : tensor<32x32xf32> to tensor<32x32xf16>
  "tile.store"(%py, %h) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<32x32x!tile.ptr<f16>>, tensor<32x32xf16>) -> ()
  return
}

// -----

// Column blocks already on axis 0: the order written is the one wanted.
// CHECK-LABEL: func.func @columns_on_axis_0
// CHECK-NEXT: "tile.program_id"() {axis = 0 : i32}
// CHECK-NEXT: "tile.program_id"() {axis = 1 : i32}
// CHECK-NOT: tile.num_programs
// CHECK-NOT: arith.divui
// CHECK: return
func.func @columns_on_axis_0(%x: !tile.ptr<f16>, %y: !tile.ptr<f16>, %stride: i32) attributes {tile.kernel} {
  %pm = "tile.program_id"() {axis = 0 : i32} : () -> i32
  %pn = "tile.program_id"() {axis = 1 : i32} : () -> i32
  %rows_c = arith.constant 32 : i32
  %rows_s = arith.muli %pn, %rows_c : i32
  %rows_a = "tile.arange"() {end = 32 : i32, start = 0 : i32} : () -> tensor<32xi32>
  %rows_sp = "tile.splat"(%rows_s) : (i32) -> tensor<32xi32>
  %rows = arith.addi %rows_sp, %rows_a : tensor<32xi32>
  %cols_c = arith.constant 32 : i32
  %cols_s = arith.muli %pm, %cols_c : i32
  %cols_a = "tile.arange"() {end = 32 : i32, start = 0 : i32} : () -> tensor<32xi32>
  %cols_sp = "tile.splat"(%cols_s) : (i32) -> tensor<32xi32>
  %cols = arith.addi %cols_sp, %cols_a : tensor<32xi32>
  %o_re = "tile.expand_dims"(%rows) {axis = 1 : i32} : (tensor<32xi32>) -> tensor<32x1xi32>
  %o_ce = "tile.expand_dims"(%cols) {axis = 0 : i32} : (tensor<32xi32>) -> tensor<1x32xi32>
  %o_ss = "tile.splat"(%stride) : (i32) -> tensor<32x1xi32>
  %o_rm = arith.muli %o_re, %o_ss : tensor<32x1xi32>
  %o_rb = "tile.broadcast"(%o_rm) : (tensor<32x1xi32>) -> tensor<32x32xi32>
  %o_cb = "tile.broadcast"(%o_ce) : (tensor<1x32xi32>) -> tensor<32x32xi32>
  %o = arith.addi %o_rb, %o_cb : tensor<32x32xi32>
  %px_b = "tile.splat"(%x) : (!tile.ptr<f16>) -> tensor<32x32x!tile.ptr<f16>>
  %px = "tile.addptr"(%px_b, %o) : (tensor<32x32x!tile.ptr<f16>>, tensor<32x32xi32>) -> tensor<32x32x!tile.ptr<f16>>
  %v = "tile.load"(%px) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 0, 0>, volatile = false} : (tensor<32x32x!tile.ptr<f16>>) -> tensor<32x32xf16>
  %py_b = "tile.splat"(%y) : (!tile.ptr<f16>) -> tensor<32x32x!tile.ptr<f16>>
  %py = "tile.addptr"(%py_b, %o) : (tensor<32x32x!tile.ptr<f16>>, tensor<32x32xi32>) -> tensor<32x32x!tile.ptr<f16>>
  "tile.store"(%py, %v) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<32x32x!tile.ptr<f16>>, tensor<32x32xf16>) -> ()
  return
}

// -----

// A transpose of square tiles: the load's runs follow along axis 1, the
// store's along axis 0, as many of each. A tie keeps the order written.
// CHECK-LABEL: func.func @transpose_square
// CHECK-NEXT: "tile.program_id"() {axis = 0 : i32}
// CHECK-NEXT: "tile.program_id"() {axis = 1 : i32}
// CHECK-NOT: tile.num_programs
// CHECK-NOT: arith.divui
// CHECK: return
func.func @transpose_square(%x: !tile.ptr<f16>, %y: !tile.ptr<f16>, %stride: i32) attributes {tile.kernel} {
  %pm = "tile.program_id"() {axis = 0 : i32} : () -> i32
  %pn = "tile.program_id"() {axis = 1 : i32} : () -> i32
  %rows_c = arith.constant 64 : i32
  %rows_s = arith.muli %pm, %rows_c : i32
  %rows_a = "tile.arange"() {end = 64 : i32, start = 0 : i32} : () -> tensor<64xi32>
  %rows_sp = "tile.splat"(%rows_s) : (i32) -> tensor<64xi32>
  %rows = arith.addi %rows_sp, %rows_a : tensor<64xi32>
  %cols_c = arith.constant 64 : i32
  %cols_s = arith.muli %pn, %cols_c : i32
  %cols_a = "tile.arange"() {end = 64 : i32, start = 0 : i32} : () -> tensor<64xi32>
  %cols_sp = "tile.splat"(%cols_s) : (i32) -> tensor<64xi32>
  %cols = arith.addi %cols_sp, %cols_a : tensor<64xi32>
  %o_re = "tile.expand_dims"(%rows) {axis = 1 : i32} : (tensor<64xi32>) -> tensor<64x1xi32>
  %o_ce = "tile.expand_dims"(%cols) {axis = 0 : i32} : (tensor<64xi32>) -> tensor<1x64xi32>
  %o_ss = "tile.splat"(%stride) : (i32) -> tensor<64x1xi32>
  %o_rm = arith.muli %o_re, %o_ss : tensor<64x1xi32>
  %o_rb = "tile.broadcast"(%o_rm) : (tensor<64x1xi32>) -> tensor<64x64xi32>
  %o_cb = "tile.broadcast"(%o_ce) : (tensor<1x64xi32>) -> tensor<64x64xi32>
  %o = arith.addi %o_rb, %o_cb : tensor<64x64xi32>
  %px_b = "tile.splat"(%x) : (!tile.ptr<f16>) -> tensor<64x64x!tile.ptr<f16>>
  %px = "tile.addptr"(%px_b, %o) : (tensor<64x64x!tile.ptr<f16>>, tensor<64x64xi32>) -> tensor<64x64x!tile.ptr<f16>>
  %v = "tile.load"(%px) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 0, 0>, volatile = false} : (tensor<64x64x!tile.ptr<f16>>) -> tensor<64x64xf16>
  %t = "tile.permute"(%v) {order = array<i32: 1, 0>} : (tensor<64x64xf16>) -> tensor<64x64xf16>
  %ot_re = "tile.expand_dims"(%cols) {axis = 1 : i32} : (tensor<64xi32>) -> tensor<64x1xi32>
  %ot_ce = "tile.expand_dims"(%rows) {axis = 0 : i32} : (tensor<64xi32>) -> tensor<1x64xi32>
  %ot_ss = "tile.splat"(%stride) : (i32) -> tensor<64x1xi32>
  %ot_rm = arith.muli %ot_re, %ot_ss : tensor<64x1xi32>
  %ot_rb = "tile.broadcast"(%ot_rm) : (tensor<64x1xi32>) -> tensor<64x64xi32>
  %ot_cb = "tile.broadcast"(%ot_ce) : (tensor<1x64xi32>) -> tensor<64x64xi32>
  %ot = arith.addi %ot_rb, %ot_cb : tensor<64x64xi32>
  %py_b = "tile.splat"(%y) : (!tile.ptr<f16>) -> tensor<64x64x!tile.ptr<f16>>
  %py = "tile.addptr"(%py_b, %ot) : (tensor<64x64x!tile.ptr<f16>>, tensor<64x64xi32>) -> tensor<64x64x!tile.ptr<f16>>
  "tile.store"(%py, %t) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<64x64x!tile.ptr<f16>>, tensor<64x64xf16>) -> ()
  return
}

// -----

// A transpose of 128x32 f16 tiles: the load's runs are 64 bytes (its next
// program along axis 1), the store's 256 (axis 0); the same bytes each,
// and short runs weigh four times: axis 1 first.
// CHECK-LABEL: func.func @transpose_short_rows_in
// CHECK-NEXT: %[[H0:.*]] = "tile.program_id"() {axis = 0 : i32}
// CHECK-NEXT: %[[H1:.*]] = "tile.program_id"() {axis = 1 : i32}
// CHECK-NEXT: %[[N0:.*]] = "tile.num_programs"() {axis = 0 : i32}
// CHECK-NEXT: %[[N1:.*]] = "tile.num_programs"() {axis = 1 : i32}
// CHECK-NEXT: %[[ROW:.*]] = arith.muli %[[H1]], %[[N0]] : i32
// CHECK-NEXT: %[[L:.*]] = arith.addi %[[ROW]], %[[H0]] : i32
// CHECK-NEXT: %[[Q:.*]] = arith.divui %[[L]], %[[N1]] : i32
// CHECK-NEXT: %[[R:.*]] = arith.remui %[[L]], %[[N1]] : i32
// CHECK-NEXT: %[[W0:.*]] = arith.extui %[[N0]] : i32 to i64
// CHECK-NEXT: %[[W1:.*]] = arith.extui %[[N1]] : i32 to i64
// CHECK-NEXT: %[[T:.*]] = arith.muli %[[W0]], %[[W1]] : i64
// CHECK-NEXT: %[[LIM:.*]] = arith.constant 4294967296 : i64
// CHECK-NEXT: %[[FITS:.*]] = arith.cmpi ult, %[[T]], %[[LIM]] : i64
// CHECK-NEXT: %[[P0:.*]] = arith.select %[[FITS]], %[[Q]], %[[H0]] : i32
// CHECK-NEXT: %[[P1:.*]] = arith.select %[[FITS]], %[[R]], %[[H1]] : i32
// CHECK-NOT: tile.program_id
func.func @transpose_short_rows_in(%x: !tile.ptr<f16>, %y: !tile.ptr<f16>, %stride: i32) attributes {tile.kernel} {
  %pm = "tile.program_id"() {axis = 0 : i32} : () -> i32
  %pn = "tile.program_id"() {axis = 1 : i32} : () -> i32
  %rows_c = arith.constant 128 : i32
  %rows_s = arith.muli %pm, %rows_c : i32
  %rows_a = "tile.arange"() {end = 128 : i32, start = 0 : i32} : () -> tensor<128xi32>
  %rows_sp = "tile.splat"(%rows_s) : (i32) -> tensor<128xi32>
  %rows = arith.addi %rows_sp, %rows_a : tensor<128xi32>
  %cols_c = arith.constant 32 : i32
  %cols_s = arith.muli %pn, %cols_c : i32
  %cols_a = "tile.arange"() {end = 32 : i32, start = 0 : i32} : () -> tensor<32xi32>
  %cols_sp = "tile.splat"(%cols_s) : (i32) -> tensor<32xi32>
  %cols = arith.addi %cols_sp, %cols_a : tensor<32xi32>
  %o_re = "tile.expand_dims"(%rows) {axis = 1 : i32} : (tensor<128xi32>) -> tensor<128x1xi32>
  %o_ce = "tile.expand_dims"(%cols) {axis = 0 : i32} : (tensor<32xi32>) -> tensor<1x32xi32>
  %o_ss = "tile.splat"(%stride) : (i32) -> tensor<128x1xi32>
  %o_rm = arith.muli %o_re, %o_ss : tensor<128x1xi32>
  %o_rb = "tile.broadcast"(%o_rm) : (tensor<128x1xi32>) -> tensor<128x32xi32>
  %o_cb = "tile.broadcast"(%o_ce) : (tensor<1x32xi32>) -> tensor<128x32xi32>
  %o = arith.addi %o_rb, %o_cb : tensor<128x32xi32>
  %px_b = "tile.splat"(%x) : (!tile.ptr<f16>) -> tensor<128x32x!tile.ptr<f16>>
  %px = "tile.addptr"(%px_b, %o) : (tensor<128x32x!tile.ptr<f16>>, tensor<128x32xi32>) -> tensor<128x32x!tile.ptr<f16>>
  %v = "tile.load"(%px) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 0, 0>, volatile = false} : (tensor<128x32x!tile.ptr<f16>>) -> tensor<128x32xf16>
  %t = "tile.permute"(%v) {order = array<i32: 1, 0>} : (tensor<128x32xf16>) -> tensor<32x128xf16>
  %ot_re = "tile.expand_dims"(%cols) {axis = 1 : i32} : (tensor<32xi32>) -> tensor<32x1xi32>
  %ot_ce = "tile.expand_dims"(%rows) {axis = 0 : i32} : (tensor<128xi32>) -> tensor<1x128xi32>
  %ot_ss = "tile.splat"(%stride) : (i32) -> tensor<32x1xi32>
  %ot_rm = arith.muli %ot_re, %ot_ss : tensor<32x1xi32>
  %ot_rb = "tile.broadcast"(%ot_rm) : (tensor<32x1xi32>) -> tensor<32x128xi32>
  %ot_cb = "tile.broadcast"(%ot_ce) : (tensor<1x128xi32>) -> tensor<32x128xi32>
  %ot = arith.addi %ot_rb, %ot_cb : tensor<32x128xi32>
  %py_b = "tile.splat"(%y) : (!tile.ptr<f16>) -> tensor<32x128x!tile.ptr<f16>>
  %py = "tile.addptr"(%py_b, %ot) : (tensor<32x128x!tile.ptr<f16>>, tensor<32x128xi32>) -> tensor<32x128x!tile.ptr<f16>>
  "tile.store"(%py, %t) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<32x128x!tile.ptr<f16>>, tensor<32x128xf16>) -> ()
  return
}

// -----

// The same tile of f32: the load's runs are 128 bytes, the store's 512,
// and between runs that long the vote is by bytes alone: a tie, the order
// written stays.
// CHECK-LABEL: func.func @transpose_f32_rows_of_128_bytes
// CHECK-NEXT: "tile.program_id"() {axis = 0 : i32}
// CHECK-NEXT: "tile.program_id"() {axis = 1 : i32}
// CHECK-NOT: tile.num_programs
// CHECK-NOT: arith.divui
// CHECK: return
func.func @transpose_f32_rows_of_128_bytes(%x: !tile.ptr<f32>, %y: !tile.ptr<f32>, %stride: i32) attributes {tile.kernel} {
  %pm = "tile.program_id"() {axis = 0 : i32} : () -> i32
  %pn = "tile.program_id"() {axis = 1 : i32} : () -> i32
  %rows_c = arith.constant 128 : i32
  %rows_s = arith.muli %pm, %rows_c : i32
  %rows_a = "tile.arange"() {end = 128 : i32, start = 0 : i32} : () -> tensor<128xi32>
  %rows_sp = "tile.splat"(%rows_s) : (i32) -> tensor<128xi32>
  %rows = arith.addi %rows_sp, %rows_a : tensor<128xi32>
  %cols_c = arith.constant 32 : i32
  %cols_s = arith.muli %pn, %cols_c : i32
  %cols_a = "tile.arange"() {end = 32 : i32, start = 0 : i32} : () -> tensor<32xi32>
  %cols_sp = "tile.splat"(%cols_s) : (i32) -> tensor<32xi32>
  %cols = arith.addi %cols_sp, %cols_a : tensor<32xi32>
  %o_re = "tile.expand_dims"(%rows) {axis = 1 : i32} : (tensor<128xi32>) -> tensor<128x1xi32>
  %o_ce = "tile.expand_dims"(%cols) {axis = 0 : i32} : (tensor<32xi32>) -> tensor<1x32xi32>
  %o_ss = "tile.splat"(%stride) : (i32) -> tensor<128x1xi32>
  %o_rm = arith.muli %o_re, %o_ss : tensor<128x1xi32>
  %o_rb = "tile.broadcast"(%o_rm) : (tensor<128x1xi32>) -> tensor<128x32xi32>
  %o_cb = "tile.broadcast"(%o_ce) : (tensor<1x32xi32>) -> tensor<128x32xi32>
  %o = arith.addi %o_rb, %o_cb : tensor<128x32xi32>
  %px_b = "tile.splat"(%x) : (!tile.ptr<f32>) -> tensor<128x32x!tile.ptr<f32>>
  %px = "tile.addptr"(%px_b, %o) : (tensor<128x32x!tile.ptr<f32>>, tensor<128x32xi32>) -> tensor<128x32x!tile.ptr<f32>>
  %v = "tile.load"(%px) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 0, 0>, volatile = false} : (tensor<128x32x!tile.ptr<f32>>) -> tensor<128x32xf32>
  %t = "tile.permute"(%v) {order = array<i32: 1, 0>} : (tensor<128x32xf32>) -> tensor<32x128xf32>
  %ot_re = "tile.expand_dims"(%cols) {axis = 1 : i32} : (tensor<32xi32>) -> tensor<32x1xi32>
  %ot_ce = "tile.expand_dims"(%rows) {axis = 0 : i32} : (tensor<128xi32>) -> tensor<1x128xi32>
  %ot_ss = "tile.splat"(%stride) : (i32) -> tensor<32x1xi32>
  %ot_rm = arith.muli %ot_re, %ot_ss : tensor<32x1xi32>
  %ot_rb = "tile.broadcast"(%ot_rm) : (tensor<32x1xi32>) -> tensor<32x128xi32>
  %ot_cb = "tile.broadcast"(%ot_ce) : (tensor<1x128xi32>) -> tensor<32x128xi32>
  %ot = arith.addi %ot_rb, %ot_cb : tensor<32x128xi32>
  %py_b = "tile.splat"(%y) : (!tile.ptr<f32>) -> tensor<32x128x!tile.ptr<f32>>
  %py = "tile.addptr"(%py_b, %ot) : (tensor<32x128x!tile.ptr<f32>>, tensor<32x128xi32>) -> tensor<32x128x!tile.ptr<f32>>
  "tile.store"(%py, %t) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<32x128x!tile.ptr<f32>>, tensor<32x128xf32>) -> ()
  return
}

// -----

// A transpose of 16x256 tiles: the store's 256 short runs follow along
// axis 0, so the order written stays.
// CHECK-LABEL: func.func @transpose_short_rows_out
// CHECK-NEXT: "tile.program_id"() {axis = 0 : i32}
// CHECK-NEXT: "tile.program_id"() {axis = 1 : i32}
// CHECK-NOT: tile.num_programs
// CHECK-NOT: arith.divui
// CHECK: return
func.func @transpose_short_rows_out(%x: !tile.ptr<f16>, %y: !tile.ptr<f16>, %stride: i32) attributes {tile.kernel} {
  %pm = "tile.program_id"() {axis = 0 : i32} : () -> i32
  %pn = "tile.program_id"() {axis = 1 : i32} : () -> i32
  %rows_c = arith.constant 16 : i32
  %rows_s = arith.muli %pm, %rows_c : i32
  %rows_a = "tile.arange"() {end = 16 : i32, start = 0 : i32} : () -> tensor<16xi32>
  %rows_sp = "tile.splat"(%rows_s) : (i32) -> tensor<16xi32>
  %rows = arith.addi %rows_sp, %rows_a : tensor<16xi32>
  %cols_c = arith.constant 256 : i32
  %cols_s = arith.muli %pn, %cols_c : i32
  %cols_a = "tile.arange"() {end = 256 : i32, start = 0 : i32} : () -> tensor<256xi32>
  %cols_sp = "tile.splat"(%cols_s) : (i32) -> tensor<256xi32>
  %cols = arith.addi %cols_sp, %cols_a : tensor<256xi32>
  %o_re = "tile.expand_dims"(%rows) {axis = 1 : i32} : (tensor<16xi32>) -> tensor<16x1xi32>
  %o_ce = "tile.expand_dims"(%cols) {axis = 0 : i32} : (tensor<256xi32>) -> tensor<1x256xi32>
  %o_ss = "tile.splat"(%stride) : (i32) -> tensor<16x1xi32>
  %o_rm = arith.muli %o_re, %o_ss : tensor<16x1xi32>
  %o_rb = "tile.broadcast"(%o_rm) : (tensor<16x1xi32>) -> tensor<16x256xi32>
  %o_cb = "tile.broadcast"(%o_ce) : (tensor<1x256xi32>) -> tensor<16x256xi32>
  %o = arith.addi %o_rb, %o_cb : tensor<16x256xi32>
  %px_b = "tile.splat"(%x) : (!tile.ptr<f16>) -> tensor<16x256x!tile.ptr<f16>>
  %px = "tile.addptr"(%px_b, %o) : (tensor<16x256x!tile.ptr<f16>>, tensor<16x256xi32>) -> tensor<16x256x!tile.ptr<f16>>
  %v = "tile.load"(%px) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 0, 0>, volatile = false} : (tensor<16x256x!tile.ptr<f16>>) -> tensor<16x256xf16>
  %t = "tile.permute"(%v) {order = array<i32: 1, 0>} : (tensor<16x256xf16>) -> tensor<256x16xf16>
  %ot_re = "tile.expand_dims"(%cols) {axis = 1 : i32} : (tensor<256xi32>) -> tensor<256x1xi32>
  %ot_ce = "tile.expand_dims"(%rows) {axis = 0 : i32} : (tensor<16xi32>) -> tensor<1x16xi32>
  %ot_ss = "tile.splat"(%stride) : (i32) -> tensor<256x1xi32>
  %ot_rm = arith.muli %ot_re, %ot_ss : tensor<256x1xi32>
  %ot_rb = "tile.broadcast"(%ot_rm) : (tensor<256x1xi32>) -> tensor<256x16xi32>
  %ot_cb = "tile.broadcast"(%ot_ce) : (tensor<1x16xi32>) -> tensor<256x16xi32>
  %ot = arith.addi %ot_rb, %ot_cb : tensor<256x16xi32>
  %py_b = "tile.splat"(%y) : (!tile.ptr<f16>) -> tensor<256x16x!tile.ptr<f16>>
  %py = "tile.addptr"(%py_b, %ot) : (tensor<256x16x!tile.ptr<f16>>, tensor<256x16xi32>) -> tensor<256x16x!tile.ptr<f16>>
  "tile.store"(%py, %t) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<256x16x!tile.ptr<f16>>, tensor<256x16xf16>) -> ()
  return
}

// -----

// Block pointers: the block's fastest axis (`order` 1, 0) is axis 1 of the
// tile, and the next program along grid axis 1 starts 64 columns on.
// CHECK-LABEL: func.func @block_pointers
// CHECK-NEXT: %[[H0:.*]] = "tile.program_id"() {axis = 0 : i32}
// CHECK-NEXT: %[[H1:.*]] = "tile.program_id"() {axis = 1 : i32}
// CHECK-NEXT: %[[N0:.*]] = "tile.num_programs"() {axis = 0 : i32}
// CHECK-NEXT: %[[N1:.*]] = "tile.num_programs"() {axis = 1 : i32}
// CHECK-NEXT: %[[ROW:.*]] = arith.muli %[[H1]], %[[N0]] : i32
// CHECK-NEXT: %[[L:.*]] = arith.addi %[[ROW]], %[[H0]] : i32
// CHECK-NEXT: %[[Q:.*]] = arith.divui %[[L]], %[[N1]] : i32
// CHECK-NEXT: %[[R:.*]] = arith.remui %[[L]], %[[N1]] : i32
// CHECK-NEXT: %[[W0:.*]] = arith.extui %[[N0]] : i32 to i64
// CHECK-NEXT: %[[W1:.*]] = arith.extui %[[N1]] : i32 to i64
// CHECK-NEXT: %[[T:.*]] = arith.muli %[[W0]], %[[W1]] : i64
// CHECK-NEXT: %[[LIM:.*]] = arith.constant 4294967296 : i64
// CHECK-NEXT: %[[FITS:.*]] = arith.cmpi ult, %[[T]], %[[LIM]] : i64
// CHECK-NEXT: %[[P0:.*]] = arith.select %[[FITS]], %[[Q]], %[[H0]] : i32
// CHECK-NEXT: %[[P1:.*]] = arith.select %[[FITS]], %[[R]], %[[H1]] : i32
// CHECK-NOT: tile.program_id
func.func @block_pointers(%x: !tile.ptr<f16>, %y: !tile.ptr<f16>, %m: i64, %n: i64, %s: i64) attributes {tile.kernel} {
  %pm = "tile.program_id"() {axis = 0 : i32} : () -> i32
  %pn = "tile.program_id"() {axis = 1 : i32} : () -> i32
  %c64 = arith.constant 64 : i32
  %r0 = arith.muli %pm, %c64 : i32
  %c0 = arith.muli %pn, %c64 : i32
  %one = arith.constant 1 : i64
  %bx = "tile.make_block_ptr"(%x, %m, %n, %s, %one, %r0, %c0) {order = array<i32: 1, 0>, operandSegmentSizes = array<i32: 1, 2, 2, 2>} : (!tile.ptr<f16>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<64x64xf16>>
  %v = "tile.block_load"(%bx) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = "", padding = "zero", volatile = false} : (!tile.block_ptr<tensor<64x64xf16>>) -> tensor<64x64xf16>
  %by = "tile.make_block_ptr"(%y, %m, %n, %s, %one, %r0, %c0) {order = array<i32: 1, 0>, operandSegmentSizes = array<i32: 1, 2, 2, 2>} : (!tile.ptr<f16>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<64x64xf16>>
  "tile.block_store"(%by, %v) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = ""} : (!tile.block_ptr<tensor<64x64xf16>>, tensor<64x64xf16>) -> ()
  return
}

// -----

// Pointers carried by a loop and stepped by the same amount in every
// program still follow along axis 1.
// CHECK-LABEL: func.func @loop_carried_pointers
// CHECK-NEXT: %[[H0:.*]] = "tile.program_id"() {axis = 0 : i32}
// CHECK-NEXT: %[[H1:.*]] = "tile.program_id"() {axis = 1 : i32}
// CHECK-NEXT: %[[N0:.*]] = "tile.num_programs"() {axis = 0 : i32}
// CHECK-NEXT: %[[N1:.*]] = "tile.num_programs"() {axis = 1 : i32}
// CHECK-NEXT: %[[ROW:.*]] = arith.muli %[[H1]], %[[N0]] : i32
// CHECK-NEXT: %[[L:.*]] = arith.addi %[[ROW]], %[[H0]] : i32
// CHECK-NEXT: %[[Q:.*]] = arith.divui %[[L]], %[[N1]] : i32
// CHECK-NEXT: %[[R:.*]] = arith.remui %[[L]], %[[N1]] : i32
// CHECK-NEXT: %[[W0:.*]] = arith.extui %[[N0]] : i32 to i64
// CHECK-NEXT: %[[W1:.*]] = arith.extui %[[N1]] : i32 to i64
// CHECK-NEXT: %[[T:.*]] = arith.muli %[[W0]], %[[W1]] : i64
// CHECK-NEXT: %[[LIM:.*]] = arith.constant 4294967296 : i64
// CHECK-NEXT: %[[FITS:.*]] = arith.cmpi ult, %[[T]], %[[LIM]] : i64
// CHECK-NEXT: %[[P0:.*]] = arith.select %[[FITS]], %[[Q]], %[[H0]] : i32
// CHECK-NEXT: %[[P1:.*]] = arith.select %[[FITS]], %[[R]], %[[H1]] : i32
// CHECK-NOT: tile.program_id
func.func @loop_carried_pointers(%x: !tile.ptr<f16>, %y: !tile.ptr<f16>, %stride: i32, %iters: i32) attributes {tile.kernel} {
  %pm = "tile.program_id"() {axis = 0 : i32} : () -> i32
  %pn = "tile.program_id"() {axis = 1 : i32} : () -> i32
  %rows_c = arith.constant 32 : i32
  %rows_s = arith.muli %pm, %rows_c : i32
  %rows_a = "tile.arange"() {end = 32 : i32, start = 0 : i32} : () -> tensor<32xi32>
  %rows_sp = "tile.splat"(%rows_s) : (i32) -> tensor<32xi32>
  %rows = arith.addi %rows_sp, %rows_a : tensor<32xi32>
  %cols_c = arith.constant 32 : i32
  %cols_s = arith.muli %pn, %cols_c : i32
  %cols_a = "tile.arange"() {end = 32 : i32, start = 0 : i32} : () -> tensor<32xi32>
  %cols_sp = "tile.splat"(%cols_s) : (i32) -> tensor<32xi32>
  %cols = arith.addi %cols_sp, %cols_a : tensor<32xi32>
  %o_re = "tile.expand_dims"(%rows) {axis = 1 : i32} : (tensor<32xi32>) -> tensor<32x1xi32>
  %o_ce = "tile.expand_dims"(%cols) {axis = 0 : i32} : (tensor<32xi32>) -> tensor<1x32xi32>
  %o_ss = "tile.splat"(%stride) : (i32) -> tensor<32x1xi32>
  %o_rm = arith.muli %o_re, %o_ss : tensor<32x1xi32>
  %o_rb = "tile.broadcast"(%o_rm) : (tensor<32x1xi32>) -> tensor<32x32xi32>
  %o_cb = "tile.broadcast"(%o_ce) : (tensor<1x32xi32>) -> tensor<32x32xi32>
  %o = arith.addi %o_rb, %o_cb : tensor<32x32xi32>
  %px_b = "tile.splat"(%x) : (!tile.ptr<f16>) -> tensor<32x32x!tile.ptr<f16>>
  %px = "tile.addptr"(%px_b, %o) : (tensor<32x32x!tile.ptr<f16>>, tensor<32x32xi32>) -> tensor<32x32x!tile.ptr<f16>>
  %z = arith.constant dense<0.0> : tensor<32x32xf16>
  %k0 = arith.constant 0 : i32
  %k1 = arith.constant 1 : i32
  %s32 = arith.muli %stride, %rows_c : i32
  %step = "tile.splat"(%s32) : (i32) -> tensor<32x32xi32>
  %acc:2 = scf.for %k = %k0 to %iters step %k1 iter_args(%a = %z, %p = %px) -> (tensor<32x32xf16>, tensor<32x32x!tile.ptr<f16>>) : i32 {
    %v = "tile.load"(%p) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 0, 0>, volatile = false} : (tensor<32x32x!tile.ptr<f16>>) -> tensor<32x32xf16>
    %a2 = arith.addf %a, %v : tensor<32x32xf16>
    %p2 = "tile.addptr"(%p, %step) : (tensor<32x32x!tile.ptr<f16>>, tensor<32x32xi32>) -> tensor<32x32x!tile.ptr<f16>>
    scf.yield %a2, %p2 : tensor<32x32xf16>, tensor<32x32x!tile.ptr<f16>>
  }
  %py_b = "tile.splat"(%y) : (!tile.ptr<f16>) -> tensor<32x32x!tile.ptr<f16>>
  %py = "tile.addptr"(%py_b, %o) : (tensor<32x32x!tile.ptr<f16>>, tensor<32x32xi32>) -> tensor<32x32x!tile.ptr<f16>>
  "tile.store"(%py, %acc#0) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<32x32x!tile.ptr<f16>>, tensor<32x32xf16>) -> ()
  return
}

// -----

// Axis 1 only picks a batch (a stride the kernel is given): no access
// continues along it, nothing changes.
// CHECK-LABEL: func.func @batch_on_axis_1
// CHECK-NEXT: "tile.program_id"() {axis = 0 : i32}
// CHECK-NEXT: "tile.program_id"() {axis = 1 : i32}
// CHECK-NOT: tile.num_programs
// CHECK-NOT: arith.divui
// CHECK: return
func.func @batch_on_axis_1(%x: !tile.ptr<f16>, %y: !tile.ptr<f16>, %stride: i32) attributes {tile.kernel} {
  %pm = "tile.program_id"() {axis = 0 : i32} : () -> i32
  %pn = "tile.program_id"() {axis = 1 : i32} : () -> i32
  %cols_c = arith.constant 256 : i32
  %cols_s = arith.muli %pm, %cols_c : i32
  %cols_a = "tile.arange"() {end = 256 : i32, start = 0 : i32} : () -> tensor<256xi32>
  %cols_sp = "tile.splat"(%cols_s) : (i32) -> tensor<256xi32>
  %cols = arith.addi %cols_sp, %cols_a : tensor<256xi32>
  %bo = arith.muli %pn, %stride : i32
  %bs = "tile.splat"(%bo) : (i32) -> tensor<256xi32>
  %o = arith.addi %bs, %cols : tensor<256xi32>
  %px_b = "tile.splat"(%x) : (!tile.ptr<f16>) -> tensor<256x!tile.ptr<f16>>
  %px = "tile.addptr"(%px_b, %o) : (tensor<256x!tile.ptr<f16>>, tensor<256xi32>) -> tensor<256x!tile.ptr<f16>>
  %v = "tile.load"(%px) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 0, 0>, volatile = false} : (tensor<256x!tile.ptr<f16>>) -> tensor<256xf16>
  %py_b = "tile.splat"(%y) : (!tile.ptr<f16>) -> tensor<256x!tile.ptr<f16>>
  %py = "tile.addptr"(%py_b, %o) : (tensor<256x!tile.ptr<f16>>, tensor<256xi32>) -> tensor<256x!tile.ptr<f16>>
  "tile.store"(%py, %v) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<256x!tile.ptr<f16>>, tensor<256xf16>) -> ()
  return
}

// -----

// Programs may hand work to one another through atomics: the order is
// the user's.
// CHECK-LABEL: func.func @atomic_add
// CHECK-NEXT: "tile.program_id"() {axis = 0 : i32}
// CHECK-NEXT: "tile.program_id"() {axis = 1 : i32}
// CHECK-NOT: tile.num_programs
// CHECK-NOT: arith.divui
// CHECK: return
func.func @atomic_add(%x: !tile.ptr<f16>, %y: !tile.ptr<f16>, %stride: i32) attributes {tile.kernel} {
  %pm = "tile.program_id"() {axis = 0 : i32} : () -> i32
  %pn = "tile.program_id"() {axis = 1 : i32} : () -> i32
  %rows_c = arith.constant 32 : i32
  %rows_s = arith.muli %pm, %rows_c : i32
  %rows_a = "tile.arange"() {end = 32 : i32, start = 0 : i32} : () -> tensor<32xi32>
  %rows_sp = "tile.splat"(%rows_s) : (i32) -> tensor<32xi32>
  %rows = arith.addi %rows_sp, %rows_a : tensor<32xi32>
  %cols_c = arith.constant 32 : i32
  %cols_s = arith.muli %pn, %cols_c : i32
  %cols_a = "tile.arange"() {end = 32 : i32, start = 0 : i32} : () -> tensor<32xi32>
  %cols_sp = "tile.splat"(%cols_s) : (i32) -> tensor<32xi32>
  %cols = arith.addi %cols_sp, %cols_a : tensor<32xi32>
  %o_re = "tile.expand_dims"(%rows) {axis = 1 : i32} : (tensor<32xi32>) -> tensor<32x1xi32>
  %o_ce = "tile.expand_dims"(%cols) {axis = 0 : i32} : (tensor<32xi32>) -> tensor<1x32xi32>
  %o_ss = "tile.splat"(%stride) : (i32) -> tensor<32x1xi32>
  %o_rm = arith.muli %o_re, %o_ss : tensor<32x1xi32>
  %o_rb = "tile.broadcast"(%o_rm) : (tensor<32x1xi32>) -> tensor<32x32xi32>
  %o_cb = "tile.broadcast"(%o_ce) : (tensor<1x32xi32>) -> tensor<32x32xi32>
  %o = arith.addi %o_rb, %o_cb : tensor<32x32xi32>
  %px_b = "tile.splat"(%x) : (!tile.ptr<f16>) -> tensor<32x32x!tile.ptr<f16>>
  %px = "tile.addptr"(%px_b, %o) : (tensor<32x32x!tile.ptr<f16>>, tensor<32x32xi32>) -> tensor<32x32x!tile.ptr<f16>>
  %v = "tile.load"(%px) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 0, 0>, volatile = false} : (tensor<32x32x!tile.ptr<f16>>) -> tensor<32x32xf16>
  %py_b = "tile.splat"(%y) : (!tile.ptr<f16>) -> tensor<32x32x!tile.ptr<f16>>
  %py = "tile.addptr"(%py_b, %o) : (tensor<32x32x!tile.ptr<f16>>, tensor<32x32xi32>) -> tensor<32x32x!tile.ptr<f16>>
  %old = "tile.atomic_rmw"(%py, %v) {kind = "add", operandSegmentSizes = array<i32: 1, 1, 0>, scope = "gpu", sem = "acq_rel"} : (tensor<32x32x!tile.ptr<f16>>, tensor<32x32xf16>) -> tensor<32x32xf16>
  return
}

// -----

// The module asks for the order as launched (`launch_order: false`).
// CHECK-LABEL: func.func @order_kept
// CHECK-NEXT: "tile.program_id"() {axis = 0 : i32}
// CHECK-NEXT: "tile.program_id"() {axis = 1 : i32}
// CHECK-NOT: tile.num_programs
// CHECK-NOT: arith.divui
// CHECK: return
module attributes {tile.keep_launch_order} {
func.func @order_kept(%x: !tile.ptr<f16>, %y: !tile.ptr<f16>, %stride: i32) attributes {tile.kernel} {
  %pm = "tile.program_id"() {axis = 0 : i32} : () -> i32
  %pn = "tile.program_id"() {axis = 1 : i32} : () -> i32
  %rows_c = arith.constant 32 : i32
  %rows_s = arith.muli %pm, %rows_c : i32
  %rows_a = "tile.arange"() {end = 32 : i32, start = 0 : i32} : () -> tensor<32xi32>
  %rows_sp = "tile.splat"(%rows_s) : (i32) -> tensor<32xi32>
  %rows = arith.addi %rows_sp, %rows_a : tensor<32xi32>
  %cols_c = arith.constant 32 : i32
  %cols_s = arith.muli %pn, %cols_c : i32
  %cols_a = "tile.arange"() {end = 32 : i32, start = 0 : i32} : () -> tensor<32xi32>
  %cols_sp = "tile.splat"(%cols_s) : (i32) -> tensor<32xi32>
  %cols = arith.addi %cols_sp, %cols_a : tensor<32xi32>
  %o_re = "tile.expand_dims"(%rows) {axis = 1 : i32} : (tensor<32xi32>) -> tensor<32x1xi32>
  %o_ce = "tile.expand_dims"(%cols) {axis = 0 : i32} : (tensor<32xi32>) -> tensor<1x32xi32>
  %o_ss = "tile.splat"(%stride) : (i32) -> tensor<32x1xi32>
  %o_rm = arith.muli %o_re, %o_ss : tensor<32x1xi32>
  %o_rb = "tile.broadcast"(%o_rm) : (tensor<32x1xi32>) -> tensor<32x32xi32>
  %o_cb = "tile.broadcast"(%o_ce) : (tensor<1x32xi32>) -> tensor<32x32xi32>
  %o = arith.addi %o_rb, %o_cb : tensor<32x32xi32>
  %px_b = "tile.splat"(%x) : (!tile.ptr<f16>) -> tensor<32x32x!tile.ptr<f16>>
  %px = "tile.addptr"(%px_b, %o) : (tensor<32x32x!tile.ptr<f16>>, tensor<32x32xi32>) -> tensor<32x32x!tile.ptr<f16>>
  %v = "tile.load"(%px) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 0, 0>, volatile = false} : (tensor<32x32x!tile.ptr<f16>>) -> tensor<32x32xf16>
  %py_b = "tile.splat"(%y) : (!tile.ptr<f16>) -> tensor<32x32x!tile.ptr<f16>>
  %py = "tile.addptr"(%py_b, %o) : (tensor<32x32x!tile.ptr<f16>>, tensor<32x32xi32>) -> tensor<32x32x!tile.ptr<f16>>
  "tile.store"(%py, %v) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<32x32x!tile.ptr<f16>>, tensor<32x32xf16>) -> ()
  return
}
}

// -----

// A transpose through block pointers, 128x32 f16: the load's block
// (`order` 1, 0) has 64-byte rows and its next block is the next
// program's along axis 1; the store's rows are 256 bytes: axis 1 first.
// CHECK-LABEL: func.func @block_transpose_short_rows_in
// CHECK-NEXT: "tile.program_id"() {axis = 0 : i32}
// CHECK-NEXT: "tile.program_id"() {axis = 1 : i32}
// CHECK-NEXT: "tile.num_programs"() {axis = 0 : i32}
// CHECK-NEXT: "tile.num_programs"() {axis = 1 : i32}
// CHECK: arith.divui
// CHECK: arith.remui
// CHECK: return
func.func @block_transpose_short_rows_in(%x: !tile.ptr<f16>, %y: !tile.ptr<f16>, %m: i64, %n: i64, %s: i64, %t: i64) attributes {tile.kernel} {
  %pm = "tile.program_id"() {axis = 0 : i32} : () -> i32
  %pn = "tile.program_id"() {axis = 1 : i32} : () -> i32
  %cm = arith.constant 128 : i32
  %cn = arith.constant 32 : i32
  %r0 = arith.muli %pm, %cm : i32
  %c0 = arith.muli %pn, %cn : i32
  %one = arith.constant 1 : i64
  %bx = "tile.make_block_ptr"(%x, %m, %n, %s, %one, %r0, %c0) {order = array<i32: 1, 0>, operandSegmentSizes = array<i32: 1, 2, 2, 2>} : (!tile.ptr<f16>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<128x32xf16>>
  %v = "tile.block_load"(%bx) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = "", padding = "zero", volatile = false} : (!tile.block_ptr<tensor<128x32xf16>>) -> tensor<128x32xf16>
  %tv = "tile.permute"(%v) {order = array<i32: 1, 0>} : (tensor<128x32xf16>) -> tensor<32x128xf16>
  %by = "tile.make_block_ptr"(%y, %n, %m, %t, %one, %c0, %r0) {order = array<i32: 1, 0>, operandSegmentSizes = array<i32: 1, 2, 2, 2>} : (!tile.ptr<f16>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<32x128xf16>>
  "tile.block_store"(%by, %tv) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = ""} : (!tile.block_ptr<tensor<32x128xf16>>, tensor<32x128xf16>) -> ()
  return
}

// -----

// The same at 16x256: the store's 32-byte rows win, the order stays.
// CHECK-LABEL: func.func @block_transpose_short_rows_out
// CHECK-NEXT: "tile.program_id"() {axis = 0 : i32}
// CHECK-NEXT: "tile.program_id"() {axis = 1 : i32}
// CHECK-NOT: tile.num_programs
// CHECK-NOT: arith.divui
// CHECK: return
func.func @block_transpose_short_rows_out(%x: !tile.ptr<f16>, %y: !tile.ptr<f16>, %m: i64, %n: i64, %s: i64, %t: i64) attributes {tile.kernel} {
  %pm = "tile.program_id"() {axis = 0 : i32} : () -> i32
  %pn = "tile.program_id"() {axis = 1 : i32} : () -> i32
  %cm = arith.constant 16 : i32
  %cn = arith.constant 256 : i32
  %r0 = arith.muli %pm, %cm : i32
  %c0 = arith.muli %pn, %cn : i32
  %one = arith.constant 1 : i64
  %bx = "tile.make_block_ptr"(%x, %m, %n, %s, %one, %r0, %c0) {order = array<i32: 1, 0>, operandSegmentSizes = array<i32: 1, 2, 2, 2>} : (!tile.ptr<f16>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<16x256xf16>>
  %v = "tile.block_load"(%bx) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = "", padding = "zero", volatile = false} : (!tile.block_ptr<tensor<16x256xf16>>) -> tensor<16x256xf16>
  %tv = "tile.permute"(%v) {order = array<i32: 1, 0>} : (tensor<16x256xf16>) -> tensor<256x16xf16>
  %by = "tile.make_block_ptr"(%y, %n, %m, %t, %one, %c0, %r0) {order = array<i32: 1, 0>, operandSegmentSizes = array<i32: 1, 2, 2, 2>} : (!tile.ptr<f16>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<256x16xf16>>
  "tile.block_store"(%by, %tv) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = ""} : (!tile.block_ptr<tensor<256x16xf16>>, tensor<256x16xf16>) -> ()
  return
}

// -----

// A row of 16 pointers broadcast down 64 rows touches one run, not 64:
// its vote (64 bytes, four times over) loses to the store's 16 runs of
// 256 bytes along axis 0, and the order stays.
// CHECK-LABEL: func.func @broadcast_row_counts_once
// CHECK-NEXT: "tile.program_id"() {axis = 0 : i32}
// CHECK-NEXT: "tile.program_id"() {axis = 1 : i32}
// CHECK-NOT: tile.num_programs
// CHECK-NOT: arith.divui
// CHECK: return
func.func @broadcast_row_counts_once(%b: !tile.ptr<f32>, %y: !tile.ptr<f32>, %stride: i32) attributes {tile.kernel} {
  %pm = "tile.program_id"() {axis = 0 : i32} : () -> i32
  %pn = "tile.program_id"() {axis = 1 : i32} : () -> i32
  %rows_c = arith.constant 64 : i32
  %rows_s = arith.muli %pm, %rows_c : i32
  %rows_a = "tile.arange"() {end = 64 : i32, start = 0 : i32} : () -> tensor<64xi32>
  %rows_sp = "tile.splat"(%rows_s) : (i32) -> tensor<64xi32>
  %rows = arith.addi %rows_sp, %rows_a : tensor<64xi32>
  %cols_c = arith.constant 16 : i32
  %cols_s = arith.muli %pn, %cols_c : i32
  %cols_a = "tile.arange"() {end = 16 : i32, start = 0 : i32} : () -> tensor<16xi32>
  %cols_sp = "tile.splat"(%cols_s) : (i32) -> tensor<16xi32>
  %cols = arith.addi %cols_sp, %cols_a : tensor<16xi32>
  %ce = "tile.expand_dims"(%cols) {axis = 0 : i32} : (tensor<16xi32>) -> tensor<1x16xi32>
  %bs = "tile.splat"(%b) : (!tile.ptr<f32>) -> tensor<1x16x!tile.ptr<f32>>
  %bp = "tile.addptr"(%bs, %ce) : (tensor<1x16x!tile.ptr<f32>>, tensor<1x16xi32>) -> tensor<1x16x!tile.ptr<f32>>
  %bb = "tile.broadcast"(%bp) : (tensor<1x16x!tile.ptr<f32>>) -> tensor<64x16x!tile.ptr<f32>>
  %v = "tile.load"(%bb) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 0, 0>, volatile = false} : (tensor<64x16x!tile.ptr<f32>>) -> tensor<64x16xf32>
  %re = "tile.expand_dims"(%rows) {axis = 1 : i32} : (tensor<64xi32>) -> tensor<64x1xi32>
  %ss = "tile.splat"(%stride) : (i32) -> tensor<1x16xi32>
  %cm = arith.muli %ce, %ss : tensor<1x16xi32>
  %rb = "tile.broadcast"(%re) : (tensor<64x1xi32>) -> tensor<64x16xi32>
  %cb = "tile.broadcast"(%cm) : (tensor<1x16xi32>) -> tensor<64x16xi32>
  %o = arith.addi %rb, %cb : tensor<64x16xi32>
  %ys = "tile.splat"(%y) : (!tile.ptr<f32>) -> tensor<64x16x!tile.ptr<f32>>
  %yp = "tile.addptr"(%ys, %o) : (tensor<64x16x!tile.ptr<f32>>, tensor<64x16xi32>) -> tensor<64x16x!tile.ptr<f32>>
  "tile.store"(%yp, %v) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<64x16x!tile.ptr<f32>>, tensor<64x16xf32>) -> ()
  return
}

// -----

// Pointers equal over groups of 16 rows (`rows / 16`) touch 4 runs of 64
// bytes (1024 with the weight of short runs) along axis 1, against 256 bytes
// of 1-D accesses along axis 0: axis 1 first.
// CHECK-LABEL: func.func @row_groups_count_each_group
// CHECK-NEXT: "tile.program_id"() {axis = 0 : i32}
// CHECK-NEXT: "tile.program_id"() {axis = 1 : i32}
// CHECK-NEXT: "tile.num_programs"() {axis = 0 : i32}
// CHECK-NEXT: "tile.num_programs"() {axis = 1 : i32}
// CHECK: arith.divui
// CHECK: arith.remui
// CHECK: return
func.func @row_groups_count_each_group(%b: !tile.ptr<f32>, %x: !tile.ptr<f32>, %y: !tile.ptr<f32>, %stride: i32) attributes {tile.kernel} {
  %pm = "tile.program_id"() {axis = 0 : i32} : () -> i32
  %pn = "tile.program_id"() {axis = 1 : i32} : () -> i32
  %rows_c = arith.constant 64 : i32
  %rows_s = arith.muli %pm, %rows_c : i32
  %rows_a = "tile.arange"() {end = 64 : i32, start = 0 : i32} : () -> tensor<64xi32>
  %rows_sp = "tile.splat"(%rows_s) : (i32) -> tensor<64xi32>
  %rows = arith.addi %rows_sp, %rows_a : tensor<64xi32>
  %cols_c = arith.constant 16 : i32
  %cols_s = arith.muli %pn, %cols_c : i32
  %cols_a = "tile.arange"() {end = 16 : i32, start = 0 : i32} : () -> tensor<16xi32>
  %cols_sp = "tile.splat"(%cols_s) : (i32) -> tensor<16xi32>
  %cols = arith.addi %cols_sp, %cols_a : tensor<16xi32>
  %c16 = arith.constant dense<16> : tensor<64xi32>
  %g = arith.divsi %rows, %c16 : tensor<64xi32>
  %ge = "tile.expand_dims"(%g) {axis = 1 : i32} : (tensor<64xi32>) -> tensor<64x1xi32>
  %ss = "tile.splat"(%stride) : (i32) -> tensor<64x1xi32>
  %gm = arith.muli %ge, %ss : tensor<64x1xi32>
  %ce = "tile.expand_dims"(%cols) {axis = 0 : i32} : (tensor<16xi32>) -> tensor<1x16xi32>
  %gb = "tile.broadcast"(%gm) : (tensor<64x1xi32>) -> tensor<64x16xi32>
  %cb = "tile.broadcast"(%ce) : (tensor<1x16xi32>) -> tensor<64x16xi32>
  %o = arith.addi %gb, %cb : tensor<64x16xi32>
  %bs = "tile.splat"(%b) : (!tile.ptr<f32>) -> tensor<64x16x!tile.ptr<f32>>
  %bp = "tile.addptr"(%bs, %o) : (tensor<64x16x!tile.ptr<f32>>, tensor<64x16xi32>) -> tensor<64x16x!tile.ptr<f32>>
  %v = "tile.load"(%bp) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 0, 0>, volatile = false} : (tensor<64x16x!tile.ptr<f32>>) -> tensor<64x16xf32>
  %xs = "tile.splat"(%x) : (!tile.ptr<f32>) -> tensor<64x!tile.ptr<f32>>
  %xp = "tile.addptr"(%xs, %rows) : (tensor<64x!tile.ptr<f32>>, tensor<64xi32>) -> tensor<64x!tile.ptr<f32>>
  %w = "tile.load"(%xp) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 0, 0>, volatile = false} : (tensor<64x!tile.ptr<f32>>) -> tensor<64xf32>
  %ys = "tile.splat"(%y) : (!tile.ptr<f32>) -> tensor<64x!tile.ptr<f32>>
  %yp = "tile.addptr"(%ys, %rows) : (tensor<64x!tile.ptr<f32>>, tensor<64xi32>) -> tensor<64x!tile.ptr<f32>>
  "tile.store"(%yp, %w) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<64x!tile.ptr<f32>>, tensor<64xf32>) -> ()
  return
}
