//! Driver calls made safe to fail: their errors, and panics inside
//! cudarc, become [`RuntimeError::Driver`].

use super::{Result, RuntimeError};
use cudarc::driver::result::DriverError;
use std::panic::{AssertUnwindSafe, catch_unwind};

/// The driver's name for an error code, without calling the driver.
pub(crate) fn code_name(err: &DriverError) -> String {
    format!("{:?}", err.0)
}

/// The driver's description of an error code (`cuGetErrorString`).
pub(crate) fn code_message(err: &DriverError) -> String {
    match catch_unwind(|| err.error_string().map(|s| s.to_string_lossy().into_owned())) {
        Ok(Ok(message)) => message,
        _ => "no description from the driver".to_string(),
    }
}

/// A [`RuntimeError::Driver`] for a failed driver call.
pub(crate) fn driver_error(kernel: Option<&str>, during: &str, err: DriverError) -> RuntimeError {
    RuntimeError::Driver {
        kernel: kernel.map(str::to_string),
        during: during.to_string(),
        code: code_name(&err),
        message: code_message(&err),
    }
}

/// Runs a driver call, turning both its error and a panic inside cudarc (a
/// driver library without a symbol this build expects, say) into
/// [`RuntimeError::Driver`].
pub(crate) fn call<T>(
    kernel: Option<&str>,
    during: &str,
    f: impl FnOnce() -> std::result::Result<T, DriverError>,
) -> Result<T> {
    catch(kernel, during, f)?.map_err(|err| driver_error(kernel, during, err))
}

/// Runs a driver call, turning only a panic inside cudarc into an error and
/// leaving the driver's own error to the caller.
pub(crate) fn catch<T>(
    kernel: Option<&str>,
    during: &str,
    f: impl FnOnce() -> std::result::Result<T, DriverError>,
) -> Result<std::result::Result<T, DriverError>> {
    catch_unwind(AssertUnwindSafe(f)).map_err(|panic| RuntimeError::Driver {
        kernel: kernel.map(str::to_string),
        during: during.to_string(),
        code: "DRIVER_LIBRARY".to_string(),
        message: format!(
            "the CUDA driver library could not serve the call: {}",
            panic_text(panic.as_ref())
        ),
    })
}

/// The message of a caught panic.
pub(crate) fn panic_text(panic: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = panic.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = panic.downcast_ref::<String>() {
        s.clone()
    } else {
        "unknown panic".to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panic_in_the_driver_layer_becomes_an_error() {
        let r: Result<()> = call(Some("k"), "cuInit", || panic!("Missing symbol cuFoo"));
        match r {
            Err(RuntimeError::Driver {
                code,
                message,
                kernel,
                ..
            }) => {
                assert_eq!(code, "DRIVER_LIBRARY");
                assert!(message.contains("Missing symbol cuFoo"), "{message}");
                assert_eq!(kernel.as_deref(), Some("k"));
            }
            other => panic!("unexpected {other:?}"),
        }
    }
}
