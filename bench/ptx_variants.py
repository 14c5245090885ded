"""Hand edits of one kernel's PTX, each into its own file, to find which
detail of a PTX text changes what `ptxas` makes of it (used with
`bench/jit_vs_ptxas.py` on the column sum, 2026-11-27):

    python3 bench/ptx_variants.py ours.ptx OUTDIR

writes OUTDIR/hdr.ptx (PTX 8.7 and sm_90a, Triton's header), b32.ptx
(`.b32` vector loads and `mov.u32` defaults, as Triton's inline loads),
rev.ptx (each run of four `add.f32` into accumulators reversed), mad.ptx
(`mul.wide.s32` + `add.s64` addresses as one `mad.wide.s32`) and all.ptx
(all four). A variant that changes nothing is reported on stderr.
"""
import os
import re
import sys


def header(t):
    t = re.sub(r"\.version \d+\.\d+", ".version 8.7", t)
    return re.sub(r"\.target sm_90\b", ".target sm_90a", t)


def b32(t):
    t = t.replace("ld.global.v4.f32", "ld.global.v4.b32")
    return re.sub(r"mov\.f32 (%r\d+), (%r\d+);", r"mov.u32 \1, \2;", t)


def reverse_adds(t):
    pattern = re.compile(r"\s*add\.f32\s+(%r\d+), \1, %r\d+;")
    out, run = [], []

    def flush():
        whole = len(run) - len(run) % 4
        for i in range(0, whole, 4):
            out.extend(reversed(run[i:i + 4]))
        out.extend(run[whole:])
        run.clear()

    for line in t.split("\n"):
        if pattern.fullmatch(line):
            run.append(line)
        else:
            flush()
            out.append(line)
    flush()
    return "\n".join(out)


def mad(t):
    return re.sub(r"mul\.wide\.s32\s+(%rd\d+), (%r\d+), 4;\n\s*add\.s64\s+(%rd\d+), (%rd\d+), \1;",
                  r"mad.wide.s32 \t\3, \2, 4, \4;", t)


def main():
    if len(sys.argv) != 3:
        raise SystemExit(__doc__)
    src = open(sys.argv[1]).read()
    variants = [("hdr", header), ("b32", b32), ("rev", reverse_adds), ("mad", mad),
                ("all", lambda t: mad(reverse_adds(b32(header(t)))))]
    for name, edit in variants:
        text = edit(src)
        if text == src:
            print(f"variant {name} changes nothing", file=sys.stderr)
        open(os.path.join(sys.argv[2], name + ".ptx"), "w").write(text)


if __name__ == "__main__":
    main()
