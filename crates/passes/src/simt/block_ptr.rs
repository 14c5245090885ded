//! Pointers: `tile.addptr`, block pointers (`tile.make_block_ptr`,
//! `tile.advance`) and the address of each element a block pointer
//! reaches, with its bounds check.

use super::builder::Val;
use super::emit::{Emitter, Lowered};
use crate::pass::{PassError, PassResult};
use melior::dialect::arith::{self, CmpiPredicate};
use melior::ir::operation::OperationLike;
use melior::ir::{OperationRef, Type, Value};
use std::collections::HashMap;
use tile_coalesce::Distribution;
use tile_dialect::view::{AddPtr, Advance, MakeBlockPtr};
use tile_dialect::{DType, Elem};

/// The type an element of `d` has in memory (booleans are bytes).
pub fn memory_type<'c>(e: &Emitter<'_, 'c>, d: DType) -> Type<'c> {
    e.reg_type(if d == DType::I1 { DType::I8 } else { d })
}

/// `tile.addptr`: a `getelementptr` per register.
pub fn addptr<'c>(
    e: &mut Emitter<'_, 'c>,
    op: &OperationRef<'c, '_>,
    a: &AddPtr<'c, '_>,
) -> PassResult {
    let result: Value = op.result(0).expect("an addptr's result").into();
    let pointee = e
        .tile_type(result, op)?
        .elem()
        .and_then(Elem::pointee)
        .ok_or_else(|| PassError::at(op, "expects pointers"))?;
    let elem = memory_type(e, pointee);
    let n = e.registers(result, op)?;
    if let Some(out) = uniform_base_plus_constants(e, op, a, n, elem)? {
        e.set_like(result, out);
        return Ok(());
    }
    if let Some(out) = uniform_rows_plus_offsets(e, op, a, n, elem)? {
        e.set_like(result, out);
        return Ok(());
    }
    let mut out = Vec::with_capacity(n.unwrap_or(1));
    for r in 0..n.unwrap_or(1) {
        let p = e.reg(a.ptr, r, op)?;
        let o = e.reg(a.offset, r, op)?;
        out.push(e.ir.gep(p, o, elem));
    }
    e.set_like(result, out);
    Ok(())
}

/// The one pointer every register of `a.ptr` holds and the registers of
/// `a.offset`, when both are tensors of `n` registers; `None` otherwise.
fn one_pointer<'c>(
    e: &Emitter<'_, 'c>,
    op: &OperationRef<'c, '_>,
    a: &AddPtr<'c, '_>,
    n: Option<usize>,
) -> Result<Option<(Val, Vec<Val>)>, PassError> {
    let Some(n) = n else { return Ok(None) };
    let (Lowered::Regs(ptrs), Lowered::Regs(offs)) = (e.get(a.ptr, op)?, e.get(a.offset, op)?)
    else {
        return Ok(None);
    };
    if ptrs.len() != n || offs.len() != n || ptrs.iter().any(|&p| p != ptrs[0]) {
        return Ok(None);
    }
    Ok(Some((ptrs[0], offs)))
}

/// `p + (root + c_r)` for one pointer `p` and offsets `root + c_r` (a
/// range added to a uniform start, as `x + off + arange(..)`): one shared
/// `p + root`, then a constant offset a register, which LLVM folds into
/// each access's address. `None` when the operands are not of that form.
fn uniform_base_plus_constants<'c>(
    e: &mut Emitter<'_, 'c>,
    op: &OperationRef<'c, '_>,
    a: &AddPtr<'c, '_>,
    n: Option<usize>,
    elem: Type<'c>,
) -> Result<Option<Vec<Val>>, PassError> {
    let Some((p, offs)) = one_pointer(e, op, a, n)? else {
        return Ok(None);
    };
    let Some(forms) = offs
        .iter()
        .map(|&o| e.affine(o))
        .collect::<Option<Vec<(Val, i64)>>>()
    else {
        return Ok(None);
    };
    let root = forms[0].0;
    if forms
        .iter()
        .any(|&(r, c)| r != root || i32::try_from(c).is_err())
    {
        return Ok(None);
    }
    let base = e.ir.gep(p, root, elem);
    Ok(Some(
        forms
            .iter()
            .map(|&(_, c)| {
                if c == 0 {
                    base
                } else {
                    e.ir.gep_const(base, c, elem)
                }
            })
            .collect(),
    ))
}

/// The most distinct uniform parts [`uniform_rows_plus_offsets`] gives a
/// base each (two uniform registers a base; a warp has 63).
const MAX_UNIFORM_BASES: usize = 8;

/// `p + (u_r + t_r)` for one pointer `p` and offsets recorded as a uniform
/// `u_r` plus a per-thread `t_r` (rows held in every thread's registers,
/// `rows * stride + cols`): a base `p + u_r` per distinct `u_r`, uniform
/// (`ptxas` keeps it in uniform registers, and LLVM hoists it out of a
/// loop over the columns), then `+ t_r` (its constant part folded into
/// each access). `None` when the operands are not of that form.
fn uniform_rows_plus_offsets<'c>(
    e: &mut Emitter<'_, 'c>,
    op: &OperationRef<'c, '_>,
    a: &AddPtr<'c, '_>,
    n: Option<usize>,
    elem: Type<'c>,
) -> Result<Option<Vec<Val>>, PassError> {
    let Some((p, offs)) = one_pointer(e, op, a, n)? else {
        return Ok(None);
    };
    if !e.uniform.is_uniform(p) {
        return Ok(None);
    }
    let Some(parts) = offs
        .iter()
        .map(|&o| e.uniform.split(o))
        .collect::<Option<Vec<(Val, Val)>>>()
    else {
        return Ok(None);
    };
    let uniforms: std::collections::HashSet<Val> = parts.iter().map(|&(u, _)| u).collect();
    if uniforms.len() > MAX_UNIFORM_BASES {
        return Ok(None);
    }
    let mut bases: std::collections::HashMap<Val, Val> = Default::default();
    let mut rows: std::collections::HashMap<(Val, Val), Val> = Default::default();
    let mut out = Vec::with_capacity(offs.len());
    for &(u, t) in &parts {
        let base = *bases.entry(u).or_insert_with(|| e.ir.gep(p, u, elem));
        let (root, c) = e
            .affine(t)
            .filter(|&(_, c)| i32::try_from(c).is_ok())
            .unwrap_or((t, 0));
        let row = *rows
            .entry((u, root))
            .or_insert_with(|| e.ir.gep(base, root, elem));
        out.push(if c == 0 {
            row
        } else {
            e.ir.gep_const(row, c, elem)
        });
    }
    Ok(Some(out))
}

/// `tile.make_block_ptr`: its scalars, kept as they are.
pub fn make<'c>(
    e: &mut Emitter<'_, 'c>,
    op: &OperationRef<'c, '_>,
    m: &MakeBlockPtr<'c, '_>,
) -> PassResult {
    let r = m.shape.len();
    if m.strides.len() != r || m.offsets.len() != r {
        return Err(PassError::at(
            op,
            "needs as many shape, stride and offset values as block axes",
        ));
    }
    let scalars = |e: &Emitter<'_, 'c>, vs: &[Value<'c, '_>]| -> Result<Vec<Val>, PassError> {
        vs.iter().map(|&v| e.reg(v, 0, op)).collect()
    };
    let lowered = Lowered::BlockPtr {
        base: e.reg(m.base, 0, op)?,
        shape: scalars(e, &m.shape)?,
        strides: scalars(e, &m.strides)?,
        offsets: scalars(e, &m.offsets)?,
    };
    e.set(op.result(0).expect("a block pointer").into(), lowered);
    Ok(())
}

/// `tile.advance`: the offsets plus the deltas.
pub fn advance<'c>(
    e: &mut Emitter<'_, 'c>,
    op: &OperationRef<'c, '_>,
    a: &Advance<'c, '_>,
) -> PassResult {
    let mut bp = e.get(a.ptr, op)?;
    let Lowered::BlockPtr { offsets, .. } = &mut bp else {
        return Err(PassError::at(op, "expects a block pointer"));
    };
    if a.offsets.len() != offsets.len() {
        return Err(PassError::at(
            op,
            "moves along another number of axes than the block has",
        ));
    }
    for (off, &delta) in offsets.iter_mut().zip(&a.offsets) {
        let delta = e.reg(delta, 0, op)?;
        *off = e.ir.binary(arith::addi, *off, delta);
    }
    e.set(op.result(0).expect("a block pointer").into(), bp);
    Ok(())
}

/// For register `r` of a block of distribution `d` at block pointer
/// `bp`: the element's address and, when `checked` lists axes, whether it
/// lies inside the shape along them.
pub fn element<'c>(
    e: &mut Emitter<'_, 'c>,
    bp: &Lowered,
    d: &Distribution,
    r: usize,
    checked: &[i64],
    elem: Type<'c>,
) -> Result<(Val, Option<Val>), String> {
    let Lowered::BlockPtr {
        base,
        shape,
        strides,
        offsets,
    } = bp
    else {
        return Err("expects a block pointer".into());
    };
    let i64_ty = e.ir.int_type(64);
    let mut address: Option<Val> = None;
    let mut inside: Option<Val> = None;
    for i in 0..d.shape.len() {
        let idx = e.index(d, r, i);
        let pos = e.ir.binary(arith::addi, offsets[i], idx);
        let wide = e.ir.cast(arith::extsi, pos, i64_ty);
        let term = e.ir.binary(arith::muli, wide, strides[i]);
        address = Some(match address {
            None => term,
            Some(a) => e.ir.binary(arith::addi, a, term),
        });
        if checked.contains(&(i as i64)) {
            let zero = e.int(i64_ty, 0);
            let low = e.ir.cmpi(CmpiPredicate::Sge, wide, zero);
            let high = e.ir.cmpi(CmpiPredicate::Slt, wide, shape[i]);
            let both = e.ir.binary(arith::andi, low, high);
            inside = Some(match inside {
                None => both,
                Some(a) => e.ir.binary(arith::andi, a, both),
            });
        }
    }
    let offset = match address {
        Some(a) => a,
        None => e.int(i64_ty, 0),
    };
    let ptr = e.ir.gep(*base, offset, elem);
    Ok((ptr, inside))
}

/// The bounds checks of one block load or store, each computed once for
/// the registers that answer alike in every thread.
///
/// Along a checked axis the element at tile index `i` is inside when `0
/// <= offset + i < shape`; with the offset and the extent both multiples
/// of `g` (the axis analysis' facts of the block pointer), the answer
/// changes only at multiples of `g`, so it is constant over aligned groups
/// of `g` tile indices (an unchecked axis: the whole tile). Where a thread
/// holds several elements of one group (a thread's rows of a tile whose
/// warps lie along the columns, a vector's elements), the group's first
/// register answers for all of them
/// ([`Distribution::constant_groups`]), as masks through pointer tensors
/// share by the constancy of the mask.
pub struct BoundsChecks {
    checked: Vec<i64>,
    groups: Option<Vec<usize>>,
    known: HashMap<usize, Val>,
}

impl BoundsChecks {
    /// The checks of `checked` axes of a block of distribution `d` through
    /// the block pointer value `ptr`.
    pub fn new<'c>(
        e: &Emitter<'_, 'c>,
        ptr: Value<'c, '_>,
        d: &Distribution,
        checked: &[i64],
    ) -> Self {
        let facts = e.axis_facts.as_ref().and_then(|f| f.block_ptr(ptr));
        let groups = facts.and_then(|bp| {
            let sizes: Vec<i64> = (0..d.shape.len())
                .map(|i| {
                    if !checked.contains(&(i as i64)) {
                        return d.shape[i];
                    }
                    match (bp.offsets.get(i), bp.shape.get(i)) {
                        (Some(o), Some(n)) => o
                            .element_divisibility()
                            .min(n.element_divisibility())
                            .max(1),
                        _ => 1,
                    }
                })
                .collect();
            d.constant_groups(&sizes)
        });
        BoundsChecks {
            checked: checked.to_vec(),
            groups,
            known: HashMap::new(),
        }
    }

    /// [`element`] for register `r` (of the distribution the checks were
    /// made for), the bounds check shared with the earlier registers of
    /// its group.
    pub fn element<'c>(
        &mut self,
        e: &mut Emitter<'_, 'c>,
        (bp, d): (&Lowered, &Distribution),
        r: usize,
        elem: Type<'c>,
    ) -> Result<(Val, Option<Val>), String> {
        let group = self.groups.as_ref().map_or(r, |g| g[r]);
        let known = self.known.get(&group).copied();
        let axes = if known.is_some() {
            &[][..]
        } else {
            &self.checked[..]
        };
        let (ptr, inside) = element(e, bp, d, r, axes, elem)?;
        let inside = known.or(inside);
        if let Some(m) = inside {
            self.known.entry(group).or_insert(m);
        }
        Ok((ptr, inside))
    }
}
