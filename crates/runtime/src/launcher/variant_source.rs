//! Where a [`Launcher`](super::Launcher) gets its code: the compiler, or
//! code compiled ahead of time.

use crate::artifact::Artifact;
use crate::cache_key::CacheKey;
use crate::error::{Result, RuntimeError};
use crate::host::HostKernel;
use crate::kernel::ParamType;
use crate::specialization::Specialization;
use std::sync::Arc;

/// Where a [`Launcher`](crate::Launcher) gets the code of a variant.
pub trait VariantSource: Send + Sync {
    /// The kernel's name.
    fn name(&self) -> &str;

    /// The kernel's parameters, in order; launches are checked against
    /// them before any variant is made.
    fn params(&self) -> &[(String, ParamType)];

    /// For each parameter, the element type a pointer parameter points at
    /// (the MLIR spelling: `"f32"`, `"f8E4M3FN"`), `None` for scalars; or
    /// empty when not known. A launch refuses a pointer made from a buffer
    /// of other elements ([`crate::RuntimeError::BadPointee`]).
    fn pointee_types(&self) -> Vec<Option<String>> {
        Vec::new()
    }

    /// The cache key of the variant for `specialization`, or `None` when
    /// the variants must not be cached (code that is already compiled).
    fn cache_key(&self, specialization: &Specialization) -> Option<CacheKey>;

    /// Why the next variant must be compiled afresh even when a cache has
    /// it (IR dumps were asked for, say), or `None`.
    fn fresh_reason(&self) -> Option<String> {
        None
    }

    /// The code of the variant for `specialization`. A source may return
    /// code that assumes less than asked (precompiled code does), never
    /// more.
    fn produce(&self, specialization: &Specialization) -> Result<Artifact>;

    /// The cache key of the variant for `specialization` compiled for a
    /// GPU of chip `chip` (`"sm_90"`: [`Device::chip`](crate::Device::chip)).
    /// By default [`cache_key`](Self::cache_key): a source whose code
    /// does not depend on the chip.
    fn cache_key_for(&self, specialization: &Specialization, chip: &str) -> Option<CacheKey> {
        let _ = chip;
        self.cache_key(specialization)
    }

    /// The code of the variant for `specialization` for a GPU of chip
    /// `chip`, which a [`Launcher`](crate::Launcher) asks for when it
    /// launches on a GPU (each chip has its own variants, so a process with
    /// GPUs of several kinds runs each its own code). By default
    /// [`produce`](Self::produce): code compiled ahead of time is for the
    /// chip it was compiled for.
    fn produce_for(&self, specialization: &Specialization, chip: &str) -> Result<Artifact> {
        let _ = chip;
        self.produce(specialization)
    }

    /// The kernel as the CPU interpreter runs it, for launches on
    /// [`Device::interpreter`](crate::Device::interpreter). A
    /// [`Launcher`](crate::Launcher) asks once and keeps it (it asks again
    /// after an error).
    ///
    /// By default [`RuntimeError::NotInterpretable`]: code compiled ahead
    /// of time has no IR to interpret.
    fn host_kernel(&self) -> Result<Arc<dyn HostKernel>> {
        Err(RuntimeError::NotInterpretable {
            kernel: Some(self.name().to_string()),
            message: "this kernel's code is compiled (PTX) and has no tile IR for the CPU \
                      interpreter to run; launch it on a GPU, or build it with tile::jit to \
                      interpret it"
                .to_string(),
        })
    }
}
