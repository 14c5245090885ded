//! Host memory and host kernels: what the CPU interpreter runs against.
//!
//! An interpreter [`Device`](crate::Device) keeps its buffers in a
//! [`HostMemory`]: allocations of host bytes at made-up device addresses,
//! so [`Buffer`](crate::Buffer)s, [`DevicePtr`](crate::DevicePtr)s and
//! [`Arg`]s behave exactly as on a GPU and the same user code runs on
//! either. A [`HostKernel`] (the `tile-interpreter` crate makes them from
//! tile IR) runs a whole grid against that memory. This module knows
//! nothing of tile IR, so the runtime stays free of the compiler.
//!
//! ```
//! use tile_runtime::HostMemory;
//!
//! let mut memory = HostMemory::new();
//! let base = memory.alloc(16);
//! memory.range_mut(base + 4, 4).unwrap().copy_from_slice(&[1, 2, 3, 4]);
//! assert_eq!(memory.range(base + 4, 4), Some(&[1u8, 2, 3, 4][..]));
//! // Outside any allocation, or across its end: no bytes.
//! assert_eq!(memory.range(base + 14, 4), None);
//! assert!(memory.free(base));
//! ```

use crate::error::Result;
use crate::kernel::Arg;
use std::collections::BTreeMap;
use std::fmt;

/// The address of the first host allocation. Nonzero, so that 0 stays the
/// address of an empty buffer, and high, so that small integers mistaken
/// for pointers fall outside every allocation.
const FIRST_ADDRESS: u64 = 0x7f00_0000_0000;

/// Alignment of every allocation, as `cuMemAlloc` gives (256 bytes).
const ALIGN: u64 = 256;

/// Unallocated bytes left after each allocation, so that an access a little
/// past the end of one buffer does not land in the next.
const GAP: u64 = 64 * 1024;

/// One live allocation: where it starts and how many bytes it has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Allocation {
    /// The address of its first byte.
    pub base: u64,
    /// Its size in bytes.
    pub len: u64,
}

impl Allocation {
    /// True when the `bytes` bytes from `addr` all lie inside.
    pub fn contains(&self, addr: u64, bytes: u64) -> bool {
        addr >= self.base && addr.saturating_add(bytes) <= self.base + self.len
    }
}

/// Host bytes at device-like addresses. Addresses are never reused, so a
/// pointer into a freed buffer stays invalid.
#[derive(Default)]
pub struct HostMemory {
    allocations: BTreeMap<u64, Vec<u8>>,
    next: u64,
}

impl HostMemory {
    /// No allocations.
    pub fn new() -> HostMemory {
        HostMemory {
            allocations: BTreeMap::new(),
            next: FIRST_ADDRESS,
        }
    }

    /// Allocates `bytes` zeroed bytes and returns their address, 256-byte
    /// aligned; 0 (and no allocation) for 0 bytes.
    pub fn alloc(&mut self, bytes: usize) -> u64 {
        if bytes == 0 {
            return 0;
        }
        self.insert(vec![0; bytes])
    }

    /// Like [`alloc`](Self::alloc), but `None` where the host cannot give
    /// the bytes (instead of aborting the process).
    pub fn try_alloc(&mut self, bytes: usize) -> Option<u64> {
        if bytes == 0 {
            return Some(0);
        }
        let layout = std::alloc::Layout::array::<u8>(bytes).ok()?;
        // SAFETY: `layout` has a nonzero size.
        let ptr = unsafe { std::alloc::alloc_zeroed(layout) };
        if ptr.is_null() {
            return None;
        }
        // SAFETY: `ptr` was allocated by the global allocator with the
        // layout of `bytes` bytes, all of them initialised (zeroed).
        let zeroed = unsafe { Vec::from_raw_parts(ptr, bytes, bytes) };
        Some(self.insert(zeroed))
    }

    /// Files `bytes` (not empty) at the next free address.
    fn insert(&mut self, bytes: Vec<u8>) -> u64 {
        let base = self.next.max(FIRST_ADDRESS);
        let end = base + bytes.len() as u64 + GAP;
        self.next = end.div_ceil(ALIGN) * ALIGN;
        self.allocations.insert(base, bytes);
        base
    }

    /// Frees the allocation at `base`; false when there is none.
    pub fn free(&mut self, base: u64) -> bool {
        self.allocations.remove(&base).is_some()
    }

    /// The allocation holding the byte at `addr`, if any.
    pub fn allocation(&self, addr: u64) -> Option<Allocation> {
        let (&base, bytes) = self.allocations.range(..=addr).next_back()?;
        let a = Allocation {
            base,
            len: bytes.len() as u64,
        };
        (addr < a.base + a.len).then_some(a)
    }

    /// The bytes of the allocation at `base` (its first byte's address).
    pub fn bytes(&self, base: u64) -> Option<&[u8]> {
        self.allocations.get(&base).map(Vec::as_slice)
    }

    /// The bytes of the allocation at `base`, to write.
    pub fn bytes_mut(&mut self, base: u64) -> Option<&mut [u8]> {
        self.allocations.get_mut(&base).map(Vec::as_mut_slice)
    }

    /// The `len` bytes from `addr`, when they lie in one allocation.
    pub fn range(&self, addr: u64, len: usize) -> Option<&[u8]> {
        if len == 0 {
            return Some(&[]);
        }
        let a = self.allocation(addr)?;
        if !a.contains(addr, len as u64) {
            return None;
        }
        let at = (addr - a.base) as usize;
        self.bytes(a.base).map(|b| &b[at..at + len])
    }

    /// The `len` bytes from `addr` to write, when they lie in one
    /// allocation.
    pub fn range_mut(&mut self, addr: u64, len: usize) -> Option<&mut [u8]> {
        if len == 0 {
            return Some(&mut []);
        }
        let a = self.allocation(addr)?;
        if !a.contains(addr, len as u64) {
            return None;
        }
        let at = (addr - a.base) as usize;
        self.bytes_mut(a.base).map(|b| &mut b[at..at + len])
    }

    /// Total bytes allocated now.
    pub fn allocated_bytes(&self) -> u64 {
        self.allocations.values().map(|b| b.len() as u64).sum()
    }
}

impl fmt::Debug for HostMemory {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("HostMemory")
            .field("allocations", &self.allocations.len())
            .field("bytes", &self.allocated_bytes())
            .finish()
    }
}

/// A kernel that runs on the host: every program of a grid, one after
/// another, against a [`HostMemory`].
pub trait HostKernel: Send + Sync {
    /// The kernel's name.
    fn name(&self) -> &str;

    /// Runs every program of `grid` with `args` (already checked against
    /// the kernel's parameters). Stops at the first fault, which is
    /// returned as [`RuntimeError::Interpreter`](crate::RuntimeError).
    fn run(&self, memory: &mut HostMemory, grid: [u32; 3], args: &[Arg]) -> Result<()>;
}

/// Why an interpreted kernel stopped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InterpretFault {
    /// An access that no mask covers reaches outside the memory its pointer
    /// came from.
    OutOfBounds {
        /// True for a store.
        write: bool,
        /// The element of the tile that made the access.
        index: Vec<i64>,
        /// The address accessed.
        address: u64,
        /// The bytes accessed.
        bytes: u64,
        /// The kernel parameter the pointer was derived from.
        pointer: String,
        /// The allocation that parameter points into, if any.
        allocation: Option<Allocation>,
    },
    /// An access at an address that is not a multiple of the element size
    /// (the GPU faults on it).
    Misaligned {
        /// True for a store.
        write: bool,
        /// The element of the tile that made the access.
        index: Vec<i64>,
        /// The address accessed.
        address: u64,
        /// The alignment the access needs.
        align: u64,
    },
    /// An integer division or remainder by zero.
    DivisionByZero {
        /// The element of the tile that divided.
        index: Vec<i64>,
    },
    /// A `tile.assert` of a debug build found its condition false.
    AssertionFailed {
        /// The assertion's message.
        message: String,
        /// The first element (row-major) where the condition is false.
        index: Vec<i64>,
    },
    /// An op the GPU path refuses too (and why).
    Unsupported(String),
    /// The launch ran `limit` loop iterations, its step limit, and was
    /// stopped in this loop: a loop that never ends (the GPU would hang),
    /// or programs waiting on one another, which the interpreter runs one
    /// after another.
    StepLimit {
        /// The limit reached.
        limit: u64,
    },
}

impl fmt::Display for InterpretFault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let access = |w: bool| if w { "store" } else { "load" };
        match self {
            InterpretFault::OutOfBounds {
                write,
                index,
                address,
                bytes,
                pointer,
                allocation,
            } => {
                write!(
                    f,
                    "unmasked {} of element {index:?} at {address:#x} ({bytes} bytes) is out of \
                     bounds of `{pointer}`",
                    access(*write)
                )?;
                match allocation {
                    Some(a) if *address >= a.base + a.len => write!(
                        f,
                        ", {} bytes past the end of its {} bytes",
                        address - (a.base + a.len),
                        a.len
                    ),
                    Some(a) if *address < a.base => write!(
                        f,
                        ", {} bytes before the start of its {} bytes",
                        a.base - address,
                        a.len
                    ),
                    Some(a) => write!(f, ", running past the end of its {} bytes", a.len),
                    None => write!(f, ", which points into no allocation"),
                }
            }
            InterpretFault::Misaligned {
                write,
                index,
                address,
                align,
            } => write!(
                f,
                "{} of element {index:?} at {address:#x} is not aligned to {align} bytes",
                access(*write)
            ),
            InterpretFault::DivisionByZero { index } => {
                write!(f, "integer division by zero at element {index:?}")
            }
            InterpretFault::AssertionFailed { message, index } => {
                write!(f, "assertion `{message}` failed at element {index:?}")
            }
            InterpretFault::Unsupported(why) => f.write_str(why),
            InterpretFault::StepLimit { limit } => write!(
                f,
                "the launch reached its step limit of {limit} loop iterations here: a loop that \
                 never ends (the GPU would hang), or programs waiting on one another (the \
                 interpreter runs them one after another); raise it with \
                 `Interpreter::step_limit` or TILE_INTERPRET_STEP_LIMIT (0: none)"
            ),
        }
    }
}

/// A fault of an interpreted kernel, with the op and the user's source
/// line that caused it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "{location}: `{op}` in kernel `{kernel}`, program ({}, {}, {}): {fault}",
    program[0],
    program[1],
    program[2]
)]
pub struct InterpretError {
    /// The kernel.
    pub kernel: String,
    /// The op, e.g. `tile.load`.
    pub op: String,
    /// Where the op was written: `file:line:column`, or MLIR's printed
    /// location when it is not a file location.
    pub location: String,
    /// The program (x, y, z) that faulted.
    pub program: [u32; 3],
    /// What went wrong.
    pub fault: InterpretFault,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn allocations_are_aligned_apart_and_never_reused() {
        let mut m = HostMemory::new();
        let a = m.alloc(10);
        let b = m.alloc(1000);
        assert_eq!(a % ALIGN, 0);
        assert_eq!(b % ALIGN, 0);
        assert!(b >= a + 10 + GAP);
        assert_eq!(m.alloc(0), 0);
        assert_eq!(m.allocation(a + 9), Some(Allocation { base: a, len: 10 }));
        assert_eq!(m.allocation(a + 10), None);
        assert_eq!(m.allocation(a - 1), None);
        assert!(m.free(a));
        assert!(!m.free(a));
        assert_eq!(m.allocation(a), None);
        let c = m.alloc(10);
        assert!(c > b, "a freed address is not handed out again");
    }

    #[test]
    fn try_alloc_zeroes_and_refuses_what_the_host_cannot_give() {
        let mut m = HostMemory::new();
        let a = m.try_alloc(100).unwrap();
        assert_eq!(a % ALIGN, 0);
        assert_eq!(m.bytes(a).unwrap(), &[0u8; 100][..]);
        assert_eq!(m.try_alloc(0), Some(0));
        assert_eq!(m.try_alloc(usize::MAX), None);
        assert_eq!(m.allocated_bytes(), 100);
    }

    #[test]
    fn ranges_stay_inside_one_allocation() {
        let mut m = HostMemory::new();
        let a = m.alloc(8);
        m.range_mut(a + 4, 4)
            .unwrap()
            .copy_from_slice(&[1, 2, 3, 4]);
        assert_eq!(m.range(a, 8).unwrap(), &[0, 0, 0, 0, 1, 2, 3, 4]);
        assert!(m.range(a + 5, 4).is_none());
        assert!(m.range_mut(a + 8, 1).is_none());
        assert_eq!(m.allocated_bytes(), 8);
    }

    #[test]
    fn faults_say_where_the_access_went() {
        let e = InterpretError {
            kernel: "k".into(),
            op: "tile.load".into(),
            location: "src/k.rs:12:9".into(),
            program: [3, 0, 0],
            fault: InterpretFault::OutOfBounds {
                write: false,
                index: vec![5],
                address: 0x1010,
                bytes: 4,
                pointer: "x_ptr".into(),
                allocation: Some(Allocation {
                    base: 0x1000,
                    len: 16,
                }),
            },
        };
        assert_eq!(
            e.to_string(),
            "src/k.rs:12:9: `tile.load` in kernel `k`, program (3, 0, 0): unmasked load of \
             element [5] at 0x1010 (4 bytes) is out of bounds of `x_ptr`, 0 bytes past the end \
             of its 16 bytes"
        );
    }
}
