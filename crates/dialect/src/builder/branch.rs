//! Control flow on scalar conditions: `scf.if` (with or without results)
//! and `scf.while`, each carrying tiles and block pointers.
//!
//! A condition is a scalar `i1`, the same in every thread of a program:
//! on the GPU, every thread takes the same branch and runs the same number
//! of iterations, so tensor ops (reductions, atomics) may be used inside.

use super::kernel::KernelBuilder;
use super::tile::Tile;
use crate::DType;
use crate::error::{Rule, SourceLoc};
use crate::types::TileType;
use melior::ir::block::BlockLike;
use melior::ir::{Block, Region, RegionLike};

impl<'k> KernelBuilder<'k> {
    /// `if condition { then() } else { otherwise() }`, giving the `N`
    /// values the branch taken returns. Both branches must return values
    /// of the same types.
    ///
    /// ```
    /// # use tile_dialect::{new_context, DType, Kernel};
    /// # let context = new_context().unwrap();
    /// # Kernel::build(&context, "k", |k| {
    /// let (x, n) = (k.arg_ptr("x", DType::F32), k.arg("n", DType::I32));
    /// let offs = k.arange(0, 128);
    /// let [scale] = k.if_else(
    ///     n.gt(1024),
    ///     || [k.full(&[128], 0.5f64, DType::F32)],
    ///     || [k.full(&[128], 2.0f64, DType::F32)],
    /// );
    /// let v = k.load(x + offs).mask(offs.lt(n)).build();
    /// k.store(x + offs, v * scale).mask(offs.lt(n)).build();
    /// # }).unwrap();
    /// ```
    ///
    /// Values defined inside a branch cannot be used after the `if`:
    /// return them.
    #[track_caller]
    pub fn if_else<const N: usize>(
        &'k self,
        condition: Tile<'k>,
        then: impl FnOnce() -> [Tile<'k>; N],
        otherwise: impl FnOnce() -> [Tile<'k>; N],
    ) -> [Tile<'k>; N] {
        let at = SourceLoc::caller();
        match self.branch(condition, then, Some(otherwise), &at) {
            Some(ids) => std::array::from_fn(|i| self.tile(ids[i])),
            None => [self.poison(); N],
        }
    }

    /// `if condition { then() }`: ops with effects (stores, atomics)
    /// guarded by a scalar condition.
    ///
    /// ```
    /// # use tile_dialect::{new_context, DType, Kernel};
    /// # let context = new_context().unwrap();
    /// # Kernel::build(&context, "k", |k| {
    /// let (out, flag) = (k.arg_ptr("out", DType::I32), k.arg("flag", DType::I32));
    /// k.if_then(flag.ne(0), || {
    ///     k.store(out + k.program_id(0), k.i32(1)).build();
    /// });
    /// # }).unwrap();
    /// ```
    #[track_caller]
    pub fn if_then(&'k self, condition: Tile<'k>, then: impl FnOnce()) {
        let at = SourceLoc::caller();
        let no_else: Option<fn() -> [Tile<'k>; 0]> = None;
        self.branch(
            condition,
            || {
                then();
                []
            },
            no_else,
            &at,
        );
    }

    /// `scf.if` with a `then` block and, if given, an `else` block (which
    /// must yield the same types); the results' ids, `None` after an
    /// error.
    fn branch<const N: usize>(
        &'k self,
        condition: Tile<'k>,
        then: impl FnOnce() -> [Tile<'k>; N],
        otherwise: Option<impl FnOnce() -> [Tile<'k>; N]>,
        at: &SourceLoc,
    ) -> Option<Vec<u32>> {
        let op = "scf.if";
        let condition = self.condition(op, condition, at)?;
        if let Err(rule) = crate::limits::check_depth(self.depth() + 1) {
            return self.fail(op, rule, at);
        }
        let then_block = Block::new(&[]);
        self.open_block(&then_block);
        let yielded = then();
        let types = self.yield_all(op, &yielded, None, at);
        self.close_block();
        let types = types?;
        let else_region = match otherwise {
            Some(otherwise) => {
                let else_block = Block::new(&[]);
                self.open_block(&else_block);
                let yielded = otherwise();
                let ok = self.yield_all(op, &yielded, Some(&types), at).is_some();
                self.close_block();
                if !ok {
                    return None;
                }
                region_of(else_block)
            }
            None => Region::new(),
        };
        if self.failed() {
            return None;
        }
        let regions = vec![region_of(then_block), else_region];
        self.emit(op, at, &[condition], &[], &types, regions)
    }

    /// `while condition(state) { state = body(state) }` over `N` carried
    /// values: `condition` sees the current values and returns a scalar
    /// `i1`; `body` returns the next values; the loop returns the values
    /// for which the condition first failed.
    ///
    /// ```
    /// # use tile_dialect::{new_context, DType, Kernel};
    /// # let context = new_context().unwrap();
    /// # Kernel::build(&context, "k", |k| {
    /// // Spin until this program holds the lock at `lock`.
    /// let lock = k.arg_ptr("lock", DType::I32);
    /// let [_] = k.while_loop(
    ///     [k.i32(1)],
    ///     |[old]| old.eq(1),
    ///     |[_]| [k.atomic_cas(lock, 0, 1).build()],
    /// );
    /// # }).unwrap();
    /// ```
    ///
    /// Values defined in the condition or the body cannot be used after
    /// the loop: carry them.
    #[track_caller]
    pub fn while_loop<const N: usize>(
        &'k self,
        init: [Tile<'k>; N],
        condition: impl FnOnce([Tile<'k>; N]) -> Tile<'k>,
        body: impl FnOnce([Tile<'k>; N]) -> [Tile<'k>; N],
    ) -> [Tile<'k>; N] {
        let at = SourceLoc::caller();
        let op = "scf.while";
        let poison = [self.poison(); N];
        if let Err(rule) = crate::limits::check_depth(self.depth() + 1) {
            self.fail::<()>(op, rule, &at);
            return poison;
        }
        let mut types = Vec::with_capacity(N);
        for t in init {
            let Some(ty) = self.type_of(op, t, &at) else {
                return poison;
            };
            types.push(ty);
        }
        let location = self.location(&at);
        let arg_types: Vec<_> = types
            .iter()
            .map(|t| (self.mlir_type(t), location))
            .collect();

        // The condition: `scf.condition(c) state...` forwards the state.
        let before = Block::new(&arg_types);
        self.open_block(&before);
        let state = self.arguments(&before, &types);
        let c = condition(state);
        let forwarded = self.condition(op, c, &at).map(|c| {
            let mut operands = vec![c];
            operands.extend(state.iter().map(|t| t.id));
            self.emit("scf.condition", &at, &operands, &[], &[], vec![]);
        });
        self.close_block();
        if forwarded.is_none() {
            return poison;
        }

        // The body: its values are the ones the condition forwarded.
        let after = Block::new(&arg_types);
        self.open_block(&after);
        let state = self.arguments(&after, &types);
        let next = body(state);
        let ok = self.yield_all(op, &next, Some(&types), &at).is_some();
        self.close_block();
        if !ok || self.failed() {
            return poison;
        }
        let operands: Vec<u32> = init.iter().map(|t| t.id).collect();
        let regions = vec![region_of(before), region_of(after)];
        match self.emit(op, &at, &operands, &[], &types, regions) {
            Some(ids) => std::array::from_fn(|i| self.tile(ids[i])),
            None => poison,
        }
    }

    /// The value id of a scalar `i1` condition, or the error recorded.
    fn condition(&'k self, op: &'static str, c: Tile<'k>, at: &SourceLoc) -> Option<u32> {
        let ty = self.type_of(op, c, at)?;
        if !ty.is_scalar() || ty.num() != Some(DType::I1) {
            return self.fail(
                op,
                Rule::WrongOperand {
                    what: "condition",
                    expected: "a scalar i1 (a comparison of scalars)",
                    found: ty.to_string(),
                },
                at,
            );
        }
        Some(c.id)
    }

    /// `block`'s arguments as tiles of `types`, in the current scope.
    fn arguments<const N: usize>(&'k self, block: &Block<'k>, types: &[TileType]) -> [Tile<'k>; N] {
        std::array::from_fn(|i| {
            let arg = block.argument(i).expect("one argument per carried value");
            self.tile(self.register_argument(arg.into(), types[i].clone()))
        })
    }

    /// Ends the current block with `scf.yield` of `values`, checked
    /// against `expected` (the carried types of a loop, the first branch's
    /// types) or giving their types (the first branch). `None` after an
    /// error.
    pub(super) fn yield_all(
        &'k self,
        op: &'static str,
        values: &[Tile<'k>],
        expected: Option<&[TileType]>,
        at: &SourceLoc,
    ) -> Option<Vec<TileType>> {
        let mut types = Vec::with_capacity(values.len());
        for (index, t) in values.iter().enumerate() {
            let ty = self.type_of(op, *t, at)?;
            if let Some(want) = expected.and_then(|e| e.get(index))
                && want != &ty
            {
                let rule = if op == "scf.if" {
                    Rule::BranchMismatch {
                        index,
                        then: want.to_string(),
                        otherwise: ty.to_string(),
                    }
                } else {
                    Rule::LoopCarriedMismatch {
                        index,
                        expected: want.to_string(),
                        found: ty.to_string(),
                    }
                };
                return self.fail(op, rule, at);
            }
            types.push(ty);
        }
        let ids: Vec<u32> = values.iter().map(|t| t.id).collect();
        self.emit("scf.yield", at, &ids, &[], &[], vec![])?;
        Some(types)
    }
}

/// A region holding `block`.
pub(super) fn region_of(block: Block<'_>) -> Region<'_> {
    let region = Region::new();
    region.append_block(block);
    region
}
