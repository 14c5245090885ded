// RUN: tile-opt %s '--pass-pipeline=builtin.module(nvvm-attach-target{chip=sm_90 features=+ptx60 O=3},gpu-module-to-binary{format=isa})' > %t.1 2>&1 || echo "exit code $?" >> %t.1
// RUN: FileCheck %s --check-prefix=PIPELINE --input-file=%t.1
// RUN: tile-opt %s --nvvm-attach-target="chip=sm_90a features=+ptx78" > %t.2 2>&1 || echo "exit code $?" >> %t.2
// RUN: FileCheck %s --check-prefix=STEP --input-file=%t.2
// RUN: tile-opt %s --nvvm-attach-target="chip=sm_90 features=+ptx80" | FileCheck %s --check-prefix=OK

// A PTX version too old for the chip made LLVM's NVPTX backend end the
// process ("LLVM ERROR: PTX version 6.0 does not support target
// 'sm_90'"); tile-opt now refuses it as a usage error, naming the step and
// the oldest version the chip takes, before any pass runs.
// PIPELINE: tile-opt: pass-pipeline: PTX 6.0 cannot target sm_90: it needs PTX 7.8 or later (+ptx78)
// PIPELINE-NEXT: exit code 2
// STEP: tile-opt: nvvm-attach-target: PTX 7.8 cannot target sm_90a: it needs PTX 8.0 or later (+ptx80)
// STEP-NEXT: exit code 2

// A version the chip takes attaches the target as before.
// OK: gpu.module @k [#nvvm.target<chip = "sm_90", features = "+ptx80">]

gpu.module @k {
  gpu.func @f() kernel {
    gpu.return
  }
}
