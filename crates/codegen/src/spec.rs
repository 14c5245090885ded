//! The launch description of a kernel, read from its tile IR.

use crate::offsets::i32_offset_elem_bytes;
use melior::ir::block::BlockLike;
use melior::ir::operation::OperationLike;
use melior::ir::{Module, RegionLike, ValueLike};
use tile_dialect::{DType, Elem, TileType, ops};
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
        if op.has_attribute(ops::KERNEL_ATTR) {
            if found.is_some() {
                return Err("the module holds more than one kernel".into());
            }
            found = Some(op);
        }
        next = op.next_in_block();
    }
    let func = found.ok_or("the module holds no kernel (func.func with tile.kernel)")?;
    let name = func
        .attribute("sym_name")
        .map_err(|_| "the kernel has no name".to_string())?
        .to_string()
        .trim_matches('"')
        .to_string();
    let entry = func
        .region(0)
        .ok()
        .and_then(|r| r.first_block())
        .ok_or("the kernel has no body")?;
    let names: Vec<String> = func
        .attribute("arg_attrs")
        .map(|a| a.to_string())
        .map(|text| arg_names(&text))
        .unwrap_or_default();
    let mut params = Vec::new();
    for i in 0..entry.argument_count() {
        let arg = entry.argument(i).map_err(|e| e.to_string())?;
        let ty = arg.r#type().to_string();
        let name = names
            .get(i)
            .filter(|n| !n.is_empty())
            .cloned()
            .unwrap_or_else(|| format!("arg{i}"));
        let param = match TileType::parse(&ty)
            .and_then(|t| t.is_scalar().then(|| t.elem()).flatten())
        {
            Some(Elem::Ptr(_)) => ParamType::Ptr,
            Some(Elem::Num(DType::I32)) => ParamType::I32,
            Some(Elem::Num(DType::I64)) => ParamType::I64,
            Some(Elem::Num(DType::F32)) => ParamType::F32,
            Some(Elem::Num(DType::F16)) => ParamType::F16,
            Some(Elem::Num(DType::BF16)) => ParamType::BF16,
            _ => {
                return Err(format!(
                    "kernel {name}: argument '{name}' has type {ty}; kernel arguments are pointers, i32, i64, f32, f16 or bf16"
                ));
            }
        };
        params.push((name, param));
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

/// The `tile.name` of each argument in a printed `arg_attrs` array.
fn arg_names(text: &str) -> Vec<String> {
    tile_passes::axis_analysis::split_dicts(text)
        .iter()
        .map(|entry| {
            entry
                .split_once("tile.name = \"")
                .and_then(|(_, rest)| rest.split('"').next())
                .unwrap_or("")
                .to_string()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn argument_names_keep_their_positions() {
        let names = super::arg_names(r#"[{tile.name = "x"}, {}, {tile.name = "n"}]"#);
        assert_eq!(names, vec!["x", "", "n"]);
    }
}
