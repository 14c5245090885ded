# -*- Python -*-
# lit configuration for the tile-opt FileCheck tests.
#
#   cargo build -p tile-opt
#   TILE_OPT=$PWD/target/debug/tile-opt /usr/lib/llvm-22/bin/lit -v filecheck
#
# TILE_OPT names the tile-opt binary (an absolute path); without it the
# tests use <repo>/target/debug/tile-opt. FileCheck, not and the other LLVM
# test tools come from LLVM_TOOLS_DIR (default /usr/lib/llvm-22/bin).
# Output/ (the %t files) goes under TILE_LIT_EXEC_ROOT if set, else next to
# the tile-opt binary (in the build directory), never into the source tree.

import os
import re

import lit.formats

config.name = "tile"
config.test_format = lit.formats.ShTest(True)
config.suffixes = [".mlir"]
config.test_source_root = os.path.dirname(os.path.abspath(__file__))
# Helper files that are not tests.
config.excludes = ["lit.cfg.py", "Inputs", "README.md"]

repo_root = os.path.dirname(config.test_source_root)

# --- tile-opt -------------------------------------------------------------
tile_opt = os.environ.get("TILE_OPT")
if tile_opt:
    if not os.path.isabs(tile_opt):
        lit_config.fatal("TILE_OPT must be an absolute path, got '%s'" % tile_opt)
else:
    tile_opt = os.path.join(repo_root, "target", "debug", "tile-opt")
if not (os.path.isfile(tile_opt) and os.access(tile_opt, os.X_OK)):
    lit_config.fatal(
        "tile-opt not found at '%s': build it with "
        "`cargo build -p tile-opt` or set TILE_OPT to the "
        "absolute path of the binary" % tile_opt
    )
lit_config.note("using tile-opt: %s" % tile_opt)

# --- LLVM test tools (FileCheck, not, count, split-file) ------------------
llvm_tools_dir = os.environ.get("LLVM_TOOLS_DIR", "/usr/lib/llvm-22/bin")
for tool in ("FileCheck", "not"):
    if not os.access(os.path.join(llvm_tools_dir, tool), os.X_OK):
        lit_config.fatal(
            "'%s' not found in '%s' (install llvm-22-tools or set "
            "LLVM_TOOLS_DIR)" % (tool, llvm_tools_dir)
        )
config.environment["PATH"] = os.pathsep.join(
    [llvm_tools_dir, config.environment.get("PATH", os.environ.get("PATH", ""))]
)

# Replace `tile-opt` only where it stands as a command word, not inside
# paths or longer names (e.g. `tile-opt-foo`, `/x/tile-opt`).
config.substitutions.append(
    (r"(?<![\w./-])tile-opt(?![\w.-])", tile_opt.replace("\\", "/"))
)

# The stages after tile-to-simt, down to PTX in a gpu.binary (as the
# compiler runs them, `tile_codegen::STAGES`): `tile-opt ... %to-ptx`.
# `%to-ptx-O0` to `%to-ptx-O3` choose LLVM's optimisation level; `%to-ptx`
# is -O3, the default. `%to-ptx-sm90a` targets sm_90a (what the compiler
# chooses for kernels that use wgmma), `%to-ptx-sm80` sm_80 (mma.sync),
# `%to-ptx-ptx81` sm_90 with PTX 8.1 (vector atomics).
def to_ptx(opt, chip="sm_90", ptx=80):
    return (
        "'--pass-pipeline=builtin.module(nvvm-attach-target{chip=%s "
        "features=+ptx%d O=%d},convert-scf-to-cf,gpu.module(convert-gpu-to-nvvm),"
        "convert-index-to-llvm,reconcile-unrealized-casts,"
        "gpu-module-to-binary{format=isa})'" % (chip, ptx, opt)
    )


for opt in range(4):
    config.substitutions.append(("%%to-ptx-O%d" % opt, to_ptx(opt)))
config.substitutions.append(("%to-ptx-sm90a", to_ptx(3, "sm_90a")))
config.substitutions.append(("%to-ptx-sm80", to_ptx(3, "sm_80")))
config.substitutions.append(("%to-ptx-ptx81", to_ptx(3, "sm_90", 81)))
config.substitutions.append(("%to-ptx", to_ptx(3)))

# --- where %t and Output/ live --------------------------------------------
exec_root = os.environ.get("TILE_LIT_EXEC_ROOT")
if not exec_root:
    exec_root = os.path.join(os.path.dirname(tile_opt), "filecheck")
config.test_exec_root = exec_root
