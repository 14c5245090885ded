// RUN: tile-opt %s --split-input-file --tile-assign-layouts --tile-remove-conversions --tile-predicate --tile-vectorize --tile-software-pipeline | FileCheck %s --check-prefix=MARK
// RUN: tile-opt %s --split-input-file --tile-assign-layouts --tile-remove-conversions --tile-predicate --tile-vectorize --tile-software-pipeline --tile-to-simt %to-ptx-sm90a | FileCheck %s --check-prefix=PTX
// RUN: sed 's/tile.loop_stages = 3 : i32}/tile.loop_stages = 6 : i32}/' %s | tile-opt --split-input-file --tile-assign-layouts --tile-remove-conversions --tile-predicate --tile-vectorize --tile-software-pipeline --tile-to-simt | FileCheck %s --check-prefix=SIX

// tile-software-pipeline on loops that multiply nothing on tensor cores:
// a column sum over blocks of rows, its loads masked on the rows left.
// Such a loop waits out a memory latency an iteration with one tile in
// flight unless many programs share each multiprocessor. When the loop
// asks for stages itself (tile.loop_stages = S: the builder's
// for_range_staged, Triton's tl.range(num_stages=S)) its tiles are copied
// S - 1 iterations ahead into each thread's own slots of shared memory
// (tile.async_copy = "thread"), as Triton pipelines such a loop; where a
// copy cannot do it (masked-off lanes that read something other than 0,
// more than 96 KiB of buffers) they are loaded ahead into registers
// (tile.prefetch = d), within 64 registers a thread. The module's
// tile.num_stages alone leaves such loops alone.

// Three stages asked by the loop (the module's one overridden), a 32x64
// f32 tile over 4 warps: copied two tiles ahead. In the PTX, tiles 0 and 1
// are copied before the loop (four 16-byte cp.async each, one commit
// group a tile); each iteration waits for its tile, reads its four runs
// back (run k of thread t at (k * 128 + t) * 16 bytes: 2048 bytes from one
// run to the next, consecutive across a warp) and copies the tile two
// ahead. No barrier in the loop: each thread reads only what it copied.
// The ring is three slots of the 8192-byte tile, 24576 bytes: a slot
// already a multiple of the alignment is not rounded up.
// Six stages fill 49152 bytes, exactly what a block may have without
// opting in: still a static array, no dynamic shared memory.
// SIX-NOT: tile.dynamic_shared_bytes
// SIX: llvm.mlir.global internal @__tile_shared() {{.*}} : !llvm.array<49152 x i8>
// SIX: gpu.func @own_slots
// MARK-LABEL: func.func @own_slots
// MARK: "tile.load"{{.*}}tile.async_copy = "thread", tile.vector_width = 4
// MARK: } {tile.loop_stages = 3 : i32, tile.num_stages = 3 : i64}
// PTX-LABEL: .entry own_slots(
// PTX-SAME: .b8 __tile_shared[24576];
// PTX-NOT: ld.global
// PTX-COUNT-4: cp.async.cg.shared.global
// PTX: cp.async.commit_group;
// PTX-COUNT-4: cp.async.cg.shared.global
// PTX: cp.async.commit_group;
// PTX: cp.async.wait_group 1;
// PTX-NOT: bar.sync
// PTX: ld.shared.v4.b32{{.*}}ld.shared.v4.b32{{.*}}+2048];{{.*}}ld.shared.v4.b32{{.*}}+4096];{{.*}}ld.shared.v4.b32{{.*}}+6144];
// PTX-NOT: bar.sync
// PTX-COUNT-4: cp.async.cg.shared.global
// PTX-NOT: bar.sync
// PTX: cp.async.commit_group;
// PTX-NOT: bar.sync
// PTX: bra
// PTX: cp.async.wait_group 0;
module attributes {tile.num_stages = 1 : i32, tile.compute_capability = 90 : i32, tile.num_warps = 4 : i32} {
  func.func @own_slots(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %y: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %m: i32 {tile.divisibility = 16 : i32}, %n: i32 {tile.divisibility = 16 : i32}) attributes {tile.kernel} {
    %c0 = arith.constant 0 : i32
    %cbm = arith.constant 32 : i32
    %zero = arith.constant dense<0.0> : tensor<32x64xf32>
    %rm = "tile.arange"() {end = 32 : i32, start = 0 : i32} : () -> tensor<32xi32>
    %rn = "tile.arange"() {end = 64 : i32, start = 0 : i32} : () -> tensor<64xi32>
    %rn0 = "tile.expand_dims"(%rn) {axis = 0 : i32} : (tensor<64xi32>) -> tensor<1x64xi32>
    %cols = "tile.broadcast"(%rn0) : (tensor<1x64xi32>) -> tensor<32x64xi32>
    %xs = "tile.splat"(%x) : (!tile.ptr<f32>) -> tensor<32x64x!tile.ptr<f32>>
    %acc = scf.for %i = %c0 to %m step %cbm iter_args(%a = %zero) -> (tensor<32x64xf32>) : i32 {
      %is = "tile.splat"(%i) : (i32) -> tensor<32xi32>
      %rows = arith.addi %is, %rm : tensor<32xi32>
      %r1 = "tile.expand_dims"(%rows) {axis = 1 : i32} : (tensor<32xi32>) -> tensor<32x1xi32>
      %ms = "tile.splat"(%m) : (i32) -> tensor<32x1xi32>
      %in1 = arith.cmpi slt, %r1, %ms : tensor<32x1xi32>
      %in = "tile.broadcast"(%in1) : (tensor<32x1xi1>) -> tensor<32x64xi1>
      %ns = "tile.splat"(%n) : (i32) -> tensor<32x1xi32>
      %ro = arith.muli %r1, %ns : tensor<32x1xi32>
      %rob = "tile.broadcast"(%ro) : (tensor<32x1xi32>) -> tensor<32x64xi32>
      %o = arith.addi %rob, %cols : tensor<32x64xi32>
      %p = "tile.addptr"(%xs, %o) : (tensor<32x64x!tile.ptr<f32>>, tensor<32x64xi32>) -> tensor<32x64x!tile.ptr<f32>>
      %zx = arith.constant dense<0.0> : tensor<32x64xf32>
      %v = "tile.load"(%p, %in, %zx) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 1>, volatile = false} : (tensor<32x64x!tile.ptr<f32>>, tensor<32x64xi1>, tensor<32x64xf32>) -> tensor<32x64xf32>
      %s = arith.addf %a, %v : tensor<32x64xf32>
      scf.yield %s : tensor<32x64xf32>
    } {tile.loop_stages = 3 : i32}
    %sum = "tile.reduce"(%acc) {axis = 0 : i32, keep_dims = false, kind = "sum"} : (tensor<32x64xf32>) -> tensor<64xf32>
    %ys0 = "tile.splat"(%y) : (!tile.ptr<f32>) -> tensor<64x!tile.ptr<f32>>
    %yp0 = "tile.addptr"(%ys0, %rn) : (tensor<64x!tile.ptr<f32>>, tensor<64xi32>) -> tensor<64x!tile.ptr<f32>>
    "tile.store"(%yp0, %sum) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<64x!tile.ptr<f32>>, tensor<64xf32>) -> ()
    return
  }
}


// -----

// Masked-off lanes that read 1.0 (a cp.async fills zeros): two tiles
// ahead in registers instead. In the PTX, tile 0's four 16-byte loads,
// tile 1's under a branch (the loop may run once), and the loop's, under
// the branch that stops two iterations before the end.
// MARK-LABEL: func.func @registers
// MARK: "tile.load"{{.*}}tile.prefetch = 2 : i64, tile.vector_width = 4
// MARK: } {tile.loop_stages = 3 : i32, tile.num_stages = 3 : i64}
// PTX-LABEL: .entry registers(
// PTX-NOT: cp.async.cg
// PTX-COUNT-4: ld.global.v4.f32
// PTX: bra
// PTX-COUNT-4: ld.global.v4.f32
// PTX: bra
// PTX-COUNT-4: ld.global.v4.f32
// PTX-NOT: ld.global
// PTX: ret;
module attributes {tile.num_stages = 1 : i32, tile.compute_capability = 90 : i32, tile.num_warps = 4 : i32} {
  func.func @registers(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %y: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %m: i32 {tile.divisibility = 16 : i32}, %n: i32 {tile.divisibility = 16 : i32}) attributes {tile.kernel} {
    %c0 = arith.constant 0 : i32
    %cbm = arith.constant 32 : i32
    %zero = arith.constant dense<0.0> : tensor<32x64xf32>
    %rm = "tile.arange"() {end = 32 : i32, start = 0 : i32} : () -> tensor<32xi32>
    %rn = "tile.arange"() {end = 64 : i32, start = 0 : i32} : () -> tensor<64xi32>
    %rn0 = "tile.expand_dims"(%rn) {axis = 0 : i32} : (tensor<64xi32>) -> tensor<1x64xi32>
    %cols = "tile.broadcast"(%rn0) : (tensor<1x64xi32>) -> tensor<32x64xi32>
    %xs = "tile.splat"(%x) : (!tile.ptr<f32>) -> tensor<32x64x!tile.ptr<f32>>
    %acc = scf.for %i = %c0 to %m step %cbm iter_args(%a = %zero) -> (tensor<32x64xf32>) : i32 {
      %is = "tile.splat"(%i) : (i32) -> tensor<32xi32>
      %rows = arith.addi %is, %rm : tensor<32xi32>
      %r1 = "tile.expand_dims"(%rows) {axis = 1 : i32} : (tensor<32xi32>) -> tensor<32x1xi32>
      %ms = "tile.splat"(%m) : (i32) -> tensor<32x1xi32>
      %in1 = arith.cmpi slt, %r1, %ms : tensor<32x1xi32>
      %in = "tile.broadcast"(%in1) : (tensor<32x1xi1>) -> tensor<32x64xi1>
      %ns = "tile.splat"(%n) : (i32) -> tensor<32x1xi32>
      %ro = arith.muli %r1, %ns : tensor<32x1xi32>
      %rob = "tile.broadcast"(%ro) : (tensor<32x1xi32>) -> tensor<32x64xi32>
      %o = arith.addi %rob, %cols : tensor<32x64xi32>
      %p = "tile.addptr"(%xs, %o) : (tensor<32x64x!tile.ptr<f32>>, tensor<32x64xi32>) -> tensor<32x64x!tile.ptr<f32>>
      %zx = arith.constant dense<1.0> : tensor<32x64xf32>
      %v = "tile.load"(%p, %in, %zx) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 1>, volatile = false} : (tensor<32x64x!tile.ptr<f32>>, tensor<32x64xi1>, tensor<32x64xf32>) -> tensor<32x64xf32>
      %s = arith.addf %a, %v : tensor<32x64xf32>
      scf.yield %s : tensor<32x64xf32>
    } {tile.loop_stages = 3 : i32}
    %sum = "tile.reduce"(%acc) {axis = 0 : i32, keep_dims = false, kind = "sum"} : (tensor<32x64xf32>) -> tensor<64xf32>
    %ys0 = "tile.splat"(%y) : (!tile.ptr<f32>) -> tensor<64x!tile.ptr<f32>>
    %yp0 = "tile.addptr"(%ys0, %rn) : (tensor<64x!tile.ptr<f32>>, tensor<64xi32>) -> tensor<64x!tile.ptr<f32>>
    "tile.store"(%yp0, %sum) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<64x!tile.ptr<f32>>, tensor<64xf32>) -> ()
    return
  }
}

// -----

// Left alone: the same loop asking nothing, in a module of three stages
// (the registers taken ahead would lower the occupancy that hides the
// latency when many programs run), and one asking for one stage.
// MARK-LABEL: func.func @not_asked
// MARK-NOT: tile.prefetch
// MARK-NOT: tile.async_copy
// MARK-LABEL: func.func @one_stage
// MARK-NOT: tile.prefetch
// MARK-NOT: tile.async_copy
// MARK: return
module attributes {tile.num_stages = 3 : i32, tile.compute_capability = 90 : i32, tile.num_warps = 4 : i32} {
  func.func @not_asked(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %y: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %m: i32 {tile.divisibility = 16 : i32}, %n: i32 {tile.divisibility = 16 : i32}) attributes {tile.kernel} {
    %c0 = arith.constant 0 : i32
    %cbm = arith.constant 32 : i32
    %zero = arith.constant dense<0.0> : tensor<32x64xf32>
    %rm = "tile.arange"() {end = 32 : i32, start = 0 : i32} : () -> tensor<32xi32>
    %rn = "tile.arange"() {end = 64 : i32, start = 0 : i32} : () -> tensor<64xi32>
    %rn0 = "tile.expand_dims"(%rn) {axis = 0 : i32} : (tensor<64xi32>) -> tensor<1x64xi32>
    %cols = "tile.broadcast"(%rn0) : (tensor<1x64xi32>) -> tensor<32x64xi32>
    %xs = "tile.splat"(%x) : (!tile.ptr<f32>) -> tensor<32x64x!tile.ptr<f32>>
    %acc = scf.for %i = %c0 to %m step %cbm iter_args(%a = %zero) -> (tensor<32x64xf32>) : i32 {
      %is = "tile.splat"(%i) : (i32) -> tensor<32xi32>
      %rows = arith.addi %is, %rm : tensor<32xi32>
      %r1 = "tile.expand_dims"(%rows) {axis = 1 : i32} : (tensor<32xi32>) -> tensor<32x1xi32>
      %ms = "tile.splat"(%m) : (i32) -> tensor<32x1xi32>
      %in1 = arith.cmpi slt, %r1, %ms : tensor<32x1xi32>
      %in = "tile.broadcast"(%in1) : (tensor<32x1xi1>) -> tensor<32x64xi1>
      %ns = "tile.splat"(%n) : (i32) -> tensor<32x1xi32>
      %ro = arith.muli %r1, %ns : tensor<32x1xi32>
      %rob = "tile.broadcast"(%ro) : (tensor<32x1xi32>) -> tensor<32x64xi32>
      %o = arith.addi %rob, %cols : tensor<32x64xi32>
      %p = "tile.addptr"(%xs, %o) : (tensor<32x64x!tile.ptr<f32>>, tensor<32x64xi32>) -> tensor<32x64x!tile.ptr<f32>>
      %zx = arith.constant dense<0.0> : tensor<32x64xf32>
      %v = "tile.load"(%p, %in, %zx) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 1>, volatile = false} : (tensor<32x64x!tile.ptr<f32>>, tensor<32x64xi1>, tensor<32x64xf32>) -> tensor<32x64xf32>
      %s = arith.addf %a, %v : tensor<32x64xf32>
      scf.yield %s : tensor<32x64xf32>
    }
    %sum = "tile.reduce"(%acc) {axis = 0 : i32, keep_dims = false, kind = "sum"} : (tensor<32x64xf32>) -> tensor<64xf32>
    %ys0 = "tile.splat"(%y) : (!tile.ptr<f32>) -> tensor<64x!tile.ptr<f32>>
    %yp0 = "tile.addptr"(%ys0, %rn) : (tensor<64x!tile.ptr<f32>>, tensor<64xi32>) -> tensor<64x!tile.ptr<f32>>
    "tile.store"(%yp0, %sum) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<64x!tile.ptr<f32>>, tensor<64xf32>) -> ()
    return
  }
  func.func @one_stage(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %y: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %m: i32 {tile.divisibility = 16 : i32}, %n: i32 {tile.divisibility = 16 : i32}) attributes {tile.kernel} {
    %c0 = arith.constant 0 : i32
    %cbm = arith.constant 32 : i32
    %zero = arith.constant dense<0.0> : tensor<32x64xf32>
    %rm = "tile.arange"() {end = 32 : i32, start = 0 : i32} : () -> tensor<32xi32>
    %rn = "tile.arange"() {end = 64 : i32, start = 0 : i32} : () -> tensor<64xi32>
    %rn0 = "tile.expand_dims"(%rn) {axis = 0 : i32} : (tensor<64xi32>) -> tensor<1x64xi32>
    %cols = "tile.broadcast"(%rn0) : (tensor<1x64xi32>) -> tensor<32x64xi32>
    %xs = "tile.splat"(%x) : (!tile.ptr<f32>) -> tensor<32x64x!tile.ptr<f32>>
    %acc = scf.for %i = %c0 to %m step %cbm iter_args(%a = %zero) -> (tensor<32x64xf32>) : i32 {
      %is = "tile.splat"(%i) : (i32) -> tensor<32xi32>
      %rows = arith.addi %is, %rm : tensor<32xi32>
      %r1 = "tile.expand_dims"(%rows) {axis = 1 : i32} : (tensor<32xi32>) -> tensor<32x1xi32>
      %ms = "tile.splat"(%m) : (i32) -> tensor<32x1xi32>
      %in1 = arith.cmpi slt, %r1, %ms : tensor<32x1xi32>
      %in = "tile.broadcast"(%in1) : (tensor<32x1xi1>) -> tensor<32x64xi1>
      %ns = "tile.splat"(%n) : (i32) -> tensor<32x1xi32>
      %ro = arith.muli %r1, %ns : tensor<32x1xi32>
      %rob = "tile.broadcast"(%ro) : (tensor<32x1xi32>) -> tensor<32x64xi32>
      %o = arith.addi %rob, %cols : tensor<32x64xi32>
      %p = "tile.addptr"(%xs, %o) : (tensor<32x64x!tile.ptr<f32>>, tensor<32x64xi32>) -> tensor<32x64x!tile.ptr<f32>>
      %zx = arith.constant dense<0.0> : tensor<32x64xf32>
      %v = "tile.load"(%p, %in, %zx) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 1>, volatile = false} : (tensor<32x64x!tile.ptr<f32>>, tensor<32x64xi1>, tensor<32x64xf32>) -> tensor<32x64xf32>
      %s = arith.addf %a, %v : tensor<32x64xf32>
      scf.yield %s : tensor<32x64xf32>
    } {tile.loop_stages = 1 : i32}
    %sum = "tile.reduce"(%acc) {axis = 0 : i32, keep_dims = false, kind = "sum"} : (tensor<32x64xf32>) -> tensor<64xf32>
    %ys0 = "tile.splat"(%y) : (!tile.ptr<f32>) -> tensor<64x!tile.ptr<f32>>
    %yp0 = "tile.addptr"(%ys0, %rn) : (tensor<64x!tile.ptr<f32>>, tensor<64xi32>) -> tensor<64x!tile.ptr<f32>>
    "tile.store"(%yp0, %sum) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<64x!tile.ptr<f32>>, tensor<64xf32>) -> ()
    return
  }
}

// -----

// Five stages: buffers of five 8 KiB tiles (32x64 f32, 64x64 f16); f16
// runs are 16 bytes of eight elements. The loop waits until at most three
// copies are in flight.
// MARK-LABEL: func.func @four_ahead
// MARK: "tile.load"{{.*}}tile.async_copy = "thread"
// MARK: tile.num_stages = 5 : i64
// MARK-LABEL: func.func @four_ahead_f16
// MARK: "tile.load"{{.*}}tile.async_copy = "thread", tile.vector_width = 8
// PTX-LABEL: .entry four_ahead(
// PTX: cp.async.wait_group 3;
// PTX-LABEL: .entry four_ahead_f16(
// PTX: cp.async.wait_group 3;
module attributes {tile.num_stages = 3 : i32, tile.compute_capability = 90 : i32, tile.num_warps = 4 : i32} {
  func.func @four_ahead(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %y: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %m: i32 {tile.divisibility = 16 : i32}, %n: i32 {tile.divisibility = 16 : i32}) attributes {tile.kernel} {
    %c0 = arith.constant 0 : i32
    %cbm = arith.constant 32 : i32
    %zero = arith.constant dense<0.0> : tensor<32x64xf32>
    %rm = "tile.arange"() {end = 32 : i32, start = 0 : i32} : () -> tensor<32xi32>
    %rn = "tile.arange"() {end = 64 : i32, start = 0 : i32} : () -> tensor<64xi32>
    %rn0 = "tile.expand_dims"(%rn) {axis = 0 : i32} : (tensor<64xi32>) -> tensor<1x64xi32>
    %cols = "tile.broadcast"(%rn0) : (tensor<1x64xi32>) -> tensor<32x64xi32>
    %xs = "tile.splat"(%x) : (!tile.ptr<f32>) -> tensor<32x64x!tile.ptr<f32>>
    %acc = scf.for %i = %c0 to %m step %cbm iter_args(%a = %zero) -> (tensor<32x64xf32>) : i32 {
      %is = "tile.splat"(%i) : (i32) -> tensor<32xi32>
      %rows = arith.addi %is, %rm : tensor<32xi32>
      %r1 = "tile.expand_dims"(%rows) {axis = 1 : i32} : (tensor<32xi32>) -> tensor<32x1xi32>
      %ms = "tile.splat"(%m) : (i32) -> tensor<32x1xi32>
      %in1 = arith.cmpi slt, %r1, %ms : tensor<32x1xi32>
      %in = "tile.broadcast"(%in1) : (tensor<32x1xi1>) -> tensor<32x64xi1>
      %ns = "tile.splat"(%n) : (i32) -> tensor<32x1xi32>
      %ro = arith.muli %r1, %ns : tensor<32x1xi32>
      %rob = "tile.broadcast"(%ro) : (tensor<32x1xi32>) -> tensor<32x64xi32>
      %o = arith.addi %rob, %cols : tensor<32x64xi32>
      %p = "tile.addptr"(%xs, %o) : (tensor<32x64x!tile.ptr<f32>>, tensor<32x64xi32>) -> tensor<32x64x!tile.ptr<f32>>
      %zx = arith.constant dense<0.0> : tensor<32x64xf32>
      %v = "tile.load"(%p, %in, %zx) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 1>, volatile = false} : (tensor<32x64x!tile.ptr<f32>>, tensor<32x64xi1>, tensor<32x64xf32>) -> tensor<32x64xf32>
      %s = arith.addf %a, %v : tensor<32x64xf32>
      scf.yield %s : tensor<32x64xf32>
    } {tile.loop_stages = 5 : i32}
    %sum = "tile.reduce"(%acc) {axis = 0 : i32, keep_dims = false, kind = "sum"} : (tensor<32x64xf32>) -> tensor<64xf32>
    %ys0 = "tile.splat"(%y) : (!tile.ptr<f32>) -> tensor<64x!tile.ptr<f32>>
    %yp0 = "tile.addptr"(%ys0, %rn) : (tensor<64x!tile.ptr<f32>>, tensor<64xi32>) -> tensor<64x!tile.ptr<f32>>
    "tile.store"(%yp0, %sum) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<64x!tile.ptr<f32>>, tensor<64xf32>) -> ()
    return
  }
  func.func @four_ahead_f16(%x: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %y: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %m: i32 {tile.divisibility = 16 : i32}, %n: i32 {tile.divisibility = 16 : i32}) attributes {tile.kernel} {
    %c0 = arith.constant 0 : i32
    %cbm = arith.constant 64 : i32
    %zero = arith.constant dense<0.0> : tensor<64x64xf32>
    %rm = "tile.arange"() {end = 64 : i32, start = 0 : i32} : () -> tensor<64xi32>
    %rn = "tile.arange"() {end = 64 : i32, start = 0 : i32} : () -> tensor<64xi32>
    %rn0 = "tile.expand_dims"(%rn) {axis = 0 : i32} : (tensor<64xi32>) -> tensor<1x64xi32>
    %cols = "tile.broadcast"(%rn0) : (tensor<1x64xi32>) -> tensor<64x64xi32>
    %xs = "tile.splat"(%x) : (!tile.ptr<f16>) -> tensor<64x64x!tile.ptr<f16>>
    %acc = scf.for %i = %c0 to %m step %cbm iter_args(%a = %zero) -> (tensor<64x64xf32>) : i32 {
      %is = "tile.splat"(%i) : (i32) -> tensor<64xi32>
      %rows = arith.addi %is, %rm : tensor<64xi32>
      %r1 = "tile.expand_dims"(%rows) {axis = 1 : i32} : (tensor<64xi32>) -> tensor<64x1xi32>
      %ms = "tile.splat"(%m) : (i32) -> tensor<64x1xi32>
      %in1 = arith.cmpi slt, %r1, %ms : tensor<64x1xi32>
      %in = "tile.broadcast"(%in1) : (tensor<64x1xi1>) -> tensor<64x64xi1>
      %ns = "tile.splat"(%n) : (i32) -> tensor<64x1xi32>
      %ro = arith.muli %r1, %ns : tensor<64x1xi32>
      %rob = "tile.broadcast"(%ro) : (tensor<64x1xi32>) -> tensor<64x64xi32>
      %o = arith.addi %rob, %cols : tensor<64x64xi32>
      %p = "tile.addptr"(%xs, %o) : (tensor<64x64x!tile.ptr<f16>>, tensor<64x64xi32>) -> tensor<64x64x!tile.ptr<f16>>
      %zx = arith.constant dense<0.0> : tensor<64x64xf16>
      %v = "tile.load"(%p, %in, %zx) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 1>, volatile = false} : (tensor<64x64x!tile.ptr<f16>>, tensor<64x64xi1>, tensor<64x64xf16>) -> tensor<64x64xf16>
      %vf = arith.extf %v : tensor<64x64xf16> to tensor<64x64xf32>
      %s = arith.addf %a, %vf : tensor<64x64xf32>
      scf.yield %s : tensor<64x64xf32>
    } {tile.loop_stages = 5 : i32}
    %sum = "tile.reduce"(%acc) {axis = 0 : i32, keep_dims = false, kind = "sum"} : (tensor<64x64xf32>) -> tensor<64xf32>
    %ys0 = "tile.splat"(%y) : (!tile.ptr<f32>) -> tensor<64x!tile.ptr<f32>>
    %yp0 = "tile.addptr"(%ys0, %rn) : (tensor<64x!tile.ptr<f32>>, tensor<64xi32>) -> tensor<64x!tile.ptr<f32>>
    "tile.store"(%yp0, %sum) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<64x!tile.ptr<f32>>, tensor<64xf32>) -> ()
    return
  }
}

// -----

// The budgets: five 16 KiB buffers of a 64x64 f32 tile (80 KiB) are
// copied; five 32 KiB ones of a 64x128 tile would take 160 KiB, so that
// tile goes ahead in registers (64 a thread: one tile, the unit
// attribute); a 128x128 one (128 registers) stays where it is.
// MARK-LABEL: func.func @budget_two
// MARK: "tile.load"{{.*}}tile.async_copy = "thread"
// MARK-LABEL: func.func @budget_one
// MARK: "tile.load"{{.*}}tile.prefetch, tile.vector_width
// MARK-LABEL: func.func @over_budget
// MARK-NOT: tile.prefetch
// MARK-NOT: tile.async_copy
// MARK: return
module attributes {tile.num_stages = 3 : i32, tile.compute_capability = 90 : i32, tile.num_warps = 4 : i32} {
  func.func @budget_two(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %y: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %m: i32 {tile.divisibility = 16 : i32}, %n: i32 {tile.divisibility = 16 : i32}) attributes {tile.kernel} {
    %c0 = arith.constant 0 : i32
    %cbm = arith.constant 64 : i32
    %zero = arith.constant dense<0.0> : tensor<64x64xf32>
    %rm = "tile.arange"() {end = 64 : i32, start = 0 : i32} : () -> tensor<64xi32>
    %rn = "tile.arange"() {end = 64 : i32, start = 0 : i32} : () -> tensor<64xi32>
    %rn0 = "tile.expand_dims"(%rn) {axis = 0 : i32} : (tensor<64xi32>) -> tensor<1x64xi32>
    %cols = "tile.broadcast"(%rn0) : (tensor<1x64xi32>) -> tensor<64x64xi32>
    %xs = "tile.splat"(%x) : (!tile.ptr<f32>) -> tensor<64x64x!tile.ptr<f32>>
    %acc = scf.for %i = %c0 to %m step %cbm iter_args(%a = %zero) -> (tensor<64x64xf32>) : i32 {
      %is = "tile.splat"(%i) : (i32) -> tensor<64xi32>
      %rows = arith.addi %is, %rm : tensor<64xi32>
      %r1 = "tile.expand_dims"(%rows) {axis = 1 : i32} : (tensor<64xi32>) -> tensor<64x1xi32>
      %ms = "tile.splat"(%m) : (i32) -> tensor<64x1xi32>
      %in1 = arith.cmpi slt, %r1, %ms : tensor<64x1xi32>
      %in = "tile.broadcast"(%in1) : (tensor<64x1xi1>) -> tensor<64x64xi1>
      %ns = "tile.splat"(%n) : (i32) -> tensor<64x1xi32>
      %ro = arith.muli %r1, %ns : tensor<64x1xi32>
      %rob = "tile.broadcast"(%ro) : (tensor<64x1xi32>) -> tensor<64x64xi32>
      %o = arith.addi %rob, %cols : tensor<64x64xi32>
      %p = "tile.addptr"(%xs, %o) : (tensor<64x64x!tile.ptr<f32>>, tensor<64x64xi32>) -> tensor<64x64x!tile.ptr<f32>>
      %zx = arith.constant dense<0.0> : tensor<64x64xf32>
      %v = "tile.load"(%p, %in, %zx) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 1>, volatile = false} : (tensor<64x64x!tile.ptr<f32>>, tensor<64x64xi1>, tensor<64x64xf32>) -> tensor<64x64xf32>
      %s = arith.addf %a, %v : tensor<64x64xf32>
      scf.yield %s : tensor<64x64xf32>
    } {tile.loop_stages = 5 : i32}
    %sum = "tile.reduce"(%acc) {axis = 0 : i32, keep_dims = false, kind = "sum"} : (tensor<64x64xf32>) -> tensor<64xf32>
    %ys0 = "tile.splat"(%y) : (!tile.ptr<f32>) -> tensor<64x!tile.ptr<f32>>
    %yp0 = "tile.addptr"(%ys0, %rn) : (tensor<64x!tile.ptr<f32>>, tensor<64xi32>) -> tensor<64x!tile.ptr<f32>>
    "tile.store"(%yp0, %sum) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<64x!tile.ptr<f32>>, tensor<64xf32>) -> ()
    return
  }
  func.func @budget_one(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %y: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %m: i32 {tile.divisibility = 16 : i32}, %n: i32 {tile.divisibility = 16 : i32}) attributes {tile.kernel} {
    %c0 = arith.constant 0 : i32
    %cbm = arith.constant 64 : i32
    %zero = arith.constant dense<0.0> : tensor<64x128xf32>
    %rm = "tile.arange"() {end = 64 : i32, start = 0 : i32} : () -> tensor<64xi32>
    %rn = "tile.arange"() {end = 128 : i32, start = 0 : i32} : () -> tensor<128xi32>
    %rn0 = "tile.expand_dims"(%rn) {axis = 0 : i32} : (tensor<128xi32>) -> tensor<1x128xi32>
    %cols = "tile.broadcast"(%rn0) : (tensor<1x128xi32>) -> tensor<64x128xi32>
    %xs = "tile.splat"(%x) : (!tile.ptr<f32>) -> tensor<64x128x!tile.ptr<f32>>
    %acc = scf.for %i = %c0 to %m step %cbm iter_args(%a = %zero) -> (tensor<64x128xf32>) : i32 {
      %is = "tile.splat"(%i) : (i32) -> tensor<64xi32>
      %rows = arith.addi %is, %rm : tensor<64xi32>
      %r1 = "tile.expand_dims"(%rows) {axis = 1 : i32} : (tensor<64xi32>) -> tensor<64x1xi32>
      %ms = "tile.splat"(%m) : (i32) -> tensor<64x1xi32>
      %in1 = arith.cmpi slt, %r1, %ms : tensor<64x1xi32>
      %in = "tile.broadcast"(%in1) : (tensor<64x1xi1>) -> tensor<64x128xi1>
      %ns = "tile.splat"(%n) : (i32) -> tensor<64x1xi32>
      %ro = arith.muli %r1, %ns : tensor<64x1xi32>
      %rob = "tile.broadcast"(%ro) : (tensor<64x1xi32>) -> tensor<64x128xi32>
      %o = arith.addi %rob, %cols : tensor<64x128xi32>
      %p = "tile.addptr"(%xs, %o) : (tensor<64x128x!tile.ptr<f32>>, tensor<64x128xi32>) -> tensor<64x128x!tile.ptr<f32>>
      %zx = arith.constant dense<0.0> : tensor<64x128xf32>
      %v = "tile.load"(%p, %in, %zx) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 1>, volatile = false} : (tensor<64x128x!tile.ptr<f32>>, tensor<64x128xi1>, tensor<64x128xf32>) -> tensor<64x128xf32>
      %s = arith.addf %a, %v : tensor<64x128xf32>
      scf.yield %s : tensor<64x128xf32>
    } {tile.loop_stages = 5 : i32}
    %sum = "tile.reduce"(%acc) {axis = 0 : i32, keep_dims = false, kind = "sum"} : (tensor<64x128xf32>) -> tensor<128xf32>
    %ys0 = "tile.splat"(%y) : (!tile.ptr<f32>) -> tensor<128x!tile.ptr<f32>>
    %yp0 = "tile.addptr"(%ys0, %rn) : (tensor<128x!tile.ptr<f32>>, tensor<128xi32>) -> tensor<128x!tile.ptr<f32>>
    "tile.store"(%yp0, %sum) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<128x!tile.ptr<f32>>, tensor<128xf32>) -> ()
    return
  }
  func.func @over_budget(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %y: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %m: i32 {tile.divisibility = 16 : i32}, %n: i32 {tile.divisibility = 16 : i32}) attributes {tile.kernel} {
    %c0 = arith.constant 0 : i32
    %cbm = arith.constant 128 : i32
    %zero = arith.constant dense<0.0> : tensor<128x128xf32>
    %rm = "tile.arange"() {end = 128 : i32, start = 0 : i32} : () -> tensor<128xi32>
    %rn = "tile.arange"() {end = 128 : i32, start = 0 : i32} : () -> tensor<128xi32>
    %rn0 = "tile.expand_dims"(%rn) {axis = 0 : i32} : (tensor<128xi32>) -> tensor<1x128xi32>
    %cols = "tile.broadcast"(%rn0) : (tensor<1x128xi32>) -> tensor<128x128xi32>
    %xs = "tile.splat"(%x) : (!tile.ptr<f32>) -> tensor<128x128x!tile.ptr<f32>>
    %acc = scf.for %i = %c0 to %m step %cbm iter_args(%a = %zero) -> (tensor<128x128xf32>) : i32 {
      %is = "tile.splat"(%i) : (i32) -> tensor<128xi32>
      %rows = arith.addi %is, %rm : tensor<128xi32>
      %r1 = "tile.expand_dims"(%rows) {axis = 1 : i32} : (tensor<128xi32>) -> tensor<128x1xi32>
      %ms = "tile.splat"(%m) : (i32) -> tensor<128x1xi32>
      %in1 = arith.cmpi slt, %r1, %ms : tensor<128x1xi32>
      %in = "tile.broadcast"(%in1) : (tensor<128x1xi1>) -> tensor<128x128xi1>
      %ns = "tile.splat"(%n) : (i32) -> tensor<128x1xi32>
      %ro = arith.muli %r1, %ns : tensor<128x1xi32>
      %rob = "tile.broadcast"(%ro) : (tensor<128x1xi32>) -> tensor<128x128xi32>
      %o = arith.addi %rob, %cols : tensor<128x128xi32>
      %p = "tile.addptr"(%xs, %o) : (tensor<128x128x!tile.ptr<f32>>, tensor<128x128xi32>) -> tensor<128x128x!tile.ptr<f32>>
      %zx = arith.constant dense<0.0> : tensor<128x128xf32>
      %v = "tile.load"(%p, %in, %zx) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 1>, volatile = false} : (tensor<128x128x!tile.ptr<f32>>, tensor<128x128xi1>, tensor<128x128xf32>) -> tensor<128x128xf32>
      %s = arith.addf %a, %v : tensor<128x128xf32>
      scf.yield %s : tensor<128x128xf32>
    } {tile.loop_stages = 5 : i32}
    %sum = "tile.reduce"(%acc) {axis = 0 : i32, keep_dims = false, kind = "sum"} : (tensor<128x128xf32>) -> tensor<128xf32>
    %ys0 = "tile.splat"(%y) : (!tile.ptr<f32>) -> tensor<128x!tile.ptr<f32>>
    %yp0 = "tile.addptr"(%ys0, %rn) : (tensor<128x!tile.ptr<f32>>, tensor<128xi32>) -> tensor<128x!tile.ptr<f32>>
    "tile.store"(%yp0, %sum) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<128x!tile.ptr<f32>>, tensor<128xf32>) -> ()
    return
  }
}

// -----

// Left alone although asked: a loop that also stores (a load moved ahead
// could read before a store it followed).
// MARK-LABEL: func.func @stores_too
// MARK-NOT: tile.prefetch
// MARK-NOT: tile.async_copy
// MARK: return
module attributes {tile.num_stages = 3 : i32, tile.compute_capability = 90 : i32, tile.num_warps = 4 : i32} {
  func.func @stores_too(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %y: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %m: i32 {tile.divisibility = 16 : i32}, %n: i32 {tile.divisibility = 16 : i32}) attributes {tile.kernel} {
    %c0 = arith.constant 0 : i32
    %cbm = arith.constant 32 : i32
    %zero = arith.constant dense<0.0> : tensor<32x64xf32>
    %rm = "tile.arange"() {end = 32 : i32, start = 0 : i32} : () -> tensor<32xi32>
    %rn = "tile.arange"() {end = 64 : i32, start = 0 : i32} : () -> tensor<64xi32>
    %rn0 = "tile.expand_dims"(%rn) {axis = 0 : i32} : (tensor<64xi32>) -> tensor<1x64xi32>
    %cols = "tile.broadcast"(%rn0) : (tensor<1x64xi32>) -> tensor<32x64xi32>
    %xs = "tile.splat"(%x) : (!tile.ptr<f32>) -> tensor<32x64x!tile.ptr<f32>>
    %acc = scf.for %i = %c0 to %m step %cbm iter_args(%a = %zero) -> (tensor<32x64xf32>) : i32 {
      %is = "tile.splat"(%i) : (i32) -> tensor<32xi32>
      %rows = arith.addi %is, %rm : tensor<32xi32>
      %r1 = "tile.expand_dims"(%rows) {axis = 1 : i32} : (tensor<32xi32>) -> tensor<32x1xi32>
      %ms = "tile.splat"(%m) : (i32) -> tensor<32x1xi32>
      %in1 = arith.cmpi slt, %r1, %ms : tensor<32x1xi32>
      %in = "tile.broadcast"(%in1) : (tensor<32x1xi1>) -> tensor<32x64xi1>
      %ns = "tile.splat"(%n) : (i32) -> tensor<32x1xi32>
      %ro = arith.muli %r1, %ns : tensor<32x1xi32>
      %rob = "tile.broadcast"(%ro) : (tensor<32x1xi32>) -> tensor<32x64xi32>
      %o = arith.addi %rob, %cols : tensor<32x64xi32>
      %p = "tile.addptr"(%xs, %o) : (tensor<32x64x!tile.ptr<f32>>, tensor<32x64xi32>) -> tensor<32x64x!tile.ptr<f32>>
      %zx = arith.constant dense<0.0> : tensor<32x64xf32>
      %v = "tile.load"(%p, %in, %zx) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 1>, volatile = false} : (tensor<32x64x!tile.ptr<f32>>, tensor<32x64xi1>, tensor<32x64xf32>) -> tensor<32x64xf32>
      %s = arith.addf %a, %v : tensor<32x64xf32>
      %ys = "tile.splat"(%y) : (!tile.ptr<f32>) -> tensor<32x64x!tile.ptr<f32>>
      %yp = "tile.addptr"(%ys, %o) : (tensor<32x64x!tile.ptr<f32>>, tensor<32x64xi32>) -> tensor<32x64x!tile.ptr<f32>>
      "tile.store"(%yp, %s, %in) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<32x64x!tile.ptr<f32>>, tensor<32x64xf32>, tensor<32x64xi1>) -> ()
      scf.yield %s : tensor<32x64xf32>
    } {tile.loop_stages = 3 : i32}
    %sum = "tile.reduce"(%acc) {axis = 0 : i32, keep_dims = false, kind = "sum"} : (tensor<32x64xf32>) -> tensor<64xf32>
    %ys0 = "tile.splat"(%y) : (!tile.ptr<f32>) -> tensor<64x!tile.ptr<f32>>
    %yp0 = "tile.addptr"(%ys0, %rn) : (tensor<64x!tile.ptr<f32>>, tensor<64xi32>) -> tensor<64x!tile.ptr<f32>>
    "tile.store"(%yp0, %sum) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<64x!tile.ptr<f32>>, tensor<64xf32>) -> ()
    return
  }
}

// -----

// A product that does not run on tensor cores (f32 in IEEE precision: FMA
// in registers) does not make the loop a product loop: its tile, loaded
// in the loop, is copied ahead as any memory-bound load. A tensor-core
// product does: a loop multiplying loop-invariant operands on tensor
// cores leaves its other loads (a bias summed beside the product) where
// they are, asked or not.
// MARK-LABEL: func.func @fma_product
// MARK: "tile.load"{{.*}}tile.async_copy = "thread"
// MARK: "tile.dot"
// MARK: } {tile.loop_stages = 3 : i32, tile.num_stages = 3 : i64}
// MARK-LABEL: func.func @tensor_core_product
// MARK-NOT: tile.async_copy
// MARK-NOT: tile.prefetch
// MARK: return
module attributes {tile.num_stages = 1 : i32, tile.compute_capability = 90 : i32, tile.num_warps = 4 : i32} {
  func.func @fma_product(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %y: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %n: i32) attributes {tile.kernel} {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.0> : tensor<16x16xf32>
    %w = arith.constant dense<0.5> : tensor<16x16xf32>
    %r = "tile.arange"() {end = 16 : i32, start = 0 : i32} : () -> tensor<16xi32>
    %r1 = "tile.expand_dims"(%r) {axis = 1 : i32} : (tensor<16xi32>) -> tensor<16x1xi32>
    %r0 = "tile.expand_dims"(%r) {axis = 0 : i32} : (tensor<16xi32>) -> tensor<1x16xi32>
    %c16 = arith.constant dense<16> : tensor<16x1xi32>
    %rows = arith.muli %r1, %c16 : tensor<16x1xi32>
    %rb = "tile.broadcast"(%rows) : (tensor<16x1xi32>) -> tensor<16x16xi32>
    %cb = "tile.broadcast"(%r0) : (tensor<1x16xi32>) -> tensor<16x16xi32>
    %o = arith.addi %rb, %cb : tensor<16x16xi32>
    %xs = "tile.splat"(%x) : (!tile.ptr<f32>) -> tensor<16x16x!tile.ptr<f32>>
    %acc = scf.for %i = %c0 to %n step %c1 iter_args(%a = %zero) -> (tensor<16x16xf32>) : i32 {
      %is = "tile.splat"(%i) : (i32) -> tensor<16x16xi32>
      %k256 = arith.constant dense<256> : tensor<16x16xi32>
      %off = arith.muli %is, %k256 : tensor<16x16xi32>
      %oo = arith.addi %o, %off : tensor<16x16xi32>
      %p = "tile.addptr"(%xs, %oo) : (tensor<16x16x!tile.ptr<f32>>, tensor<16x16xi32>) -> tensor<16x16x!tile.ptr<f32>>
      %v = "tile.load"(%p) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 0, 0>, volatile = false} : (tensor<16x16x!tile.ptr<f32>>) -> tensor<16x16xf32>
      %d = "tile.dot"(%v, %w, %a) {input_precision = "ieee"} : (tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<16x16xf32>
      scf.yield %d : tensor<16x16xf32>
    } {tile.loop_stages = 3 : i32}
    %ys = "tile.splat"(%y) : (!tile.ptr<f32>) -> tensor<16x16x!tile.ptr<f32>>
    %yp = "tile.addptr"(%ys, %o) : (tensor<16x16x!tile.ptr<f32>>, tensor<16x16xi32>) -> tensor<16x16x!tile.ptr<f32>>
    "tile.store"(%yp, %acc) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<16x16x!tile.ptr<f32>>, tensor<16x16xf32>) -> ()
    return
  }

  func.func @tensor_core_product(%x: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %b: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %y: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %n: i32) attributes {tile.kernel} {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.0> : tensor<64x64xf32>
    %r = "tile.arange"() {end = 64 : i32, start = 0 : i32} : () -> tensor<64xi32>
    %r1 = "tile.expand_dims"(%r) {axis = 1 : i32} : (tensor<64xi32>) -> tensor<64x1xi32>
    %r0 = "tile.expand_dims"(%r) {axis = 0 : i32} : (tensor<64xi32>) -> tensor<1x64xi32>
    %c64 = arith.constant dense<64> : tensor<64x1xi32>
    %rows = arith.muli %r1, %c64 : tensor<64x1xi32>
    %rb = "tile.broadcast"(%rows) : (tensor<64x1xi32>) -> tensor<64x64xi32>
    %cb = "tile.broadcast"(%r0) : (tensor<1x64xi32>) -> tensor<64x64xi32>
    %o = arith.addi %rb, %cb : tensor<64x64xi32>
    %xs = "tile.splat"(%x) : (!tile.ptr<f16>) -> tensor<64x64x!tile.ptr<f16>>
    %xp = "tile.addptr"(%xs, %o) : (tensor<64x64x!tile.ptr<f16>>, tensor<64x64xi32>) -> tensor<64x64x!tile.ptr<f16>>
    %m = "tile.load"(%xp) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 0, 0>, volatile = false} : (tensor<64x64x!tile.ptr<f16>>) -> tensor<64x64xf16>
    %bs = "tile.splat"(%b) : (!tile.ptr<f32>) -> tensor<64x64x!tile.ptr<f32>>
    %res:2 = scf.for %i = %c0 to %n step %c1 iter_args(%a = %zero, %s = %zero) -> (tensor<64x64xf32>, tensor<64x64xf32>) : i32 {
      %d = "tile.dot"(%m, %m, %a) {input_precision = "ieee"} : (tensor<64x64xf16>, tensor<64x64xf16>, tensor<64x64xf32>) -> tensor<64x64xf32>
      %is = "tile.splat"(%i) : (i32) -> tensor<64x64xi32>
      %k = arith.constant dense<4096> : tensor<64x64xi32>
      %off = arith.muli %is, %k : tensor<64x64xi32>
      %oo = arith.addi %o, %off : tensor<64x64xi32>
      %bp = "tile.addptr"(%bs, %oo) : (tensor<64x64x!tile.ptr<f32>>, tensor<64x64xi32>) -> tensor<64x64x!tile.ptr<f32>>
      %bias = "tile.load"(%bp) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 0, 0>, volatile = false} : (tensor<64x64x!tile.ptr<f32>>) -> tensor<64x64xf32>
      %t = arith.addf %s, %bias : tensor<64x64xf32>
      scf.yield %d, %t : tensor<64x64xf32>, tensor<64x64xf32>
    } {tile.loop_stages = 3 : i32}
    %sum = arith.addf %res#0, %res#1 : tensor<64x64xf32>
    %ys = "tile.splat"(%y) : (!tile.ptr<f32>) -> tensor<64x64x!tile.ptr<f32>>
    %yp = "tile.addptr"(%ys, %o) : (tensor<64x64x!tile.ptr<f32>>, tensor<64x64xi32>) -> tensor<64x64x!tile.ptr<f32>>
    "tile.store"(%yp, %sum) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<64x64x!tile.ptr<f32>>, tensor<64x64xf32>) -> ()
    return
  }
}

// -----

// Block pointers the loop advances by invariant offsets: zero padding (or
// no check) is what a copy's zero fill gives, so the tile is copied into
// the thread's own slots; NaN padding is not, so it goes ahead in
// registers.
// MARK-LABEL: func.func @block_zero
// MARK: "tile.block_load"{{.*}}tile.async_copy = "thread"
// MARK-LABEL: func.func @block_nan
// MARK: "tile.block_load"{{.*}}padding = "nan", tile.prefetch = 2 : i64
// MARK-LABEL: func.func @block_unchecked
// MARK: "tile.block_load"{{.*}}tile.async_copy = "thread"
module attributes {tile.num_stages = 1 : i32, tile.compute_capability = 90 : i32, tile.num_warps = 4 : i32} {
  func.func @block_zero(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %y: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %m: i64 {tile.divisibility = 16 : i32}, %n: i64 {tile.divisibility = 16 : i32}, %iters: i32) attributes {tile.kernel} {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c32 = arith.constant 32 : i32
    %one = arith.constant 1 : i64
    %z = arith.constant dense<0.0> : tensor<32x64xf32>
    %p0 = "tile.make_block_ptr"(%x, %m, %n, %n, %one, %c0, %c0) {operandSegmentSizes = array<i32: 1, 2, 2, 2>, order = array<i32: 1, 0>} : (!tile.ptr<f32>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<32x64xf32>>
    %r:2 = scf.for %i = %c0 to %iters step %c1 iter_args(%a = %z, %p = %p0) -> (tensor<32x64xf32>, !tile.block_ptr<tensor<32x64xf32>>) : i32 {
      %v = "tile.block_load"(%p) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = "", padding = "zero", volatile = false} : (!tile.block_ptr<tensor<32x64xf32>>) -> tensor<32x64xf32>
      %s = arith.addf %a, %v : tensor<32x64xf32>
      %q = "tile.advance"(%p, %c32, %c0) : (!tile.block_ptr<tensor<32x64xf32>>, i32, i32) -> !tile.block_ptr<tensor<32x64xf32>>
      scf.yield %s, %q : tensor<32x64xf32>, !tile.block_ptr<tensor<32x64xf32>>
    } {tile.loop_stages = 3 : i32}
    %py = "tile.make_block_ptr"(%y, %m, %n, %n, %one, %c0, %c0) {operandSegmentSizes = array<i32: 1, 2, 2, 2>, order = array<i32: 1, 0>} : (!tile.ptr<f32>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<32x64xf32>>
    "tile.block_store"(%py, %r#0) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = ""} : (!tile.block_ptr<tensor<32x64xf32>>, tensor<32x64xf32>) -> ()
    return
  }

  func.func @block_nan(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %y: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %m: i64 {tile.divisibility = 16 : i32}, %n: i64 {tile.divisibility = 16 : i32}, %iters: i32) attributes {tile.kernel} {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c32 = arith.constant 32 : i32
    %one = arith.constant 1 : i64
    %z = arith.constant dense<0.0> : tensor<32x64xf32>
    %p0 = "tile.make_block_ptr"(%x, %m, %n, %n, %one, %c0, %c0) {operandSegmentSizes = array<i32: 1, 2, 2, 2>, order = array<i32: 1, 0>} : (!tile.ptr<f32>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<32x64xf32>>
    %r:2 = scf.for %i = %c0 to %iters step %c1 iter_args(%a = %z, %p = %p0) -> (tensor<32x64xf32>, !tile.block_ptr<tensor<32x64xf32>>) : i32 {
      %v = "tile.block_load"(%p) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = "", padding = "nan", volatile = false} : (!tile.block_ptr<tensor<32x64xf32>>) -> tensor<32x64xf32>
      %s = arith.addf %a, %v : tensor<32x64xf32>
      %q = "tile.advance"(%p, %c32, %c0) : (!tile.block_ptr<tensor<32x64xf32>>, i32, i32) -> !tile.block_ptr<tensor<32x64xf32>>
      scf.yield %s, %q : tensor<32x64xf32>, !tile.block_ptr<tensor<32x64xf32>>
    } {tile.loop_stages = 3 : i32}
    %py = "tile.make_block_ptr"(%y, %m, %n, %n, %one, %c0, %c0) {operandSegmentSizes = array<i32: 1, 2, 2, 2>, order = array<i32: 1, 0>} : (!tile.ptr<f32>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<32x64xf32>>
    "tile.block_store"(%py, %r#0) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = ""} : (!tile.block_ptr<tensor<32x64xf32>>, tensor<32x64xf32>) -> ()
    return
  }

  func.func @block_unchecked(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %y: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %m: i64 {tile.divisibility = 16 : i32}, %n: i64 {tile.divisibility = 16 : i32}, %iters: i32) attributes {tile.kernel} {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c32 = arith.constant 32 : i32
    %one = arith.constant 1 : i64
    %z = arith.constant dense<0.0> : tensor<32x64xf32>
    %p0 = "tile.make_block_ptr"(%x, %m, %n, %n, %one, %c0, %c0) {operandSegmentSizes = array<i32: 1, 2, 2, 2>, order = array<i32: 1, 0>} : (!tile.ptr<f32>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<32x64xf32>>
    %r:2 = scf.for %i = %c0 to %iters step %c1 iter_args(%a = %z, %p = %p0) -> (tensor<32x64xf32>, !tile.block_ptr<tensor<32x64xf32>>) : i32 {
      %v = "tile.block_load"(%p) {boundary_check = array<i32>, cache_modifier = "", eviction_policy = "", padding = "zero", volatile = false} : (!tile.block_ptr<tensor<32x64xf32>>) -> tensor<32x64xf32>
      %s = arith.addf %a, %v : tensor<32x64xf32>
      %q = "tile.advance"(%p, %c32, %c0) : (!tile.block_ptr<tensor<32x64xf32>>, i32, i32) -> !tile.block_ptr<tensor<32x64xf32>>
      scf.yield %s, %q : tensor<32x64xf32>, !tile.block_ptr<tensor<32x64xf32>>
    } {tile.loop_stages = 3 : i32}
    %py = "tile.make_block_ptr"(%y, %m, %n, %n, %one, %c0, %c0) {operandSegmentSizes = array<i32: 1, 2, 2, 2>, order = array<i32: 1, 0>} : (!tile.ptr<f32>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<32x64xf32>>
    "tile.block_store"(%py, %r#0) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = ""} : (!tile.block_ptr<tensor<32x64xf32>>, tensor<32x64xf32>) -> ()
    return
  }
}

// -----

// The bounds of the two budgets. Three 32 KiB buffers (64x128 f32) are the
// 96 KiB a loop may take: copied. A tile of booleans (bytes in memory,
// predicates in registers) is not read back from shared memory as it is
// copied: in registers instead.
// MARK-LABEL: func.func @shared_at_the_bound
// MARK: "tile.load"{{.*}}tile.async_copy = "thread"
// MARK-LABEL: func.func @bool_tiles
// MARK: "tile.load"{{.*}}tile.prefetch = 2 : i64
module attributes {tile.num_stages = 1 : i32, tile.compute_capability = 90 : i32, tile.num_warps = 4 : i32} {
  func.func @shared_at_the_bound(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %y: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %m: i32 {tile.divisibility = 16 : i32}, %n: i32 {tile.divisibility = 16 : i32}) attributes {tile.kernel} {
    %c0 = arith.constant 0 : i32
    %cbm = arith.constant 64 : i32
    %zero = arith.constant dense<0.0> : tensor<64x128xf32>
    %rm = "tile.arange"() {end = 64 : i32, start = 0 : i32} : () -> tensor<64xi32>
    %rn = "tile.arange"() {end = 128 : i32, start = 0 : i32} : () -> tensor<128xi32>
    %rn0 = "tile.expand_dims"(%rn) {axis = 0 : i32} : (tensor<128xi32>) -> tensor<1x128xi32>
    %cols = "tile.broadcast"(%rn0) : (tensor<1x128xi32>) -> tensor<64x128xi32>
    %xs = "tile.splat"(%x) : (!tile.ptr<f32>) -> tensor<64x128x!tile.ptr<f32>>
    %acc = scf.for %i = %c0 to %m step %cbm iter_args(%a = %zero) -> (tensor<64x128xf32>) : i32 {
      %is = "tile.splat"(%i) : (i32) -> tensor<64xi32>
      %rows = arith.addi %is, %rm : tensor<64xi32>
      %r1 = "tile.expand_dims"(%rows) {axis = 1 : i32} : (tensor<64xi32>) -> tensor<64x1xi32>
      %ms = "tile.splat"(%m) : (i32) -> tensor<64x1xi32>
      %in1 = arith.cmpi slt, %r1, %ms : tensor<64x1xi32>
      %in = "tile.broadcast"(%in1) : (tensor<64x1xi1>) -> tensor<64x128xi1>
      %ns = "tile.splat"(%n) : (i32) -> tensor<64x1xi32>
      %ro = arith.muli %r1, %ns : tensor<64x1xi32>
      %rob = "tile.broadcast"(%ro) : (tensor<64x1xi32>) -> tensor<64x128xi32>
      %o = arith.addi %rob, %cols : tensor<64x128xi32>
      %p = "tile.addptr"(%xs, %o) : (tensor<64x128x!tile.ptr<f32>>, tensor<64x128xi32>) -> tensor<64x128x!tile.ptr<f32>>
      %zx = arith.constant dense<0.0> : tensor<64x128xf32>
      %v = "tile.load"(%p, %in, %zx) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 1>, volatile = false} : (tensor<64x128x!tile.ptr<f32>>, tensor<64x128xi1>, tensor<64x128xf32>) -> tensor<64x128xf32>
      %s = arith.addf %a, %v : tensor<64x128xf32>
      scf.yield %s : tensor<64x128xf32>
    } {tile.loop_stages = 3 : i32}
    %ys = "tile.splat"(%y) : (!tile.ptr<f32>) -> tensor<64x128x!tile.ptr<f32>>
    %yp = "tile.addptr"(%ys, %cols) : (tensor<64x128x!tile.ptr<f32>>, tensor<64x128xi32>) -> tensor<64x128x!tile.ptr<f32>>
    "tile.store"(%yp, %acc) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<64x128x!tile.ptr<f32>>, tensor<64x128xf32>) -> ()
    return
  }
  func.func @bool_tiles(%x: !tile.ptr<i1> {tile.divisibility = 16 : i32}, %y: !tile.ptr<i32> {tile.divisibility = 16 : i32}, %m: i32 {tile.divisibility = 16 : i32}, %n: i32 {tile.divisibility = 16 : i32}) attributes {tile.kernel} {
    %c0 = arith.constant 0 : i32
    %cbm = arith.constant 32 : i32
    %zero = arith.constant dense<0> : tensor<32x64xi32>
    %rm = "tile.arange"() {end = 32 : i32, start = 0 : i32} : () -> tensor<32xi32>
    %rn = "tile.arange"() {end = 64 : i32, start = 0 : i32} : () -> tensor<64xi32>
    %rn0 = "tile.expand_dims"(%rn) {axis = 0 : i32} : (tensor<64xi32>) -> tensor<1x64xi32>
    %cols = "tile.broadcast"(%rn0) : (tensor<1x64xi32>) -> tensor<32x64xi32>
    %xs = "tile.splat"(%x) : (!tile.ptr<i1>) -> tensor<32x64x!tile.ptr<i1>>
    %acc = scf.for %i = %c0 to %m step %cbm iter_args(%a = %zero) -> (tensor<32x64xi32>) : i32 {
      %is = "tile.splat"(%i) : (i32) -> tensor<32xi32>
      %rows = arith.addi %is, %rm : tensor<32xi32>
      %r1 = "tile.expand_dims"(%rows) {axis = 1 : i32} : (tensor<32xi32>) -> tensor<32x1xi32>
      %ms = "tile.splat"(%m) : (i32) -> tensor<32x1xi32>
      %in1 = arith.cmpi slt, %r1, %ms : tensor<32x1xi32>
      %in = "tile.broadcast"(%in1) : (tensor<32x1xi1>) -> tensor<32x64xi1>
      %ns = "tile.splat"(%n) : (i32) -> tensor<32x1xi32>
      %ro = arith.muli %r1, %ns : tensor<32x1xi32>
      %rob = "tile.broadcast"(%ro) : (tensor<32x1xi32>) -> tensor<32x64xi32>
      %o = arith.addi %rob, %cols : tensor<32x64xi32>
      %p = "tile.addptr"(%xs, %o) : (tensor<32x64x!tile.ptr<i1>>, tensor<32x64xi32>) -> tensor<32x64x!tile.ptr<i1>>
      %zx = arith.constant dense<false> : tensor<32x64xi1>
      %v = "tile.load"(%p, %in, %zx) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 1>, volatile = false} : (tensor<32x64x!tile.ptr<i1>>, tensor<32x64xi1>, tensor<32x64xi1>) -> tensor<32x64xi1>
      %vf = arith.extui %v : tensor<32x64xi1> to tensor<32x64xi32>
      %s = arith.addi %a, %vf : tensor<32x64xi32>
      scf.yield %s : tensor<32x64xi32>
    } {tile.loop_stages = 3 : i32}
    %ys = "tile.splat"(%y) : (!tile.ptr<i32>) -> tensor<32x64x!tile.ptr<i32>>
    %yp = "tile.addptr"(%ys, %cols) : (tensor<32x64x!tile.ptr<i32>>, tensor<32x64xi32>) -> tensor<32x64x!tile.ptr<i32>>
    "tile.store"(%yp, %acc) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<32x64x!tile.ptr<i32>>, tensor<32x64xi32>) -> ()
    return
  }
}

// -----

// The register budget counts every load's tiles: a 64x128 f32 tile (64
// registers a thread) and a 256-element one (2) are 66, over the 64 a
// loop may hold ahead, so neither goes ahead (masked-off lanes read 1.0:
// no copy either).
// MARK-LABEL: func.func @two_loads_over_budget
// MARK-NOT: tile.prefetch
// MARK-NOT: tile.async_copy
// MARK: return
module attributes {tile.num_stages = 1 : i32, tile.compute_capability = 90 : i32, tile.num_warps = 4 : i32} {
  func.func @two_loads_over_budget(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %y: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %m: i32 {tile.divisibility = 16 : i32}) attributes {tile.kernel} {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %za = arith.constant dense<0.0> : tensor<64x128xf32>
    %zb = arith.constant dense<0.0> : tensor<256xf32>
    %r = "tile.arange"() {end = 128 : i32, start = 0 : i32} : () -> tensor<128xi32>
    %r0 = "tile.expand_dims"(%r) {axis = 0 : i32} : (tensor<128xi32>) -> tensor<1x128xi32>
    %ra = "tile.broadcast"(%r0) : (tensor<1x128xi32>) -> tensor<64x128xi32>
    %rb = "tile.arange"() {end = 256 : i32, start = 0 : i32} : () -> tensor<256xi32>
    %xa = "tile.splat"(%x) : (!tile.ptr<f32>) -> tensor<64x128x!tile.ptr<f32>>
    %xb = "tile.splat"(%x) : (!tile.ptr<f32>) -> tensor<256x!tile.ptr<f32>>
    %res:2 = scf.for %i = %c0 to %m step %c1 iter_args(%a = %za, %b = %zb) -> (tensor<64x128xf32>, tensor<256xf32>) : i32 {
      %c8192 = arith.constant 8192 : i32
      %ic = arith.muli %i, %c8192 : i32
      %ia = "tile.splat"(%ic) : (i32) -> tensor<64x128xi32>
      %oa = arith.addi %ra, %ia : tensor<64x128xi32>
      %pa = "tile.addptr"(%xa, %oa) : (tensor<64x128x!tile.ptr<f32>>, tensor<64x128xi32>) -> tensor<64x128x!tile.ptr<f32>>
      %ms = "tile.splat"(%m) : (i32) -> tensor<64x128xi32>
      %mask_a = arith.cmpi slt, %oa, %ms : tensor<64x128xi32>
      %one_a = arith.constant dense<1.0> : tensor<64x128xf32>
      %va = "tile.load"(%pa, %mask_a, %one_a) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 1>, volatile = false} : (tensor<64x128x!tile.ptr<f32>>, tensor<64x128xi1>, tensor<64x128xf32>) -> tensor<64x128xf32>
      %ib = "tile.splat"(%ic) : (i32) -> tensor<256xi32>
      %ob = arith.addi %rb, %ib : tensor<256xi32>
      %pb = "tile.addptr"(%xb, %ob) : (tensor<256x!tile.ptr<f32>>, tensor<256xi32>) -> tensor<256x!tile.ptr<f32>>
      %mb = "tile.splat"(%m) : (i32) -> tensor<256xi32>
      %mask_b = arith.cmpi slt, %ob, %mb : tensor<256xi32>
      %one_b = arith.constant dense<1.0> : tensor<256xf32>
      %vb = "tile.load"(%pb, %mask_b, %one_b) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 1>, volatile = false} : (tensor<256x!tile.ptr<f32>>, tensor<256xi1>, tensor<256xf32>) -> tensor<256xf32>
      %sa = arith.addf %a, %va : tensor<64x128xf32>
      %sb = arith.addf %b, %vb : tensor<256xf32>
      scf.yield %sa, %sb : tensor<64x128xf32>, tensor<256xf32>
    } {tile.loop_stages = 3 : i32}
    %ya = "tile.splat"(%y) : (!tile.ptr<f32>) -> tensor<64x128x!tile.ptr<f32>>
    %pya = "tile.addptr"(%ya, %ra) : (tensor<64x128x!tile.ptr<f32>>, tensor<64x128xi32>) -> tensor<64x128x!tile.ptr<f32>>
    "tile.store"(%pya, %res#0) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<64x128x!tile.ptr<f32>>, tensor<64x128xf32>) -> ()
    %yb = "tile.splat"(%y) : (!tile.ptr<f32>) -> tensor<256x!tile.ptr<f32>>
    %pyb = "tile.addptr"(%yb, %rb) : (tensor<256x!tile.ptr<f32>>, tensor<256xi32>) -> tensor<256x!tile.ptr<f32>>
    "tile.store"(%pyb, %res#1) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<256x!tile.ptr<f32>>, tensor<256xf32>) -> ()
    return
  }
}
