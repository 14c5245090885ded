#!/usr/bin/env python3
"""Mutation testing of one file of a pass against FileCheck tests.

cargo-mutants runs `cargo test`, but our passes are tested mostly by the
FileCheck tests under `filecheck/` (through `tile-opt` and `lit`), which
cargo does not run. This script takes the mutants cargo-mutants lists for
FILE, and for each one: writes it into the file (in place), rebuilds
`tile-opt`, runs the given lit tests, and puts the file back. A mutant that
fails to build is unviable; one the tests do not notice is missed.

    python3 mutants/lit_mutants.py crates/passes/src/while_to_for.rs \
        filecheck/passes/while-to-for.mlir [MORE_LIT_TESTS...]

Prints one line per mutant and a summary; the file is restored even when
interrupted. About 20 s a mutant on the 2-core development machine.
`CARGO_TARGET_DIR` is honoured, so a run can go on in a separate worktree
with its own build (`git worktree add /tmp/mut`) while the main tree is in
use; `filecheck` as the test list runs every FileCheck test.
`LIT_MUTANTS_LINES=194,198` tries only the mutants on those lines (to
re-check survivors against new tests).

`LIT_MUTANTS_PACKAGE=tile-codegen` takes the mutants of another crate
(`tile-passes` by default); `-` as the test list skips the lit stage
(for a crate lit does not reach), leaving `LIT_MUTANTS_EXEC` to judge.

`LIT_MUTANTS_EXEC="cargo test --profile test --test it ptx_exec"` gives a
second, executing stage: a mutant lit misses is then run against that
shell command (the lowered code executed on the CPU), and counts as
"caught-exec" if it fails. It costs a relink of the integration tests
(about 90 s a mutant), so it runs only for lit's survivors.
"""

import json
import os
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LIT = "/usr/lib/llvm-22/bin/lit"


def mutants(path):
    package = os.environ.get("LIT_MUTANTS_PACKAGE", "tile-passes")
    out = subprocess.run(
        ["cargo", "mutants", "--list", "--json", "-p", package, "-f", path],
        cwd=ROOT, check=True, capture_output=True, text=True,
    ).stdout
    return json.loads(out)


def apply(text, m):
    """`text` with the mutant's span replaced (lines and columns 1-based)."""
    lines = text.split("\n")
    def offset(pos):
        return sum(len(l) + 1 for l in lines[: pos["line"] - 1]) + pos["column"] - 1
    start, end = offset(m["span"]["start"]), offset(m["span"]["end"])
    return text[:start] + m["replacement"] + text[end:]


def run(cmd):
    return subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True).returncode == 0


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    path, tests = sys.argv[1], sys.argv[2:]
    original = open(os.path.join(ROOT, path)).read()
    build = ["cargo", "build", "--profile", "test", "-p", "tile-opt"]
    package = os.environ.get("LIT_MUTANTS_PACKAGE", "tile-passes")
    if package != "tile-passes":
        # tile-opt does not build every crate: a mutant that does not
        # compile must show as unviable, not as caught by the tests.
        build += ["-p", package]
    # A mutant can make a pass loop forever: each lit run is stopped after
    # 120 s, which counts as caught (as cargo-mutants counts a timeout).
    # `--max-failures 1` stops at the first failing test; lit's default
    # "smart" order runs the tests that failed last time first, so a
    # mutant like the one before it is caught in a second or two.
    env_lit = ["timeout", "120", LIT, "-q", "--max-failures", "1"] + tests
    if tests == ["-"]:
        env_lit = ["true"]
    target = os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target"))
    os.environ["TILE_OPT"] = os.path.join(target, "debug/tile-opt")
    if not (run(build) and run(env_lit)):
        sys.exit("the unmutated tree does not build or pass its tests")
    exec_cmd = os.environ.get("LIT_MUTANTS_EXEC")
    if exec_cmd and not run(["bash", "-c", exec_cmd]):
        sys.exit("the unmutated tree does not pass LIT_MUTANTS_EXEC")
    counts = {"caught": 0, "caught-exec": 0, "missed": 0, "unviable": 0}
    try:
        lines = os.environ.get("LIT_MUTANTS_LINES")
        only = {int(x) for x in lines.split(",")} if lines else None
        for m in mutants(path):
            if only is not None and m["span"]["start"]["line"] not in only:
                continue
            start = time.monotonic()
            with open(os.path.join(ROOT, path), "w") as f:
                f.write(apply(original, m))
            if not run(build):
                outcome = "unviable"
            elif not run(env_lit):
                outcome = "caught"
            elif exec_cmd and not run(["timeout", "900", "bash", "-c", exec_cmd]):
                outcome = "caught-exec"
            else:
                outcome = "missed"
            counts[outcome] += 1
            took = time.monotonic() - start
            print(f"{outcome.upper():11} {took:5.0f}s {m['name']}", flush=True)
    finally:
        with open(os.path.join(ROOT, path), "w") as f:
            f.write(original)
        run(build)
    print(f"{sum(counts.values())} mutants: {counts}")


if __name__ == "__main__":
    main()
