//! Loops: `scf.for` with loop-carried tiles and block pointers.

use super::kernel::{KernelBuilder, POISON};
use super::tile::{IntoOperand, Operand, Tile};
use crate::DType;
use crate::error::{Rule, SourceLoc};
use crate::types::TileType;
use melior::ir::Block;
use melior::ir::block::BlockLike;

impl<'k> KernelBuilder<'k> {
    /// A counted loop `for i in (start..end).step_by(step)`, carrying `N`
    /// values: `body` gets the induction variable and the carried values and
    /// returns their next values; the loop returns their final values.
    ///
    /// ```
    /// # use tile_dialect::{new_context, DType, Kernel};
    /// # const BLOCK: i32 = 256;
    /// # let context = new_context().unwrap();
    /// # Kernel::build(&context, "k", |k| {
    /// # let (a, n) = (k.arg_ptr("a", DType::F32), k.arg("n", DType::I32));
    /// # let x_block = k.make_block_ptr(a).shape([k.i32(1), n]).strides([n, k.i32(1)])
    /// #     .offsets([0, 0]).block_shape([1, BLOCK as i64]).build();
    /// let acc = k.zeros(&[1], DType::F32);
    /// let n_tiles = n.cdiv(BLOCK);
    /// let [acc, _] = k.for_range(0, n_tiles, 1, [acc, x_block], |_, [acc, x_block]| {
    ///     let row = k.load(x_block).boundary_check(&[0, 1]).build();
    ///     [acc + row.sum(1), x_block.advance([0, BLOCK])]
    /// });
    /// # }).unwrap();
    /// ```
    ///
    /// Bounds are i32 or i64 (literals take the type of the tile bounds,
    /// i32 by default). Values defined in the body cannot be used after the
    /// loop: carry them.
    #[track_caller]
    pub fn for_range<const N: usize>(
        &'k self,
        start: impl IntoOperand<'k>,
        end: impl IntoOperand<'k>,
        step: impl IntoOperand<'k>,
        init: [Tile<'k>; N],
        body: impl FnOnce(Tile<'k>, [Tile<'k>; N]) -> [Tile<'k>; N],
    ) -> [Tile<'k>; N] {
        self.counted_loop(None, start, end, step, init, body)
    }

    /// [`Self::for_range`] pipelined with `num_stages` stages whatever the
    /// kernel's `num_stages` option says, as Triton's `tl.range(start,
    /// end, step, num_stages=S)`: its loads are fetched `S - 1`
    /// iterations ahead. For a loop of memory-bound loads (no product on
    /// tensor cores) this is the only way to ask for it; it pays where few
    /// programs run on each multiprocessor (a column sum over a narrow
    /// matrix: each iteration otherwise waits out a whole memory latency)
    /// and costs registers, so occupancy, where many do. 1 turns the
    /// loop's pipelining off.
    ///
    /// ```
    /// # use tile_dialect::{new_context, DType, Kernel};
    /// # let context = new_context().unwrap();
    /// # Kernel::build(&context, "k", |k| {
    /// # let (x, m) = (k.arg_ptr("x", DType::F32), k.arg("m", DType::I32));
    /// let cols = k.arange(0, 64);
    /// let acc = k.zeros(&[32, 64], DType::F32);
    /// let [acc] = k.for_range_staged(3, 0, m, 32, [acc], |off, [acc]| {
    ///     let rows = off + k.arange(0, 32);
    ///     let at = x + rows.expand_dims(1) * 64 + cols.expand_dims(0);
    ///     [acc + k.load(at).mask(rows.expand_dims(1).lt(m)).other(0.0).build()]
    /// });
    /// # }).unwrap();
    /// ```
    #[track_caller]
    pub fn for_range_staged<const N: usize>(
        &'k self,
        num_stages: u32,
        start: impl IntoOperand<'k>,
        end: impl IntoOperand<'k>,
        step: impl IntoOperand<'k>,
        init: [Tile<'k>; N],
        body: impl FnOnce(Tile<'k>, [Tile<'k>; N]) -> [Tile<'k>; N],
    ) -> [Tile<'k>; N] {
        self.counted_loop(Some(num_stages), start, end, step, init, body)
    }

    #[track_caller]
    fn counted_loop<const N: usize>(
        &'k self,
        num_stages: Option<u32>,
        start: impl IntoOperand<'k>,
        end: impl IntoOperand<'k>,
        step: impl IntoOperand<'k>,
        init: [Tile<'k>; N],
        body: impl FnOnce(Tile<'k>, [Tile<'k>; N]) -> [Tile<'k>; N],
    ) -> [Tile<'k>; N] {
        let at = SourceLoc::caller();
        let op = "scf.for";
        if let Some(s) = num_stages
            && !(1..=crate::limits::MAX_NUM_STAGES).contains(&s)
        {
            let stages = i64::from(s);
            self.fail::<()>(op, Rule::LoopStages { stages }, &at);
            return [self.poison(); N];
        }
        let poison = [self.poison(); N];
        let bounds = [
            start.into_operand(),
            end.into_operand(),
            step.into_operand(),
        ];
        let Some(bounds) = self.loop_bounds(op, bounds, &at) else {
            return poison;
        };
        if let Some(step) = self.constant_int(bounds[2])
            && step <= 0
        {
            self.fail::<()>(op, Rule::NonPositiveStep { step }, &at);
            return poison;
        }
        if let Err(rule) = crate::limits::check_depth(self.depth() + 1) {
            self.fail::<()>(op, rule, &at);
            return poison;
        }
        let mut init_types = Vec::with_capacity(N);
        for t in init {
            let Some(ty) = self.type_of(op, t, &at) else {
                return poison;
            };
            init_types.push(ty);
        }
        let iv_type = self.peek_type(bounds[0]);
        let location = self.location(&at);
        let mut arg_types = vec![(self.mlir_type(&iv_type), location)];
        arg_types.extend(init_types.iter().map(|t| (self.mlir_type(t), location)));
        let block = Block::new(&arg_types);
        self.open_block(&block);
        let iv_id = self.register_argument(block.argument(0).expect("iv").into(), iv_type);
        let carried: [Tile<'k>; N] = std::array::from_fn(|i| {
            let arg = block.argument(i + 1).expect("carried argument");
            self.tile(self.register_argument(arg.into(), init_types[i].clone()))
        });
        let yielded = body(self.tile(iv_id), carried);
        let ok = self
            .yield_all(op, &yielded, Some(&init_types), &at)
            .is_some();
        self.close_block();
        if !ok || self.failed() {
            return poison;
        }
        let region = super::branch::region_of(block);
        let mut operands = bounds.to_vec();
        operands.extend(init.iter().map(|t| t.id));
        let stages = num_stages.map(|s| {
            (
                crate::ops::LOOP_STAGES_ATTR,
                crate::view::attr::i32_attr(self.context, i64::from(s)),
            )
        });
        let attributes: Vec<_> = stages.into_iter().collect();
        match self.emit(op, &at, &operands, &attributes, &init_types, vec![region]) {
            Some(ids) => std::array::from_fn(|i| self.tile(ids[i])),
            None => poison,
        }
    }

    fn loop_bounds(
        &'k self,
        op: &'static str,
        bounds: [Operand<'k>; 3],
        at: &SourceLoc,
    ) -> Option<[u32; 3]> {
        let mut dtype = None;
        for b in bounds {
            if let Operand::Tile(t) = b {
                let ty = self.type_of(op, t, at)?;
                match ty.num() {
                    Some(d @ (DType::I32 | DType::I64))
                        if ty.is_scalar() && dtype.is_none_or(|x| x == d) =>
                    {
                        dtype = Some(d)
                    }
                    _ => {
                        return self.fail(
                            op,
                            Rule::WrongOperand {
                                what: "loop bounds",
                                expected: "scalar i32 or i64 values of one type",
                                found: ty.to_string(),
                            },
                            at,
                        );
                    }
                }
            }
        }
        let ty = TileType::scalar(dtype.unwrap_or(DType::I32));
        let mut ids = [POISON; 3];
        for (slot, b) in ids.iter_mut().zip(bounds) {
            *slot = match b {
                Operand::Tile(t) => t.id,
                Operand::Int(_) => {
                    let c = self.constant_of(op, b, &ty, at);
                    c.ty()?;
                    c.id
                }
                _ => {
                    return self.fail(
                        op,
                        Rule::WrongOperand {
                            what: "loop bounds",
                            expected: "integers",
                            found: format!("{b:?}"),
                        },
                        at,
                    );
                }
            };
        }
        Some(ids)
    }
}
