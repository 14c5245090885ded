// RUN: tile-opt %s --mlir-print-debuginfo | FileCheck %s
// RUN: tile-opt %s | tile-opt | FileCheck %s --check-prefix=PLAIN
// RUN: tile-opt %s --tile-assign-layouts --tile-predicate --tile-vectorize --tile-to-simt --mlir-print-debuginfo | FileCheck %s --check-prefix=SIMT

// The softmax kernel exactly as the builder writes it (00-tile.mlir, with the
// Rust source locations of each op): it parses, passes the tile rules, and
// keeps every op's location.

// CHECK-LABEL: {{^  }}func.func @softmax(
// CHECK-SAME: %arg0: !tile.ptr<f32> {tile.name = "x_ptr"} loc("examples/src/softmax.rs":33:23)
// CHECK-SAME: %arg4: i32 {tile.name = "n_cols"} loc("examples/src/softmax.rs":37:24))
// CHECK-SAME: attributes {tile.kernel}
// CHECK: "tile.program_id"() {axis = 0 : i32} : () -> i32 loc(#[[PID:loc[0-9]*]])
// CHECK: "tile.reduce"(%{{.*}}) {axis = 0 : i32, keep_dims = false, kind = "max"} : (tensor<1024xf32>) -> f32 loc(#[[MAX:loc[0-9]*]])
// CHECK: math.exp %{{.*}} : tensor<1024xf32> loc(#[[EXP:loc[0-9]*]])
// CHECK: "tile.store"({{.*}}) -> () loc(#[[STORE:loc[0-9]*]])
// CHECK-DAG: #[[PID]] = loc("examples/src/softmax.rs":39:21)
// CHECK-DAG: #[[MAX]] = loc("examples/src/softmax.rs":47:23)
// CHECK-DAG: #[[EXP]] = loc("examples/src/softmax.rs":48:21)
// CHECK-DAG: #[[STORE]] = loc("examples/src/softmax.rs":50:11)

// Lowered to per-thread code, each op keeps the location of the tile op
// it comes from: the max's shuffles the reduce's line, the stores the
// store's (so PTX's .loc lines point at the user's source).
// SIMT: gpu.shuffle  xor {{.*}} loc(#[[SMAX:loc[0-9]*]])
// SIMT: st.global.f32 {{.*}} loc(#[[SSTORE:loc[0-9]*]])
// SIMT-DAG: #[[SMAX]] = loc("examples/src/softmax.rs":47:23)
// SIMT-DAG: #[[SSTORE]] = loc("examples/src/softmax.rs":50:11)

// Without --mlir-print-debuginfo no location is printed.
// PLAIN-LABEL: {{^  }}func.func @softmax(
// PLAIN-NOT: loc(
// PLAIN: math.exp
// PLAIN-NOT: loc(

#loc1 = loc("examples/src/softmax.rs":33:23)
#loc2 = loc("examples/src/softmax.rs":34:25)
#loc3 = loc("examples/src/softmax.rs":35:27)
#loc4 = loc("examples/src/softmax.rs":36:29)
#loc5 = loc("examples/src/softmax.rs":37:24)
module {
  func.func @softmax(%arg0: !tile.ptr<f32> {tile.name = "x_ptr"} loc("examples/src/softmax.rs":33:23), %arg1: !tile.ptr<f32> {tile.name = "out_ptr"} loc("examples/src/softmax.rs":34:25), %arg2: i32 {tile.name = "stride_xr"} loc("examples/src/softmax.rs":35:27), %arg3: i32 {tile.name = "stride_outr"} loc("examples/src/softmax.rs":36:29), %arg4: i32 {tile.name = "n_cols"} loc("examples/src/softmax.rs":37:24)) attributes {tile.kernel} {
    %0 = "tile.program_id"() {axis = 0 : i32} : () -> i32 loc(#loc6)
    %1 = "tile.arange"() {end = 1024 : i32, start = 0 : i32} : () -> tensor<1024xi32> loc(#loc7)
    %2 = "tile.splat"(%arg4) : (i32) -> tensor<1024xi32> loc(#loc8)
    %3 = arith.cmpi slt, %1, %2 : tensor<1024xi32> loc(#loc8)
    %4 = arith.muli %0, %arg2 : i32 loc(#loc9)
    %5 = "tile.addptr"(%arg0, %4) : (!tile.ptr<f32>, i32) -> !tile.ptr<f32> loc(#loc10)
    %6 = "tile.splat"(%5) : (!tile.ptr<f32>) -> tensor<1024x!tile.ptr<f32>> loc(#loc10)
    %7 = "tile.addptr"(%6, %1) : (tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>) -> tensor<1024x!tile.ptr<f32>> loc(#loc10)
    %cst = arith.constant dense<0xFF800000> : tensor<1024xf32> loc(#loc11)
    %8 = "tile.load"(%7, %3, %cst) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 1>, volatile = false} : (tensor<1024x!tile.ptr<f32>>, tensor<1024xi1>, tensor<1024xf32>) -> tensor<1024xf32> loc(#loc11)
    %9 = "tile.reduce"(%8) {axis = 0 : i32, keep_dims = false, kind = "max"} : (tensor<1024xf32>) -> f32 loc(#loc12)
    %10 = "tile.splat"(%9) : (f32) -> tensor<1024xf32> loc(#loc13)
    %11 = arith.subf %8, %10 : tensor<1024xf32> loc(#loc13)
    %12 = math.exp %11 : tensor<1024xf32> loc(#loc14)
    %13 = "tile.reduce"(%12) {axis = 0 : i32, keep_dims = false, kind = "sum"} : (tensor<1024xf32>) -> f32 loc(#loc15)
    %14 = arith.muli %0, %arg3 : i32 loc(#loc16)
    %15 = "tile.addptr"(%arg1, %14) : (!tile.ptr<f32>, i32) -> !tile.ptr<f32> loc(#loc17)
    %16 = "tile.splat"(%15) : (!tile.ptr<f32>) -> tensor<1024x!tile.ptr<f32>> loc(#loc17)
    %17 = "tile.addptr"(%16, %1) : (tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>) -> tensor<1024x!tile.ptr<f32>> loc(#loc17)
    %18 = "tile.splat"(%13) : (f32) -> tensor<1024xf32> loc(#loc18)
    %19 = arith.divf %12, %18 : tensor<1024xf32> loc(#loc18)
    "tile.store"(%17, %19, %3) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<1024x!tile.ptr<f32>>, tensor<1024xf32>, tensor<1024xi1>) -> () loc(#loc19)
    return loc(#loc)
  } loc(#loc)
} loc(#loc)
#loc = loc("examples/src/softmax.rs":32:5)
#loc6 = loc("examples/src/softmax.rs":39:21)
#loc7 = loc("examples/src/softmax.rs":40:22)
#loc8 = loc("examples/src/softmax.rs":41:22)
#loc9 = loc("examples/src/softmax.rs":43:27)
#loc10 = loc("examples/src/softmax.rs":43:19)
#loc11 = loc("examples/src/softmax.rs":43:14)
#loc12 = loc("examples/src/softmax.rs":47:23)
#loc13 = loc("examples/src/softmax.rs":47:17)
#loc14 = loc("examples/src/softmax.rs":48:21)
#loc15 = loc("examples/src/softmax.rs":49:23)
#loc16 = loc("examples/src/softmax.rs":50:27)
#loc17 = loc("examples/src/softmax.rs":50:17)
#loc18 = loc("examples/src/softmax.rs":50:53)
#loc19 = loc("examples/src/softmax.rs":50:11)
