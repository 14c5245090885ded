//! What `tile-opt` says when it crashes. Everything tile-opt owns reports
//! invalid input as an error; a crash can only come from inside MLIR or
//! LLVM (upstream's `mlir-opt` 22 crashes on the same input). Without a
//! handler the process would die silently (a release build of MLIR prints
//! nothing), so [`install`] sets one for the fatal signals: it writes one
//! line saying what happened, then the stack, then lets the signal end
//! the process as it would have.
//!
//! The handler only makes async-signal-safe calls (`write`,
//! `backtrace_symbols_fd`, `raise`); `backtrace` is called once
//! at installation, so that it never has to load its unwinder inside the
//! handler.
//!
//! ```no_run
//! // First thing in a tool's `main`: a crash inside MLIR or LLVM then
//! // prints one line and a stack before the process dies of the signal.
//! tile_passes::crash_report::install("my-tool");
//! ```

#[cfg(all(target_os = "linux", target_env = "gnu"))]
mod imp {
    use std::sync::atomic::{AtomicPtr, AtomicUsize, Ordering};

    /// The signals that end a process with a crash.
    const SIGNALS: [libc::c_int; 5] = [
        libc::SIGSEGV,
        libc::SIGBUS,
        libc::SIGILL,
        libc::SIGFPE,
        libc::SIGABRT,
    ];

    /// The message's first part (the tool's name), leaked once.
    static TOOL: AtomicPtr<u8> = AtomicPtr::new(std::ptr::null_mut());
    static TOOL_LEN: AtomicUsize = AtomicUsize::new(0);

    fn write_all(bytes: &[u8]) {
        // SAFETY: writing a live buffer to stderr; errors are ignored.
        unsafe { libc::write(libc::STDERR_FILENO, bytes.as_ptr().cast(), bytes.len()) };
    }

    fn signal_name(signal: libc::c_int) -> &'static [u8] {
        match signal {
            libc::SIGSEGV => b"SIGSEGV, a segmentation fault",
            libc::SIGBUS => b"SIGBUS, a bus error",
            libc::SIGILL => b"SIGILL, an illegal instruction",
            libc::SIGFPE => b"SIGFPE, an arithmetic fault",
            libc::SIGABRT => b"SIGABRT, an abort",
            _ => b"a fatal signal",
        }
    }

    extern "C" fn on_crash(signal: libc::c_int) {
        let tool = TOOL.load(Ordering::Relaxed);
        if !tool.is_null() {
            // SAFETY: TOOL points at TOOL_LEN bytes leaked at installation.
            write_all(unsafe {
                std::slice::from_raw_parts(tool, TOOL_LEN.load(Ordering::Relaxed))
            });
        }
        write_all(b": crashed inside MLIR or LLVM (");
        write_all(signal_name(signal));
        write_all(
            b"): the input reaches a bug of MLIR or LLVM 22, past every check of ours; \
              please report it with the input.\nStack:\n",
        );
        let mut frames = [std::ptr::null_mut(); 64];
        // SAFETY: the buffer holds 64 frames; the unwinder was loaded at
        // installation; backtrace_symbols_fd writes without allocating.
        unsafe {
            let n = libc::backtrace(frames.as_mut_ptr(), frames.len() as libc::c_int);
            libc::backtrace_symbols_fd(frames.as_ptr(), n, libc::STDERR_FILENO);
            // End as the signal would have ended the process (the
            // handler was reset to the default on entry).
            libc::raise(signal);
        }
    }

    pub fn install(tool: &'static str) {
        TOOL_LEN.store(tool.len(), Ordering::Relaxed);
        TOOL.store(tool.as_ptr().cast_mut(), Ordering::Relaxed);
        let mut warm = [std::ptr::null_mut(); 1];
        // SAFETY: loads the unwinder now, outside any handler; the
        // handler is a valid `extern "C" fn(c_int)`.
        unsafe {
            libc::backtrace(warm.as_mut_ptr(), 1);
            // On the alternate stack Rust sets up for the main thread, so
            // that a stack overflow is reported too; reset on entry.
            let mut action: libc::sigaction = std::mem::zeroed();
            action.sa_sigaction = on_crash as *const () as libc::sighandler_t;
            action.sa_flags = libc::SA_ONSTACK | libc::SA_RESETHAND;
            libc::sigemptyset(&mut action.sa_mask);
            for signal in SIGNALS {
                libc::sigaction(signal, &action, std::ptr::null_mut());
            }
        }
    }
}

/// Installs the crash report for the tool named `tool` (see the module
/// docs). Elsewhere than glibc Linux, it does nothing.
pub fn install(tool: &'static str) {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    imp::install(tool);
    #[cfg(not(all(target_os = "linux", target_env = "gnu")))]
    let _ = tool;
}
