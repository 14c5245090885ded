//! The stack compilation runs on. Parsing, verifying and rewriting IR
//! recurse once per level of nesting (MLIR's parser, walks and
//! canonicalization; LLVM's code generation), so nesting as deep as the
//! limits allow must not overflow the caller's stack, which on a spawned
//! Rust thread is 2 MiB. Work that may recurse that deep runs through
//! [`with_compile_stack`], which switches to a fresh stack of
//! [`COMPILE_STACK_BYTES`] when less than half of that is left (on the same
//! thread: MLIR's objects need not move between threads).
//!
//! ```
//! // Deep recursion inside MLIR or LLVM gets a 64 MiB stack, on this thread.
//! let depth = tile_passes::stack::with_compile_stack(|| {
//!     fn down(n: u32) -> u32 { if n == 0 { 0 } else { 1 + down(n - 1) } }
//!     down(100_000)
//! });
//! assert_eq!(depth, 100_000);
//! ```

/// The stack that parsing, verification and compilation get: enough for
/// regions nested [`MAX_NESTING_DEPTH`](tile_dialect::limits::MAX_NESTING_DEPTH)
/// deep with room to spare (measured in `tests/it/limits.rs`).
pub const COMPILE_STACK_BYTES: usize = 64 << 20;

/// Runs `f` with at least half of [`COMPILE_STACK_BYTES`] of stack left.
pub fn with_compile_stack<R>(f: impl FnOnce() -> R) -> R {
    stacker::maybe_grow(COMPILE_STACK_BYTES / 2, COMPILE_STACK_BYTES, f)
}
