//! Building per-thread code with melior's builders: where ops go (the
//! current block, or the function's entry for hoisted values), at which
//! location, and one method per op the lowering makes.
//!
//! Ops come from melior's dialect builders where it has them (`arith`,
//! `llvm`, `scf`) and from [`OperationBuilder`] elsewhere (`gpu`,
//! `llvm.inline_asm`, `scf.for` with carried values). Upstream enumerated
//! attributes that MLIR's C API cannot make (`#gpu<dim x>`,
//! `#gpu<shuffle_mode xor>`) are parsed once per lowering.

use melior::Context;
use melior::dialect::arith::{self, CmpfPredicate, CmpiPredicate};
use melior::dialect::llvm::{self, LoadStoreOptions};
use melior::ir::attribute::{
    DenseI32ArrayAttribute, DenseI64ArrayAttribute, FloatAttribute, IntegerAttribute,
    StringAttribute,
};
use melior::ir::block::BlockLike;
use melior::ir::operation::{OperationBuilder, OperationLike};
use melior::ir::r#type::{IntegerType, TypeLike};
use melior::ir::{
    Attribute, Block, BlockRef, Identifier, Location, Operation, OperationRef, Region, RegionLike,
    Type, Value, ValueLike,
};
use mlir_sys::{MlirBlock, MlirValue};

/// A value of the code being built (a handle; the IR owns the value).
#[derive(Clone, Copy, Debug)]
pub struct Val(MlirValue);

impl PartialEq for Val {
    fn eq(&self, other: &Self) -> bool {
        self.0.ptr == other.0.ptr
    }
}

impl Eq for Val {}

impl std::hash::Hash for Val {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        (self.0.ptr as usize).hash(state);
    }
}

impl Val {
    /// The value as melior sees it.
    pub fn value<'c, 'a>(self) -> Value<'c, 'a> {
        // SAFETY: every `Val` is a result or block argument of the module
        // being built, which outlives the lowering.
        unsafe { Value::from_raw(self.0) }
    }

    /// The value's type.
    pub fn ty<'c>(self) -> Type<'c> {
        self.value().r#type()
    }

    /// The `Val` of a melior value.
    pub fn of<'c>(v: impl ValueLike<'c>) -> Val {
        Val(v.to_raw())
    }

    /// Argument `i` of `block`.
    pub fn of_arg(block: &Block, i: usize) -> Val {
        Val::of(block.argument(i).expect("the block's argument"))
    }
}

/// The address spaces of pointers in the generated code.
pub const GLOBAL: u32 = 1;
/// Shared memory.
pub const SHARED: u32 = 3;

/// Upstream enumerated attributes, parsed once.
struct EnumAttrs<'c> {
    dims: [Attribute<'c>; 3],
    shuffle_xor: Attribute<'c>,
    shuffle_up: Attribute<'c>,
    shuffle_down: Attribute<'c>,
    shuffle_idx: Attribute<'c>,
}

/// Which lane `gpu.shuffle` reads from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShuffleMode {
    /// The lane `offset` away by xor.
    Xor,
    /// The lane `offset` below (its own value where there is none).
    Up,
    /// The lane `offset` above (its own value where there is none).
    Down,
    /// Lane `offset`.
    Idx,
}

/// Where and at which location the lowering appends ops.
pub struct Ir<'c> {
    context: &'c Context,
    location: Location<'c>,
    /// Blocks being filled; the last is current.
    blocks: Vec<MlirBlock>,
    /// Blocks made by [`Ir::open_block`] and not yet closed.
    open: Vec<Block<'c>>,
    /// The function's entry block, where hoisted values go.
    prologue: MlirBlock,
    enums: EnumAttrs<'c>,
}

fn parse_attr<'c>(context: &'c Context, text: &str) -> Attribute<'c> {
    Attribute::parse(context, text).expect("the upstream dialects the lowering uses are loaded")
}

impl<'c> Ir<'c> {
    /// Builds into `prologue` (a function's entry block) first.
    pub fn new(context: &'c Context, prologue: MlirBlock, location: Location<'c>) -> Self {
        let dims = ["#gpu<dim x>", "#gpu<dim y>", "#gpu<dim z>"].map(|d| parse_attr(context, d));
        Ir {
            context,
            location,
            blocks: vec![prologue],
            open: Vec::new(),
            prologue,
            enums: EnumAttrs {
                dims,
                shuffle_xor: parse_attr(context, "#gpu<shuffle_mode xor>"),
                shuffle_up: parse_attr(context, "#gpu<shuffle_mode up>"),
                shuffle_down: parse_attr(context, "#gpu<shuffle_mode down>"),
                shuffle_idx: parse_attr(context, "#gpu<shuffle_mode idx>"),
            },
        }
    }

    /// The location new ops get.
    pub fn location(&self) -> Location<'c> {
        self.location
    }

    /// Gives new ops `location` (the tile op being lowered).
    pub fn set_location(&mut self, location: Location<'c>) {
        self.location = location;
    }

    /// Appends further ops to `block` (after the hoisted prologue, the
    /// body of the function).
    pub fn switch_to(&mut self, block: MlirBlock) {
        self.blocks = vec![block];
    }

    fn current(&self) -> BlockRef<'c, '_> {
        // SAFETY: the current block is the prologue, the body, or a block
        // of `open`, all alive while the lowering runs.
        unsafe { BlockRef::from_raw(*self.blocks.last().expect("a block is always open")) }
    }

    /// Appends `op` to the current block.
    pub fn push(&self, op: Operation<'c>) -> OperationRef<'c, '_> {
        self.current().append_operation(op)
    }

    /// Appends `op` to the prologue (values every thread computes once).
    pub fn hoist(&self, op: Operation<'c>) -> OperationRef<'c, '_> {
        // SAFETY: the prologue is the function's entry block, alive while
        // the lowering runs.
        unsafe { BlockRef::from_raw(self.prologue) }.append_operation(op)
    }

    /// Appends `op` (one result) and returns its result.
    pub fn push1(&self, op: Operation<'c>) -> Val {
        Val::of(self.push(op).result(0).expect("an op with a result"))
    }

    /// Appends `op` (one result) to the prologue and returns its result.
    pub fn hoist1(&self, op: Operation<'c>) -> Val {
        Val::of(self.hoist(op).result(0).expect("an op with a result"))
    }

    /// A generic op: `name(operands) {attributes} -> results`, appended.
    pub fn generic(
        &self,
        name: &str,
        operands: &[Val],
        results: &[Type<'c>],
        attributes: &[(Identifier<'c>, Attribute<'c>)],
    ) -> Vec<Val> {
        let operands: Vec<Value> = operands.iter().map(|v| v.value()).collect();
        let op = OperationBuilder::new(name, self.location)
            .add_operands(&operands)
            .add_attributes(attributes)
            .add_results(results)
            .build()
            .expect("ops without result type inference are always created");
        let op = self.push(op);
        op.results().map(Val::of).collect()
    }

    // ---- types and attributes ----

    /// `iN`.
    pub fn int_type(&self, bits: u32) -> Type<'c> {
        IntegerType::new(self.context, bits).into()
    }

    /// `!llvm.ptr<space>`.
    pub fn ptr_type(&self, space: u32) -> Type<'c> {
        llvm::r#type::pointer(self.context, space)
    }

    /// `vector<n x elem>`.
    pub fn vector_type(&self, n: u64, elem: Type<'c>) -> Type<'c> {
        // SAFETY: the shape outlives the call; `elem` is live.
        unsafe {
            let shape = [n as i64];
            Type::from_raw(mlir_sys::mlirVectorTypeGet(
                1,
                shape.as_ptr(),
                elem.to_raw(),
            ))
        }
    }

    /// `!llvm.struct<(t, t, ...)>`.
    pub fn struct_type(&self, fields: &[Type<'c>]) -> Type<'c> {
        llvm::r#type::r#struct(self.context, fields, false)
    }

    fn integer(&self, ty: Type<'c>, value: i64) -> Attribute<'c> {
        IntegerAttribute::new(ty, value).into()
    }

    // ---- constants (hoisted) ----

    /// An `arith.constant` of `value`, in the prologue.
    pub fn constant(&self, value: Attribute<'c>) -> Val {
        self.hoist1(arith::constant(self.context, value, self.location))
    }

    /// An integer constant of type `ty`, in the prologue.
    pub fn int_constant(&self, ty: Type<'c>, value: i64) -> Val {
        self.constant(self.integer(ty, value))
    }

    /// A float constant of type `ty`, in the prologue.
    pub fn float_constant(&self, ty: Type<'c>, value: f64) -> Val {
        self.constant(FloatAttribute::new(self.context, ty, value).into())
    }

    // ---- arith ----

    /// A binary `arith` op made by one of melior's builders
    /// (`arith::addi`, ...), appended.
    pub fn binary(
        &self,
        make: fn(Value<'c, '_>, Value<'c, '_>, Location<'c>) -> Operation<'c>,
        a: Val,
        b: Val,
    ) -> Val {
        self.push1(make(a.value(), b.value(), self.location))
    }

    /// The same in the prologue.
    pub fn hoisted_binary(
        &self,
        make: fn(Value<'c, '_>, Value<'c, '_>, Location<'c>) -> Operation<'c>,
        a: Val,
        b: Val,
    ) -> Val {
        self.hoist1(make(a.value(), b.value(), self.location))
    }

    /// A conversion made by one of melior's builders (`arith::extui`,
    /// `arith::bitcast`, ...) to `ty`, appended.
    pub fn cast(
        &self,
        make: fn(Value<'c, '_>, Type<'c>, Location<'c>) -> Operation<'c>,
        v: Val,
        ty: Type<'c>,
    ) -> Val {
        self.push1(make(v.value(), ty, self.location))
    }

    /// `arith.cmpi`, appended.
    pub fn cmpi(&self, predicate: CmpiPredicate, a: Val, b: Val) -> Val {
        self.push1(arith::cmpi(
            self.context,
            predicate,
            a.value(),
            b.value(),
            self.location,
        ))
    }

    /// `arith.cmpi` in the prologue.
    pub fn hoisted_cmpi(&self, predicate: CmpiPredicate, a: Val, b: Val) -> Val {
        self.hoist1(arith::cmpi(
            self.context,
            predicate,
            a.value(),
            b.value(),
            self.location,
        ))
    }

    /// `arith.cmpf`, appended.
    pub fn cmpf(&self, predicate: CmpfPredicate, a: Val, b: Val) -> Val {
        self.push1(arith::cmpf(
            self.context,
            predicate,
            a.value(),
            b.value(),
            self.location,
        ))
    }

    /// `arith.select`, appended.
    pub fn select(&self, c: Val, a: Val, b: Val) -> Val {
        self.push1(arith::select(
            c.value(),
            a.value(),
            b.value(),
            self.location,
        ))
    }

    // ---- gpu ----

    fn index_to_i32(&self, index: Val, hoisted: bool) -> Val {
        let op = arith::index_cast(index.value(), self.int_type(32), self.location);
        if hoisted {
            self.hoist1(op)
        } else {
            self.push1(op)
        }
    }

    /// The thread's index in the block along x, as i32 (hoisted).
    pub fn thread_id(&self) -> Val {
        let op = self.gpu_dim_op("gpu.thread_id", 0);
        let index = self.hoist1(op);
        self.index_to_i32(index, true)
    }

    /// `gpu.block_id` (`grid` false) or `gpu.grid_dim` (`grid` true) along
    /// `axis`, as i32, appended.
    pub fn block_query(&self, axis: usize, grid: bool) -> Val {
        let name = if grid { "gpu.grid_dim" } else { "gpu.block_id" };
        let index = self.push1(self.gpu_dim_op(name, axis));
        self.index_to_i32(index, false)
    }

    fn gpu_dim_op(&self, name: &str, axis: usize) -> Operation<'c> {
        OperationBuilder::new(name, self.location)
            .add_attributes(&[(
                Identifier::new(self.context, "dimension"),
                self.enums.dims[axis],
            )])
            .add_results(&[Type::index(self.context)])
            .build()
            .expect("ops without result type inference are always created")
    }

    /// `gpu.barrier`, appended.
    pub fn barrier(&self) {
        self.generic("gpu.barrier", &[], &[], &[]);
    }

    /// `gpu.shuffle <mode> value, offset, width` (32-bit or 64-bit values).
    pub fn shuffle(&self, mode: ShuffleMode, value: Val, offset: Val, width: Val) -> Val {
        let attr = match mode {
            ShuffleMode::Xor => self.enums.shuffle_xor,
            ShuffleMode::Up => self.enums.shuffle_up,
            ShuffleMode::Down => self.enums.shuffle_down,
            ShuffleMode::Idx => self.enums.shuffle_idx,
        };
        let mode = (Identifier::new(self.context, "mode"), attr);
        let ty = value.ty();
        self.generic(
            "gpu.shuffle",
            &[value, offset, width],
            &[ty, self.int_type(1)],
            &[mode],
        )[0]
    }

    // ---- llvm ----

    /// `llvm.getelementptr base[index]` over elements of `elem`, in the
    /// address space of `base`.
    pub fn gep(&self, base: Val, index: Val, elem: Type<'c>) -> Val {
        self.push1(llvm::get_element_ptr_dynamic(
            self.context,
            base.value(),
            &[index.value()],
            elem,
            base.ty(),
            self.location,
        ))
    }

    /// `llvm.getelementptr base[offset]` with a constant `offset` (which
    /// LLVM folds into the addressing of the access).
    pub fn gep_const(&self, base: Val, offset: i64, elem: Type<'c>) -> Val {
        self.push1(llvm::get_element_ptr(
            self.context,
            base.value(),
            DenseI32ArrayAttribute::new(self.context, &[offset as i32]),
            elem,
            base.ty(),
            self.location,
        ))
    }

    /// `llvm.load` of a `ty` at `ptr`, aligned to `align` bytes.
    pub fn load(&self, ptr: Val, ty: Type<'c>, align: u64) -> Val {
        let options = LoadStoreOptions::new().align(Some(self.align(align)));
        self.push1(llvm::load(
            self.context,
            ptr.value(),
            ty,
            self.location,
            options,
        ))
    }

    /// `llvm.store` of `value` at `ptr`, aligned to `align` bytes.
    pub fn store(&self, value: Val, ptr: Val, align: u64) {
        self.store_with(value, ptr, align, false);
    }

    /// `llvm.store volatile` of `value` at `ptr`, aligned to `align`
    /// bytes: for stores into shared memory that other threads read after
    /// a barrier. LLVM has nothing to remove or merge there, and its
    /// dead-store elimination otherwise takes time quadratic in their
    /// number (19 ms of a 90 ms matmul compile); the PTX is the same but
    /// for the `.volatile` qualifier.
    pub fn store_for_others(&self, value: Val, ptr: Val, align: u64) {
        self.store_with(value, ptr, align, true);
    }

    fn store_with(&self, value: Val, ptr: Val, align: u64, volatile: bool) {
        let options = LoadStoreOptions::new()
            .align(Some(self.align(align)))
            .volatile(volatile);
        self.push(llvm::store(
            self.context,
            value.value(),
            ptr.value(),
            self.location,
            options,
        ));
    }

    fn align(&self, bytes: u64) -> IntegerAttribute<'c> {
        IntegerAttribute::new(self.int_type(64), bytes as i64)
    }

    /// Element `index` of an `!llvm.struct` (of fields of type `ty`).
    pub fn extract_value(&self, aggregate: Val, index: i64, ty: Type<'c>) -> Val {
        self.push1(llvm::extract_value(
            self.context,
            aggregate.value(),
            DenseI64ArrayAttribute::new(self.context, &[index]),
            ty,
            self.location,
        ))
    }

    /// Element `index` (an i32) of a vector of elements of type `ty`.
    pub fn extract_element(&self, vector: Val, index: Val, ty: Type<'c>) -> Val {
        self.generic("llvm.extractelement", &[vector, index], &[ty], &[])[0]
    }

    /// `vector` with element `index` (an i32) replaced by `value`.
    pub fn insert_element(&self, vector: Val, value: Val, index: Val) -> Val {
        let ty = vector.ty();
        self.generic("llvm.insertelement", &[vector, value, index], &[ty], &[])[0]
    }

    /// `llvm.mlir.poison` of type `ty`.
    pub fn poison(&self, ty: Type<'c>) -> Val {
        self.generic("llvm.mlir.poison", &[], &[ty], &[])[0]
    }

    /// `llvm.call_intrinsic "name"(args) : ty`, appended. (melior's
    /// builder of this op leaves out its operand segments.)
    pub fn intrinsic(&self, name: &str, args: &[Val], ty: Type<'c>) -> Val {
        let c = self.context;
        self.generic(
            "llvm.call_intrinsic",
            args,
            &[ty],
            &[
                (
                    Identifier::new(c, "intrin"),
                    StringAttribute::new(c, name).into(),
                ),
                (Identifier::new(c, "op_bundle_sizes"), self.i32_array(&[])),
                (
                    Identifier::new(c, "operandSegmentSizes"),
                    self.i32_array(&[args.len() as i32, 0]),
                ),
            ],
        )[0]
    }

    /// `llvm.inline_asm` of `asm` with `constraints` on `args`, giving
    /// `result` (none for `None`). `side_effects` keeps it in place: it is
    /// never merged, hoisted or moved across other memory operations.
    pub fn inline_asm(
        &self,
        asm: &str,
        constraints: &str,
        args: &[Val],
        result: Option<Type<'c>>,
        side_effects: bool,
    ) -> Option<Val> {
        let c = self.context;
        let mut attrs = vec![
            (
                Identifier::new(c, "asm_string"),
                StringAttribute::new(c, asm).into(),
            ),
            (
                Identifier::new(c, "constraints"),
                StringAttribute::new(c, constraints).into(),
            ),
        ];
        if side_effects {
            attrs.push((Identifier::new(c, "has_side_effects"), Attribute::unit(c)));
        }
        let results: Vec<Type> = result.into_iter().collect();
        self.generic("llvm.inline_asm", args, &results, &attrs)
            .first()
            .copied()
    }

    /// An `llvm.inline_asm` without side effects and with one result,
    /// appended to the prologue (its arguments must be defined there).
    pub fn hoisted_inline_asm(
        &self,
        asm: &str,
        constraints: &str,
        args: &[Val],
        result: Type<'c>,
    ) -> Val {
        let c = self.context;
        let operands: Vec<Value> = args.iter().map(|v| v.value()).collect();
        let op = OperationBuilder::new("llvm.inline_asm", self.location)
            .add_operands(&operands)
            .add_attributes(&[
                (
                    Identifier::new(c, "asm_string"),
                    StringAttribute::new(c, asm).into(),
                ),
                (
                    Identifier::new(c, "constraints"),
                    StringAttribute::new(c, constraints).into(),
                ),
            ])
            .add_results(&[result])
            .build()
            .expect("ops without result type inference are always created");
        self.hoist1(op)
    }

    /// `llvm.mlir.addressof @name` of a global in address space `space`,
    /// in the prologue.
    pub fn address_of(&self, name: &str, space: u32) -> Val {
        let op = OperationBuilder::new("llvm.mlir.addressof", self.location)
            .add_attributes(&[(
                Identifier::new(self.context, "global_name"),
                melior::ir::attribute::FlatSymbolRefAttribute::new(self.context, name).into(),
            )])
            .add_results(&[self.ptr_type(space)])
            .build()
            .expect("ops without result type inference are always created");
        self.hoist1(op)
    }

    // ---- regions ----

    /// Starts a block with arguments of `types` and appends to it until
    /// [`Ir::close_block`]; returns the arguments.
    pub fn open_block(&mut self, types: &[Type<'c>]) -> Vec<Val> {
        let args: Vec<(Type<'c>, Location<'c>)> =
            types.iter().map(|&t| (t, self.location)).collect();
        let block = Block::new(&args);
        let values = (0..types.len())
            .map(|i| Val::of(block.argument(i).expect("the block's argument")))
            .collect();
        self.blocks.push(block.to_raw());
        self.open.push(block);
        values
    }

    /// Ends the block [`Ir::open_block`] started, terminated by
    /// `scf.yield` of `yielded`, and returns it as a region.
    pub fn close_block(&mut self, yielded: &[Val]) -> Region<'c> {
        let values: Vec<Value> = yielded.iter().map(|v| v.value()).collect();
        self.push(melior::dialect::scf::r#yield(&values, self.location));
        self.blocks.pop();
        let block = self.open.pop().expect("a block opened by open_block");
        let region = Region::new();
        region.append_block(block);
        region
    }

    /// Ends the block [`Ir::open_block`] started as a while loop's
    /// condition block: `scf.condition(condition) forwarded...`.
    pub fn close_condition_block(&mut self, condition: Val, forwarded: &[Val]) -> Region<'c> {
        let values: Vec<Value> = forwarded.iter().map(|v| v.value()).collect();
        self.push(melior::dialect::scf::condition(
            condition.value(),
            &values,
            self.location,
        ));
        self.blocks.pop();
        let block = self.open.pop().expect("a block opened by open_block");
        let region = Region::new();
        region.append_block(block);
        region
    }

    /// `scf.while (inits) { before } do { after }` giving results of
    /// `types` (the values `before` forwards when its condition fails).
    pub fn while_loop(
        &self,
        inits: &[Val],
        types: &[Type<'c>],
        before: Region<'c>,
        after: Region<'c>,
    ) -> Vec<Val> {
        let operands: Vec<Value> = inits.iter().map(|v| v.value()).collect();
        self.push(melior::dialect::scf::r#while(
            &operands,
            types,
            before,
            after,
            self.location,
        ))
        .results()
        .map(Val::of)
        .collect()
    }

    /// `scf.for lower to upper step step iter_args(inits)` with `body`
    /// (whose block takes the induction variable and the carried values);
    /// returns the carried values after the loop.
    pub fn for_loop(&self, bounds: [Val; 3], inits: &[Val], body: Region<'c>) -> Vec<Val> {
        let operands: Vec<Value> = bounds.iter().chain(inits).map(|v| v.value()).collect();
        let types: Vec<Type> = inits.iter().map(|v| v.ty()).collect();
        let op = OperationBuilder::new("scf.for", self.location)
            .add_operands(&operands)
            .add_results(&types)
            .add_regions([body])
            .build()
            .expect("ops without result type inference are always created");
        self.push(op).results().map(Val::of).collect()
    }

    /// `scf.if condition { then }` without results.
    pub fn if_then(&self, condition: Val, then: Region<'c>) {
        self.push(melior::dialect::scf::r#if(
            condition.value(),
            &[],
            then,
            Region::new(),
            self.location,
        ));
    }

    /// `scf.if condition { then } else { otherwise }` with results of
    /// `types` (each region ends in `scf.yield` of them).
    pub fn if_else(
        &self,
        condition: Val,
        then: Region<'c>,
        otherwise: Region<'c>,
        types: &[Type<'c>],
    ) -> Vec<Val> {
        self.push(melior::dialect::scf::r#if(
            condition.value(),
            types,
            then,
            otherwise,
            self.location,
        ))
        .results()
        .map(Val::of)
        .collect()
    }

    /// A `DenseI32ArrayAttribute`.
    pub fn i32_array(&self, values: &[i32]) -> Attribute<'c> {
        DenseI32ArrayAttribute::new(self.context, values).into()
    }
}
