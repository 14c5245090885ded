// RUN: tile-opt %s %s > %t.1 2>&1 || echo "exit code $?" >> %t.1
// RUN: FileCheck %s --check-prefix=TWO-INPUTS --input-file=%t.1
// RUN: tile-opt %s -o > %t.2 2>&1 || echo "exit code $?" >> %t.2
// RUN: FileCheck %s --check-prefix=NO-OUTPUT --input-file=%t.2
// RUN: tile-opt %s --tile-verify=full > %t.3 2>&1 || echo "exit code $?" >> %t.3
// RUN: FileCheck %s --check-prefix=PASS-OPTIONS --input-file=%t.3
// RUN: tile-opt %s --dump-ir-dir > %t.4 2>&1 || echo "exit code $?" >> %t.4
// RUN: FileCheck %s --check-prefix=DUMP-DIR --input-file=%t.4
// RUN: tile-opt %t.does-not-exist.mlir > %t.5 2>&1 || echo "exit code $?" >> %t.5
// RUN: FileCheck %s --check-prefix=NO-FILE --input-file=%t.5
// RUN: tile-opt %s --pass-pipeline='builtin.module(cse' > %t.6 2>&1 || echo "exit code $?" >> %t.6
// RUN: FileCheck %s --check-prefix=BAD-PIPELINE --input-file=%t.6
// RUN: tile-opt %s -x > %t.7 2>&1 || echo "exit code $?" >> %t.7
// RUN: FileCheck %s --check-prefix=SHORT --input-file=%t.7
// RUN: tile-opt -- %s | FileCheck %s --check-prefix=DASHES
// RUN: tile-opt /dev/zero > %t.8 2>&1 || echo "exit code $?" >> %t.8
// RUN: FileCheck %s --check-prefix=ENDLESS --input-file=%t.8
// RUN: head -c 8388609 /dev/zero | tr '\0' ' ' | tile-opt > %t.9 2>&1 || echo "exit code $?" >> %t.9
// RUN: FileCheck %s --check-prefix=TOO-LONG --input-file=%t.9

// Command-line mistakes print `tile-opt: <what>` and exit with code 2.

// TWO-INPUTS: tile-opt: unexpected argument '{{.*}}usage-errors.mlir' (one input file at most)
// TWO-INPUTS-NEXT: exit code 2

// NO-OUTPUT: tile-opt: -o needs a file name
// NO-OUTPUT-NEXT: exit code 2

// PASS-OPTIONS: tile-opt: pass 'tile-verify' takes no options
// PASS-OPTIONS-NEXT: exit code 2

// DUMP-DIR: tile-opt: --dump-ir-dir needs =VALUE
// DUMP-DIR-NEXT: exit code 2

// NO-FILE: tile-opt: cannot read {{.*}}does-not-exist.mlir: {{.+}}
// NO-FILE-NEXT: exit code 2

// BAD-PIPELINE: tile-opt: invalid pass pipeline 'builtin.module(cse': failed to parse pass pipeline:
// BAD-PIPELINE: exit code 2

// SHORT: tile-opt: unknown option '-x'
// SHORT-NEXT: exit code 2

// `--` ends the options: what follows is the input.
// DASHES: func.func @f()

func.func @f() {
  return
}

// An input without end, or longer than 8 MiB, is refused once the limit
// is read past (before it read until memory ran out).
// ENDLESS: tile-opt: /dev/zero is longer than 8388608 bytes, the most tile-opt reads
// ENDLESS-NEXT: exit code 2
// TOO-LONG: tile-opt: <stdin> is longer than 8388608 bytes, the most tile-opt reads
// TOO-LONG-NEXT: exit code 2
