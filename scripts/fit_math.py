#!/usr/bin/env python3
"""Fits the polynomials tile-to-simt uses for tanh and erf (no libdevice),
and reports their error in f32 ULP against mpmath, on a dense grid.

    pip install numpy mpmath && python3 scripts/fit_math.py

The coefficients printed are those in crates/dialect/src/float_math.rs.
Each fit is a weighted least-squares on Chebyshev nodes of the relative
error (near-minimax), refined by reweighting with the residual (Lawson).
"""
import mpmath as mp
import numpy as np

mp.mp.dps = 40


def lawson(xs, basis, target, weight, iters=60):
    """Coefficients c minimising max |(basis(xs) @ c - target) * weight|."""
    a = np.array([basis(x) for x in xs], dtype=np.float64)
    b = np.array([float(target(x)) for x in xs])
    w = np.array([float(weight(x)) for x in xs])
    lw = np.ones(len(xs)) / len(xs)
    for _ in range(iters):
        sw = np.sqrt(lw) * w
        c, *_ = np.linalg.lstsq(a * sw[:, None], b * sw, rcond=None)
        r = np.abs((a @ c - b) * w)
        lw = lw * r
        lw /= lw.sum()
    return c, np.max(np.abs((a @ c - b) * w))


def cheb(lo, hi, n):
    k = np.arange(n)
    return 0.5 * (lo + hi) + 0.5 * (hi - lo) * np.cos(np.pi * (k + 0.5) / n)


def f32(x):
    return np.float32(x)


def horner(cs, s):
    """Horner in f32 with fused multiply-adds (rounded once each)."""
    acc = f32(cs[-1])
    for c in reversed(cs[:-1]):
        acc = f32(np.float64(acc) * np.float64(s) + np.float64(f32(c)))
    return acc


def ulps(got, want):
    want32 = f32(want)
    spacing = np.spacing(np.abs(want32)) if want32 != 0 else np.float32(1.4e-45)
    return abs(float(got) - float(want)) / float(spacing)


# tanh on [0, 0.625): x + x^3 * P(x^2)
TANH_SMALL = 0.625
xs = cheb(1e-4, TANH_SMALL, 400)
c_tanh, e = lawson(
    xs,
    lambda x: [x**3 * (x * x) ** k for k in range(6)],
    lambda x: mp.tanh(x) - x,
    lambda x: 1 / float(mp.tanh(x)),
)
def rust(values):
    """The f32 values as Rust literals, shortest round-trip form."""
    return ", ".join(np.format_float_positional(f32(v), unique=True) if abs(v) > 1e-4
                     else np.format_float_scientific(f32(v), unique=True).replace("e-0", "e-")
                     for v in values)


print("tanh small P =", [float(f32(c)) for c in c_tanh], "max rel", e)

# erf on [0, 0.875): x * P(x^2)
ERF_SMALL = 0.875
xs = cheb(1e-4, ERF_SMALL, 400)
c_erf, e = lawson(
    xs,
    lambda x: [x * (x * x) ** k for k in range(8)],
    lambda x: mp.erf(x),
    lambda x: 1 / float(mp.erf(x)),
)
print("erf small P =", [float(f32(c)) for c in c_erf], "max rel", e)

# erf on [0.875, 4): 1 - exp(-x^2) * Q(x - 2.4375), Q fitted to erfc(x) e^(x^2)
ERF_BIG, CENTER = 4.0, 2.4375
xs = cheb(ERF_SMALL, ERF_BIG, 500)
c_erfc, e = lawson(
    xs,
    lambda x: [(x - CENTER) ** k for k in range(12)],
    lambda x: mp.erfc(x) * mp.exp(x * x),
    lambda x: float(mp.exp(-x * x)) / float(mp.erf(x)),
)
print("erf big Q =", [float(f32(c)) for c in c_erfc], "max abs/erf", e)


def tanh32(x):
    x = f32(x)
    a = f32(abs(x))
    if a < TANH_SMALL:
        s = f32(x * x)
        p = horner(c_tanh, s)
        return f32(np.float64(f32(x * s)) * np.float64(p) + np.float64(x))
    e2 = f32(2.0 ** float(f32(f32(min(a, 10.0)) * f32(2 * 1.4426950408889634))))
    return f32(np.copysign(f32(1 - f32(2 / f32(e2 + 1))), x))


def erf32(x):
    x = f32(x)
    a = f32(abs(x))
    if a < ERF_SMALL:
        return f32(x * horner(c_erf, f32(x * x)))
    a = f32(min(a, ERF_BIG))
    q = horner(c_erfc, f32(a - CENTER))
    e = f32(2.0 ** float(f32(-f32(a * a) * f32(1.4426950408889634))))
    return f32(np.copysign(f32(1 - f32(e * q)), x))


print("TANH_P:", rust(c_tanh))
print("ERF_P:", rust(c_erf))
print("ERF_Q:", rust(c_erfc))

for name, fn, ref, hi in [("tanh", tanh32, mp.tanh, 12.0), ("erf", erf32, mp.erf, 5.0)]:
    worst = (0, 0)
    for x in np.concatenate([np.linspace(-hi, hi, 200001), np.geomspace(1e-6, hi, 20001)]):
        u = ulps(fn(x), ref(mp.mpf(float(f32(x)))))
        worst = max(worst, (u, float(x)))
    print(f"{name}: max {worst[0]:.2f} ulp at {worst[1]} (exp2 exact; the GPU's ex2.approx adds up to 2 ulp of its term)")
