//! A Rust mirror of a module: ops, values, types and attributes as text.
//!
//! Our passes read the module into a [`Mirror`], transform it in plain
//! Rust, and hand the result back to MLIR as text in the generic op form
//! ([`Mirror::print`]), which MLIR parses and verifies again. Types and
//! attributes stay in MLIR's own printed syntax, so nothing is lost on the
//! way through; locations are kept on every op and block argument.

use melior::ir::attribute::AttributeLike;
use melior::ir::block::BlockLike;
use melior::ir::operation::OperationLike;
use melior::ir::r#type::TypeLike;
use melior::ir::{BlockRef, OperationRef, RegionLike, ValueLike};
use std::collections::HashMap;
use std::fmt::Write;

/// An SSA value's index in [`Mirror::values`].
pub type ValueId = usize;

/// What the mirror knows of a value.
#[derive(Clone, Debug)]
pub struct ValueData {
    /// The MLIR type, printed.
    pub ty: String,
    /// The location of a block argument (`loc(...)`); `None` for results.
    pub loc: Option<String>,
}

/// One operation.
#[derive(Clone, Debug)]
pub struct Op {
    /// The full op name, e.g. `arith.addi`.
    pub name: String,
    /// Operand values.
    pub operands: Vec<ValueId>,
    /// Result values.
    pub results: Vec<ValueId>,
    /// Attributes (inherent and discardable): name and printed value.
    pub attrs: Vec<(String, String)>,
    /// Single-block regions.
    pub regions: Vec<Block>,
    /// The printed location, `loc(...)`.
    pub loc: String,
    /// The MLIR location, for diagnostics (absent on ops a pass made).
    pub location: Option<mlir_sys::MlirLocation>,
}

/// A block: its arguments and ops.
#[derive(Clone, Debug, Default)]
pub struct Block {
    /// Block arguments.
    pub args: Vec<ValueId>,
    /// Operations in order.
    pub ops: Vec<Op>,
}

/// A module's attributes and top-level ops, and every value they use.
#[derive(Clone, Debug, Default)]
pub struct Mirror {
    /// Module attributes (name, printed value).
    pub attrs: Vec<(String, String)>,
    /// The ops of the module body.
    pub ops: Vec<Op>,
    /// Every value, indexed by [`ValueId`].
    pub values: Vec<ValueData>,
}

/// Why a module could not be mirrored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MirrorError {
    /// The op that could not be read.
    pub op: String,
    /// Its location.
    pub loc: String,
    /// What was wrong.
    pub message: String,
}

impl Op {
    /// A new op at `loc` (typically the location of the op it replaces).
    pub fn new(name: &str, operands: Vec<ValueId>, results: Vec<ValueId>, like: &Op) -> Op {
        Op {
            name: name.to_string(),
            operands,
            results,
            attrs: Vec::new(),
            regions: Vec::new(),
            loc: like.loc.clone(),
            location: like.location,
        }
    }

    /// The attribute's printed value.
    pub fn attr(&self, name: &str) -> Option<&str> {
        self.attrs
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// The attribute read as an integer (`3 : i32` gives 3).
    pub fn int_attr(&self, name: &str) -> Option<i64> {
        let text = self.attr(name)?;
        let number = text.split(':').next()?.trim();
        match number {
            "true" => Some(1),
            "false" => Some(0),
            n => n.parse().ok(),
        }
    }

    /// The attribute read as a string (`"ca"` gives `ca`).
    pub fn str_attr(&self, name: &str) -> Option<String> {
        let text = self.attr(name)?;
        let inner = text.strip_prefix('"')?.strip_suffix('"')?;
        Some(inner.replace("\\22", "\"").replace("\\\\", "\\"))
    }

    /// The attribute read as `array<i32: a, b>`.
    pub fn array_attr(&self, name: &str) -> Option<Vec<i64>> {
        let text = self.attr(name)?;
        let inner = text.strip_prefix("array<")?.strip_suffix('>')?;
        match inner.split_once(':') {
            None => Some(vec![]),
            Some((_, list)) => list.split(',').map(|x| x.trim().parse().ok()).collect(),
        }
    }

    /// Sets (or replaces) an attribute.
    pub fn set_attr(&mut self, name: &str, value: impl Into<String>) {
        let value = value.into();
        match self.attrs.iter_mut().find(|(n, _)| n == name) {
            Some(slot) => slot.1 = value,
            None => self.attrs.push((name.to_string(), value)),
        }
    }

    /// The `operandSegmentSizes` of an op with optional operands.
    pub fn segments(&self) -> Option<Vec<i64>> {
        self.array_attr("operandSegmentSizes")
    }
}

impl Mirror {
    /// Reads `module` (a `builtin.module` op).
    pub fn read(module: &OperationRef) -> Result<Mirror, MirrorError> {
        let mut reader = Reader::default();
        let mut mirror = Mirror {
            attrs: module
                .attributes()
                .map(|(n, a)| {
                    (
                        n.as_string_ref().as_str().unwrap_or("").to_string(),
                        a.to_string(),
                    )
                })
                .collect(),
            ..Mirror::default()
        };
        let region = module.region(0).map_err(|_| MirrorError {
            op: "builtin.module".into(),
            loc: module.location().to_string(),
            message: "a module without a body".into(),
        })?;
        let block = region.first_block().ok_or_else(|| MirrorError {
            op: "builtin.module".into(),
            loc: module.location().to_string(),
            message: "a module without a body".into(),
        })?;
        let body = reader.block(&block, "builtin.module", &module.location().to_string())?;
        mirror.ops = body.ops;
        mirror.values = reader.values;
        Ok(mirror)
    }

    /// A new value of type `ty`.
    pub fn new_value(&mut self, ty: impl Into<String>) -> ValueId {
        self.values.push(ValueData {
            ty: ty.into(),
            loc: None,
        });
        self.values.len() - 1
    }

    /// The type of a value.
    pub fn ty(&self, v: ValueId) -> &str {
        &self.values[v].ty
    }

    /// The module as MLIR text, every op in the generic form.
    pub fn print(&self) -> String {
        let mut out = String::from("module");
        if !self.attrs.is_empty() {
            out.push_str(" attributes ");
            print_attrs(&mut out, &self.attrs);
        }
        out.push_str(" {\n");
        for op in &self.ops {
            self.print_op(&mut out, op, 1);
        }
        out.push_str("}\n");
        out
    }

    fn print_op(&self, out: &mut String, op: &Op, depth: usize) {
        let pad = "  ".repeat(depth);
        out.push_str(&pad);
        if !op.results.is_empty() {
            let names: Vec<String> = op.results.iter().map(|r| format!("%{r}")).collect();
            let _ = write!(out, "{} = ", names.join(", "));
        }
        let operands: Vec<String> = op.operands.iter().map(|v| format!("%{v}")).collect();
        let _ = write!(out, "\"{}\"({})", op.name, operands.join(", "));
        if !op.regions.is_empty() {
            out.push_str(" (");
            for (i, block) in op.regions.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                out.push_str("{\n");
                if !block.args.is_empty() {
                    let args: Vec<String> = block
                        .args
                        .iter()
                        .map(|&a| {
                            let v = &self.values[a];
                            match &v.loc {
                                Some(loc) => format!("%{a}: {} {loc}", v.ty),
                                None => format!("%{a}: {}", v.ty),
                            }
                        })
                        .collect();
                    let _ = writeln!(out, "{pad}^bb0({}):", args.join(", "));
                }
                for inner in &block.ops {
                    self.print_op(out, inner, depth + 1);
                }
                out.push_str(&pad);
                out.push('}');
            }
            out.push(')');
        }
        if !op.attrs.is_empty() {
            out.push(' ');
            print_attrs(out, &op.attrs);
        }
        let types = |vs: &[ValueId]| -> String {
            vs.iter()
                .map(|&v| self.values[v].ty.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        };
        let _ = writeln!(
            out,
            " : ({}) -> ({}) {}",
            types(&op.operands),
            types(&op.results),
            op.loc
        );
    }

    /// Visits every op, nested ones after their parent, mutably.
    pub fn for_each_op_mut(&mut self, f: &mut impl FnMut(&mut Op)) {
        fn go(ops: &mut [Op], f: &mut impl FnMut(&mut Op)) {
            for op in ops {
                f(op);
                for block in &mut op.regions {
                    go(&mut block.ops, f);
                }
            }
        }
        go(&mut self.ops, f);
    }

    /// Visits every op, nested ones after their parent.
    pub fn for_each_op(&self, f: &mut impl FnMut(&Op)) {
        fn go(ops: &[Op], f: &mut impl FnMut(&Op)) {
            for op in ops {
                f(op);
                for block in &op.regions {
                    go(&block.ops, f);
                }
            }
        }
        go(&self.ops, f);
    }

    /// A module attribute, printed.
    pub fn attr(&self, name: &str) -> Option<&str> {
        self.attrs
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

fn print_attrs(out: &mut String, attrs: &[(String, String)]) {
    let items: Vec<String> = attrs
        .iter()
        .map(|(n, v)| {
            if v == "unit" {
                format!("\"{n}\"")
            } else {
                format!("\"{n}\" = {v}")
            }
        })
        .collect();
    let _ = write!(out, "{{{}}}", items.join(", "));
}

/// Reads a module into a [`Mirror`]. Types, attributes and locations are
/// uniqued by MLIR, so each distinct one is printed once and its text
/// reused (printing goes through MLIR's printer, which is far slower than
/// a lookup).
#[derive(Default)]
struct Reader {
    values: Vec<ValueData>,
    ids: HashMap<usize, ValueId>,
    types: HashMap<usize, String>,
    attrs: HashMap<usize, String>,
    locs: HashMap<usize, String>,
}

impl Reader {
    fn type_text(&mut self, ty: melior::ir::Type) -> String {
        let key = ty.to_raw().ptr as usize;
        self.types
            .entry(key)
            .or_insert_with(|| ty.to_string())
            .clone()
    }

    fn attr_text(&mut self, attr: melior::ir::Attribute) -> String {
        let key = attr.to_raw().ptr as usize;
        self.attrs
            .entry(key)
            .or_insert_with(|| attr.to_string())
            .clone()
    }

    fn loc_text(&mut self, loc: melior::ir::Location) -> String {
        let key = loc.to_raw().ptr as usize;
        self.locs
            .entry(key)
            .or_insert_with(|| loc.to_string())
            .clone()
    }

    fn value(&mut self, v: melior::ir::Value, loc: Option<String>) -> ValueId {
        let key = v.to_raw().ptr as usize;
        if let Some(&id) = self.ids.get(&key) {
            return id;
        }
        let ty = self.type_text(v.r#type());
        self.values.push(ValueData { ty, loc });
        let id = self.values.len() - 1;
        self.ids.insert(key, id);
        id
    }

    fn block(&mut self, block: &BlockRef, owner: &str, loc: &str) -> Result<Block, MirrorError> {
        let mut out = Block::default();
        for i in 0..block.argument_count() {
            let arg = block.argument(i).map_err(|_| MirrorError {
                op: owner.into(),
                loc: loc.into(),
                message: "unreadable block argument".into(),
            })?;
            // SAFETY: `arg` is a live block argument.
            let arg_loc = unsafe {
                melior::ir::Location::from_raw(mlir_sys::mlirValueGetLocation(arg.to_raw()))
            };
            let value: melior::ir::Value = arg.into();
            let arg_loc = self.loc_text(arg_loc);
            out.args.push(self.value(value, Some(arg_loc)));
        }
        let mut next = block.first_operation();
        while let Some(op) = next {
            out.ops.push(self.op(&op)?);
            next = op.next_in_block();
        }
        Ok(out)
    }

    fn op(&mut self, op: &OperationRef) -> Result<Op, MirrorError> {
        let name = op.name().as_string_ref().as_str().unwrap_or("").to_string();
        let loc = self.loc_text(op.location());
        let operands = op
            .operands()
            .map(|v| {
                let key = v.to_raw().ptr as usize;
                self.ids.get(&key).copied().ok_or_else(|| MirrorError {
                    op: name.clone(),
                    loc: loc.clone(),
                    message: "uses a value defined outside the module".into(),
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        let results = op.results().map(|r| self.value(r.into(), None)).collect();
        let attrs = op
            .attributes()
            .map(|(n, a)| {
                (
                    n.as_string_ref().as_str().unwrap_or("").to_string(),
                    self.attr_text(a),
                )
            })
            .collect();
        let mut regions = Vec::new();
        for region in op.regions() {
            let mut blocks = Vec::new();
            let mut next = region.first_block();
            while let Some(b) = next {
                blocks.push(b);
                next = b.next_in_region();
            }
            match blocks.as_slice() {
                [] => regions.push(Block::default()),
                [b] => regions.push(self.block(b, &name, &loc)?),
                _ => {
                    return Err(MirrorError {
                        op: name,
                        loc,
                        message: "regions with several blocks are not supported".into(),
                    });
                }
            }
        }
        Ok(Op {
            name,
            operands,
            results,
            attrs,
            regions,
            loc,
            location: Some(op.location().to_raw()),
        })
    }
}
