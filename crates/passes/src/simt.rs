//! `tile-to-simt`: from laid-out tile IR to per-thread code on the `gpu`
//! dialect, built with melior's builders.
//!
//! Each tensor becomes the list of scalars one thread holds, in the
//! register order of its [`Distribution`]; scalars stay scalars. The thread
//! and program ids come from `gpu.thread_id` and `gpu.block_id`. Every
//! element op is repeated per register; broadcasts and `expand_dims` only
//! renumber registers; loads and stores become aligned `llvm.load` /
//! `llvm.store` or predicated PTX (`simt/memory.rs`); layout conversions go
//! through shared memory; reductions combine in the thread, across lanes
//! with shuffles and across warps through shared memory (`simt/reduce.rs`);
//! float math avoids libdevice (`simt/math.rs`); products run on tensor
//! cores (`simt/dot.rs`) and marked K loops are pipelined
//! (`simt/pipelined.rs`). Every emitted op keeps the
//! location of the tile op it comes from, so the PTX line table points at
//! the user's source.
//!
//! The kernels move into one `gpu.module @tile`, each as a `gpu.func` with
//! `known_block_size = [32 * num_warps, 1, 1]` (and `nvvm.minctasm = 1`
//! where a loop streams memory: `simt/latency.rs`); the module gets
//! `gpu.container_module`.
//!
//! The MLIR C API has no dialect-conversion driver, so the lowering is a
//! walk with a map from each tile value to its scalars (`emit::Lowered`).
//!
//! [`Distribution`]: tile_coalesce::Distribution
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
//! // Laid-out tile IR becomes per-thread code in a gpu.module.
//! tile_passes::pipeline::add_pipeline(&pm.as_operation_pass_manager(), "builtin.module(func.func(tile-assign-layouts,tile-predicate),tile-vectorize,tile-to-simt)")
//!     .unwrap();
//! run(&pm, &mut module);
//! let text = tile_passes::print_module(&module, false);
//! assert!(text.contains("gpu.module"), "{text}");
//! ```

mod atomic;
mod block_ptr;
mod builder;
mod control;
mod convert;
mod debug;
mod dot;
mod elementwise;
mod emit;
mod exchange;
mod fp8;
mod latency;
mod math;
mod memory;
mod pipelined;
mod ptx;
mod rearrange;
mod reduce;
mod scan;
mod share;
mod uniform;
mod words;

use crate::assign_layouts::num_warps;
use crate::edit::{self, ops_of};
use crate::pass::{PassError, PassId, PassInfo, PassResult, module_pass};
use builder::{Ir, Val};
use emit::{Emitter, Lowered, SHARED_BUFFER};
use melior::ir::attribute::{IntegerAttribute, StringAttribute, TypeAttribute};
use melior::ir::block::BlockLike;
use melior::ir::operation::{OperationBuilder, OperationLike, OperationMutLike};
use melior::ir::r#type::FunctionType;
use melior::ir::{
    Attribute, Block, BlockRef, Identifier, Location, OperationRef, Region, RegionLike, Type,
    ValueLike,
};
use melior::pass::Pass;
use tile_dialect::view::{KernelFunc, TypeTable};

static PASS_ID: PassId = PassId;

/// The flag of this pass.
pub const FLAG: &str = "tile-to-simt";

/// What `--help` says of it.
pub const INFO: PassInfo = PassInfo {
    name: "TileToSimt",
    flag: FLAG,
    summary: "lower laid-out tile IR to per-thread code in a gpu.module (gpu, arith, llvm)",
};

/// The attribute of a kernel function that becomes PTX's `.minnctapersm`:
/// set to 1 on kernels that stream memory in a loop (`simt/latency.rs`).
pub const MIN_BLOCKS_ATTR: &str = "nvvm.minctasm";

/// The name of the `gpu.module` the kernels are placed in.
pub const GPU_MODULE: &str = "tile";

/// The words of the error for an op this pass cannot lower yet (kept for
/// ops added to the dialect before their lowering).
pub const NOT_LOWERED_YET: &str = "cannot be lowered to SIMT code yet";

/// Creates the `tile-to-simt` pass (on `builtin.module`).
pub fn create() -> Pass {
    module_pass(&PASS_ID, &INFO, lower_module)
}

/// The failure for an op this pass does not lower.
pub(crate) fn unsupported(op: &OperationRef) -> PassError {
    PassError::at(op, NOT_LOWERED_YET)
}

/// Lowers every kernel of `module` into a `gpu.module`, in place.
pub fn lower_module(module: &OperationRef) -> PassResult {
    let context = tile_dialect::context_of(module.context());
    let warps = num_warps(module)?;
    let (cc, ptx) = target(module)?;
    let flags = Flags {
        debug: module.has_attribute(tile_dialect::ops::DEBUG_ATTR),
        fp_fusion: module.has_attribute(tile_dialect::ops::FP_FUSION_ATTR),
        // `atom.add.v2/v4.f32`: sm_90 and PTX 8.1, both named.
        vector_atomics: cc.is_some_and(|cc| cc >= 90) && ptx.is_some_and(|p| p >= 81),
        // `cvt .e4m3x2`: sm_89 and PTX 7.8, unless the module names less.
        fp8_convert: cc.is_none_or(|cc| cc >= 89) && ptx.is_none_or(|p| p >= 78),
        // The module names its chip when it is compiled; sm_90's otherwise.
        cc: cc.unwrap_or(90),
    };
    let body = module
        .region(0)
        .ok()
        .and_then(|r| r.first_block())
        .ok_or_else(|| PassError::at(module, "has no body"))?;
    let mut kernels = Vec::new();
    for op in ops_of(&body) {
        match KernelFunc::read(&op).map_err(|r| PassError::at(&op, r.to_string()))? {
            Some(f) if f.is_kernel => kernels.push((op, f)),
            Some(_) => {
                return Err(PassError::at(
                    &op,
                    "is not a tile kernel (no tile.kernel attribute); helper functions are not supported",
                ));
            }
            None => {
                return Err(PassError::at(
                    &op,
                    "cannot be lowered: only kernels (func.func) may appear at the top level",
                ));
            }
        }
    }
    let gpu_block = Block::new(&[]);
    let region = Region::new();
    let gpu_block = region.append_block(gpu_block);
    let gpu_module = OperationBuilder::new("gpu.module", module.location())
        .add_attributes(&[(
            Identifier::new(context, "sym_name"),
            StringAttribute::new(context, GPU_MODULE).into(),
        )])
        .add_regions([region])
        .build()
        .map_err(|e| PassError::at(module, format!("cannot make the kernels' module: {e}")))?;
    let types = TypeTable::new(context);
    let mut shared_bytes = 0;
    let mut arch_specific = false;
    for (op, f) in &kernels {
        let needs = lower_kernel(&types, op, f, gpu_block, warps, flags)?;
        shared_bytes = shared_bytes.max(needs.shared_bytes);
        arch_specific |= needs.arch_specific;
    }
    if shared_bytes > 0 {
        let dynamic = shared_bytes > tile_dialect::ops::STATIC_SHARED_LIMIT;
        let global = shared_global(context, module.location(), shared_bytes, dynamic);
        if dynamic {
            let i64 = melior::ir::r#type::IntegerType::new(context, 64).into();
            edit::set_attribute(
                module,
                tile_dialect::ops::DYNAMIC_SHARED_ATTR,
                IntegerAttribute::new(i64, shared_bytes as i64).into(),
            );
        }
        match gpu_block.first_operation() {
            Some(first) => gpu_block.insert_operation_before(first, global),
            None => gpu_block.append_operation(global),
        };
    }
    body.append_operation(gpu_module);
    for (op, _) in kernels {
        edit::erase(op);
    }
    edit::set_attribute(module, "gpu.container_module", Attribute::unit(context));
    if arch_specific {
        edit::set_attribute(
            module,
            tile_dialect::ops::ARCH_SPECIFIC_ATTR,
            Attribute::unit(context),
        );
    }
    Ok(())
}

/// The module's flags that change the lowering.
#[derive(Clone, Copy, Debug)]
struct Flags {
    /// `tile.debug`: assertions are compiled in.
    debug: bool,
    /// `tile.fp_fusion`: float products and sums may fuse.
    fp_fusion: bool,
    /// The target has `atom.add.v2/v4.f32`: sm_90 and PTX 8.1 or later.
    vector_atomics: bool,
    /// The target converts 8-bit floats: sm_89 and PTX 7.8 or later.
    fp8_convert: bool,
    /// The compute capability (bounds the shared memory a block may use).
    cc: i64,
}

/// The most shared memory one block may use (bytes, the opt-in maximum
/// of the CUDA programming guide's table) on compute capability `cc`:
/// 227 KiB on sm_90 and sm_100, 163 KiB on sm_80 and sm_87, 99 KiB on
/// sm_86, sm_89 and sm_120, 96 KiB on sm_70, 64 KiB on sm_75; the 48 KiB
/// every chip has for others.
pub fn shared_limit(cc: i64) -> usize {
    match cc {
        90 | 100 | 101 | 103 => 227 * 1024,
        80 | 87 => 163 * 1024,
        86 | 89 | 120 | 121 => 99 * 1024,
        70 | 72 => 96 * 1024,
        75 => 64 * 1024,
        _ => 48 * 1024,
    }
}

/// Refuses a kernel that needs more shared memory than a block may have
/// on its chip, at the op being lowered when the buffer grew past it (a
/// pipelined loop's rings, a product's staged operands, a conversion),
/// saying what would fit.
fn check_shared(e: &Emitter, kernel: &OperationRef, cc: i64) -> PassResult {
    let (needs, limit) = (e.shared_bytes(), shared_limit(cc));
    if needs <= limit {
        return Ok(());
    }
    let blamed = e.shared_peak();
    let at = blamed.as_ref().unwrap_or(kernel);
    let stages = (tile_dialect::view::op_name(at) == "scf.for")
        .then(|| {
            tile_dialect::view::attr::int_opt(at, tile_dialect::ops::NUM_STAGES_ATTR)
                .ok()
                .flatten()
        })
        .flatten();
    let advice = match stages {
        Some(s) => format!(
            "this loop keeps {s} stages of its tiles in shared memory; fewer stages or smaller tiles fit"
        ),
        None => "smaller tiles fit".to_string(),
    };
    Err(PassError::at(
        at,
        format!(
            "the kernel needs {needs} bytes of shared memory, more than the {limit} a block may \
             have on sm_{cc}: {advice}"
        ),
    ))
}

/// The compute capability and PTX version named on the module (each
/// `None` when absent).
fn target(module: &OperationRef) -> Result<(Option<i64>, Option<i64>), PassError> {
    use tile_dialect::ops::{COMPUTE_CAPABILITY_ATTR, PTX_VERSION_ATTR};
    let read = |name: &'static str| -> Result<Option<i64>, PassError> {
        tile_dialect::view::attr::int_opt(module, name)
            .map_err(|r| PassError::at(module, r.to_string()))
    };
    Ok((read(COMPUTE_CAPABILITY_ATTR)?, read(PTX_VERSION_ATTR)?))
}

/// What a lowered kernel needs of its module.
struct Needs {
    /// Bytes of shared memory.
    shared_bytes: usize,
    /// Instructions of the `a` variant of the chip.
    arch_specific: bool,
}

/// Lowers one kernel into a `gpu.func` appended to `gpu_block`; returns
/// what it needs of the module.
fn lower_kernel<'c>(
    types: &TypeTable<'c>,
    op: &OperationRef<'c, '_>,
    f: &KernelFunc<'c, '_>,
    gpu_block: BlockRef<'c, '_>,
    warps: u32,
    flags: Flags,
) -> Result<Needs, PassError> {
    let context = types.context();
    let for_latency = latency::streams_in_loop(op);
    let mut arg_types = Vec::with_capacity(f.args.len());
    for arg in &f.args {
        let t = types
            .tile_type(arg.value.r#type())
            .filter(|t| t.is_scalar())
            .ok_or_else(|| PassError::at(op, "kernel arguments must be scalars or pointers"))?;
        arg_types.push(t);
    }
    let entry_args: Vec<(Type, Location)> = f
        .args
        .iter()
        .zip(&arg_types)
        .map(|(a, t)| {
            let ty = match t.elem().expect("a scalar") {
                // 8-bit floats travel as their bits (Emitter::reg_type).
                tile_dialect::Elem::Num(d) if d.is_fp8() => types.dtype(tile_dialect::DType::I8),
                tile_dialect::Elem::Num(d) => types.dtype(d),
                tile_dialect::Elem::Ptr(_) => melior::dialect::llvm::r#type::pointer(context, 1),
            };
            (ty, a.value.location())
        })
        .collect();
    let entry = Block::new(&entry_args);
    let body = Block::new(&[]);
    let ir = Ir::new(context, entry.to_raw(), op.location());
    let mut e = Emitter::new(ir, types);
    e.debug = flags.debug;
    e.fp_fusion = flags.fp_fusion;
    e.vector_atomics = flags.vector_atomics;
    e.fp8_convert = flags.fp8_convert;
    e.axis_facts = Some(crate::axis_analysis::AxisAnalysis::run(types, op));
    for (i, arg) in f.args.iter().enumerate() {
        let value = Val::of_arg(&entry, i);
        e.uniform.assume(value);
        // An argument specialized as 1 is 1 (the launch checks it), so
        // strides of 1 fold away.
        let value = if arg.equal_to_one {
            e.int(value.ty(), 1)
        } else {
            value
        };
        e.set(arg.value, Lowered::Scalar(value));
    }
    e.ir.switch_to(body.to_raw());
    e.kernel_body(f, op)?;
    check_shared(&e, op, flags.cc)?;
    // The hoisted prologue first, then the body.
    for inner in ops_of(&body) {
        let mut inner = edit::mutable(&inner);
        inner.remove_from_parent();
        // SAFETY: the op was just detached, so it is owned here and moves
        // into the entry block.
        entry.append_operation(unsafe { melior::ir::Operation::from_raw(inner.to_raw()) });
    }
    let region = Region::new();
    region.append_block(entry);
    let inputs: Vec<Type> = entry_args.iter().map(|(t, _)| *t).collect();
    let threads = 32 * warps as i32;
    let mut attributes = Vec::new();
    if for_latency {
        attributes.push((
            Identifier::new(context, MIN_BLOCKS_ATTR),
            IntegerAttribute::new(e.ir.int_type(32), 1).into(),
        ));
    }
    let func = OperationBuilder::new("gpu.func", op.location())
        .add_attributes(&[
            (
                Identifier::new(context, "sym_name"),
                StringAttribute::new(context, &f.name).into(),
            ),
            (
                Identifier::new(context, "function_type"),
                TypeAttribute::new(FunctionType::new(context, &inputs, &[]).into()).into(),
            ),
            (
                Identifier::new(context, "known_block_size"),
                e.ir.i32_array(&[threads, 1, 1]),
            ),
            (
                Identifier::new(context, "gpu.kernel"),
                Attribute::unit(context),
            ),
            (
                Identifier::new(context, "workgroup_attributions"),
                IntegerAttribute::new(e.ir.int_type(64), 0).into(),
            ),
        ])
        .add_attributes(&attributes)
        .add_regions([region])
        .build()
        .map_err(|err| PassError::at(op, format!("cannot make the kernel's function: {err}")))?;
    let func = gpu_block.append_operation(func);
    prune(&func);
    Ok(Needs {
        shared_bytes: e.shared_bytes(),
        arch_specific: e.arch_specific,
    })
}

/// True for the ops the lowering makes that only compute a value (no
/// memory effect, no control flow): removable when nothing uses them.
fn pure(op: &OperationRef) -> bool {
    let name = tile_dialect::view::op_name(op);
    name.starts_with("arith.")
        || matches!(
            name,
            "llvm.getelementptr"
                | "llvm.extractvalue"
                | "llvm.extractelement"
                | "llvm.insertelement"
                | "llvm.mlir.poison"
                | "llvm.mlir.addressof"
                | "llvm.call_intrinsic"
                | "gpu.thread_id"
                | "gpu.block_id"
                | "gpu.grid_dim"
        )
        || (name == "llvm.inline_asm" && !op.has_attribute("has_side_effects"))
}

/// Erases the pure ops of `func` whose results nothing uses, and then
/// those that only they used: the lowering computes every register's
/// address and predicate, and a vector access uses the first of each run
/// only. Less for the upstream conversions and LLVM to read.
fn prune(func: &OperationRef) {
    let mut work = Vec::new();
    func.walk(melior::ir::operation::WalkOrder::PreOrder, |op| {
        if pure(&op) {
            work.push(op.to_raw());
        }
        melior::ir::operation::WalkResult::Advance
    });
    let mut erased = std::collections::HashSet::new();
    while let Some(raw) = work.pop() {
        if erased.contains(&(raw.ptr as usize)) {
            continue;
        }
        // SAFETY: ops on the list are live: each is erased once, and
        // erased ones are skipped.
        let op = unsafe { OperationRef::from_raw(raw) };
        if op.results().any(edit::has_uses) {
            continue;
        }
        let defs: Vec<_> = op
            .operands()
            .filter_map(crate::edit::as_result)
            .map(|r| r.owner())
            .filter(pure)
            .map(|o| o.to_raw())
            .collect();
        erased.insert(raw.ptr as usize);
        edit::erase(op);
        work.extend(defs);
    }
}

/// `llvm.mlir.global internal @__tile_shared() {addr_space = 3,
/// alignment = 1024} : !llvm.array<bytes x i8>`, or when `dynamic` an
/// external `!llvm.array<0 x i8>` (PTX `.extern .shared`, sized at launch).
fn shared_global<'c>(
    context: &'c melior::Context,
    location: Location<'c>,
    bytes: usize,
    dynamic: bool,
) -> melior::ir::Operation<'c> {
    let i8_ty: Type = melior::ir::r#type::IntegerType::new(context, 8).into();
    let len = if dynamic { 0 } else { bytes as u32 };
    let array = melior::dialect::llvm::r#type::array(i8_ty, len);
    let kind = if dynamic {
        mlir_sys::MlirLLVMLinkage_MlirLLVMLinkageExternal
    } else {
        mlir_sys::MlirLLVMLinkage_MlirLLVMLinkageInternal
    };
    // SAFETY: the context is live; the linkage is a plain enum.
    let linkage =
        unsafe { Attribute::from_raw(mlir_sys::mlirLLVMLinkageAttrGet(context.to_raw(), kind)) };
    let int = |bits, v| -> Attribute {
        IntegerAttribute::new(
            melior::ir::r#type::IntegerType::new(context, bits).into(),
            v,
        )
        .into()
    };
    let region = Region::new();
    OperationBuilder::new("llvm.mlir.global", location)
        .add_attributes(&[
            (
                Identifier::new(context, "sym_name"),
                StringAttribute::new(context, SHARED_BUFFER).into(),
            ),
            (
                Identifier::new(context, "global_type"),
                TypeAttribute::new(array).into(),
            ),
            (Identifier::new(context, "linkage"), linkage),
            (Identifier::new(context, "addr_space"), int(32, 3)),
            // Aligned for wgmma's swizzled operands.
            (
                Identifier::new(context, "alignment"),
                int(64, tile_coalesce::shared::SWIZZLE_ALIGN),
            ),
        ])
        .add_regions([region])
        .build()
        .expect("ops without result type inference are always created")
}
