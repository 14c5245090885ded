//! The kernels launched on a GPU since the last successful wait, so that a
//! fault found by a wait can name them.

use crate::error::RuntimeError;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

/// How many launched kernels a fault report can name.
const LAUNCH_HISTORY: usize = 16;

/// Driver errors that mean a kernel faulted (and the context is lost).
const FAULTS: &[&str] = &[
    "CUDA_ERROR_ILLEGAL_ADDRESS",
    "CUDA_ERROR_MISALIGNED_ADDRESS",
    "CUDA_ERROR_ILLEGAL_INSTRUCTION",
    "CUDA_ERROR_INVALID_ADDRESS_SPACE",
    "CUDA_ERROR_INVALID_PC",
    "CUDA_ERROR_HARDWARE_STACK_ERROR",
    "CUDA_ERROR_LAUNCH_FAILED",
    "CUDA_ERROR_ASSERT",
];

/// Kernels launched since the last successful wait, oldest first (at most
/// [`LAUNCH_HISTORY`]; repeats of the last one are not added).
#[derive(Default)]
pub(crate) struct LaunchHistory(Mutex<Vec<Arc<str>>>);

impl LaunchHistory {
    fn lock(&self) -> MutexGuard<'_, Vec<Arc<str>>> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Notes a launch of `kernel`. Allocates nothing when `kernel` is the
    /// last one noted (a kernel launched again and again).
    pub(crate) fn note(&self, kernel: &Arc<str>) {
        let mut launched = self.lock();
        if launched.last().is_some_and(|k| Arc::ptr_eq(k, kernel)) {
            return;
        }
        if launched.len() == LAUNCH_HISTORY {
            launched.remove(0);
        }
        launched.push(kernel.clone());
    }

    /// The outcome of a wait: on success the history is cleared; a kernel
    /// fault becomes [`RuntimeError::KernelFault`].
    pub(crate) fn waited(&self, outcome: Result<(), RuntimeError>) -> Result<(), RuntimeError> {
        match outcome {
            Ok(()) => {
                self.lock().clear();
                Ok(())
            }
            Err(e) => Err(self.fault(e)),
        }
    }

    /// `e`, or a [`RuntimeError::KernelFault`] naming the kernels launched
    /// since the last wait when `e` is a fault that loses the context.
    pub(crate) fn fault(&self, e: RuntimeError) -> RuntimeError {
        match e {
            RuntimeError::Driver { code, message, .. } if FAULTS.contains(&code.as_str()) => {
                RuntimeError::KernelFault {
                    kernels: self.lock().iter().map(|k| k.to_string()).collect(),
                    code,
                    message,
                }
            }
            other => other,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn driver(code: &str) -> RuntimeError {
        RuntimeError::Driver {
            kernel: None,
            during: "waiting for the device".into(),
            code: code.into(),
            message: "m".into(),
        }
    }

    #[test]
    fn a_fault_names_the_kernels_since_the_last_wait() {
        let history = LaunchHistory::default();
        let (a, b): (Arc<str>, Arc<str>) = (Arc::from("a"), Arc::from("b"));
        history.note(&a);
        history.note(&a);
        history.note(&b);
        match history.waited(Err(driver("CUDA_ERROR_ILLEGAL_ADDRESS"))) {
            Err(RuntimeError::KernelFault { kernels, code, .. }) => {
                assert_eq!(kernels, ["a", "b"]);
                assert_eq!(code, "CUDA_ERROR_ILLEGAL_ADDRESS");
            }
            other => panic!("expected a kernel fault, got {other:?}"),
        }
        // Another error stays as it is; a successful wait forgets.
        let oom = driver("CUDA_ERROR_OUT_OF_MEMORY");
        assert_eq!(history.fault(oom.clone()), oom);
        history.waited(Ok(())).unwrap();
        assert!(matches!(
            history.fault(driver("CUDA_ERROR_LAUNCH_FAILED")),
            RuntimeError::KernelFault { kernels, .. } if kernels.is_empty()
        ));
    }

    #[test]
    fn the_history_keeps_the_latest_kernels() {
        let history = LaunchHistory::default();
        let kernels: Vec<Arc<str>> = (0..20).map(|i| Arc::from(format!("k{i}"))).collect();
        for k in &kernels {
            history.note(k);
        }
        let kept = history
            .lock()
            .iter()
            .map(|k| k.to_string())
            .collect::<Vec<_>>();
        assert_eq!(kept.len(), LAUNCH_HISTORY);
        assert_eq!(kept.first().map(String::as_str), Some("k4"));
        assert_eq!(kept.last().map(String::as_str), Some("k19"));
    }
}
