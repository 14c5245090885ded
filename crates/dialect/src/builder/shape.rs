//! Shape ops and reductions.

use super::kernel::KernelBuilder;
use super::tile::Tile;
use crate::error::SourceLoc;
use crate::ops::{self, ReduceKind, ScanKind};
use crate::rules;
use melior::ir::attribute::{BoolAttribute, StringAttribute};

impl<'k> KernelBuilder<'k> {
    pub(super) fn expand_dims(&'k self, x: Tile<'k>, axis: i64, at: &SourceLoc) -> Tile<'k> {
        let Some(t) = self.type_of(ops::EXPAND_DIMS, x, at) else {
            return self.poison();
        };
        match self.check(ops::EXPAND_DIMS, at, rules::expand_dims(&t, axis)) {
            Some(result) => {
                let axis = self.int_attr(32, axis);
                self.emit1(ops::EXPAND_DIMS, at, &[x.id], &[("axis", axis)], result)
            }
            None => self.poison(),
        }
    }

    pub(super) fn broadcast_to(&'k self, x: Tile<'k>, shape: &[i64], at: &SourceLoc) -> Tile<'k> {
        let Some(t) = self.type_of(ops::BROADCAST, x, at) else {
            return self.poison();
        };
        match self.broadcast_value(ops::BROADCAST, x.id, t, shape, at) {
            Some((id, _)) => self.tile(id),
            None => self.poison(),
        }
    }

    pub(super) fn reduce(
        &'k self,
        x: Tile<'k>,
        kind: ReduceKind,
        axis: i64,
        keep_dims: bool,
        at: &SourceLoc,
    ) -> Tile<'k> {
        let Some(t) = self.type_of(ops::REDUCE, x, at) else {
            return self.poison();
        };
        let Some(result) = self.check(ops::REDUCE, at, rules::reduce(&t, kind, axis, keep_dims))
        else {
            return self.poison();
        };
        let attrs = [
            (
                "kind",
                StringAttribute::new(self.context, kind.name()).into(),
            ),
            ("axis", self.int_attr(32, axis)),
            (
                "keep_dims",
                BoolAttribute::new(self.context, keep_dims).into(),
            ),
        ];
        self.emit1(ops::REDUCE, at, &[x.id], &attrs, result)
    }

    pub(super) fn scan(
        &'k self,
        x: Tile<'k>,
        kind: ScanKind,
        axis: i64,
        reverse: bool,
        at: &SourceLoc,
    ) -> Tile<'k> {
        let Some(t) = self.type_of(ops::SCAN, x, at) else {
            return self.poison();
        };
        let Some(result) = self.check(ops::SCAN, at, rules::scan(&t, axis)) else {
            return self.poison();
        };
        let attrs = [
            (
                "kind",
                StringAttribute::new(self.context, kind.name()).into(),
            ),
            ("axis", self.int_attr(32, axis)),
            ("reverse", BoolAttribute::new(self.context, reverse).into()),
        ];
        self.emit1(ops::SCAN, at, &[x.id], &attrs, result)
    }
}
