//! [`Error`]: every error of the library in one type, so that `?` works
//! across building, compiling and launching, and `main` prints a message.

use std::fmt;

/// Any error of building, compiling or running a kernel (each boxed: the
/// error is two words, so a `Result` stays small).
///
/// Its `Debug` is its `Display` (one line, then MLIR's diagnostics with
/// the kernel's source lines, if any), so `fn main() -> Result<(),
/// tile::Error>` prints a message, not a struct.
///
/// ```
/// fn first_kernel() -> tile::Result<()> {
///     let context = tile::context()?;
///     let kernel = tile::Kernel::build(&context, "k", |k| {
///         let x = k.arg_ptr("x", tile::DType::F32);
///         k.store(x + k.arange(0, 3), 1.0).build(); // 3 is no power of two
///     })?;
///     let _ = tile::compile(&kernel, &tile::Options::default())?;
///     Ok(())
/// }
/// let message = format!("{:?}", first_kernel().unwrap_err());
/// assert!(message.contains("power-of-two"), "{message}");
/// ```
#[non_exhaustive]
pub enum Error {
    /// A builder call broke a rule, or IR did not parse or verify.
    Ir(Box<tile_dialect::Error>),
    /// The compiler refused the kernel or failed on it.
    Compile(Box<tile_codegen::CompileError>),
    /// The runtime failed: no device, a refused launch, a driver error,
    /// an interpreter fault.
    Runtime(Box<tile_runtime::RuntimeError>),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Ir(e) => write!(f, "{e}"),
            Error::Compile(e) => write!(f, "{e}"),
            Error::Runtime(e) if matches!(**e, tile_runtime::RuntimeError::NoDevice { .. }) => {
                write!(
                    f,
                    "{e} (without a GPU, kernels run on the CPU interpreter: \
                 `Device::interpreter()`, or `TILE_INTERPRET=1` for `Device::new(0)`)"
                )
            }
            Error::Runtime(e) => write!(f, "{e}"),
        }
    }
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Ir(e) => Some(&**e),
            Error::Compile(e) => Some(&**e),
            Error::Runtime(e) => Some(&**e),
        }
    }
}

impl From<tile_dialect::Error> for Error {
    fn from(e: tile_dialect::Error) -> Self {
        Error::Ir(Box::new(e))
    }
}

impl From<tile_dialect::BuildError> for Error {
    fn from(e: tile_dialect::BuildError) -> Self {
        Error::Ir(Box::new(e.into()))
    }
}

impl From<melior::Error> for Error {
    fn from(e: melior::Error) -> Self {
        Error::Ir(Box::new(e.into()))
    }
}

impl From<tile_codegen::CompileError> for Error {
    fn from(e: tile_codegen::CompileError) -> Self {
        Error::Compile(Box::new(e))
    }
}

impl From<tile_runtime::RuntimeError> for Error {
    fn from(e: tile_runtime::RuntimeError) -> Self {
        Error::Runtime(Box::new(e))
    }
}

impl From<tile_runtime::InterpretError> for Error {
    fn from(e: tile_runtime::InterpretError) -> Self {
        Error::Runtime(Box::new(tile_runtime::RuntimeError::Interpreter(Box::new(
            e,
        ))))
    }
}

/// The library's result type.
pub type Result<T, E = Error> = std::result::Result<T, E>;
