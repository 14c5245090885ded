//! Loads and stores, through tensors of pointers or block pointers.

use super::kernel::KernelBuilder;
use super::tile::{IntoOperand, Operand, Tile};
use crate::error::{Rule, SourceLoc};
use crate::ops::{self, CacheModifier, EvictionPolicy, Padding};
use crate::rules;
use crate::types::{Elem, TileType};
use melior::ir::Attribute;
use melior::ir::attribute::{
    BoolAttribute, DenseI32ArrayAttribute, FloatAttribute, StringAttribute,
};

/// A load being configured: `k.load(ptr).mask(m).other(0.0).build()`.
///
/// Through a pointer or tensor of pointers it takes `mask` and `other`;
/// through a block pointer it takes `boundary_check` and `padding`. Masked
/// lanes without `other` read zero.
#[must_use = "a load builds nothing until .build() is called"]
pub struct Load<'k> {
    builder: &'k KernelBuilder<'k>,
    ptr: Tile<'k>,
    mask: Option<Tile<'k>>,
    other: Option<Operand<'k>>,
    boundary_check: Option<Vec<i64>>,
    padding: Option<Padding>,
    cache: CacheModifier,
    eviction: EvictionPolicy,
    volatile: bool,
    at: SourceLoc,
}

/// A store being configured: `k.store(ptr, value).mask(m).build()`.
#[must_use = "a store writes nothing until .build() is called"]
pub struct Store<'k> {
    builder: &'k KernelBuilder<'k>,
    ptr: Tile<'k>,
    value: Operand<'k>,
    mask: Option<Tile<'k>>,
    boundary_check: Option<Vec<i64>>,
    cache: CacheModifier,
    eviction: EvictionPolicy,
    at: SourceLoc,
}

impl<'k> KernelBuilder<'k> {
    /// Starts a load through `ptr` (a pointer, a tensor of pointers or a
    /// block pointer). Errors name this call's line.
    #[track_caller]
    pub fn load(&'k self, ptr: Tile<'k>) -> Load<'k> {
        Load {
            builder: self,
            ptr,
            mask: None,
            other: None,
            boundary_check: None,
            padding: None,
            cache: CacheModifier::Default,
            eviction: EvictionPolicy::Normal,
            volatile: false,
            at: SourceLoc::caller(),
        }
    }

    /// Starts a store of `value` through `ptr`. A scalar value is splat to
    /// the pointer tile; a tensor value must have its shape.
    #[track_caller]
    pub fn store(&'k self, ptr: Tile<'k>, value: impl IntoOperand<'k>) -> Store<'k> {
        Store {
            builder: self,
            ptr,
            value: value.into_operand(),
            mask: None,
            boundary_check: None,
            cache: CacheModifier::Default,
            eviction: EvictionPolicy::Normal,
            at: SourceLoc::caller(),
        }
    }

    fn access_attrs(
        &self,
        cache: CacheModifier,
        eviction: EvictionPolicy,
    ) -> Vec<(&'static str, Attribute<'k>)> {
        vec![
            (
                "cache_modifier",
                StringAttribute::new(self.context, cache.name()).into(),
            ),
            (
                "eviction_policy",
                StringAttribute::new(self.context, eviction.name()).into(),
            ),
        ]
    }

    pub(super) fn segments(&self, sizes: &[i32]) -> (&'static str, Attribute<'k>) {
        (
            "operandSegmentSizes",
            DenseI32ArrayAttribute::new(self.context, sizes).into(),
        )
    }

    fn axes_attr(&self, axes: &[i64]) -> Attribute<'k> {
        let v: Vec<i32> = axes.iter().map(|&a| a as i32).collect();
        DenseI32ArrayAttribute::new(self.context, &v).into()
    }

    /// Broadcasts a mask to the pointer tile, naming failures as mask errors.
    pub(super) fn mask_for(
        &'k self,
        op: &'static str,
        mask: Tile<'k>,
        ptr: &TileType,
        at: &SourceLoc,
    ) -> Option<u32> {
        let mt = self.type_of(op, mask, at)?;
        if mt.num() != Some(crate::DType::I1) {
            return self.fail(
                op,
                Rule::WrongOperand {
                    what: "mask",
                    expected: "i1 (a comparison result)",
                    found: mt.to_string(),
                },
                at,
            );
        }
        if !rules::broadcasts_to(mt.shape(), ptr.shape()) {
            return self.fail(
                op,
                Rule::MaskNotBroadcastable {
                    mask: mt.shape().to_vec(),
                    ptr: ptr.shape().to_vec(),
                },
                at,
            );
        }
        Some(self.broadcast_value(op, mask.id, mt, ptr.shape(), at)?.0)
    }

    /// A value stored (or combined, by an atomic) through pointers of type
    /// `pt` and pointee `d`: literals become constants of the pointers'
    /// shape, scalars are splat to it, tiles are taken as they are (the
    /// op's rule checks their shape and type).
    pub(super) fn value_operand(
        &'k self,
        op: &'static str,
        value: Operand<'k>,
        pt: &TileType,
        d: crate::DType,
        at: &SourceLoc,
    ) -> Option<(u32, TileType)> {
        match value {
            Operand::Tile(t) => {
                let vt = self.type_of(op, t, at)?;
                if vt.is_scalar() && !pt.is_scalar() {
                    self.broadcast_value(op, t.id, vt, pt.shape(), at)
                } else {
                    Some((t.id, vt))
                }
            }
            lit => {
                let want = TileType::tensor(pt.shape(), Elem::Num(d));
                let c = self.constant_of(op, lit, &want, at);
                let ct = c.ty()?;
                Some((c.id, ct))
            }
        }
    }

    fn padding_attr(&self, padding: Padding, elem: crate::DType) -> Attribute<'k> {
        match padding.name() {
            Some(name) => StringAttribute::new(self.context, name).into(),
            None => {
                let Padding::Value(v) = padding else {
                    unreachable!("named paddings handled above")
                };
                let ty = crate::view::TypeTable::new(self.context).dtype(elem);
                if elem.is_float() {
                    FloatAttribute::new(self.context, ty, v).into()
                } else {
                    self.int_attr(elem.bits(), v as i64)
                }
            }
        }
    }
}

impl<'k> Load<'k> {
    /// Only lanes where `mask` is true are read (broadcast to the pointer tile).
    pub fn mask(mut self, mask: Tile<'k>) -> Self {
        self.mask = Some(mask);
        self
    }

    /// The value masked-off lanes read (a literal or a tile).
    pub fn other(mut self, other: impl IntoOperand<'k>) -> Self {
        self.other = Some(other.into_operand());
        self
    }

    /// The axes of a block pointer checked against its shape.
    pub fn boundary_check(mut self, axes: &[i64]) -> Self {
        self.boundary_check = Some(axes.to_vec());
        self
    }

    /// What out-of-bounds elements of a block-pointer load read.
    pub fn padding(mut self, padding: Padding) -> Self {
        self.padding = Some(padding);
        self
    }

    /// The cache operator (`ca` or `cg`).
    pub fn cache(mut self, cache: CacheModifier) -> Self {
        self.cache = cache;
        self
    }

    /// The L2 eviction priority.
    pub fn eviction(mut self, eviction: EvictionPolicy) -> Self {
        self.eviction = eviction;
        self
    }

    /// Marks the load volatile.
    pub fn volatile(mut self, volatile: bool) -> Self {
        self.volatile = volatile;
        self
    }

    /// Builds the load and returns the loaded tile.
    pub fn build(self) -> Tile<'k> {
        let k = self.builder;
        let at = &self.at;
        let op = if self.ptr.ty().is_some_and(|t| t.is_block_ptr()) {
            ops::BLOCK_LOAD
        } else {
            ops::LOAD
        };
        let Some(pt) = k.type_of(op, self.ptr, at) else {
            return k.poison();
        };
        let mut attrs = k.access_attrs(self.cache, self.eviction);
        attrs.push((
            "volatile",
            BoolAttribute::new(k.context, self.volatile).into(),
        ));
        if pt.is_block_ptr() {
            if self.mask.is_some() {
                return k
                    .fail(op, Rule::MaskOnBlockPointer, at)
                    .unwrap_or_else(|| k.poison());
            }
            if self.other.is_some() {
                return k
                    .fail(op, Rule::OtherOnBlockPointer, at)
                    .unwrap_or_else(|| k.poison());
            }
            let axes = self.boundary_check.unwrap_or_default();
            let padding = self.padding.unwrap_or(Padding::Zero);
            let Some(result) = k.check(op, at, rules::block_load(&pt, &axes, padding, self.cache))
            else {
                return k.poison();
            };
            let elem = result.num().expect("block loads yield numbers");
            attrs.push(("boundary_check", k.axes_attr(&axes)));
            attrs.push(("padding", k.padding_attr(padding, elem)));
            return k.emit1(op, at, &[self.ptr.id], &attrs, result);
        }
        if self.boundary_check.is_some() {
            return k
                .fail(op, Rule::BoundaryCheckWithoutBlockPointer, at)
                .unwrap_or_else(|| k.poison());
        }
        if self.padding.is_some() {
            return k
                .fail(op, Rule::PaddingWithoutBlockPointer, at)
                .unwrap_or_else(|| k.poison());
        }
        let Some(pointee) = pt.elem().and_then(Elem::pointee) else {
            return k
                .fail(
                    op,
                    Rule::WrongOperand {
                        what: "load pointer",
                        expected: "a pointer, a tensor of pointers or a block pointer",
                        found: pt.to_string(),
                    },
                    at,
                )
                .unwrap_or_else(|| k.poison());
        };
        let mut operands = vec![self.ptr.id];
        let mut mask_t = None;
        if let Some(mask) = self.mask {
            let Some(id) = k.mask_for(op, mask, &pt, at) else {
                return k.poison();
            };
            operands.push(id);
            mask_t = Some(pt.with_elem(Elem::Num(crate::DType::I1)));
        }
        let value_t = pt.with_elem(Elem::Num(pointee));
        let mut other_t = None;
        if let Some(other) = self.other {
            if self.mask.is_none() {
                return k
                    .fail(op, Rule::OtherWithoutMask, at)
                    .unwrap_or_else(|| k.poison());
            }
            let id = match other {
                Operand::Tile(t) => {
                    let Some(ot) = k.type_of(op, t, at) else {
                        return k.poison();
                    };
                    if !rules::broadcasts_to(ot.shape(), pt.shape()) {
                        return k
                            .fail(
                                op,
                                Rule::OtherNotBroadcastable {
                                    other: ot.shape().to_vec(),
                                    ptr: pt.shape().to_vec(),
                                },
                                at,
                            )
                            .unwrap_or_else(|| k.poison());
                    }
                    let Some((id, _)) = k.broadcast_value(op, t.id, ot, pt.shape(), at) else {
                        return k.poison();
                    };
                    id
                }
                lit => {
                    let c = k.constant_of(op, lit, &value_t, at);
                    if c.ty().is_none() {
                        return k.poison();
                    }
                    c.id
                }
            };
            operands.push(id);
            other_t = Some(k.peek_type(id));
        }
        let Some(result) = k.check(
            op,
            at,
            rules::load(&pt, mask_t.as_ref(), other_t.as_ref(), self.cache),
        ) else {
            return k.poison();
        };
        attrs.push(k.segments(&[1, mask_t.is_some() as i32, other_t.is_some() as i32]));
        k.emit1(op, at, &operands, &attrs, result)
    }
}

impl<'k> Store<'k> {
    /// Only lanes where `mask` is true are written.
    pub fn mask(mut self, mask: Tile<'k>) -> Self {
        self.mask = Some(mask);
        self
    }

    /// The axes of a block pointer checked against its shape; elements
    /// outside are not written.
    pub fn boundary_check(mut self, axes: &[i64]) -> Self {
        self.boundary_check = Some(axes.to_vec());
        self
    }

    /// The cache operator (`wb`, `cg`, `cs` or `wt`).
    pub fn cache(mut self, cache: CacheModifier) -> Self {
        self.cache = cache;
        self
    }

    /// The L2 eviction priority.
    pub fn eviction(mut self, eviction: EvictionPolicy) -> Self {
        self.eviction = eviction;
        self
    }

    /// Builds the store.
    pub fn build(self) {
        let k = self.builder;
        let at = &self.at;
        let op = if self.ptr.ty().is_some_and(|t| t.is_block_ptr()) {
            ops::BLOCK_STORE
        } else {
            ops::STORE
        };
        let Some(pt) = k.type_of(op, self.ptr, at) else {
            return;
        };
        let dtype = match &pt {
            TileType::BlockPtr { dtype, .. } => Some(*dtype),
            t => t.elem().and_then(Elem::pointee),
        };
        let Some(dtype) = dtype else {
            k.fail::<()>(
                op,
                Rule::WrongOperand {
                    what: "store pointer",
                    expected: "a pointer, a tensor of pointers or a block pointer",
                    found: pt.to_string(),
                },
                at,
            );
            return;
        };
        let Some((vid, vt)) = k.value_operand(op, self.value, &pt, dtype, at) else {
            return;
        };
        let mut attrs = k.access_attrs(self.cache, self.eviction);
        if pt.is_block_ptr() {
            if self.mask.is_some() {
                k.fail::<()>(op, Rule::MaskOnBlockPointer, at);
                return;
            }
            let axes = self.boundary_check.unwrap_or_default();
            if k.check(op, at, rules::block_store(&pt, &vt, &axes, self.cache))
                .is_none()
            {
                return;
            }
            attrs.push(("boundary_check", k.axes_attr(&axes)));
            k.emit(op, at, &[self.ptr.id, vid], &attrs, &[], vec![]);
            return;
        }
        if self.boundary_check.is_some() {
            k.fail::<()>(op, Rule::BoundaryCheckWithoutBlockPointer, at);
            return;
        }
        if vt.shape() != pt.shape() {
            k.fail::<()>(
                op,
                Rule::StoreShapeMismatch {
                    value: vt.shape().to_vec(),
                    ptr: pt.shape().to_vec(),
                },
                at,
            );
            return;
        }
        let mut operands = vec![self.ptr.id, vid];
        let mut mask_t = None;
        if let Some(mask) = self.mask {
            let Some(id) = k.mask_for(op, mask, &pt, at) else {
                return;
            };
            operands.push(id);
            mask_t = Some(pt.with_elem(Elem::Num(crate::DType::I1)));
        }
        if k.check(op, at, rules::store(&pt, &vt, mask_t.as_ref(), self.cache))
            .is_none()
        {
            return;
        }
        attrs.push(k.segments(&[1, 1, mask_t.is_some() as i32]));
        k.emit(op, at, &operands, &attrs, &[], vec![]);
    }
}
