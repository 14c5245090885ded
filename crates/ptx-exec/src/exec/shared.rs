//! A CTA's shared memory with a race detector: between two barriers, a
//! byte written by one thread and read or written by another (atomics
//! against atomics excepted) is a race. A store of the value a byte
//! already holds from another thread's store is not: threads that hold
//! the same element of a replicated layout (a tile smaller than the
//! CTA) all store it, and whichever lands last leaves the same bytes.

use crate::error::ExecError;

/// Who touched a byte since the last barrier.
#[derive(Clone, Copy, Default)]
struct Touch {
    /// The last writer: linear thread id + 1 (0: none), its line, atomic.
    writer: u32,
    writer_line: u32,
    writer_atomic: bool,
    /// The first reader + 1 (0: none) and its line.
    reader: u32,
    reader_line: u32,
    /// Another thread read it too.
    many_readers: bool,
}

/// Shared memory of one CTA.
pub struct Shared {
    /// The bytes.
    pub bytes: Vec<u8>,
    touches: Vec<Touch>,
    /// Bytes touched since the last barrier (to reset only those).
    dirty: Vec<u32>,
}

/// An access to check.
pub struct Access {
    /// Linear thread id.
    pub thread: u32,
    /// PTX line.
    pub line: usize,
    /// A store (or the write of an atomic).
    pub write: bool,
    /// An atomic.
    pub atomic: bool,
}

/// What every byte of a CTA's shared memory holds before a thread writes
/// it. A GPU's shared memory starts with whatever was there before; all
/// ones is NaN in every float type and -1 in every integer, so a result
/// that depends on a byte no thread wrote (padding a product reads but
/// nobody zeroed) comes out visibly wrong instead of quietly zero.
pub const UNWRITTEN: u8 = 0xFF;

impl Shared {
    /// `size` bytes, each [`UNWRITTEN`].
    pub fn new(size: usize) -> Shared {
        Shared {
            bytes: vec![UNWRITTEN; size],
            touches: vec![Touch::default(); size],
            dirty: Vec::new(),
        }
    }

    /// A barrier: forget every access before it.
    pub fn barrier(&mut self) {
        for &i in &self.dirty {
            self.touches[i as usize] = Touch::default();
        }
        self.dirty.clear();
    }

    /// Records an access of `len` bytes at `offset` (in bounds), or the
    /// race it makes.
    pub fn record(
        &mut self,
        offset: usize,
        len: usize,
        a: &Access,
        cta: [u32; 3],
    ) -> Result<(), ExecError> {
        self.record_as(offset, len, a, cta, false)
    }

    /// Records the store (not atomic) of `data` at `offset` (in bounds),
    /// before it lands, or the race it makes: as [`record`](Self::record),
    /// except that bytes another thread stored with the same values are
    /// no race (see the module's doc).
    pub fn record_store(
        &mut self,
        offset: usize,
        data: &[u8],
        a: &Access,
        cta: [u32; 3],
    ) -> Result<(), ExecError> {
        let same = !a.atomic && self.bytes[offset..offset + data.len()] == *data;
        self.record_as(offset, data.len(), a, cta, same)
    }

    /// [`record`](Self::record); `same_value`: a store of the bytes
    /// already there, which another plain store may have made.
    fn record_as(
        &mut self,
        offset: usize,
        len: usize,
        a: &Access,
        cta: [u32; 3],
        same_value: bool,
    ) -> Result<(), ExecError> {
        let me = a.thread + 1;
        for i in offset..offset + len {
            let t = &mut self.touches[i];
            if t.writer == 0 && t.reader == 0 {
                self.dirty.push(i as u32);
            }
            let race = |other: u32, line: u32, other_write: bool| ExecError::SharedRace {
                cta,
                offset: i as u64,
                first_thread: other - 1,
                first_line: line as usize,
                first: if other_write { "write" } else { "read" },
                second_thread: a.thread,
                second_line: a.line,
                second: if a.write { "write" } else { "read" },
            };
            let duplicate = same_value && !t.writer_atomic;
            if t.writer != 0 && t.writer != me && !(a.atomic && t.writer_atomic) && !duplicate {
                return Err(race(t.writer, t.writer_line, true));
            }
            if a.write && !a.atomic && t.reader != 0 && (t.reader != me || t.many_readers) {
                return Err(race(t.reader, t.reader_line, false));
            }
            if a.write {
                t.writer = me;
                t.writer_line = a.line as u32;
                t.writer_atomic = a.atomic;
            } else if t.reader == 0 {
                t.reader = me;
                t.reader_line = a.line as u32;
            } else if t.reader != me {
                t.many_readers = true;
            }
        }
        Ok(())
    }
}
