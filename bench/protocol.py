"""The lines the benchmark scripts print for `tile-tools` to read: one JSON
object a line on standard output, each with the protocol's version.

    {"protocol": 1, "kind": "info", "text": "triton=3.6.0 torch=2.11.0 device=NVIDIA_H100"}
    {"protocol": 1, "kind": "result", "kernel": "row_sum", "size": "65536x1024", "triton_ms": 0.0981, ...}

Kinds: `info` (versions, the device, a case that failed: written into the
report as `INFO text`), `skip` (why the script cannot run: into the report
as `SKIP text`), `log` (progress, shown only), `error` (a failure's
message, shown only) and `result` (one case: the fields each script
documents). A value that could not be measured is null; a non-finite
float is the string "nan", "inf" or "-inf" (JSON has no such numbers).
Anything else a script prints (warnings, tracebacks) is not protocol and
is shown as it is. tools/src/protocol.rs reads these lines; VERSION there
and here change together.

The scripts beside this file import it (`python3 bench/<script>.py` puts
bench/ first on the module path, from any working directory). It uses only
the standard library, so a script can still say that torch or triton is
missing. `python3 bench/protocol.py` prints one line of each kind (the
fixture tools/src/protocol/fixture.jsonl, read by the Rust tests).
"""

import json
import math

VERSION = 1


def _value(value):
    """`value` as JSON can carry it: non-finite floats as strings."""
    if isinstance(value, float) and not math.isfinite(value):
        return "nan" if math.isnan(value) else ("inf" if value > 0 else "-inf")
    return value


def emit(kind, **fields):
    """Prints one protocol line of `kind` with `fields`, flushed."""
    line = {"protocol": VERSION, "kind": kind}
    line.update((key, _value(value)) for key, value in fields.items())
    print(json.dumps(line, allow_nan=False), flush=True)


def info(text):
    """Versions, the device, a case that failed: into the report."""
    emit("info", text=text)


def skip(text):
    """Why the script cannot run (then it exits 3): into the report."""
    emit("skip", text=text)


def log(text):
    """Progress: shown, not reported."""
    emit("log", text=text)


def error(text):
    """A failure's message: shown, not reported."""
    emit("error", text=text)


def result(**fields):
    """One case's identity and measurements (None: not measured)."""
    emit("result", **fields)


def rounded(value, spec):
    """`value` as `format(value, spec)` writes it (the precision each
    script reports: ".4f" for times, ".3e" for errors), or None."""
    return None if value is None else float(format(value, spec))


if __name__ == "__main__":
    info("triton=3.6.0 torch=2.11.0 device=NVIDIA_H100")
    skip("cannot import torch and triton: no module")
    log("pointers f16 64x64x64 64x64x32/w4/s3: 0.0100 ms")
    error("row_sum 8x8 triton: RuntimeError: boom")
    result(kernel="row_sum", size="65536x1024", triton_ms=rounded(0.098123, ".4f"),
           torch_ms=rounded(0.10304, ".4f"), max_err=rounded(1.2345e-7, ".3e"), ok=True,
           config=None)
    result(kernel="softmax", size="8x8", triton_ms=None, torch_ms=None,
           max_err=float("inf"), ok=False)
