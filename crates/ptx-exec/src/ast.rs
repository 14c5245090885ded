//! The parsed PTX module: entries, their parameters, shared variables and
//! instructions with operands. Registers are numbered per entry (see
//! [`Entry::registers`]) so that a thread's register file is a vector.

use crate::decode::Op;
use std::collections::HashMap;

/// A parsed PTX module: its `.entry` kernels.
#[derive(Clone, Debug, Default)]
pub struct Module {
    /// The `.target` directive's chip, e.g. `sm_80`.
    pub target: String,
    /// The kernels, in order.
    pub entries: Vec<Entry>,
}

/// One `.param` of an entry, laid out in the parameter space.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Param {
    /// Its name, as `ld.param` addresses it.
    pub name: String,
    /// Its size in bytes.
    pub size: u32,
    /// Its offset in the parameter buffer (aligned to its alignment).
    pub offset: u32,
}

/// A `.shared` variable: static (with its size) or `extern` (dynamic: its
/// size is the launch's dynamic shared memory).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SharedVar {
    /// Its name.
    pub name: String,
    /// Its offset in the CTA's shared memory.
    pub offset: u64,
    /// Its size in bytes; `None` for `extern .shared` (dynamic).
    pub size: Option<u64>,
}

/// An `.entry` kernel.
#[derive(Clone, Debug, Default)]
pub struct Entry {
    /// Its name.
    pub name: String,
    /// Its parameters in order.
    pub params: Vec<Param>,
    /// Bytes of the parameter buffer.
    pub param_bytes: u32,
    /// Its shared variables (module-level ones included), in order.
    pub shared: Vec<SharedVar>,
    /// Bytes of static shared memory; dynamic shared memory starts here.
    pub static_shared_bytes: u64,
    /// Register names, indexed by the numbers operands use.
    pub registers: Vec<String>,
    /// Each register's declared width in bits (`.pred`: 1; 64 when not
    /// declared): a write keeps only that many low bits.
    pub register_bits: Vec<u32>,
    /// Its instructions in order.
    pub body: Vec<Instr>,
    /// Label name to the index of the instruction that follows it.
    pub labels: HashMap<String, usize>,
}

/// A special register (`%tid.x`, ...).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Special {
    /// `%tid.{x,y,z}`.
    Tid(u8),
    /// `%ntid.{x,y,z}`.
    Ntid(u8),
    /// `%ctaid.{x,y,z}`.
    Ctaid(u8),
    /// `%nctaid.{x,y,z}`.
    Nctaid(u8),
    /// `%laneid`.
    LaneId,
    /// `%warpid`.
    WarpId,
    /// `%dynamic_smem_size`.
    DynamicSmemSize,
}

/// An instruction operand.
#[derive(Clone, Debug, PartialEq)]
pub enum Operand {
    /// A register, by number.
    Reg(u32),
    /// A special register.
    Special(Special),
    /// An integer immediate (bits, sign-extended to 64).
    Imm(u64),
    /// A float immediate: `0fXXXXXXXX` (f32 bits) or `0dX..X` (f64 bits).
    FImm {
        /// The bits.
        bits: u64,
        /// True for `0d` (f64).
        double: bool,
    },
    /// A symbol: a shared variable, a parameter or a label.
    Symbol(String),
    /// `{a, b, ...}`.
    Vector(Vec<Operand>),
    /// `[base+offset]`.
    Addr {
        /// The register or symbol addressed.
        base: Box<Operand>,
        /// The constant offset in bytes.
        offset: i64,
    },
    /// `_`: a sink.
    Sink,
}

/// One instruction.
#[derive(Clone, Debug)]
pub struct Instr {
    /// Its 1-based line in the PTX text.
    pub line: usize,
    /// The guard predicate: register number and true for `@!`.
    pub guard: Option<(u32, bool)>,
    /// The opcode as written, e.g. `ld.global.v4.b32`.
    pub opcode: String,
    /// The decoded operation.
    pub op: Op,
    /// The operands in order (a `d|p` destination pair is two operands).
    pub operands: Vec<Operand>,
}
