// RUN: not tile-opt %s --no-such-pass 2>&1 | FileCheck %s
// RUN: tile-opt %s --no-such-pass > %t.out 2>&1 || echo "exit code $?" >> %t.out
// RUN: FileCheck %s --check-prefix=EXIT --input-file=%t.out
// RUN: not tile-opt %s --canonicalize --no-such-pass 2>&1 | FileCheck %s --check-prefix=NOTHING

// An unknown pass is a usage error: reported before any input is processed,
// with exit code 2 (1 is for invalid IR).

// CHECK: tile-opt: unknown or invalid pass '--no-such-pass': failed to parse pass pipeline:
// CHECK: 'no-such-pass' does not refer to a registered pass or pass pipeline

// EXIT: unknown or invalid pass '--no-such-pass'
// EXIT: exit code 2

// Nothing is printed: the valid passes before it do not run either.
// NOTHING-NOT: module
// NOTHING: unknown or invalid pass '--no-such-pass'
// NOTHING-NOT: module

func.func @f() {
  return
}
