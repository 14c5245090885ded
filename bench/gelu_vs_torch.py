"""Compares the GELU kernels' outputs (written by `tile-tools gpu-check
gelu-dump DIR`) with PyTorch's F.gelu on the same inputs, on the GPU.

    python3 bench/gelu_vs_torch.py DIR

Errors are scaled by max(|x|, 1), as `gpu-check math-accuracy` scales
them. Prints one RESULT line per form; ok=1 when ours is within 2e-6 of
torch's f32 result (each is within 1e-6 of the f64 value).
"""

import sys

import torch
import torch.nn.functional as F


def load(path):
    with open(path, "rb") as f:
        return torch.frombuffer(bytearray(f.read()), dtype=torch.float32).cuda()


def main():
    d = sys.argv[1]
    x = load(f"{d}/x.f32")
    scale = x.double().abs().clamp(min=1.0)
    print(f"INFO torch {torch.__version__} on {torch.cuda.get_device_name()}")
    bad = 0
    for form, approximate in (("gelu_erf", "none"), ("gelu_tanh", "tanh")):
        ours = load(f"{d}/{form}.f32").double()
        torch32 = F.gelu(x, approximate=approximate).double()
        torch64 = F.gelu(x.double(), approximate=approximate)
        vs_torch = ((ours - torch32).abs() / scale).max().item()
        ours_err = ((ours - torch64).abs() / scale).max().item()
        torch_err = ((torch32 - torch64).abs() / scale).max().item()
        ok = vs_torch <= 2e-6 and not torch.isnan(ours).any().item()
        bad += not ok
        print(
            f"RESULT {form} n={x.numel()} ours_vs_torch_f32={vs_torch:.2e} "
            f"ours_vs_f64={ours_err:.2e} torch_f32_vs_f64={torch_err:.2e} ok={int(ok)}"
        )
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
