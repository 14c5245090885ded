//! Atomics through pointers and tensors of pointers.

use super::kernel::KernelBuilder;
use super::tile::{IntoOperand, Operand, Tile};
use crate::error::{Rule, SourceLoc};
use crate::ops::{self, AtomicKind, MemScope, MemSem};
use crate::rules;
use crate::types::Elem;
use melior::ir::attribute::StringAttribute;

/// An atomic being configured:
/// `k.atomic_add(ptr, val).mask(m).sem(MemSem::Relaxed).build()`.
///
/// It returns the old values (zero in masked-off lanes, which touch no
/// memory). Every element is updated exactly once, however many threads
/// hold it. The ordering defaults to `acq_rel` and the scope to `gpu`, as
/// in Triton.
#[must_use = "an atomic does nothing until .build() is called"]
pub struct Atomic<'k> {
    builder: &'k KernelBuilder<'k>,
    /// `None` for a compare-and-swap.
    kind: Option<AtomicKind>,
    ptr: Tile<'k>,
    cmp: Option<Operand<'k>>,
    val: Operand<'k>,
    mask: Option<Tile<'k>>,
    sem: MemSem,
    scope: MemScope,
    at: SourceLoc,
}

impl<'k> KernelBuilder<'k> {
    /// Starts an atomic read-modify-write of `kind` with `val` through
    /// `ptr` (a pointer or a tensor of pointers; a scalar `val` is splat).
    /// Errors name this call's line.
    #[track_caller]
    pub fn atomic_rmw(
        &'k self,
        kind: AtomicKind,
        ptr: Tile<'k>,
        val: impl IntoOperand<'k>,
    ) -> Atomic<'k> {
        Atomic {
            builder: self,
            kind: Some(kind),
            ptr,
            cmp: None,
            val: val.into_operand(),
            mask: None,
            sem: MemSem::default(),
            scope: MemScope::default(),
            at: SourceLoc::caller(),
        }
    }

    /// An atomic add (see [`KernelBuilder::atomic_rmw`]).
    #[track_caller]
    pub fn atomic_add(&'k self, ptr: Tile<'k>, val: impl IntoOperand<'k>) -> Atomic<'k> {
        let mut a = self.atomic_rmw(AtomicKind::Add, ptr, val);
        a.at = SourceLoc::caller();
        a
    }

    /// An atomic max (see [`KernelBuilder::atomic_rmw`]).
    #[track_caller]
    pub fn atomic_max(&'k self, ptr: Tile<'k>, val: impl IntoOperand<'k>) -> Atomic<'k> {
        let mut a = self.atomic_rmw(AtomicKind::Max, ptr, val);
        a.at = SourceLoc::caller();
        a
    }

    /// An atomic min (see [`KernelBuilder::atomic_rmw`]).
    #[track_caller]
    pub fn atomic_min(&'k self, ptr: Tile<'k>, val: impl IntoOperand<'k>) -> Atomic<'k> {
        let mut a = self.atomic_rmw(AtomicKind::Min, ptr, val);
        a.at = SourceLoc::caller();
        a
    }

    /// An atomic exchange (see [`KernelBuilder::atomic_rmw`]).
    #[track_caller]
    pub fn atomic_xchg(&'k self, ptr: Tile<'k>, val: impl IntoOperand<'k>) -> Atomic<'k> {
        let mut a = self.atomic_rmw(AtomicKind::Xchg, ptr, val);
        a.at = SourceLoc::caller();
        a
    }

    /// Starts an atomic compare-and-swap through `ptr`: where the element
    /// equals `cmp` (bit for bit) it becomes `val`. It returns the old
    /// values; it takes no mask (as Triton's).
    #[track_caller]
    pub fn atomic_cas(
        &'k self,
        ptr: Tile<'k>,
        cmp: impl IntoOperand<'k>,
        val: impl IntoOperand<'k>,
    ) -> Atomic<'k> {
        Atomic {
            builder: self,
            kind: None,
            ptr,
            cmp: Some(cmp.into_operand()),
            val: val.into_operand(),
            mask: None,
            sem: MemSem::default(),
            scope: MemScope::default(),
            at: SourceLoc::caller(),
        }
    }
}

impl<'k> Atomic<'k> {
    /// Only lanes where `mask` is true take part (not for a
    /// compare-and-swap).
    pub fn mask(mut self, mask: Tile<'k>) -> Self {
        self.mask = Some(mask);
        self
    }

    /// The memory ordering (default `acq_rel`).
    pub fn sem(mut self, sem: MemSem) -> Self {
        self.sem = sem;
        self
    }

    /// The scope (default `gpu`).
    pub fn scope(mut self, scope: MemScope) -> Self {
        self.scope = scope;
        self
    }

    /// Builds the atomic; returns the old values.
    pub fn build(self) -> Tile<'k> {
        let k = self.builder;
        let at = &self.at;
        let op = match self.kind {
            Some(_) => ops::ATOMIC_RMW,
            None => ops::ATOMIC_CAS,
        };
        let Some(pt) = k.type_of(op, self.ptr, at) else {
            return k.poison();
        };
        let Some(d) = pt
            .elem()
            .and_then(Elem::pointee)
            .filter(|_| !pt.is_block_ptr())
        else {
            return k
                .fail(
                    op,
                    Rule::WrongOperand {
                        what: "atomic pointer",
                        expected: "a pointer or a tensor of pointers",
                        found: pt.to_string(),
                    },
                    at,
                )
                .unwrap_or_else(|| k.poison());
        };
        let Some((vid, vt)) = k.value_operand(op, self.val, &pt, d, at) else {
            return k.poison();
        };
        let mut attrs = vec![
            (
                "sem",
                StringAttribute::new(k.context, self.sem.name()).into(),
            ),
            (
                "scope",
                StringAttribute::new(k.context, self.scope.name()).into(),
            ),
        ];
        match self.kind {
            Some(kind) => {
                let mut operands = vec![self.ptr.id, vid];
                let mut mask_t = None;
                if let Some(mask) = self.mask {
                    let Some(id) = k.mask_for(op, mask, &pt, at) else {
                        return k.poison();
                    };
                    operands.push(id);
                    mask_t = Some(pt.with_elem(Elem::Num(crate::DType::I1)));
                }
                let Some(result) =
                    k.check(op, at, rules::atomic_rmw(&pt, &vt, mask_t.as_ref(), kind))
                else {
                    return k.poison();
                };
                attrs.push(("kind", StringAttribute::new(k.context, kind.name()).into()));
                attrs.push(k.segments(&[1, 1, mask_t.is_some() as i32]));
                k.emit1(op, at, &operands, &attrs, result)
            }
            None => {
                if self.mask.is_some() {
                    return k
                        .fail(
                            op,
                            Rule::BadAttribute {
                                name: "mask",
                                expected: "no mask on a compare-and-swap",
                            },
                            at,
                        )
                        .unwrap_or_else(|| k.poison());
                }
                let cmp = self.cmp.expect("a compare-and-swap has cmp");
                let Some((cid, ct)) = k.value_operand(op, cmp, &pt, d, at) else {
                    return k.poison();
                };
                let Some(result) = k.check(op, at, rules::atomic_cas(&pt, &ct, &vt)) else {
                    return k.poison();
                };
                k.emit1(op, at, &[self.ptr.id, cid, vid], &attrs, result)
            }
        }
    }
}
