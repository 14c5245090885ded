//! The CUDA driver library: whether it can be opened, and how many
//! devices it sees.

use crate::error::{code_message, code_name, panic_text};
use cudarc::driver::CudaContext;
use cudarc::driver::sys;
use std::panic::catch_unwind;
use std::sync::OnceLock;

/// What the runtime says when the driver library cannot be opened.
const NO_LIBRARY: &str = "the CUDA driver library (libcuda.so.1 or libcuda.so) could not be \
                          loaded: install the NVIDIA driver, or add the directory that holds \
                          it to LD_LIBRARY_PATH";

/// Whether the driver library can be opened (asked once per process).
pub(crate) fn driver_library_present() -> bool {
    static PRESENT: OnceLock<bool> = OnceLock::new();
    *PRESENT.get_or_init(|| {
        // SAFETY: opening the library runs its initialisers, which is what
        // every later driver call would do anyway.
        catch_unwind(|| unsafe { sys::is_culib_present() }).unwrap_or(false)
    })
}

/// The number of devices the driver sees, or why there are none.
pub(crate) fn visible_devices() -> std::result::Result<usize, String> {
    if !driver_library_present() {
        return Err(NO_LIBRARY.to_string());
    }
    match catch_unwind(CudaContext::device_count) {
        Ok(Ok(n)) => Ok(usize::try_from(n).unwrap_or(0)),
        Ok(Err(e)) => Err(format!(
            "the CUDA driver failed to initialise: {} ({})",
            code_name(&e),
            code_message(&e)
        )),
        Err(panic) => Err(format!(
            "the CUDA driver library could not be used: {}",
            panic_text(panic.as_ref())
        )),
    }
}
