//! The ops of the tile dialect, read into Rust structs.

use super::attr;
use crate::error::Rule;
use crate::ops::{
    self, AtomicKind, CacheModifier, EvictionPolicy, InputPrecision, MemScope, MemSem, Padding,
    ReduceKind, ScanKind,
};
use crate::types::TileType;
use melior::ir::Value;
use melior::ir::operation::OperationLike;

/// `tile.program_id` / `tile.num_programs`: one axis of the launch grid.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GridIndex {
    /// 0, 1 or 2 (x, y, z); checked by the verifier, not here.
    pub axis: i64,
}

/// `tile.arange`: `start, start + 1, ..., end - 1`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Arange {
    /// The first value.
    pub start: i64,
    /// One past the last value.
    pub end: i64,
}

/// An op of one tensor operand and no attributes (`tile.splat`,
/// `tile.broadcast`, `tile.convert_layout`).
#[derive(Clone, Copy, Debug)]
pub struct Unary<'c, 'a> {
    /// The operand.
    pub src: Value<'c, 'a>,
}

/// `tile.expand_dims`.
#[derive(Clone, Copy, Debug)]
pub struct ExpandDims<'c, 'a> {
    /// The operand.
    pub src: Value<'c, 'a>,
    /// The new axis of size 1 (checked by the verifier, not here).
    pub axis: i64,
}

/// `tile.permute`: result axis `i` is source axis `order[i]`.
#[derive(Clone, Debug)]
pub struct Permute<'c, 'a> {
    /// The operand.
    pub src: Value<'c, 'a>,
    /// The source axis of each result axis (checked by the verifier).
    pub order: Vec<i64>,
}

/// An op of two tensor operands of one type (`tile.join`, and `tile.cat`
/// with its `axis`).
#[derive(Clone, Copy, Debug)]
pub struct Pair<'c, 'a> {
    /// The first operand.
    pub lhs: Value<'c, 'a>,
    /// The second operand.
    pub rhs: Value<'c, 'a>,
    /// `tile.cat`'s axis; 0 for `tile.join` (which adds a last axis).
    pub axis: i64,
}

/// `tile.addptr`: pointer plus element offset.
#[derive(Clone, Copy, Debug)]
pub struct AddPtr<'c, 'a> {
    /// Pointer (scalar or tensor).
    pub ptr: Value<'c, 'a>,
    /// Offset in elements.
    pub offset: Value<'c, 'a>,
}

/// The cache, eviction and volatility qualifiers of a global access.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AccessAttrs {
    /// `cache_modifier`.
    pub cache: CacheModifier,
    /// `eviction_policy`.
    pub eviction: EvictionPolicy,
    /// `volatile` (loads only; false for stores).
    pub volatile: bool,
}

impl AccessAttrs {
    /// True when the access is a plain one: default cache policy and
    /// eviction, not volatile.
    pub fn is_default(&self) -> bool {
        *self == AccessAttrs::default()
    }
}

/// `tile.load` through a pointer or a tensor of pointers.
#[derive(Clone, Debug)]
pub struct Load<'c, 'a> {
    /// The pointer(s).
    pub ptr: Value<'c, 'a>,
    /// Lanes that load; the others touch no memory.
    pub mask: Option<Value<'c, 'a>>,
    /// What masked-off lanes yield (zero when absent).
    pub other: Option<Value<'c, 'a>>,
    /// Qualifiers.
    pub access: AccessAttrs,
    /// Elements per access (`tile.vector_width`), when `tile-vectorize`
    /// set it.
    pub vector_width: Option<i64>,
}

/// `tile.store` through a pointer or a tensor of pointers.
#[derive(Clone, Debug)]
pub struct Store<'c, 'a> {
    /// The pointer(s).
    pub ptr: Value<'c, 'a>,
    /// The value stored.
    pub value: Value<'c, 'a>,
    /// Lanes that store; the others write nothing.
    pub mask: Option<Value<'c, 'a>>,
    /// Qualifiers.
    pub access: AccessAttrs,
    /// Elements per access (`tile.vector_width`).
    pub vector_width: Option<i64>,
}

/// `tile.make_block_ptr`.
#[derive(Clone, Debug)]
pub struct MakeBlockPtr<'c, 'a> {
    /// The base pointer (a scalar).
    pub base: Value<'c, 'a>,
    /// Extent of each axis (i64).
    pub shape: Vec<Value<'c, 'a>>,
    /// Stride of each axis in elements (i64).
    pub strides: Vec<Value<'c, 'a>>,
    /// The block's offset along each axis (i32).
    pub offsets: Vec<Value<'c, 'a>>,
    /// Axes from the most to the least contiguous (checked to be a
    /// permutation by the verifier, not here).
    pub order: Vec<i64>,
}

/// `tile.advance`.
#[derive(Clone, Debug)]
pub struct Advance<'c, 'a> {
    /// The block pointer.
    pub ptr: Value<'c, 'a>,
    /// Elements to move along each axis (i32).
    pub offsets: Vec<Value<'c, 'a>>,
}

/// `tile.block_load`.
#[derive(Clone, Debug)]
pub struct BlockLoad<'c, 'a> {
    /// The block pointer.
    pub ptr: Value<'c, 'a>,
    /// Axes whose bounds are checked (in range: checked by the verifier).
    pub boundary_check: Vec<i64>,
    /// What out-of-bounds elements read.
    pub padding: Padding,
    /// Qualifiers.
    pub access: AccessAttrs,
    /// Elements per access (`tile.vector_width`).
    pub vector_width: Option<i64>,
}

/// `tile.block_store`.
#[derive(Clone, Debug)]
pub struct BlockStore<'c, 'a> {
    /// The block pointer.
    pub ptr: Value<'c, 'a>,
    /// The tensor stored.
    pub value: Value<'c, 'a>,
    /// Axes whose bounds are checked (in range: checked by the verifier).
    pub boundary_check: Vec<i64>,
    /// Qualifiers.
    pub access: AccessAttrs,
    /// Elements per access (`tile.vector_width`).
    pub vector_width: Option<i64>,
}

/// `tile.reduce`.
#[derive(Clone, Copy, Debug)]
pub struct Reduce<'c, 'a> {
    /// The tensor reduced.
    pub src: Value<'c, 'a>,
    /// Sum, max or min.
    pub kind: ReduceKind,
    /// The axis reduced (in range: checked by the verifier, not here).
    pub axis: i64,
    /// Whether the axis stays with extent 1.
    pub keep_dims: bool,
}

/// `tile.scan`.
#[derive(Clone, Copy, Debug)]
pub struct Scan<'c, 'a> {
    /// The tensor scanned.
    pub src: Value<'c, 'a>,
    /// Sum, prod, max or min.
    pub kind: ScanKind,
    /// The axis scanned (in range: checked by the verifier, not here).
    pub axis: i64,
    /// From the last element to the first.
    pub reverse: bool,
}

/// `tile.atomic_rmw`.
#[derive(Clone, Copy, Debug)]
pub struct AtomicRmw<'c, 'a> {
    /// A pointer or tensor of pointers.
    pub ptr: Value<'c, 'a>,
    /// The operand.
    pub val: Value<'c, 'a>,
    /// Lanes that take part.
    pub mask: Option<Value<'c, 'a>>,
    /// The operation.
    pub kind: AtomicKind,
    /// The memory ordering.
    pub sem: MemSem,
    /// The scope.
    pub scope: MemScope,
}

/// `tile.atomic_cas`.
#[derive(Clone, Copy, Debug)]
pub struct AtomicCas<'c, 'a> {
    /// A pointer or tensor of pointers.
    pub ptr: Value<'c, 'a>,
    /// The value compared with.
    pub cmp: Value<'c, 'a>,
    /// The value stored where they are equal.
    pub val: Value<'c, 'a>,
    /// The memory ordering.
    pub sem: MemSem,
    /// The scope.
    pub scope: MemScope,
}

/// `tile.dot`.
#[derive(Clone, Copy, Debug)]
pub struct Dot<'c, 'a> {
    /// The [M, K] operand.
    pub a: Value<'c, 'a>,
    /// The [K, N] operand.
    pub b: Value<'c, 'a>,
    /// The [M, N] accumulator.
    pub acc: Value<'c, 'a>,
    /// How f32 inputs multiply.
    pub precision: InputPrecision,
}

/// `tile.print`.
#[derive(Clone, Debug)]
pub struct Print<'c, 'a> {
    /// The value printed, one line per element (none: the prefix alone,
    /// once per program).
    pub value: Option<Value<'c, 'a>>,
    /// The text before each value.
    pub prefix: String,
    /// Integers in hexadecimal.
    pub hex: bool,
}

/// `tile.assert`.
#[derive(Clone, Debug)]
pub struct Assert<'c, 'a> {
    /// What must hold (i1, scalar or tensor).
    pub condition: Value<'c, 'a>,
    /// What is reported where it does not.
    pub message: String,
}

/// A tile op, read.
#[derive(Clone, Debug)]
pub enum TileOp<'c, 'a> {
    /// `tile.program_id`.
    ProgramId(GridIndex),
    /// `tile.num_programs`.
    NumPrograms(GridIndex),
    /// `tile.arange`.
    Arange(Arange),
    /// `tile.splat`.
    Splat(Unary<'c, 'a>),
    /// `tile.broadcast`.
    Broadcast(Unary<'c, 'a>),
    /// `tile.expand_dims`.
    ExpandDims(ExpandDims<'c, 'a>),
    /// `tile.addptr`.
    AddPtr(AddPtr<'c, 'a>),
    /// `tile.load`.
    Load(Load<'c, 'a>),
    /// `tile.store`.
    Store(Store<'c, 'a>),
    /// `tile.make_block_ptr`.
    MakeBlockPtr(MakeBlockPtr<'c, 'a>),
    /// `tile.advance`.
    Advance(Advance<'c, 'a>),
    /// `tile.block_load`.
    BlockLoad(BlockLoad<'c, 'a>),
    /// `tile.block_store`.
    BlockStore(BlockStore<'c, 'a>),
    /// `tile.reduce`.
    Reduce(Reduce<'c, 'a>),
    /// `tile.dot`.
    Dot(Dot<'c, 'a>),
    /// `tile.scan`.
    Scan(Scan<'c, 'a>),
    /// `tile.atomic_rmw`.
    AtomicRmw(AtomicRmw<'c, 'a>),
    /// `tile.atomic_cas`.
    AtomicCas(AtomicCas<'c, 'a>),
    /// `tile.print`.
    Print(Print<'c, 'a>),
    /// `tile.assert`.
    Assert(Assert<'c, 'a>),
    /// `tile.reshape`.
    Reshape(Unary<'c, 'a>),
    /// `tile.permute`.
    Permute(Permute<'c, 'a>),
    /// `tile.join`.
    Join(Pair<'c, 'a>),
    /// `tile.split` (two results).
    Split(Unary<'c, 'a>),
    /// `tile.cat`.
    Cat(Pair<'c, 'a>),
    /// `tile.convert_layout`.
    ConvertLayout(Unary<'c, 'a>),
}

/// The operands of `op`, checked to be `n`.
fn operands<'c: 'a, 'a>(
    op: &impl OperationLike<'c, 'a>,
    n: usize,
) -> Result<Vec<Value<'c, 'a>>, Rule> {
    let values: Vec<Value<'c, 'a>> = op.operands().collect();
    if values.len() != n {
        return Err(Rule::BadAttribute {
            name: "(operands)",
            expected: "the op's operands",
        });
    }
    Ok(values)
}

/// `op`'s operands split by its `operandSegmentSizes` into `groups`
/// groups.
fn grouped<'c: 'a, 'a>(
    op: &impl OperationLike<'c, 'a>,
    groups: usize,
) -> Result<Vec<Vec<Value<'c, 'a>>>, Rule> {
    let sizes = attr::segments(op, groups)?;
    let mut values = op.operands();
    Ok(sizes
        .iter()
        .map(|&n| values.by_ref().take(n).collect())
        .collect())
}

/// The one value of an optional group.
fn optional<'c: 'a, 'a>(group: &[Value<'c, 'a>]) -> Result<Option<Value<'c, 'a>>, Rule> {
    match group {
        [] => Ok(None),
        [v] => Ok(Some(*v)),
        _ => Err(Rule::BadAttribute {
            name: "operandSegmentSizes",
            expected: "at most one operand in an optional group",
        }),
    }
}

/// The one value of a required group.
fn single<'c: 'a, 'a>(group: &[Value<'c, 'a>]) -> Result<Value<'c, 'a>, Rule> {
    optional(group)?.ok_or(Rule::BadAttribute {
        name: "operandSegmentSizes",
        expected: "one operand in a required group",
    })
}

fn access<'c: 'a, 'a>(
    op: &impl OperationLike<'c, 'a>,
    volatile: bool,
) -> Result<AccessAttrs, Rule> {
    Ok(AccessAttrs {
        cache: attr::cache(op)?,
        eviction: attr::eviction(op)?,
        volatile: volatile && attr::boolean(op, "volatile")?,
    })
}

fn vector_width<'c: 'a, 'a>(op: &impl OperationLike<'c, 'a>) -> Result<Option<i64>, Rule> {
    attr::int_opt(op, ops::VECTOR_WIDTH_ATTR)
}

impl<'c: 'a, 'a> TileOp<'c, 'a> {
    /// Reads `op`: `Ok(None)` when it is not an op of the tile dialect, a
    /// [`Rule`] when its operands or attributes are not what the op
    /// needs. `block_dtype` gives the element type of a block pointer
    /// (for a constant padding), as the caller's [`TypeTable`] decodes it.
    ///
    /// [`TypeTable`]: super::TypeTable
    pub fn read(
        op: &impl OperationLike<'c, 'a>,
        block_type: impl Fn(Value<'c, 'a>) -> Option<TileType>,
    ) -> Result<Option<Self>, Rule> {
        let name = super::op_name(op);
        if !name.starts_with("tile.") {
            return Ok(None);
        }
        let one = |op: &_| -> Result<Value<'c, 'a>, Rule> { Ok(operands(op, 1)?[0]) };
        Ok(Some(match name {
            ops::PROGRAM_ID => TileOp::ProgramId(GridIndex {
                axis: attr::int(op, "axis")?,
            }),
            ops::NUM_PROGRAMS => TileOp::NumPrograms(GridIndex {
                axis: attr::int(op, "axis")?,
            }),
            ops::ARANGE => TileOp::Arange(Arange {
                start: attr::int(op, "start")?,
                end: attr::int(op, "end")?,
            }),
            ops::SPLAT => TileOp::Splat(Unary { src: one(op)? }),
            ops::BROADCAST => TileOp::Broadcast(Unary { src: one(op)? }),
            ops::CONVERT_LAYOUT => TileOp::ConvertLayout(Unary { src: one(op)? }),
            ops::RESHAPE => TileOp::Reshape(Unary { src: one(op)? }),
            ops::SPLIT => TileOp::Split(Unary { src: one(op)? }),
            ops::PERMUTE => TileOp::Permute(Permute {
                src: one(op)?,
                order: attr::axes(op, "order")?,
            }),
            ops::JOIN | ops::CAT => {
                let v = operands(op, 2)?;
                let pair = Pair {
                    lhs: v[0],
                    rhs: v[1],
                    axis: match name {
                        ops::CAT => attr::int(op, "axis")?,
                        _ => 0,
                    },
                };
                match name {
                    ops::CAT => TileOp::Cat(pair),
                    _ => TileOp::Join(pair),
                }
            }
            ops::EXPAND_DIMS => TileOp::ExpandDims(ExpandDims {
                src: one(op)?,
                axis: attr::int(op, "axis")?,
            }),
            ops::ADDPTR => {
                let v = operands(op, 2)?;
                TileOp::AddPtr(AddPtr {
                    ptr: v[0],
                    offset: v[1],
                })
            }
            ops::LOAD => {
                let g = grouped(op, 3)?;
                TileOp::Load(Load {
                    ptr: single(&g[0])?,
                    mask: optional(&g[1])?,
                    other: optional(&g[2])?,
                    access: access(op, true)?,
                    vector_width: vector_width(op)?,
                })
            }
            ops::STORE => {
                let g = grouped(op, 3)?;
                TileOp::Store(Store {
                    ptr: single(&g[0])?,
                    value: single(&g[1])?,
                    mask: optional(&g[2])?,
                    access: access(op, false)?,
                    vector_width: vector_width(op)?,
                })
            }
            ops::MAKE_BLOCK_PTR => {
                let mut g = grouped(op, 4)?;
                TileOp::MakeBlockPtr(MakeBlockPtr {
                    base: single(&g[0])?,
                    offsets: std::mem::take(&mut g[3]),
                    strides: std::mem::take(&mut g[2]),
                    shape: std::mem::take(&mut g[1]),
                    order: attr::axes(op, "order")?,
                })
            }
            ops::ADVANCE => {
                let mut v: Vec<Value<'c, 'a>> = op.operands().collect();
                if v.is_empty() {
                    return Err(Rule::BadAttribute {
                        name: "(operands)",
                        expected: "a block pointer and offsets",
                    });
                }
                let ptr = v.remove(0);
                TileOp::Advance(Advance { ptr, offsets: v })
            }
            ops::BLOCK_LOAD => {
                let ptr = one(op)?;
                let dtype = match block_type(ptr) {
                    Some(TileType::BlockPtr { dtype, .. }) => Some(dtype),
                    _ => None,
                };
                TileOp::BlockLoad(BlockLoad {
                    ptr,
                    boundary_check: attr::axes(op, "boundary_check")?,
                    padding: attr::padding(op, dtype)?,
                    access: access(op, true)?,
                    vector_width: vector_width(op)?,
                })
            }
            ops::BLOCK_STORE => {
                let v = operands(op, 2)?;
                TileOp::BlockStore(BlockStore {
                    ptr: v[0],
                    value: v[1],
                    boundary_check: attr::axes(op, "boundary_check")?,
                    access: access(op, false)?,
                    vector_width: vector_width(op)?,
                })
            }
            ops::REDUCE => TileOp::Reduce(Reduce {
                src: one(op)?,
                kind: attr::reduce_kind(op)?,
                axis: attr::int(op, "axis")?,
                keep_dims: attr::boolean(op, "keep_dims")?,
            }),
            ops::SCAN => TileOp::Scan(Scan {
                src: one(op)?,
                kind: attr::scan_kind(op)?,
                axis: attr::int(op, "axis")?,
                reverse: attr::boolean(op, "reverse")?,
            }),
            ops::ATOMIC_RMW => {
                let g = grouped(op, 3)?;
                TileOp::AtomicRmw(AtomicRmw {
                    ptr: single(&g[0])?,
                    val: single(&g[1])?,
                    mask: optional(&g[2])?,
                    kind: attr::atomic_kind(op)?,
                    sem: attr::mem_sem(op)?,
                    scope: attr::mem_scope(op)?,
                })
            }
            ops::ATOMIC_CAS => {
                let v = operands(op, 3)?;
                TileOp::AtomicCas(AtomicCas {
                    ptr: v[0],
                    cmp: v[1],
                    val: v[2],
                    sem: attr::mem_sem(op)?,
                    scope: attr::mem_scope(op)?,
                })
            }
            ops::PRINT => TileOp::Print(Print {
                value: optional(&op.operands().collect::<Vec<_>>())?,
                prefix: attr::string(op, "prefix")?,
                hex: attr::boolean(op, "hex")?,
            }),
            ops::ASSERT => TileOp::Assert(Assert {
                condition: one(op)?,
                message: attr::string(op, "message")?,
            }),
            ops::DOT => {
                let v = operands(op, 3)?;
                TileOp::Dot(Dot {
                    a: v[0],
                    b: v[1],
                    acc: v[2],
                    precision: attr::input_precision(op)?,
                })
            }
            _ => {
                return Err(Rule::BadAttribute {
                    name: "(op)",
                    expected: "an op of the tile dialect",
                });
            }
        }))
    }

    /// The accessed pointer of a load or store (tensor of pointers or
    /// block pointer); `None` for other ops.
    pub fn accessed_pointer(&self) -> Option<Value<'c, 'a>> {
        match self {
            TileOp::Load(l) => Some(l.ptr),
            TileOp::Store(s) => Some(s.ptr),
            TileOp::BlockLoad(l) => Some(l.ptr),
            TileOp::BlockStore(s) => Some(s.ptr),
            _ => None,
        }
    }
}
