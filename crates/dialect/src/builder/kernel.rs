//! The kernel builder's state, op emission, arguments and finishing.

use super::tile::{Operand, Tile};
use crate::diagnostics::DiagnosticCapture;
use crate::error::{BuildError, Error, Result, Rule, SourceLoc};
use crate::types::{Elem, TileType};
use crate::view::TypeTable;
use crate::{DType, limits, ops, verify};
use melior::Context;
use melior::ir::attribute::{
    ArrayAttribute, DenseElementsAttribute, DictionaryAttribute, FloatAttribute, IntegerAttribute,
    StringAttribute, TypeAttribute,
};
use melior::ir::block::BlockLike;
use melior::ir::operation::{OperationBuilder, OperationLike, OperationPrintingFlags};
use melior::ir::r#type::FunctionType;
use melior::ir::{
    Attribute, Block, BlockRef, Identifier, Location, Module, Region, RegionLike, Type, Value,
    ValueLike,
};
use mlir_sys::{MlirBlock, MlirValue};
use std::cell::RefCell;
use std::fmt;

/// A kernel argument as the user declared it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Param {
    /// The name given to `arg`/`arg_ptr`.
    pub name: String,
    /// Its type: a scalar number or a scalar pointer.
    pub ty: TileType,
}

struct ValueInfo {
    raw: MlirValue,
    ty: TileType,
    scope: u32,
}

struct State {
    values: Vec<ValueInfo>,
    /// Blocks that ops are appended to; the last is current.
    blocks: Vec<MlirBlock>,
    /// Scopes whose values may be used now (0 is the kernel body).
    open_scopes: Vec<u32>,
    next_scope: u32,
    error: Option<BuildError>,
    params: Vec<Param>,
}

/// Builds one kernel. Obtained inside [`Kernel::build`]; its methods create
/// ops and return [`Tile`] handles to their results.
pub struct KernelBuilder<'c> {
    pub(super) context: &'c Context,
    entry: Block<'c>,
    state: RefCell<State>,
    types: TypeTable<'c>,
}

/// Index of the value standing for "an earlier call failed".
pub(super) const POISON: u32 = u32::MAX;

impl<'c> KernelBuilder<'c> {
    fn new(context: &'c Context) -> Self {
        let entry = Block::new(&[]);
        let state = State {
            values: Vec::new(),
            blocks: vec![entry.to_raw()],
            open_scopes: vec![0],
            next_scope: 1,
            error: None,
            params: Vec::new(),
        };
        KernelBuilder {
            context,
            entry,
            state: RefCell::new(state),
            types: TypeTable::new(context),
        }
    }

    /// True once a call has failed; later calls then do nothing.
    pub fn failed(&self) -> bool {
        self.state.borrow().error.is_some()
    }

    /// Records the first error; always returns `None` for `?`-style use.
    pub(super) fn fail<T>(&self, op: &'static str, rule: Rule, at: &SourceLoc) -> Option<T> {
        let mut s = self.state.borrow_mut();
        if s.error.is_none() {
            s.error = Some(BuildError {
                op,
                rule,
                at: at.clone(),
            });
        }
        None
    }

    /// Turns a rule result into an option, recording the error.
    pub(super) fn check<T>(
        &self,
        op: &'static str,
        at: &SourceLoc,
        r: std::result::Result<T, Rule>,
    ) -> Option<T> {
        match r {
            Ok(v) => Some(v),
            Err(rule) => self.fail(op, rule, at),
        }
    }

    /// The type of a live value of this builder; records misuse as `op`'s
    /// error. `None` for poison or misuse.
    pub(super) fn type_of(
        &self,
        op: &'static str,
        t: Tile<'_>,
        at: &SourceLoc,
    ) -> Option<TileType> {
        if self.failed() || t.id == POISON {
            return None;
        }
        if !std::ptr::eq(t.builder_addr(), self as *const _ as *const ()) {
            return self.fail(op, Rule::ForeignValue, at);
        }
        let s = self.state.borrow();
        let v = &s.values[t.id as usize];
        if !s.open_scopes.contains(&v.scope) {
            drop(s);
            return self.fail(op, Rule::ValueOutOfScope, at);
        }
        Some(v.ty.clone())
    }

    pub(super) fn location(&self, at: &SourceLoc) -> Location<'c> {
        Location::new(self.context, &at.file, at.line as usize, at.column as usize)
    }

    /// The MLIR type of a tile type (made once per builder).
    pub(super) fn mlir_type(&self, t: &TileType) -> Type<'c> {
        self.types.make(t, None)
    }

    fn register(&self, raw: MlirValue, ty: TileType) -> u32 {
        let mut s = self.state.borrow_mut();
        let scope = *s
            .open_scopes
            .last()
            .expect("the kernel scope is always open");
        s.values.push(ValueInfo { raw, ty, scope });
        (s.values.len() - 1) as u32
    }

    /// The type of a value id (no checks).
    pub(super) fn peek_type(&self, id: u32) -> TileType {
        self.state.borrow().values[id as usize].ty.clone()
    }

    pub(super) fn raw_value(&self, id: u32) -> MlirValue {
        self.state.borrow().values[id as usize].raw
    }

    fn current_block(&self) -> BlockRef<'c, '_> {
        let raw = *self
            .state
            .borrow()
            .blocks
            .last()
            .expect("a block is always open");
        // SAFETY: every block on the stack is owned by this builder or by a
        // frame of `for_range` that is still running, so it is alive.
        unsafe { BlockRef::from_raw(raw) }
    }

    /// Creates an op in the current block. Operands are ids of live values
    /// already type-checked by the caller; results get the given types.
    pub(super) fn emit(
        &self,
        name: &'static str,
        at: &SourceLoc,
        operands: &[u32],
        attributes: &[(&str, Attribute<'c>)],
        results: &[TileType],
        regions: Vec<Region<'c>>,
    ) -> Option<Vec<u32>> {
        for t in results {
            if let Err(rule) = crate::limits::check_tile(t.shape()) {
                return self.fail(name, rule, at);
            }
        }
        if !crate::ops::takes_fp8(name) {
            let state = self.state.borrow();
            let fp8 = operands
                .iter()
                .filter_map(|&id| state.values.get(id as usize).map(|v| v.ty.clone()))
                .chain(results.iter().cloned())
                .find_map(|t| t.num().filter(|d| d.is_fp8()));
            drop(state);
            if let Some(d) = fp8 {
                let dtype = d.to_string();
                return self.fail(name, Rule::Fp8Arithmetic { dtype }, at);
            }
        }
        let operand_values: Vec<Value<'c, '_>> = operands
            .iter()
            // SAFETY: ids index values whose defining ops or blocks are
            // alive and dominate the current block (checked by `type_of`).
            .map(|&id| unsafe { Value::from_raw(self.raw_value(id)) })
            .collect();
        let attributes: Vec<(Identifier<'c>, Attribute<'c>)> = attributes
            .iter()
            .map(|(n, a)| (Identifier::new(self.context, n), *a))
            .collect();
        let result_types: Vec<Type<'c>> = results.iter().map(|t| self.mlir_type(t)).collect();
        let op = OperationBuilder::new(name, self.location(at))
            .add_operands(&operand_values)
            .add_attributes(&attributes)
            .add_results(&result_types)
            .add_regions_vec(regions)
            .build();
        let op = match op {
            Ok(op) => op,
            Err(e) => {
                return self.fail(
                    name,
                    Rule::MlirRejected {
                        message: e.to_string(),
                    },
                    at,
                );
            }
        };
        let block = self.current_block();
        let op = block.append_operation(op);
        let ids = results
            .iter()
            .enumerate()
            .map(|(i, t)| {
                let raw = op.result(i).expect("result count set above").to_raw();
                self.register(raw, t.clone())
            })
            .collect();
        Some(ids)
    }

    /// Creates a single-result op and wraps the result as a tile.
    pub(super) fn emit1<'k>(
        &'k self,
        name: &'static str,
        at: &SourceLoc,
        operands: &[u32],
        attributes: &[(&str, Attribute<'c>)],
        result: TileType,
    ) -> Tile<'k>
    where
        'c: 'k,
    {
        let id = self
            .emit(name, at, operands, attributes, &[result], vec![])
            .map_or(POISON, |ids| ids[0]);
        self.tile(id)
    }

    pub(super) fn tile<'k>(&'k self, id: u32) -> Tile<'k>
    where
        'c: 'k,
    {
        Tile::new(self.as_erased(), id)
    }

    /// This builder with its context lifetime shortened, as tiles hold it.
    pub(super) fn as_erased<'k>(&'k self) -> &'k KernelBuilder<'k>
    where
        'c: 'k,
    {
        self
    }

    pub(super) fn poison<'k>(&'k self) -> Tile<'k>
    where
        'c: 'k,
    {
        self.tile(POISON)
    }

    /// Opens a nested block: values defined until `close_block` belong to a
    /// new scope. Returns the scope id.
    pub(super) fn open_block(&self, block: &Block<'c>) -> u32 {
        let mut s = self.state.borrow_mut();
        let scope = s.next_scope;
        s.next_scope += 1;
        s.open_scopes.push(scope);
        s.blocks.push(block.to_raw());
        scope
    }

    /// How deep the block ops are appended to now is nested: 1 for the
    /// kernel body.
    pub(super) fn depth(&self) -> usize {
        self.state.borrow().open_scopes.len()
    }

    /// The integer a value holds when a constant defines it (a literal
    /// the builder materialized, or `k.i32(0)`).
    pub(super) fn constant_int(&self, id: u32) -> Option<i64> {
        if id == POISON {
            return None;
        }
        // SAFETY: ids index live values of this builder.
        let value = unsafe { Value::from_raw(self.raw_value(id)) };
        match crate::view::Constant::of_value(value)? {
            crate::view::ConstantValue::Int(v) => Some(v),
            _ => None,
        }
    }

    /// Closes the block opened last.
    pub(super) fn close_block(&self) {
        let mut s = self.state.borrow_mut();
        s.open_scopes.pop();
        s.blocks.pop();
    }

    /// Registers a block argument as a value of the current scope.
    pub(super) fn register_argument(&self, value: Value<'c, '_>, ty: TileType) -> u32 {
        self.register(value.to_raw(), ty)
    }

    /// Materializes a literal as a constant of type `ty` (a scalar or a
    /// tensor of numbers). Integer literals fit any number type; float
    /// literals only float types.
    pub(super) fn constant_of<'k>(
        &'k self,
        op: &'static str,
        value: Operand<'_>,
        ty: &TileType,
        at: &SourceLoc,
    ) -> Tile<'k>
    where
        'c: 'k,
    {
        let Some(d) = ty.num() else {
            return self
                .fail(
                    op,
                    Rule::WrongOperand {
                        what: "constant",
                        expected: "a number type",
                        found: ty.to_string(),
                    },
                    at,
                )
                .unwrap_or_else(|| self.poison());
        };
        let bad_literal = |found: &'static str| Rule::DTypeMismatch {
            expected: d.to_string(),
            found: found.into(),
        };
        let elem = self.types.dtype(d);
        let scalar: Attribute<'c> = match value {
            Operand::Int(v) if !limits::int_fits(v, d) => {
                let rule = Rule::LiteralOutOfRange {
                    value: v.to_string(),
                    dtype: d,
                };
                return self.fail(op, rule, at).unwrap_or_else(|| self.poison());
            }
            Operand::Int(v) if d.is_float() => {
                FloatAttribute::new(self.context, elem, v as f64).into()
            }
            Operand::Int(v) => IntegerAttribute::new(elem, v).into(),
            Operand::Bool(b) if d == DType::I1 => IntegerAttribute::new(elem, i64::from(b)).into(),
            Operand::Float(v) if d.is_float() && !limits::float_fits(v, d) => {
                let rule = Rule::LiteralOutOfRange {
                    value: v.to_string(),
                    dtype: d,
                };
                return self.fail(op, rule, at).unwrap_or_else(|| self.poison());
            }
            Operand::Float(v) if d.is_float() => FloatAttribute::new(self.context, elem, v).into(),
            Operand::Float(_) => {
                return self
                    .fail(op, bad_literal("float literal"), at)
                    .unwrap_or_else(|| self.poison());
            }
            Operand::Bool(_) => {
                return self
                    .fail(op, bad_literal("bool literal"), at)
                    .unwrap_or_else(|| self.poison());
            }
            Operand::Tile(_) => unreachable!("constant() takes literals only"),
        };
        let attr = if ty.is_scalar() {
            scalar
        } else {
            DenseElementsAttribute::splat(self.mlir_type(ty), scalar).into()
        };
        self.emit1("arith.constant", at, &[], &[("value", attr)], ty.clone())
    }

    /// Declares a kernel argument and returns it as a tile.
    fn add_param<'k>(&'k self, name: &str, ty: TileType, at: &SourceLoc) -> Tile<'k>
    where
        'c: 'k,
    {
        if self.failed() {
            return self.poison();
        }
        let rule = if !valid_name(name) {
            Some(Rule::BadName { name: name.into() })
        } else if self.state.borrow().params.iter().any(|p| p.name == name) {
            Some(Rule::DuplicateName { name: name.into() })
        } else if ty.num().is_some_and(|d| d == DType::I1 || d.is_fp8()) {
            Some(Rule::BadParamType {
                name: name.into(),
                ty: ty.to_string(),
            })
        } else {
            None
        };
        if let Some(rule) = rule {
            return self
                .fail("func.func", rule, at)
                .unwrap_or_else(|| self.poison());
        }
        let mlir_ty = self.mlir_type(&ty);
        let value = self.entry.add_argument(mlir_ty, self.location(at));
        let id = self.register(value.to_raw(), ty.clone());
        self.state.borrow_mut().params.push(Param {
            name: name.into(),
            ty,
        });
        self.tile(id)
    }
}

fn valid_name(name: &str) -> bool {
    let mut chars = name.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

impl<'k> KernelBuilder<'k> {
    /// Declares a scalar argument of type `dtype` (`i32`, `i64`, `f32`, ...).
    #[track_caller]
    pub fn arg(&'k self, name: &str, dtype: DType) -> Tile<'k> {
        self.add_param(name, TileType::scalar(dtype), &SourceLoc::caller())
    }

    /// Declares a pointer argument to elements of `dtype`.
    #[track_caller]
    pub fn arg_ptr(&'k self, name: &str, dtype: DType) -> Tile<'k> {
        self.add_param(name, TileType::ptr(dtype), &SourceLoc::caller())
    }
}

/// A built and verified kernel: a module holding one `func.func` whose
/// body is tile IR.
pub struct Kernel<'c> {
    name: String,
    params: Vec<Param>,
    module: Module<'c>,
}

impl<'c> Kernel<'c> {
    /// Builds a kernel named `name` by running `body` on a fresh builder,
    /// then verifies it (MLIR's verifier and the tile rules).
    ///
    /// Returns the first rule a builder call broke, with the op and the
    /// caller's `file:line:col`.
    #[track_caller]
    pub fn build(
        context: &'c Context,
        name: &str,
        body: impl for<'k> FnOnce(&'k KernelBuilder<'k>),
    ) -> Result<Self> {
        let at = SourceLoc::caller();
        if !valid_name(name) {
            return Err(BuildError {
                op: "func.func",
                rule: Rule::BadName { name: name.into() },
                at,
            }
            .into());
        }
        let builder = KernelBuilder::new(context);
        body(&builder);
        builder.finish(name, &at)
    }

    /// The kernel's name (its `func.func` symbol).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The arguments, in order.
    pub fn params(&self) -> &[Param] {
        &self.params
    }

    /// The module holding the kernel.
    pub fn module(&self) -> &Module<'c> {
        &self.module
    }

    /// The module, for passes to transform.
    pub fn module_mut(&mut self) -> &mut Module<'c> {
        &mut self.module
    }

    /// The MLIR text with every op's source location, in the form that
    /// parses back to the same text.
    pub fn to_mlir_with_locations(&self) -> String {
        self.module
            .as_operation()
            .to_string_with_flags(OperationPrintingFlags::new().enable_debug_info(true, false))
            .expect("printing a verified module succeeds")
    }
}

impl fmt::Display for Kernel<'_> {
    /// The MLIR text without locations.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.module.as_operation())
    }
}

impl<'c> KernelBuilder<'c> {
    fn finish(self, name: &str, at: &SourceLoc) -> Result<Kernel<'c>> {
        let state = self.state.into_inner();
        if let Some(e) = state.error {
            return Err(e.into());
        }
        let context = self.context;
        let location = Location::new(context, &at.file, at.line as usize, at.column as usize);
        self.entry
            .append_operation(OperationBuilder::new("func.return", location).build()?);
        let inputs: Vec<Type> = state
            .params
            .iter()
            .map(|p| self.types.make(&p.ty, None))
            .collect();
        let function_type = FunctionType::new(context, &inputs, &[]);
        let arg_attrs: Vec<Attribute> = state
            .params
            .iter()
            .map(|p| {
                let name = (
                    Identifier::new(context, ops::ARG_NAME_ATTR),
                    StringAttribute::new(context, &p.name).into(),
                );
                DictionaryAttribute::new(context, &[name]).into()
            })
            .collect();
        let region = Region::new();
        region.append_block(self.entry);
        let mut attributes = vec![
            (
                Identifier::new(context, "sym_name"),
                StringAttribute::new(context, name).into(),
            ),
            (
                Identifier::new(context, "function_type"),
                TypeAttribute::new(function_type.into()).into(),
            ),
            (
                Identifier::new(context, ops::KERNEL_ATTR),
                Attribute::unit(context),
            ),
        ];
        if !arg_attrs.is_empty() {
            attributes.push((
                Identifier::new(context, "arg_attrs"),
                ArrayAttribute::new(context, &arg_attrs).into(),
            ));
        }
        let func = OperationBuilder::new("func.func", location)
            .add_attributes(&attributes)
            .add_regions([region])
            .build()?;
        let module = Module::new(location);
        module.body().append_operation(func);

        let capture = DiagnosticCapture::new(context);
        let mlir_ok = module.as_operation().verify();
        let mut diagnostics = capture.finish();
        let tile_ok = mlir_ok && {
            let (ok, found) = verify::verify_module(&module);
            diagnostics.extend(found);
            ok
        };
        if !tile_ok {
            return Err(Error::Invalid {
                what: format!("kernel `{name}` (an op the builder accepted; please report)"),
                diagnostics,
            });
        }
        Ok(Kernel {
            name: name.into(),
            params: state.params,
            module,
        })
    }
}

/// The element type a scalar or tensor of numbers must have for `what`.
pub(super) fn expect_num(what: &'static str, t: &TileType) -> std::result::Result<DType, Rule> {
    match t.elem() {
        Some(Elem::Num(d)) => Ok(d),
        _ => Err(Rule::WrongOperand {
            what,
            expected: "a number or a tensor of numbers",
            found: t.to_string(),
        }),
    }
}
