//! What a device allows a launch: grid, block and shared memory sizes.

/// The device limits a launch is checked against, read once when the
/// [`Device`](crate::Device) is opened.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DeviceLimits {
    /// Largest grid, in blocks, along x, y and z.
    pub max_grid: [u32; 3],
    /// Most threads in one block.
    pub max_threads_per_block: u32,
    /// Most shared memory one block can opt in to, in bytes (static and
    /// dynamic together).
    pub max_shared_mem_per_block: u32,
    /// Streaming multiprocessors (132 on an H100 SXM): the programs a
    /// persistent kernel launches, one per multiprocessor.
    pub multiprocessors: u32,
}

/// Shared memory a block may use without opting in, in bytes.
pub(crate) const DEFAULT_SHARED_MEM_LIMIT: u32 = 48 * 1024;
