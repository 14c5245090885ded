//! Why a module could not be read or a launch stopped.

/// Where in the launch a fault happened: the PTX line, the opcode, the
/// thread and the CTA.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct At {
    /// 1-based line of the instruction in the PTX text.
    pub line: usize,
    /// The opcode as written.
    pub opcode: String,
    /// The thread (`%tid`).
    pub thread: [u32; 3],
    /// The CTA (`%ctaid`).
    pub cta: [u32; 3],
}

impl std::fmt::Display for At {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let [tx, ty, tz] = self.thread;
        let [cx, cy, cz] = self.cta;
        write!(
            f,
            "PTX line {} `{}`, thread ({tx}, {ty}, {tz}) of CTA ({cx}, {cy}, {cz})",
            self.line, self.opcode
        )
    }
}

/// Errors of reading or executing PTX.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ExecError {
    /// The text is not PTX this reader understands.
    #[error("PTX line {line}: {message}")]
    Parse {
        /// The line.
        line: usize,
        /// What is wrong.
        message: String,
    },
    /// An instruction or directive outside the executed subset.
    #[error("PTX line {line}: `{opcode}` is not supported by the PTX executor")]
    Unsupported {
        /// The opcode (or directive) as written.
        opcode: String,
        /// The line.
        line: usize,
    },
    /// No `.entry` of that name.
    #[error("no .entry `{0}` in the PTX module")]
    NoEntry(String),
    /// The launch's arguments do not fit the entry's parameters.
    #[error("kernel `{kernel}`: {message}")]
    BadLaunch {
        /// The entry.
        kernel: String,
        /// What is wrong.
        message: String,
    },
    /// An access outside every allocation (global) or outside the CTA's
    /// shared memory.
    #[error("{at}: {} of {bytes} bytes at {address:#x} in {space} memory is out of bounds", if *.write { "store" } else { "load" })]
    OutOfBounds {
        /// Where.
        at: At,
        /// The address.
        address: u64,
        /// Bytes accessed.
        bytes: u64,
        /// True for a store.
        write: bool,
        /// `global`, `shared` or `param`.
        space: &'static str,
    },
    /// An address that is not a multiple of the access's size.
    #[error("{at}: access of {bytes} bytes at {address:#x} is misaligned")]
    Misaligned {
        /// Where.
        at: At,
        /// The address.
        address: u64,
        /// Bytes accessed (the alignment needed).
        bytes: u64,
    },
    /// Two threads touched the same shared byte between two barriers, at
    /// least one of them writing.
    #[error(
        "shared memory race at offset {offset:#x} in CTA ({}, {}, {}): thread {first_thread} \
         ({first}, PTX line {first_line}) and thread {second_thread} ({second}, PTX line \
         {second_line}) with no barrier between",
        cta[0], cta[1], cta[2]
    )]
    SharedRace {
        /// The CTA.
        cta: [u32; 3],
        /// The shared byte.
        offset: u64,
        /// The earlier access's thread (linear id).
        first_thread: u32,
        /// Its line.
        first_line: usize,
        /// `read` or `write`.
        first: &'static str,
        /// The later access's thread (linear id).
        second_thread: u32,
        /// Its line.
        second_line: usize,
        /// `read` or `write`.
        second: &'static str,
    },
    /// Threads of a CTA wait at a barrier while others exited or wait at
    /// another instruction; or lanes of a warp reach different collective
    /// instructions.
    #[error("divergence in CTA ({}, {}, {}): {message}", cta[0], cta[1], cta[2])]
    Divergence {
        /// The CTA.
        cta: [u32; 3],
        /// Who waits where.
        message: String,
    },
    /// Some threads still run after the step limit (an endless loop, or a
    /// lock never released).
    #[error("CTA ({}, {}, {}) ran past {steps} instructions: endless loop?", cta[0], cta[1], cta[2])]
    StepLimit {
        /// The CTA.
        cta: [u32; 3],
        /// The limit.
        steps: u64,
    },
    /// An instruction reads or writes a register that a
    /// `wgmma.mma_async` still in flight writes (no `wgmma.wait_group`
    /// has retired its group yet).
    #[error(
        "{at}: register `{register}` is accessed while the wgmma.mma_async of PTX line \
         {issued} that writes it is in flight (no wgmma.wait_group has retired its group)"
    )]
    InFlight {
        /// Where.
        at: At,
        /// The register's name.
        register: String,
        /// The line of the newest product writing it.
        issued: usize,
    },
    /// A `wgmma.mma_async` reads a register (accumulator or A fragment)
    /// written by an ordinary instruction since the thread's last
    /// `wgmma.fence`.
    #[error("{at}: reads register `{register}`, written since the last wgmma.fence")]
    MissingFence {
        /// Where.
        at: At,
        /// The register's name.
        register: String,
    },
    /// Shared memory a `wgmma.mma_async` read changed before the
    /// `wgmma.wait_group` that retires it.
    #[error(
        "{at}: shared byte {offset:#x}, read by the wgmma.mma_async of PTX line {issued}, \
         changed before this wait retired it"
    )]
    StaleOperand {
        /// The retiring wait.
        at: At,
        /// The shared byte.
        offset: u64,
        /// The product's line.
        issued: usize,
    },
    /// A value the instruction cannot take (e.g. a `cvt` rounding mode not
    /// modelled, a shuffle reading an inactive lane).
    #[error("{at}: {message}")]
    Invalid {
        /// Where.
        at: At,
        /// What.
        message: String,
    },
}
