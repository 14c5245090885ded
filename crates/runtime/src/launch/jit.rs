//! JIT compilation of PTX by the driver, with the assembler's log on
//! failure.

use crate::error::{Result, RuntimeError, catch, code_message, code_name};
use cudarc::driver::sys::{self, CUjit_option};
use std::ffi::{CString, c_void};

/// Size of the JIT error-log buffer handed to the driver.
const JIT_LOG_BYTES: usize = 16 * 1024;

/// `cuModuleLoadDataEx` with an error-log buffer, so a JIT failure comes
/// back with the assembler's messages.
pub(super) fn load_module(kernel: &str, image: &CString) -> Result<sys::CUmodule> {
    let mut log = vec![0u8; JIT_LOG_BYTES];
    let mut options = [
        CUjit_option::CU_JIT_ERROR_LOG_BUFFER,
        CUjit_option::CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
    ];
    let mut values: [*mut c_void; 2] = [
        log.as_mut_ptr().cast(),
        std::ptr::without_provenance_mut(JIT_LOG_BYTES),
    ];
    let mut module: sys::CUmodule = std::ptr::null_mut();
    // SAFETY: `image` is a NUL-terminated PTX string; the options and their
    // values are two arrays of equal length; the log buffer has the size
    // announced and outlives the call.
    let outcome = catch(Some(kernel), "cuModuleLoadDataEx", || unsafe {
        sys::cuModuleLoadDataEx(
            &mut module,
            image.as_ptr().cast(),
            options.len() as u32,
            options.as_mut_ptr(),
            values.as_mut_ptr(),
        )
        .result()
    })?;
    match outcome {
        Ok(()) => Ok(module),
        Err(e) => {
            let end = log.iter().position(|&b| b == 0).unwrap_or(log.len());
            Err(RuntimeError::Jit {
                kernel: kernel.to_string(),
                code: code_name(&e),
                message: code_message(&e),
                log: String::from_utf8_lossy(&log[..end]).into_owned(),
            })
        }
    }
}
