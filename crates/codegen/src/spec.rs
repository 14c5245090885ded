//! The launch description of a kernel, read from its tile IR.

use crate::offsets::i32_offset_elem_bytes;
use melior::ir::block::BlockLike;
use melior::ir::operation::OperationLike;
use melior::ir::{Module, ValueLike};
use tile_dialect::view::{KernelFunc, decode_type};
use tile_dialect::{DType, Elem};
use tile_runtime::{KernelSpec, ParamType};

/// The [`KernelSpec`] of the (single) kernel in `module` (tile IR, as
/// built or parsed): its name, its parameters' source names and types,
/// `num_warps`, and which pointer parameters it addresses with 32-bit
/// offsets (see [`KernelSpec::i32_offset_elem_bytes`]).
pub fn kernel_spec(module: &Module, num_warps: u32) -> Result<KernelSpec, String> {
    let body = module.body();
    let mut found = None;
    let mut next = body.first_operation();
    while let Some(op) = next {
        if let Ok(Some(f)) = KernelFunc::read(&op)
            && f.is_kernel
        {
            if found.is_some() {
                return Err("the module holds more than one kernel".into());
            }
            found = Some(f);
        }
        next = op.next_in_block();
    }
    let func = found.ok_or("the module holds no kernel (func.func with tile.kernel)")?;
    let name = func.name.clone();
    let entry = func.body.ok_or("the kernel has no body")?;
    let mut params = Vec::new();
    for (i, arg) in func.args.iter().enumerate() {
        let param_name = arg
            .name
            .clone()
            .filter(|n| !n.is_empty())
            .unwrap_or_else(|| format!("arg{i}"));
        let ty = arg.value.r#type();
        let param = match decode_type(ty).and_then(|t| t.is_scalar().then(|| t.elem()).flatten()) {
            Some(Elem::Ptr(_)) => ParamType::Ptr,
            Some(Elem::Num(DType::I32)) => ParamType::I32,
            Some(Elem::Num(DType::I64)) => ParamType::I64,
            Some(Elem::Num(DType::F32)) => ParamType::F32,
            Some(Elem::Num(DType::F16)) => ParamType::F16,
            Some(Elem::Num(DType::BF16)) => ParamType::BF16,
            _ => {
                return Err(format!(
                    "kernel {name}: argument '{param_name}' has type {ty}; kernel arguments are pointers, i32, i64, f32, f16 or bf16"
                ));
            }
        };
        params.push((param_name, param));
    }
    Ok(KernelSpec {
        name,
        params,
        num_warps,
        shared_mem_bytes: 0,
        i32_offset_elem_bytes: i32_offset_elem_bytes(entry),
        specialization: Default::default(),
    })
}
