//! GELU, elementwise, in its two forms (PyTorch's `gelu` with
//! `approximate="none"` and `"tanh"`), computed without libdevice through
//! `erf` and `tanh` (see `tile_dialect::float_math`).
//!
//! ```python
//! @triton.jit
//! def gelu(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
//!     offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
//!     m = offs < n
//!     x = tl.load(x_ptr + offs, mask=m)
//!     y = 0.5 * x * (1 + erf(x * 0.7071067811865476))
//!     # tanh form: 0.5 * x * (1 + tanh(0.7978845608 * (x + 0.044715 * x * x * x)))
//!     tl.store(y_ptr + offs, y, mask=m)
//! ```
//!
//! Launch on `cdiv(n, block)` programs.

use tile_dialect::{DType, Kernel, Result};

/// The default `BLOCK`.
pub const BLOCK: i32 = 1024;

/// Which GELU.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Gelu {
    /// `x Φ(x) = 0.5 x (1 + erf(x / sqrt 2))`.
    Erf,
    /// `0.5 x (1 + tanh(sqrt(2 / pi) (x + 0.044715 x^3)))`.
    Tanh,
}

impl Gelu {
    /// `gelu_erf` or `gelu_tanh`: the kernel's name.
    pub fn name(self) -> &'static str {
        match self {
            Gelu::Erf => "gelu_erf",
            Gelu::Tanh => "gelu_tanh",
        }
    }

    /// The function in f64, as PyTorch defines it (a reference).
    pub fn reference(self, x: f64) -> f64 {
        match self {
            Gelu::Erf => 0.5 * x * (1.0 + libm::erf(x * std::f64::consts::FRAC_1_SQRT_2)),
            Gelu::Tanh => {
                let k = (2.0 / std::f64::consts::PI).sqrt();
                0.5 * x * (1.0 + (k * (x + 0.044715 * x * x * x)).tanh())
            }
        }
    }
}

/// `y[i] = gelu(x[i])` for `i < n`, `block` elements per program.
///
/// Arguments: `x_ptr`, `y_ptr` (`dtype` pointers: f16, bf16 or f32; the
/// math is done in f32), `n` (`i32`).
pub fn gelu<'c>(
    context: &'c melior::Context,
    form: Gelu,
    block: i32,
    dtype: DType,
) -> Result<Kernel<'c>> {
    Kernel::build(context, form.name(), |k| {
        let x_ptr = k.arg_ptr("x_ptr", dtype);
        let y_ptr = k.arg_ptr("y_ptr", dtype);
        let n = k.arg("n", DType::I32);
        let offs = k.program_id(0) * block + k.arange(0, block);
        let m = offs.lt(n);
        let x = k.load(x_ptr + offs).mask(m).build().to(DType::F32);
        let inner = match form {
            Gelu::Erf => (x * std::f64::consts::FRAC_1_SQRT_2).erf(),
            Gelu::Tanh => {
                let k0 = (2.0 / std::f64::consts::PI).sqrt();
                ((x + x * x * x * 0.044715) * k0).tanh()
            }
        };
        let y = x * 0.5 * (inner + 1.0);
        k.store(y_ptr + offs, y.to(dtype)).mask(m).build();
    })
}
