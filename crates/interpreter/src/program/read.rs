//! Reading a kernel out of an MLIR module into a [`Program`]: its
//! `func.func` through [`KernelFunc`], every op through the dialect's
//! typed views ([`TileOp`], [`ForLoop`], [`Constant`], attribute readers),
//! its values numbered as slots here.

use super::{Body, Inst, Kind, Param, Program, R, TranslateError, elementwise};
use crate::float;
use crate::value::wrap;
use melior::ir::block::BlockLike;
use melior::ir::operation::OperationLike;
use melior::ir::{BlockRef, Module, OperationRef, Value, ValueLike};
use std::collections::HashMap;
use tile_dialect::diagnostics::location_string;
use tile_dialect::types::TileType;
use tile_dialect::view::{ForLoop, IfOp, KernelFunc, TileOp, TypeTable, WhileLoop, op_name};
use tile_dialect::{DType, Padding, Rule, ops};

/// Where `op` was written: `file:line:column` for file locations (also
/// inside name and call-site locations), MLIR's spelling otherwise
/// (`unknown`, without the `loc(...)` around it).
fn location<'c: 'a, 'a>(op: &impl OperationLike<'c, 'a>) -> String {
    let text = location_string(op.location());
    match text.strip_prefix("loc(").and_then(|t| t.strip_suffix(')')) {
        Some(inner) => inner.to_string(),
        None => text,
    }
}

/// The error `message` at `op`.
pub(super) fn error<'c: 'a, 'a>(
    op: &impl OperationLike<'c, 'a>,
    message: impl Into<String>,
) -> TranslateError {
    TranslateError {
        op: op_name(op).to_string(),
        location: location(op),
        message: message.into(),
    }
}

/// The error of an op whose operands or attributes break `rule`.
pub(super) fn broken<'c: 'a, 'a>(op: &impl OperationLike<'c, 'a>, rule: Rule) -> TranslateError {
    error(op, rule.to_string())
}

/// `value` (an axis, an index) as a `usize`.
fn index<'c: 'a, 'a>(op: &impl OperationLike<'c, 'a>, name: &str, value: i64) -> R<usize> {
    usize::try_from(value).map_err(|_| error(op, format!("has a negative `{name}`")))
}

/// The grid axis of `tile.program_id` or `tile.num_programs`.
fn grid_axis<'c: 'a, 'a>(op: &impl OperationLike<'c, 'a>, axis: i64) -> R<usize> {
    match index(op, "axis", axis)? {
        a @ 0..=2 => Ok(a),
        a => Err(error(
            op,
            format!("has axis {a}; the grid has axes 0, 1 and 2"),
        )),
    }
}

fn checked_axes<'c: 'a, 'a>(op: &impl OperationLike<'c, 'a>, axes: &[i64]) -> R<Vec<usize>> {
    axes.iter()
        .map(|&a| usize::try_from(a).map_err(|_| error(op, "checks a negative axis")))
        .collect()
}

/// `block`, the first block of a region of `op`, checked to be its
/// region's only one.
fn only_block<'c, 'a>(
    op: &OperationRef<'c, 'a>,
    block: Option<BlockRef<'c, 'a>>,
) -> R<BlockRef<'c, 'a>> {
    let block = block.ok_or_else(|| error(op, "has no body"))?;
    if block.next_in_region().is_some() {
        return Err(error(
            op,
            "has a region with several blocks, which tile IR does not make",
        ));
    }
    Ok(block)
}

/// The key of a value: MLIR values are handles to their definition.
fn key(v: Value) -> usize {
    v.to_raw().ptr as usize
}

/// Reads one kernel: the types it meets (decoded once each) and the slot
/// of every value it has defined so far.
struct Reader<'c> {
    types: TypeTable<'c>,
    slots: HashMap<usize, usize>,
}

impl<'c> Reader<'c> {
    /// A new slot for `v`.
    fn define(&mut self, v: Value<'c, '_>) -> usize {
        let next = self.slots.len();
        *self.slots.entry(key(v)).or_insert(next)
    }

    /// The type of `v`, when tile IR has it.
    fn tile_type(&self, v: Value<'c, '_>) -> Option<TileType> {
        self.types.tile_type(v.r#type())
    }

    /// `block` (the only block of a region of `op`) with its arguments
    /// defined.
    fn body<'a>(&mut self, op: &OperationRef<'c, 'a>, block: Option<BlockRef<'c, 'a>>) -> R<Body> {
        let block = only_block(op, block)?;
        let args = (0..block.argument_count())
            .filter_map(|i| block.argument(i).ok())
            .map(|a| self.define(a.into()))
            .collect();
        let insts = self.block(block)?;
        Ok(Body { args, insts })
    }

    /// The instructions of `block`, in order.
    fn block<'a>(&mut self, block: BlockRef<'c, 'a>) -> R<Vec<Inst>> {
        let mut insts = Vec::new();
        let mut next = block.first_operation();
        while let Some(op) = next {
            insts.push(self.inst(&op)?);
            next = op.next_in_block();
        }
        Ok(insts)
    }

    fn inst<'a>(&mut self, op: &OperationRef<'c, 'a>) -> R<Inst> {
        let operands = op
            .operands()
            .map(|v| {
                self.slots
                    .get(&key(v))
                    .copied()
                    .ok_or_else(|| error(op, "uses a value defined outside the kernel"))
            })
            .collect::<R<_>>()?;
        let ty = match op.result(0) {
            Err(_) => None,
            Ok(r) => Some(self.tile_type(r.into()).ok_or_else(|| {
                error(
                    op,
                    format!(
                        "has a result type ({}) the interpreter does not know",
                        r.r#type()
                    ),
                )
            })?),
        };
        let kind = self.kind(op, ty.as_ref())?;
        let results = op.results().map(|r| self.define(r.into())).collect();
        Ok(Inst {
            kind,
            operands,
            results,
            ty,
            op: op_name(op).to_string(),
            location: location(op),
        })
    }

    fn kind<'a>(&mut self, op: &OperationRef<'c, 'a>, ty: Option<&TileType>) -> R<Kind> {
        let name = op_name(op);
        if ops::ALL.contains(&name) {
            let view = TileOp::read(op, |v| self.tile_type(v))
                .map_err(|rule| broken(op, rule))?
                .expect("ops of the tile dialect read as tile ops");
            return tile_kind(op, view, ty);
        }
        if let Some(l) = ForLoop::read(op).map_err(|rule| broken(op, rule))? {
            let body = only_block(op, Some(l.body))?;
            let args = std::iter::once(l.induction)
                .chain(l.iter_args)
                .map(|v| self.define(v))
                .collect();
            let insts = self.block(body)?;
            return Ok(Kind::For(Body { args, insts }));
        }
        if let Some(b) = IfOp::read(op).map_err(|rule| broken(op, rule))? {
            let then = self.body(op, Some(b.then_block))?;
            let otherwise = match b.else_block {
                Some(block) => Some(self.body(op, Some(block))?),
                None => None,
            };
            return Ok(Kind::If { then, otherwise });
        }
        if let Some(w) = WhileLoop::read(op).map_err(|rule| broken(op, rule))? {
            let before = self.body(op, Some(w.before))?;
            let after = self.body(op, Some(w.after))?;
            return Ok(Kind::While { before, after });
        }
        Ok(match name {
            "scf.yield" => Kind::Yield,
            "scf.condition" => Kind::Condition,
            "func.return" => Kind::Return,
            _ => elementwise::kind(op, name, ty)?,
        })
    }
}

/// What a tile op does, from its view.
fn tile_kind<'c: 'a, 'a>(
    op: &OperationRef<'c, 'a>,
    view: TileOp<'c, 'a>,
    ty: Option<&TileType>,
) -> R<Kind> {
    Ok(match view {
        TileOp::ProgramId(g) => Kind::ProgramId(grid_axis(op, g.axis)?),
        TileOp::NumPrograms(g) => Kind::NumPrograms(grid_axis(op, g.axis)?),
        TileOp::Arange(a) => Kind::Arange(a.start),
        TileOp::Splat(_) => Kind::Splat,
        TileOp::Broadcast(_) => Kind::Broadcast,
        TileOp::ConvertLayout(_) | TileOp::Reshape(_) => Kind::Identity,
        TileOp::Permute(p) => Kind::Permute(
            p.order
                .iter()
                .map(|&a| index(op, "order", a))
                .collect::<R<_>>()?,
        ),
        TileOp::Join(_) => Kind::Join,
        TileOp::Split(_) => Kind::Split,
        TileOp::Cat(c) => Kind::Cat(index(op, "axis", c.axis)?),
        TileOp::ExpandDims(e) => Kind::ExpandDims(index(op, "axis", e.axis)?),
        TileOp::AddPtr(_) => Kind::AddPtr,
        TileOp::Load(l) => Kind::Load {
            mask: l.mask.is_some(),
            other: l.other.is_some(),
        },
        TileOp::Store(s) => Kind::Store {
            mask: s.mask.is_some(),
        },
        TileOp::AtomicRmw(a) => Kind::AtomicRmw {
            kind: a.kind,
            mask: a.mask.is_some(),
        },
        TileOp::AtomicCas(_) => Kind::AtomicCas,
        TileOp::Print(p) => Kind::Print {
            prefix: p.prefix,
            hex: p.hex,
        },
        TileOp::Assert(a) => Kind::Assert { message: a.message },
        TileOp::MakeBlockPtr(m) => {
            let rank = m.shape.len();
            if m.strides.len() != rank || m.offsets.len() != rank {
                return Err(error(
                    op,
                    format!(
                        "has {rank} extents, {} strides and {} offsets",
                        m.strides.len(),
                        m.offsets.len()
                    ),
                ));
            }
            Kind::MakeBlockPtr(rank)
        }
        TileOp::Advance(_) => Kind::Advance,
        TileOp::BlockLoad(b) => {
            let d = ty
                .ok_or_else(|| error(op, "has no result"))?
                .num()
                .ok_or_else(|| error(op, "loads no numbers"))?;
            Kind::BlockLoad {
                check: checked_axes(op, &b.boundary_check)?,
                padding: padding(op, b.padding, d)?,
            }
        }
        TileOp::BlockStore(b) => Kind::BlockStore {
            check: checked_axes(op, &b.boundary_check)?,
        },
        TileOp::Reduce(r) => Kind::Reduce {
            kind: r.kind,
            axis: index(op, "axis", r.axis)?,
            keep_dims: r.keep_dims,
        },
        TileOp::Scan(s) => Kind::Scan {
            kind: s.kind,
            axis: index(op, "axis", s.axis)?,
            reverse: s.reverse,
        },
        TileOp::Dot(d) => Kind::Dot {
            inputs: tile_dialect::view::dtype_of(tile_dialect::view::element_type(d.a.r#type())),
            precision: d.precision,
            k: tile_dialect::view::tensor_shape(d.a.r#type())
                .get(1)
                .map_or(0, |&k| k as usize),
        },
    })
}

/// The padding of a block load of `d` elements, a constant held as the
/// interpreter holds such an element.
fn padding<'c: 'a, 'a>(op: &OperationRef<'c, 'a>, p: Padding, d: DType) -> R<Padding> {
    Ok(match p {
        Padding::Nan if !d.is_float() => {
            return Err(error(op, "pads an integer block with nan"));
        }
        Padding::Value(v) if d.is_float() => Padding::Value(float::round(v, d)),
        Padding::Value(v) => Padding::Value(wrap(v as i64, d) as f64),
        p => p,
    })
}

impl Program {
    /// Reads the kernel in `module`: the `func.func` with the
    /// `tile.kernel` attribute, or else the first one (tile IR as the
    /// builder makes it, before any pass).
    pub fn read(module: &Module<'_>) -> R<Program> {
        let context = tile_dialect::context_of(module.context());
        let mut funcs = Vec::new();
        let mut next = module.body().first_operation();
        while let Some(op) = next {
            if op_name(&op) == "func.func" {
                funcs.push(op);
            }
            next = op.next_in_block();
        }
        let op = funcs
            .iter()
            .find(|f| f.has_attribute(ops::KERNEL_ATTR))
            .or(funcs.first())
            .ok_or_else(|| TranslateError {
                op: "builtin.module".into(),
                location: "module".into(),
                message: "holds no func.func kernel".into(),
            })?;
        let func = KernelFunc::read(op)
            .map_err(|rule| broken(op, rule))?
            .expect("a func.func reads as a function");
        let block = only_block(op, func.body)?;
        let mut reader = Reader {
            types: TypeTable::new(context),
            slots: HashMap::new(),
        };
        let mut params = Vec::new();
        for (i, arg) in func.args.into_iter().enumerate() {
            let ty = reader.tile_type(arg.value).ok_or_else(|| {
                error(
                    op,
                    format!(
                        "argument {i} has a type ({}) the interpreter does not know",
                        arg.value.r#type()
                    ),
                )
            })?;
            if !ty.is_scalar() {
                return Err(error(op, format!("argument {i} is not a scalar: {ty}")));
            }
            params.push(Param {
                name: arg.name.unwrap_or_else(|| format!("arg{i}")),
                ty,
                slot: reader.define(arg.value),
            });
        }
        let insts = reader.block(block)?;
        Ok(Program {
            name: func.name,
            params,
            body: Body {
                args: vec![],
                insts,
            },
            slots: reader.slots.len(),
            debug: module.as_operation().has_attribute(ops::DEBUG_ATTR),
            step_limit: super::step_limit_from_env(),
        })
    }
}
