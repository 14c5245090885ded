"""How the benchmark scripts time a call, as `tile-tools` times ours:
warm-up calls and a synchronize, then per repetition an L2 flush, a start
event, one call, an end event; one synchronize; the median.

The flush is made as `tile-tools` makes it.

Both sides of a comparison must flush the same way: the time of the
kernel after the flush depends on how the flush was made (on an H200,
Triton's fast GELU in 32x32 tiles ran 1.0% slower after a 256 MiB
`cuMemsetD8Async` than after torch's `zero_()` of the same buffer;
`bench/flush_method.py` measures it). `tile-tools` zeroes its buffer with
`cuMemsetD8Async` on the launch stream, so the scripts do too, on torch's
current stream.
"""
import ctypes
import statistics

import torch

_cuda = ctypes.CDLL("libcuda.so.1")


class L2Flush:
    """A `nbytes` device buffer; calling it queues its zeroing."""

    def __init__(self, nbytes, device="cuda"):
        self.buffer = torch.empty(nbytes, dtype=torch.uint8, device=device)

    def __call__(self):
        stream = ctypes.c_void_p(torch.cuda.current_stream().cuda_stream)
        status = _cuda.cuMemsetD8Async(ctypes.c_uint64(self.buffer.data_ptr()), ctypes.c_ubyte(0),
                                       ctypes.c_size_t(self.buffer.numel()), stream)
        if status != 0:
            raise RuntimeError(f"cuMemsetD8Async failed: CUDA error {status}")


def median_ms(fn, warmup, reps, flush):
    """The median time of `fn` in ms over `reps` calls, each after `flush`."""
    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    starts = [torch.cuda.Event(enable_timing=True) for _ in range(reps)]
    ends = [torch.cuda.Event(enable_timing=True) for _ in range(reps)]
    for s, e in zip(starts, ends):
        flush()
        s.record()
        fn()
        e.record()
    torch.cuda.synchronize()
    return statistics.median(s.elapsed_time(e) for s, e in zip(starts, ends))
