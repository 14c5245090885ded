//! Op names, attribute names and the enumerated attribute values of the tile
//! dialect, in one place for the builder, the verifier and the passes.

use crate::DType;
use std::fmt;

/// `tile.program_id`
pub const PROGRAM_ID: &str = "tile.program_id";
/// `tile.num_programs`
pub const NUM_PROGRAMS: &str = "tile.num_programs";
/// `tile.arange`
pub const ARANGE: &str = "tile.arange";
/// `tile.splat`
pub const SPLAT: &str = "tile.splat";
/// `tile.broadcast`
pub const BROADCAST: &str = "tile.broadcast";
/// `tile.expand_dims`
pub const EXPAND_DIMS: &str = "tile.expand_dims";
/// `tile.addptr`
pub const ADDPTR: &str = "tile.addptr";
/// `tile.load`
pub const LOAD: &str = "tile.load";
/// `tile.store`
pub const STORE: &str = "tile.store";
/// `tile.make_block_ptr`
pub const MAKE_BLOCK_PTR: &str = "tile.make_block_ptr";
/// `tile.advance`
pub const ADVANCE: &str = "tile.advance";
/// `tile.block_load`
pub const BLOCK_LOAD: &str = "tile.block_load";
/// `tile.block_store`
pub const BLOCK_STORE: &str = "tile.block_store";
/// `tile.reduce`
pub const REDUCE: &str = "tile.reduce";
/// `tile.dot`
pub const DOT: &str = "tile.dot";
/// `tile.scan`
pub const SCAN: &str = "tile.scan";
/// `tile.atomic_rmw`
pub const ATOMIC_RMW: &str = "tile.atomic_rmw";
/// `tile.atomic_cas`
pub const ATOMIC_CAS: &str = "tile.atomic_cas";
/// `tile.print`
pub const PRINT: &str = "tile.print";
/// `tile.assert`
pub const ASSERT: &str = "tile.assert";
/// `tile.reshape`
pub const RESHAPE: &str = "tile.reshape";
/// `tile.permute`
pub const PERMUTE: &str = "tile.permute";
/// `tile.join`
pub const JOIN: &str = "tile.join";
/// `tile.split`
pub const SPLIT: &str = "tile.split";
/// `tile.cat`
pub const CAT: &str = "tile.cat";

/// `tile.convert_layout`
pub const CONVERT_LAYOUT: &str = "tile.convert_layout";

/// The attribute of a layout: `#tile.blocked<...>`.
pub const BLOCKED_ATTR: &str = "tile.blocked";
/// The attribute of a sliced layout: `#tile.slice<...>`.
pub const SLICE_ATTR: &str = "tile.slice";

/// Every op of the dialect.
pub const ALL: [&str; 26] = [
    PROGRAM_ID,
    NUM_PROGRAMS,
    ARANGE,
    SPLAT,
    BROADCAST,
    EXPAND_DIMS,
    ADDPTR,
    LOAD,
    STORE,
    MAKE_BLOCK_PTR,
    ADVANCE,
    BLOCK_LOAD,
    BLOCK_STORE,
    REDUCE,
    DOT,
    SCAN,
    ATOMIC_RMW,
    ATOMIC_CAS,
    PRINT,
    ASSERT,
    RESHAPE,
    PERMUTE,
    JOIN,
    SPLIT,
    CAT,
    CONVERT_LAYOUT,
];

/// True for the ops that take 8-bit floats (see [`DType::is_fp8`]): the
/// ones that only move values (loads, stores, shape ops, `select`,
/// control flow) and the conversions (`arith.extf`, `arith.truncf`), and
/// float constants. Arithmetic, comparisons, reductions, scans, `dot`,
/// atomics and printing do not.
///
/// [`DType::is_fp8`]: crate::DType::is_fp8
pub fn takes_fp8(op: &str) -> bool {
    if let Some(tile_op) = op.strip_prefix("tile.") {
        return !matches!(
            tile_op,
            "reduce" | "dot" | "scan" | "atomic_rmw" | "atomic_cas" | "print"
        );
    }
    op.starts_with("scf.")
        || op.starts_with("func.")
        || matches!(
            op,
            "arith.select" | "arith.extf" | "arith.truncf" | "arith.constant"
        )
}

/// The unit attribute marking a `func.func` as a tile kernel.
pub const KERNEL_ATTR: &str = "tile.kernel";
/// The argument attribute holding a kernel argument's source name.
pub const ARG_NAME_ATTR: &str = "tile.name";
/// The argument attribute of a kernel argument specialized as a multiple
/// of 16 (for pointers: the address in bytes).
pub const DIVISIBILITY_ATTR: &str = "tile.divisibility";
/// The argument attribute of an integer argument specialized as equal to 1.
pub const EQUAL_TO_ONE_ATTR: &str = "tile.equal_to_one";
/// The module attribute holding the compute capability kernels are
/// compiled for (90 for `sm_90`).
pub const COMPUTE_CAPABILITY_ATTR: &str = "tile.compute_capability";
/// The unit attribute `tile-to-simt` puts on a module whose kernels use
/// architecture-specific instructions (`wgmma`): they compile for the
/// `a` variant of the chip (`sm_90a`).
pub const ARCH_SPECIFIC_ATTR: &str = "tile.arch_specific";
/// The module attribute `tile-to-simt` sets when its kernels' shared
/// memory exceeds the 48 KiB a static array may take: the bytes each
/// launch must ask for as dynamic shared memory.
pub const DYNAMIC_SHARED_ATTR: &str = "tile.dynamic_shared_bytes";
/// The most shared memory a kernel holds in a static `.shared` array.
pub const STATIC_SHARED_LIMIT: usize = 48 * 1024;
/// The attribute holding the number of pipeline stages: on the module, as
/// the compiler's option; on an `scf.for`, once `tile-software-pipeline`
/// chose to pipeline it.
pub const NUM_STAGES_ATTR: &str = "tile.num_stages";
/// The stages a user asked of one `scf.for` (the builder's
/// `for_range_staged`, Triton's `tl.range(..., num_stages=S)`): it
/// overrides the module's `tile.num_stages` for that loop, and is what
/// lets a loop without tensor-core products load ahead at all.
pub const LOOP_STAGES_ATTR: &str = "tile.loop_stages";
/// The attribute `tile-software-pipeline` puts on a load that is copied
/// ahead into shared memory: unit for a product's operand (laid out as
/// the product reads it), [`ASYNC_COPY_OWN`] for a load of a memory-bound
/// loop (each thread's runs in slots of its own, read back by it).
pub const ASYNC_COPY_ATTR: &str = "tile.async_copy";
/// The value of [`ASYNC_COPY_ATTR`] for copies each thread reads back
/// itself.
pub const ASYNC_COPY_OWN: &str = "thread";
/// The unit attribute `tile-software-pipeline` puts on a load feeding a
/// product that cannot be copied asynchronously (accesses under 4 bytes,
/// operands converted in registers): it is issued one iteration ahead,
/// into registers the loop carries.
pub const PREFETCH_ATTR: &str = "tile.prefetch";
/// The unit module attribute of a debug build: `tile.assert` is compiled
/// in (elsewhere it is dropped), as with Triton's `debug=True`.
pub const DEBUG_ATTR: &str = "tile.debug";
/// The unit module attribute that lets `tile-to-simt` mark float products
/// and sums `contract`, so LLVM may fuse them into one `fma`
/// (`Options::fp_fusion`).
pub const FP_FUSION_ATTR: &str = "tile.fp_fusion";
/// Unit attribute on the module: programs start in the order the grid
/// gives them, not renumbered by `tile-launch-order`
/// (`Options::launch_order` off).
pub const KEEP_LAUNCH_ORDER_ATTR: &str = "tile.keep_launch_order";
/// The module attribute holding the PTX ISA version kernels are compiled
/// for, times ten (81 for PTX 8.1), when the options name one.
pub const PTX_VERSION_ATTR: &str = "tile.ptx_version";
/// The module attribute holding the number of warps of each program.
pub const NUM_WARPS_ATTR: &str = "tile.num_warps";
/// The attribute `tile-vectorize` puts on a load or store: the elements it
/// moves per access.
pub const VECTOR_WIDTH_ATTR: &str = "tile.vector_width";

/// A compiler hint on the value an op computes, as Triton's `multiple_of`,
/// `max_contiguous` and `max_constancy`: a fact the axis analysis cannot
/// prove, stated by the user and trusted (a false one gives wrong
/// results). Recorded as an `array<i32: ...>` attribute of the op, one
/// entry per axis of its result (one for a scalar).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hint {
    /// Each run's first value (a scalar's value; a pointer's address, in
    /// bytes) is a multiple of the entry (`tile.multiple_of`).
    MultipleOf,
    /// Values run in ascending steps of one, in runs of the entry's
    /// length along the axis (`tile.max_contiguous`).
    MaxContiguous,
    /// Values are equal in runs of the entry's length along the axis
    /// (`tile.max_constancy`).
    MaxConstancy,
}

impl Hint {
    /// Every hint.
    pub const ALL: [Hint; 3] = [Hint::MultipleOf, Hint::MaxContiguous, Hint::MaxConstancy];

    /// The builder method's name.
    pub fn name(self) -> &'static str {
        match self {
            Hint::MultipleOf => "multiple_of",
            Hint::MaxContiguous => "max_contiguous",
            Hint::MaxConstancy => "max_constancy",
        }
    }

    /// The attribute that holds it.
    pub fn attribute(self) -> &'static str {
        match self {
            Hint::MultipleOf => "tile.multiple_of",
            Hint::MaxContiguous => "tile.max_contiguous",
            Hint::MaxConstancy => "tile.max_constancy",
        }
    }
}

/// What a masked-off or out-of-bounds element of a block-pointer load reads.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Padding {
    /// 0 of the element type (the default).
    Zero,
    /// NaN (floating-point elements only).
    Nan,
    /// No fill: out-of-bounds elements hold whatever the lowering leaves.
    Undefined,
    /// Any constant, such as -inf for a max reduction.
    Value(f64),
}

impl Padding {
    /// The string form of the named options (`None` for a constant).
    pub fn name(self) -> Option<&'static str> {
        match self {
            Padding::Zero => Some("zero"),
            Padding::Nan => Some("nan"),
            Padding::Undefined => Some("undefined"),
            Padding::Value(_) => None,
        }
    }

    /// Parses `"zero"`, `"nan"` or `"undefined"`.
    pub fn from_name(s: &str) -> Option<Self> {
        match s {
            "zero" => Some(Padding::Zero),
            "nan" => Some(Padding::Nan),
            "undefined" => Some(Padding::Undefined),
            _ => None,
        }
    }
}

/// The cache operator of a global load or store (PTX `.ca`, `.cg`, ...).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum CacheModifier {
    /// The default for the instruction.
    #[default]
    Default,
    /// `ca`: cache at all levels (loads).
    CacheAll,
    /// `cg`: cache in L2 and below, not L1 (loads and stores).
    CacheGlobal,
    /// `wb`: write back (stores).
    WriteBack,
    /// `cs`: streaming, likely accessed once (stores).
    Streaming,
    /// `wt`: write through to system memory (stores).
    WriteThrough,
}

impl CacheModifier {
    /// The attribute spelling (`""`, `"ca"`, ...).
    pub fn name(self) -> &'static str {
        match self {
            CacheModifier::Default => "",
            CacheModifier::CacheAll => "ca",
            CacheModifier::CacheGlobal => "cg",
            CacheModifier::WriteBack => "wb",
            CacheModifier::Streaming => "cs",
            CacheModifier::WriteThrough => "wt",
        }
    }

    /// Every modifier.
    pub const ALL: [CacheModifier; 6] = [
        CacheModifier::Default,
        CacheModifier::CacheAll,
        CacheModifier::CacheGlobal,
        CacheModifier::WriteBack,
        CacheModifier::Streaming,
        CacheModifier::WriteThrough,
    ];

    /// Parses the attribute spelling.
    pub fn from_name(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|c| c.name() == s)
    }

    /// True where a load accepts it.
    pub fn valid_for_load(self) -> bool {
        matches!(
            self,
            CacheModifier::Default | CacheModifier::CacheAll | CacheModifier::CacheGlobal
        )
    }

    /// True where a store accepts it.
    pub fn valid_for_store(self) -> bool {
        self != CacheModifier::CacheAll
    }
}

/// The L2 eviction priority of a global access.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum EvictionPolicy {
    /// The default priority.
    #[default]
    Normal,
    /// Evict first: data used once.
    EvictFirst,
    /// Evict last: data reused soon.
    EvictLast,
}

impl EvictionPolicy {
    /// The attribute spelling.
    pub fn name(self) -> &'static str {
        match self {
            EvictionPolicy::Normal => "",
            EvictionPolicy::EvictFirst => "evict_first",
            EvictionPolicy::EvictLast => "evict_last",
        }
    }

    /// Parses the attribute spelling.
    pub fn from_name(s: &str) -> Option<Self> {
        [
            EvictionPolicy::Normal,
            EvictionPolicy::EvictFirst,
            EvictionPolicy::EvictLast,
        ]
        .into_iter()
        .find(|e| e.name() == s)
    }
}

/// The combining function of `tile.reduce`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ReduceKind {
    /// Sum.
    Sum,
    /// Maximum.
    Max,
    /// Minimum.
    Min,
    /// The index of the maximum along the axis (an `i32`): the smallest
    /// index among equal maxima; on floats a NaN counts as larger than
    /// every number, so the first NaN wins (as `torch.argmax`).
    ArgMax,
    /// The index of the minimum along the axis (an `i32`): the smallest
    /// index among equal minima; on floats a NaN counts as smaller than
    /// every number, so the first NaN wins (as `torch.argmin`).
    ArgMin,
}

impl ReduceKind {
    /// Every kind.
    pub const ALL: [ReduceKind; 5] = [
        ReduceKind::Sum,
        ReduceKind::Max,
        ReduceKind::Min,
        ReduceKind::ArgMax,
        ReduceKind::ArgMin,
    ];

    /// True for the kinds whose result is an index (`argmax`, `argmin`).
    pub fn is_arg(self) -> bool {
        matches!(self, ReduceKind::ArgMax | ReduceKind::ArgMin)
    }

    /// The attribute spelling.
    pub fn name(self) -> &'static str {
        match self {
            ReduceKind::Sum => "sum",
            ReduceKind::Max => "max",
            ReduceKind::Min => "min",
            ReduceKind::ArgMax => "argmax",
            ReduceKind::ArgMin => "argmin",
        }
    }

    /// Parses the attribute spelling.
    pub fn from_name(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|k| k.name() == s)
    }
}

impl fmt::Display for ReduceKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The combining function of `tile.scan` (an inclusive prefix along one
/// axis).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ScanKind {
    /// Running sum (`cumsum`).
    Sum,
    /// Running product (`cumprod`).
    Prod,
    /// Running maximum (`maxnum` on floats: NaN loses to a number).
    Max,
    /// Running minimum (`minnum` on floats).
    Min,
}

impl ScanKind {
    /// Every kind.
    pub const ALL: [ScanKind; 4] = [ScanKind::Sum, ScanKind::Prod, ScanKind::Max, ScanKind::Min];

    /// The attribute spelling.
    pub fn name(self) -> &'static str {
        match self {
            ScanKind::Sum => "sum",
            ScanKind::Prod => "prod",
            ScanKind::Max => "max",
            ScanKind::Min => "min",
        }
    }

    /// Parses the attribute spelling.
    pub fn from_name(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|k| k.name() == s)
    }
}

impl fmt::Display for ScanKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The operation of `tile.atomic_rmw`: what it stores in place of the old
/// value `old` given the operand `val`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AtomicKind {
    /// `old + val` (integers wrap; floats round to the element type).
    Add,
    /// The larger of the two (signed on integers).
    Max,
    /// The smaller of the two (signed on integers).
    Min,
    /// `old & val`.
    And,
    /// `old | val`.
    Or,
    /// `old ^ val`.
    Xor,
    /// `val` (an exchange).
    Xchg,
}

impl AtomicKind {
    /// Every kind.
    pub const ALL: [AtomicKind; 7] = [
        AtomicKind::Add,
        AtomicKind::Max,
        AtomicKind::Min,
        AtomicKind::And,
        AtomicKind::Or,
        AtomicKind::Xor,
        AtomicKind::Xchg,
    ];

    /// The attribute spelling.
    pub fn name(self) -> &'static str {
        match self {
            AtomicKind::Add => "add",
            AtomicKind::Max => "max",
            AtomicKind::Min => "min",
            AtomicKind::And => "and",
            AtomicKind::Or => "or",
            AtomicKind::Xor => "xor",
            AtomicKind::Xchg => "xchg",
        }
    }

    /// Parses the attribute spelling.
    pub fn from_name(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|k| k.name() == s)
    }

    /// True when the kind is defined on elements of `d`: add on i32,
    /// i64, f16, bf16, f32 and f64; max and min on i32, i64, f32 and f64;
    /// the bitwise kinds on i32 and i64; exchange on 32- and 64-bit types.
    pub fn supports(self, d: DType) -> bool {
        use DType::*;
        match self {
            AtomicKind::Add => matches!(d, I32 | I64 | F16 | BF16 | F32 | F64),
            AtomicKind::Max | AtomicKind::Min | AtomicKind::Xchg => {
                matches!(d, I32 | I64 | F32 | F64)
            }
            AtomicKind::And | AtomicKind::Or | AtomicKind::Xor => matches!(d, I32 | I64),
        }
    }
}

impl fmt::Display for AtomicKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The memory ordering of an atomic (PTX `.relaxed`, `.acquire`,
/// `.release`, `.acq_rel`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum MemSem {
    /// Atomic, with no ordering of other accesses.
    Relaxed,
    /// Later accesses of this thread are not moved before it.
    Acquire,
    /// Earlier accesses of this thread are not moved after it.
    Release,
    /// Both (the default, as in Triton).
    #[default]
    AcqRel,
}

impl MemSem {
    /// Every ordering.
    pub const ALL: [MemSem; 4] = [
        MemSem::Relaxed,
        MemSem::Acquire,
        MemSem::Release,
        MemSem::AcqRel,
    ];

    /// The attribute spelling (also PTX's qualifier).
    pub fn name(self) -> &'static str {
        match self {
            MemSem::Relaxed => "relaxed",
            MemSem::Acquire => "acquire",
            MemSem::Release => "release",
            MemSem::AcqRel => "acq_rel",
        }
    }

    /// Parses the attribute spelling.
    pub fn from_name(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|k| k.name() == s)
    }
}

/// The threads an atomic is atomic with respect to (PTX `.cta`, `.gpu`,
/// `.sys`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum MemScope {
    /// The threads of the same program.
    Cta,
    /// Every thread of the device (the default).
    #[default]
    Gpu,
    /// The device and the host and other devices.
    Sys,
}

impl MemScope {
    /// Every scope.
    pub const ALL: [MemScope; 3] = [MemScope::Cta, MemScope::Gpu, MemScope::Sys];

    /// The attribute spelling (also PTX's qualifier).
    pub fn name(self) -> &'static str {
        match self {
            MemScope::Cta => "cta",
            MemScope::Gpu => "gpu",
            MemScope::Sys => "sys",
        }
    }

    /// Parses the attribute spelling.
    pub fn from_name(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|k| k.name() == s)
    }
}

/// How `tile.dot` multiplies f32 inputs (Triton's `input_precision`).
/// Inputs of other types multiply exactly whatever is asked.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum InputPrecision {
    /// Each input cut to TF32 (10 mantissa bits: the low 13 dropped,
    /// towards zero, which is how tensor cores read an f32 operand, and
    /// what Triton's `tf32` gives), products summed in f32: tensor cores at
    /// full speed, the operands copied to them as they are stored.
    #[default]
    Tf32,
    /// Each input split into a TF32 high part and a TF32 remainder (each
    /// rounded to nearest, ties away from zero); three TF32 products
    /// (hi*hi + hi*lo + lo*hi) recover most of f32's precision at three
    /// times the work.
    Tf32x3,
    /// Exact f32 products: one fused multiply-add per term, in order of
    /// `k`, on the CUDA cores.
    Ieee,
}

impl InputPrecision {
    /// The attribute spelling.
    pub fn name(self) -> &'static str {
        match self {
            InputPrecision::Tf32 => "tf32",
            InputPrecision::Tf32x3 => "tf32x3",
            InputPrecision::Ieee => "ieee",
        }
    }

    /// Parses the attribute spelling.
    pub fn from_name(s: &str) -> Option<Self> {
        [
            InputPrecision::Tf32,
            InputPrecision::Tf32x3,
            InputPrecision::Ieee,
        ]
        .into_iter()
        .find(|p| p.name() == s)
    }
}

impl fmt::Display for InputPrecision {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
