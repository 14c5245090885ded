//! `tile-assign-layouts`: gives every tensor a distributed layout as the
//! encoding of its type, in place.
//!
//! Values that elementwise ops, loads, stores, broadcasts and loop-carried
//! arguments tie together share one layout. `expand_dims` wants its source
//! in the slice of its result's layout, and a reduction yields the slice of
//! its source's layout. Classes of the highest rank get the layout their
//! largest load or store moves its tile best in (from the axis analysis),
//! else the default blocked layout of their shape
//! ([`Blocked::default_for`]); a class reduced or scanned spreads its
//! warps off the reduced axes first, as far as the copies of operands
//! broadcast over its rows allow (`reduced_warps`), and one scanned along
//! an axis other than its fastest moves lanes off that axis (vectors of 8
//! bytes or more left) and holds its repetitions along it in each thread
//! (one run a thread, see `layout_refinements`); lower-rank classes take
//! the slice their neighbours ask for. Where two neighbours disagree, a
//! `tile.convert_layout` is inserted (see [`layout_conversions`]). The
//! number of warps comes from the module attribute `tile.num_warps` (4
//! when absent).
//!
//! ```
//! # use melior::pass::PassManager;
//! # use tile_dialect::{DType, Kernel};
//! # let context = tile_dialect::new_context().unwrap();
//! # tile_passes::register_all(&context).unwrap();
//! let kernel = Kernel::build(&context, "copy", |k| {
//!     let x = k.arg_ptr("x", DType::F32);
//!     let y = k.arg_ptr("y", DType::F32);
//!     let n = k.arg("n", DType::I32);
//!     let offs = k.program_id(0) * 128 + k.arange(0, 128);
//!     let v = k.load(x + offs).mask(offs.lt(n)).build();
//!     k.store(y + offs, v).mask(offs.lt(n)).build();
//! })
//! .unwrap();
//! # let mut module = tile_passes::parse_module(&context, &kernel.to_string(), "copy").unwrap();
//! # let pm = PassManager::new(&context);
//! # let run = |pm: &PassManager, module: &mut melior::ir::Module| pm.run(module).unwrap();
//! // Every tensor gets a layout.
//! tile_passes::pipeline::add_pipeline(&pm.as_operation_pass_manager(), "builtin.module(tile-assign-layouts)")
//!     .unwrap();
//! run(&pm, &mut module);
//! let text = tile_passes::print_module(&module, false);
//! assert!(text.contains("#tile.blocked<"), "{text}");
//! ```

use crate::axis_analysis::AxisAnalysis;
use crate::edit::{self, key};
use crate::layout_classes::{Classes, Tensors};
use crate::layout_conversions::{self, OwnLayouts};
use crate::layout_refinements::{k_runs, scan_runs_in_thread};
use crate::pass::{PassError, PassId, PassInfo, PassResult, kernel_pass};
use crate::reduced_warps::rows_to_warps;
use melior::ir::attribute::{AttributeLike, DenseElementsAttribute};
use melior::ir::operation::{OperationLike, WalkOrder, WalkResult};
use melior::ir::{OperationRef, Type, Value, ValueLike};
use melior::pass::Pass;
use std::collections::HashMap;
use tile_coalesce::{Blocked, Distribution, Layout, Mma};
use tile_dialect::ops::{COMPUTE_CAPABILITY_ATTR, NUM_WARPS_ATTR};
use tile_dialect::view::{TileOp, TypeTable, dtype_of, element_type, op_name, tensor_shape};
use tile_dialect::{DType, InputPrecision};

static PASS_ID: PassId = PassId;

/// The flag of this pass.
pub const FLAG: &str = "tile-assign-layouts";

/// What `--help` says of it.
pub const INFO: PassInfo = PassInfo {
    name: "TileAssignLayouts",
    flag: FLAG,
    summary: "give every tensor a blocked or sliced layout (module attribute tile.num_warps)",
};

/// Creates the `tile-assign-layouts` pass (on kernels; see [`crate::pass`]).
pub fn create() -> Pass {
    kernel_pass(&PASS_ID, &INFO, assign_layouts)
}

/// The number of warps the module around `op` asks for (`tile.num_warps`,
/// default 4).
pub fn num_warps<'c, 'a>(op: &OperationRef<'c, 'a>) -> Result<u32, PassError> {
    let mut at = Some(*op);
    while let Some(o) = at {
        if o.has_attribute(NUM_WARPS_ATTR) {
            let n = tile_dialect::view::attr::int(&o, NUM_WARPS_ATTR)
                .map_err(|r| PassError::at(&o, r.to_string()))?;
            if n <= 0 || n > 32 || n & (n - 1) != 0 {
                return Err(PassError::at(
                    &o,
                    format!("{NUM_WARPS_ATTR} must be a power of two from 1 to 32, got {n}"),
                ));
            }
            return Ok(n as u32);
        }
        at = o.parent_operation();
    }
    Ok(4)
}

/// Assigns layouts in the kernel `func` (see the module docs).
pub fn assign_layouts(func: &OperationRef) -> PassResult {
    let types = TypeTable::new(tile_dialect::context_of(func.context()));
    let warps = num_warps(func)?;
    let tensors = Tensors::collect(func);
    let mut laid_out = 0;
    for &v in &tensors.values {
        if types
            .layout(v.r#type())
            .map_err(|e| PassError::at(func, e.to_string()))?
            .is_some()
        {
            laid_out += 1;
        }
    }
    if laid_out == tensors.values.len() {
        return Ok(());
    }
    if laid_out > 0 {
        return Err(PassError::at(
            func,
            "has some tensors with layouts and others without; tile-assign-layouts wants all or none",
        ));
    }

    // Classes of values that must share a layout.
    one_constant_per_use(func);
    let tensors = Tensors::collect(func);
    let mut classes = Classes::of(&types, func, &tensors)?;
    let mma_classes = classes.mma();
    // Per class: rank and the largest extent along each axis.
    let mut shape_of: HashMap<usize, Vec<i64>> = HashMap::new();
    for (i, v) in tensors.values.iter().enumerate() {
        let shape = tensor_shape(v.r#type());
        let entry = shape_of
            .entry(classes.sets.find(i))
            .or_insert_with(|| shape.clone());
        for (e, s) in entry.iter_mut().zip(&shape) {
            *e = (*e).max(*s);
        }
    }
    let mut order: Vec<usize> = shape_of.keys().copied().collect();
    order.sort_by_key(|c| (std::cmp::Reverse(shape_of[c].len()), *c));

    // The layout each load and store would move its tile best in.
    let accesses = preferred_layouts(&types, func, &tensors, warps)?;
    let mut best: HashMap<usize, (i64, Blocked)> = HashMap::new();
    for a in &accesses {
        // An access whose value lives in a product's class moves memory in
        // its pointers' layout (`split_accesses`): its preference is theirs.
        let mut class = classes.sets.find(a.tensor);
        if mma_classes.contains(&class)
            && let Some(ptr) = a.ptr
        {
            class = classes.sets.find(ptr);
        } else if a.atomic {
            // Atomics choose a layout only for a product's values.
            continue;
        }
        if shape_of.get(&class) != Some(&a.shape) {
            continue;
        }
        let entry = best.entry(class).or_insert((a.bytes, a.layout.clone()));
        if a.bytes > entry.0 {
            *entry = (a.bytes, a.layout.clone());
        }
    }

    // Operands that tensor cores read only K-major (TF32, i8) but whose
    // loads run along M or N are staged K-major from registers: each
    // thread takes a 16-byte run of K for a few columns, so that it writes
    // whole 16-byte chunks, not one element at a time.
    for p in &classes.products {
        let k_major_only = matches!(
            (p.inputs, p.precision),
            (DType::F32, InputPrecision::Tf32 | InputPrecision::Tf32x3) | (DType::I8, _)
        );
        if !k_major_only {
            continue;
        }
        for (operand, k_axis) in p.operands.iter().zip([1, 0]) {
            let Some(class) = operand.map(|o| classes.sets.find(o)) else {
                continue;
            };
            if let (Some((_, layout)), Some(shape)) = (best.get_mut(&class), shape_of.get(&class))
                && let Some(runs) = k_runs(layout, shape, k_axis, p.inputs, warps)
            {
                *layout = runs;
            }
        }
    }

    rows_to_warps(&mut classes, &mut best, &shape_of);
    scan_runs_in_thread(&mut classes, &mut best, &shape_of);

    let mut layout_of: HashMap<usize, Layout> = HashMap::new();
    let capability = compute_capability(func)?;
    for p in &classes.products {
        let class = classes.sets.find(p.result);
        if layout_of.contains_key(&class) {
            continue;
        }
        let [m, n] = p.shape;
        let layout = if p.inputs == DType::F32 && p.precision == InputPrecision::Ieee {
            // Exact f32 products: fused multiply-adds on the CUDA cores.
            Layout::Blocked(
                Blocked::default_for(&p.shape, warps)
                    .map_err(|e| PassError::at(func, e.to_string()))?,
            )
        } else {
            // wgmma is Hopper's alone (sm_90a); later chips take mma.sync.
            let wgmma = capability == 90 && wgmma_inputs(p.inputs);
            let mut mma = Mma::for_product(m, n, warps, wgmma)
                .map_err(|e| PassError::at(func, e.to_string()))?;
            // wgmma's integer shapes stop short of 256 columns.
            if p.inputs == DType::I8 && mma.instr_n > 128 {
                mma.instr_n = 128;
            }
            Layout::Mma(mma)
        };
        layout_of.insert(class, layout);
    }
    for class in order {
        if mma_classes.contains(&class) {
            continue;
        }
        let proposal = classes
            .wants
            .iter()
            .find_map(|w| w.proposal(class, &mut classes.sets, &layout_of));
        let layout = match (proposal, best.get(&class)) {
            (Some(l), _) => l,
            (None, Some((_, access))) => Layout::Blocked(access.clone()),
            (None, None) => Layout::Blocked(
                Blocked::default_for(&shape_of[&class], warps)
                    .map_err(|e| PassError::at(func, e.to_string()))?,
            ),
        };
        layout_of.insert(class, layout);
    }
    // Block-pointer accesses whose best order differs from their class's,
    // or whose class holds a product, keep their own layout, with a
    // conversion between.
    let mut own = OwnLayouts::default();
    for a in accesses.iter().filter(|a| a.block_ptr) {
        let class = classes.sets.find(a.tensor);
        let differs = match &layout_of[&class] {
            Layout::Blocked(b) => b.order != a.layout.order,
            // Memory is not moved in a tensor-core layout.
            Layout::Mma(_) => true,
            Layout::Slice { .. } => false,
        };
        if differs && shape_of.get(&class) == Some(&a.shape) {
            let layout = Layout::Blocked(a.layout.clone());
            let value = key(tensors.values[a.tensor]);
            match a.store {
                Some(op) => own.stores.insert(op, layout),
                None => own.loads.insert(value, layout),
            };
        }
    }
    // Loads and stores of products' classes move memory in the layout of
    // their pointers.
    for a in classes.split_accesses() {
        let layout = layout_of[&classes.sets.find(a.ptr)].clone();
        if a.store {
            own.stores.insert(a.op, layout);
        } else {
            own.loads.insert(key(tensors.values[a.value]), layout);
        }
    }

    check_registers(func, &tensors, &mut classes, &layout_of, warps)?;
    // Types with encodings, in place.
    for (i, v) in tensors.values.iter().enumerate() {
        let layout = &layout_of[&classes.sets.find(i)];
        v.set_type(types.with_layout(v.r#type(), Some(layout)));
    }
    fix_constants(func);
    insert_conversions(&types, func)?;
    layout_conversions::convert_at_accesses(&types, func, &own)?;
    layout_conversions::fold(func);
    Ok(())
}

/// The most 32-bit registers the elements of one tile may take in each
/// thread: four times the 255 a thread can have, so everything above
/// spills to local memory many times over, and what compiling it costs
/// grows faster than the tile: on the 2-core development machine (release
/// build) a `[256, 256]` f16 copy through pointer tensors over 4 warps
/// (1024 registers of addresses a thread) compiles in 7.5 s, the same
/// `[512, 512]` copy (4096) in 100 s, and a `[512, 512]` f16 atomic add in
/// 44 s (`fuzz/campaigns.md`, 2026-12-02).
pub const MAX_REGISTERS_PER_THREAD: usize = 1024;

/// Refuses a tile whose layout would give each thread more than
/// [`MAX_REGISTERS_PER_THREAD`] registers, at the op that makes it, naming
/// the tile, the warps and the element type; and a loop whose carried
/// tiles together take more than that in each thread, at the loop. (LLVM's
/// NVPTX back end takes minutes on such a loop: a `[512, 512]` f16 sum
/// carried with its tensor of pointers over 4 warps, 5120 registers a
/// thread, spent 116 s in its straight-line strength reduction.)
fn check_registers(
    func: &OperationRef,
    tensors: &Tensors,
    classes: &mut Classes,
    layout_of: &HashMap<usize, Layout>,
    warps: u32,
) -> PassResult {
    let mut checked = std::collections::HashSet::new();
    for (i, v) in tensors.values.iter().enumerate() {
        let ty = v.r#type();
        let shape = tensor_shape(ty);
        let class = classes.sets.find(i);
        let elem = element_type(ty);
        // Pointers are 64-bit addresses; i1 predicates take a register each.
        let words = dtype_of(elem).map_or(2, |d| d.bits().div_ceil(32) as usize);
        if !checked.insert((class, shape.clone(), words)) {
            continue;
        }
        let Ok(distribution) = Distribution::new(&layout_of[&class], &shape) else {
            continue;
        };
        let registers = distribution.registers() * words;
        if registers > MAX_REGISTERS_PER_THREAD {
            let message = format!(
                "a tile of shape {shape:?} of {elem} spread over {warps} warps takes {registers} \
                 registers in each thread, above the limit of {MAX_REGISTERS_PER_THREAD}: use \
                 more warps or a smaller tile"
            );
            return Err(match edit::as_result(*v) {
                Some(r) => PassError::at(&r.owner(), message),
                None => PassError::at(func, message),
            });
        }
    }
    let mut carried_too_much = None;
    func.walk(WalkOrder::PreOrder, |op| {
        if op_name(&op) != "scf.for" || carried_too_much.is_some() {
            return WalkResult::Advance;
        }
        let registers: usize = op
            .results()
            .filter_map(|r| {
                let v: Value = r.into();
                let i = tensors.id(v)?;
                let words = dtype_of(element_type(v.r#type())).map_or(2, |d| d.bits().div_ceil(32));
                let distribution =
                    Distribution::new(&layout_of[&classes.sets.find(i)], &tensor_shape(v.r#type()))
                        .ok()?;
                Some(distribution.registers() * words as usize)
            })
            .sum();
        if registers > MAX_REGISTERS_PER_THREAD {
            carried_too_much = Some(PassError::at(
                &op,
                format!(
                    "the loop carries tiles that take {registers} registers in each thread over \
                     {warps} warps, above the limit of {MAX_REGISTERS_PER_THREAD}: use more warps \
                     or smaller tiles"
                ),
            ));
        }
        WalkResult::Advance
    });
    carried_too_much.map_or(Ok(()), Err)
}

/// The compute capability the module around `op` targets
/// (`tile.compute_capability`, default 90).
pub fn compute_capability<'c, 'a>(op: &OperationRef<'c, 'a>) -> Result<u32, PassError> {
    let mut at = Some(*op);
    while let Some(o) = at {
        if o.has_attribute(COMPUTE_CAPABILITY_ATTR) {
            let n = tile_dialect::view::attr::int(&o, COMPUTE_CAPABILITY_ATTR)
                .map_err(|r| PassError::at(&o, r.to_string()))?;
            return u32::try_from(n)
                .ok()
                .filter(|&n| (50..1000).contains(&n))
                .ok_or_else(|| {
                    PassError::at(
                        &o,
                        format!("{COMPUTE_CAPABILITY_ATTR} must be like 80 or 90, got {n}"),
                    )
                });
        }
        at = o.parent_operation();
    }
    Ok(90)
}

/// Inputs `wgmma` multiplies (f16, bf16, tf32, i8).
fn wgmma_inputs(d: DType) -> bool {
    matches!(d, DType::F16 | DType::BF16 | DType::F32 | DType::I8)
}

/// A load or store and the layout it moves its tile best in.
struct PreferredLayout {
    /// The tensor loaded or stored (its index in [`Tensors`]).
    tensor: usize,
    /// Its shape.
    shape: Vec<i64>,
    /// Bytes moved.
    bytes: i64,
    /// True for block-pointer accesses.
    block_ptr: bool,
    /// For a store, the op (`None` for loads).
    store: Option<usize>,
    /// The tensor of pointers (its index in [`Tensors`]), for accesses
    /// through pointers.
    ptr: Option<usize>,
    /// True for an atomic read-modify-write.
    atomic: bool,
    /// The layout from the axis analysis.
    layout: Blocked,
}

fn preferred_layouts<'c>(
    types: &TypeTable<'c>,
    func: &OperationRef<'c, '_>,
    tensors: &Tensors,
    warps: u32,
) -> Result<Vec<PreferredLayout>, PassError> {
    let analysis = AxisAnalysis::run(types, func);
    let mut out = Vec::new();
    let mut failure = None;
    func.walk(WalkOrder::PreOrder, |op| {
        let Ok(Some(view)) = TileOp::read(&op, |v| types.tile_type(v.r#type())) else {
            return WalkResult::Advance;
        };
        let access = match &view {
            TileOp::AtomicRmw(a) => analysis.atomic_access(a),
            _ => analysis.access(&view),
        };
        let Some(access) = access else {
            return WalkResult::Advance;
        };
        let (tensor, store) = match &view {
            TileOp::Load(_) | TileOp::BlockLoad(_) => match crate::edit::result_of(&op, 0) {
                Some(r) => (Value::from(r), None),
                None => return WalkResult::Advance,
            },
            TileOp::Store(s) => (s.value, Some(op.to_raw().ptr as usize)),
            TileOp::BlockStore(s) => (s.value, Some(op.to_raw().ptr as usize)),
            TileOp::AtomicRmw(a) => (a.val, Some(op.to_raw().ptr as usize)),
            _ => return WalkResult::Advance,
        };
        let Some(tensor) = tensors.id(tensor) else {
            return WalkResult::Advance;
        };
        let ptr = match &view {
            TileOp::Load(l) => tensors.id(l.ptr),
            TileOp::Store(s) => tensors.id(s.ptr),
            TileOp::AtomicRmw(a) => tensors.id(a.ptr),
            _ => None,
        };
        match access.layout(warps) {
            Ok(layout) => out.push(PreferredLayout {
                tensor,
                bytes: access.shape.iter().product::<i64>() * access.elem_bytes,
                shape: access.shape,
                block_ptr: matches!(view, TileOp::BlockLoad(_) | TileOp::BlockStore(_)),
                store,
                ptr,
                atomic: matches!(view, TileOp::AtomicRmw(_)),
                layout,
            }),
            Err(e) => {
                failure = Some(PassError::at(&op, e.to_string()));
                return WalkResult::Interrupt;
            }
        }
        WalkResult::Advance
    });
    match failure {
        Some(e) => Err(e),
        None => Ok(out),
    }
}

/// Gives each use of a tensor constant its own copy (placed after it), so
/// that tiles that merely share a constant (the zero `other` of two loads,
/// a splat bound) are not tied to one layout through it: `cse` merges
/// equal constants, and a layout costs a constant nothing.
fn one_constant_per_use(func: &OperationRef) {
    let mut shared = Vec::new();
    func.walk(WalkOrder::PreOrder, |op| {
        if op_name(&op) == "arith.constant"
            && op.result_count() == 1
            && !tensor_shape(op.result(0).expect("one result").r#type()).is_empty()
            && edit::use_count(op.result(0).expect("one result")) > 1
        {
            shared.push(op.to_raw());
        }
        WalkResult::Advance
    });
    for raw in shared {
        // SAFETY: the constants collected are live; only copies are added.
        let op = unsafe { OperationRef::from_raw(raw) };
        let value = op.result(0).expect("one result");
        for (user, index) in edit::uses(value).into_iter().skip(1) {
            let copy = edit::insert_after(&op, edit::clone_op(&op));
            edit::set_operand(&user, index, copy.result(0).expect("one result").into());
        }
    }
}

/// Constants carry their type in their value: give each tensor constant's
/// value the type (with layout) of its result.
fn fix_constants(func: &OperationRef) {
    func.walk(WalkOrder::PreOrder, |op| {
        if op_name(&op) == "arith.constant"
            && let Some(r) = crate::edit::result_of(&op, 0)
            && let Ok(value) = op.attribute("value")
            && let Ok(dense) = DenseElementsAttribute::try_from(value)
            && dense.r#type() != r.r#type()
        {
            let retyped = if dense.is_splat() {
                DenseElementsAttribute::splat(r.r#type(), dense.splat_value())
            } else {
                dense.reshape(r.r#type())
            };
            edit::set_attribute(&op, "value", retyped.into());
        }
        WalkResult::Advance
    });
}

/// Where an `expand_dims` source or a reduction result is not in the slice
/// of its neighbour's layout, converts it.
fn insert_conversions<'c>(types: &TypeTable<'c>, func: &OperationRef<'c, '_>) -> PassResult {
    let mut todo = Vec::new();
    func.walk(WalkOrder::PreOrder, |op| {
        match TileOp::read(&op, |v| types.tile_type(v.r#type())) {
            Ok(Some(TileOp::ExpandDims(_))) => todo.push(op.to_raw()),
            Ok(Some(TileOp::Reduce(r))) if !r.keep_dims => todo.push(op.to_raw()),
            _ => {}
        }
        WalkResult::Advance
    });
    let layout = |ty: Type<'c>, op: &OperationRef| -> Result<Layout, PassError> {
        types
            .layout(ty)
            .map_err(|e| PassError::at(op, e.to_string()))?
            .ok_or_else(|| PassError::at(op, format!("has a value of type {ty} without a layout")))
    };
    for raw in todo {
        // SAFETY: the ops collected above are live; inserting conversions
        // next to them destroys none.
        let op = unsafe { OperationRef::from_raw(raw) };
        let view = TileOp::read(&op, |v| types.tile_type(v.r#type()))
            .map_err(|r| PassError::at(&op, r.to_string()))?;
        let result: Value = op
            .result(0)
            .map_err(|e| PassError::at(&op, e.to_string()))?
            .into();
        match view {
            Some(TileOp::ExpandDims(e)) => {
                let want = layout(result.r#type(), &op)?.slice(e.axis as usize);
                if layout(e.src.r#type(), &op)? != want {
                    let ty = types.with_layout(e.src.r#type(), Some(&want));
                    let converted = layout_conversions::convert_before(&op, e.src, ty)?;
                    edit::set_operands(&op, &[converted]);
                }
            }
            Some(TileOp::Reduce(r)) if !tensor_shape(result.r#type()).is_empty() => {
                let want = layout(r.src.r#type(), &op)?.slice(r.axis as usize);
                if layout(result.r#type(), &op)? != want {
                    let class_ty = result.r#type();
                    result.set_type(types.with_layout(class_ty, Some(&want)));
                    layout_conversions::convert_after(&op, result, class_ty)?;
                }
            }
            _ => {}
        }
    }
    Ok(())
}
