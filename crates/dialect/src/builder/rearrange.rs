//! Shape ops that move elements between places: reshape, permute and
//! transpose, join and split (interleaving along a last axis of 2), and
//! concatenation.

use super::kernel::KernelBuilder;
use super::tile::Tile;
use crate::error::SourceLoc;
use crate::ops;
use crate::rules;
use melior::ir::attribute::DenseI32ArrayAttribute;

impl<'k> Tile<'k> {
    /// The same elements, in row-major order, in another shape with as
    /// many elements (power-of-two extents): `x.reshape(&[4, 8])` of a
    /// 32-element `x` puts `x[8 * i + j]` at `[i, j]`.
    ///
    /// ```
    /// # use tile_dialect::{new_context, DType, Kernel};
    /// # let context = new_context().unwrap();
    /// # Kernel::build(&context, "k", |k| {
    /// let rows = k.arange(0, 32).reshape(&[4, 8]);
    /// # let _ = rows;
    /// # }).unwrap();
    /// ```
    ///
    /// ```
    /// # use tile_dialect::{new_context, DType, Kernel};
    /// # let context = new_context().unwrap();
    /// # Kernel::build(&context, "k", |k| {
    /// let x = k.zeros(&[16, 64], DType::F32);
    /// assert_eq!(x.reshape(&[1024]).shape(), Some(vec![1024]));
    /// # }).unwrap();
    /// ```
    #[track_caller]
    pub fn reshape(self, shape: &[i64]) -> Tile<'k> {
        self.builder.reshape(self, shape, &SourceLoc::caller())
    }

    /// The axes reordered: axis `i` of the result is axis `order[i]` of
    /// `self` (`x.permute(&[1, 0])` transposes a matrix).
    #[track_caller]
    pub fn permute(self, order: &[i64]) -> Tile<'k> {
        self.builder.permute(self, order, &SourceLoc::caller())
    }

    /// The axes in reverse order (a matrix's transpose).
    ///
    /// ```
    /// # use tile_dialect::{new_context, DType, Kernel};
    /// # let context = new_context().unwrap();
    /// # Kernel::build(&context, "k", |k| {
    /// let x = k.zeros(&[16, 64], DType::F16);
    /// assert_eq!(x.trans().shape(), Some(vec![64, 16]));
    /// # }).unwrap();
    /// ```
    #[track_caller]
    pub fn trans(self) -> Tile<'k> {
        let at = SourceLoc::caller();
        let Some(t) = self.builder.type_of(ops::PERMUTE, self, &at) else {
            return self.builder.poison();
        };
        let order: Vec<i64> = (0..t.shape().len() as i64).rev().collect();
        self.builder.permute(self, &order, &at)
    }

    /// `self` and `other` (one type) interleaved along a new last axis of
    /// size 2: `[..., 0]` is `self`, `[..., 1]` is `other`.
    #[track_caller]
    pub fn join(self, other: Tile<'k>) -> Tile<'k> {
        self.builder.join(self, other, &SourceLoc::caller())
    }

    /// The inverse of [`Tile::join`]: the halves `[..., 0]` and `[..., 1]`
    /// of a tensor whose last axis has size 2 (and rank 2 or more).
    #[track_caller]
    pub fn split(self) -> (Tile<'k>, Tile<'k>) {
        self.builder.split(self, &SourceLoc::caller())
    }

    /// `self` then `other` along `axis`; the other axes agree and the
    /// joint extent is a power of two. The elements keep their order.
    #[track_caller]
    pub fn cat(self, other: Tile<'k>, axis: i64) -> Tile<'k> {
        self.builder.cat(self, other, axis, &SourceLoc::caller())
    }
}

impl<'k> KernelBuilder<'k> {
    fn reshape(&'k self, x: Tile<'k>, shape: &[i64], at: &SourceLoc) -> Tile<'k> {
        let Some(t) = self.type_of(ops::RESHAPE, x, at) else {
            return self.poison();
        };
        match self.check(ops::RESHAPE, at, rules::reshape(&t, shape)) {
            Some(result) => self.emit1(ops::RESHAPE, at, &[x.id], &[], result),
            None => self.poison(),
        }
    }

    fn permute(&'k self, x: Tile<'k>, order: &[i64], at: &SourceLoc) -> Tile<'k> {
        let Some(t) = self.type_of(ops::PERMUTE, x, at) else {
            return self.poison();
        };
        let Some(result) = self.check(ops::PERMUTE, at, rules::permute(&t, order)) else {
            return self.poison();
        };
        // The rule bounds every entry by the rank.
        let order32: Vec<i32> = order.iter().map(|&a| a as i32).collect();
        let attr = DenseI32ArrayAttribute::new(self.context, &order32).into();
        self.emit1(ops::PERMUTE, at, &[x.id], &[("order", attr)], result)
    }

    fn join(&'k self, a: Tile<'k>, b: Tile<'k>, at: &SourceLoc) -> Tile<'k> {
        let (Some(ta), Some(tb)) = (
            self.type_of(ops::JOIN, a, at),
            self.type_of(ops::JOIN, b, at),
        ) else {
            return self.poison();
        };
        match self.check(ops::JOIN, at, rules::join(&ta, &tb)) {
            Some(result) => self.emit1(ops::JOIN, at, &[a.id, b.id], &[], result),
            None => self.poison(),
        }
    }

    fn split(&'k self, x: Tile<'k>, at: &SourceLoc) -> (Tile<'k>, Tile<'k>) {
        let poison = || (self.poison(), self.poison());
        let Some(t) = self.type_of(ops::SPLIT, x, at) else {
            return poison();
        };
        let Some(half) = self.check(ops::SPLIT, at, rules::split(&t)) else {
            return poison();
        };
        match self.emit(ops::SPLIT, at, &[x.id], &[], &[half.clone(), half], vec![]) {
            Some(ids) => (self.tile(ids[0]), self.tile(ids[1])),
            None => poison(),
        }
    }

    fn cat(&'k self, a: Tile<'k>, b: Tile<'k>, axis: i64, at: &SourceLoc) -> Tile<'k> {
        let (Some(ta), Some(tb)) = (self.type_of(ops::CAT, a, at), self.type_of(ops::CAT, b, at))
        else {
            return self.poison();
        };
        match self.check(ops::CAT, at, rules::cat(&ta, &tb, axis)) {
            Some(result) => {
                let axis = self.int_attr(32, axis);
                self.emit1(ops::CAT, at, &[a.id, b.id], &[("axis", axis)], result)
            }
            None => self.poison(),
        }
    }
}
