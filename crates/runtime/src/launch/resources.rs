//! What a kernel loaded on a GPU uses of a multiprocessor, as the driver
//! reports it for the code its JIT made.

/// What a kernel loaded on a GPU uses
/// ([`LoadedKernel::resources`](super::LoadedKernel::resources)): what
/// decides how many of its blocks share a multiprocessor, and whether it
/// spills.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Resources {
    /// Registers per thread.
    pub registers: u32,
    /// Local memory per thread, in bytes: register spills and stack.
    pub local_bytes: u32,
    /// Static shared memory per block, in bytes.
    pub static_shared_bytes: u32,
    /// Blocks resident on one multiprocessor at once, with the kernel's
    /// block size and dynamic shared memory.
    pub blocks_per_multiprocessor: u32,
}
