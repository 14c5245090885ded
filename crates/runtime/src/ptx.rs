//! A light reading of PTX text: the `.entry` functions and the sizes of
//! their parameters, to check a [`KernelSpec`] against the code before the
//! driver sees it. Anything it cannot read is left to the driver.

use crate::error::{Result, RuntimeError};
use crate::kernel::KernelSpec;

/// One `.entry` of a PTX module.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Entry {
    pub name: String,
    /// Each parameter's type as written (`.u64`) and size in bytes, or
    /// `None` where the declaration was not understood.
    pub params: Vec<Option<(String, usize)>>,
}

/// The `.entry` functions of `ptx`, in order.
pub(crate) fn entries(ptx: &str) -> Vec<Entry> {
    let text = strip_comments(ptx);
    let mut out = Vec::new();
    let mut rest = text.as_str();
    while let Some(at) = find_directive(rest, ".entry") {
        rest = &rest[at + ".entry".len()..];
        let trimmed = rest.trim_start();
        let name: String = trimmed
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '$' | '.'))
            .collect();
        if name.is_empty() {
            continue;
        }
        let after = trimmed[name.len()..].trim_start();
        let params = match after.strip_prefix('(') {
            Some(list) => match list.find(')') {
                Some(close) => list[..close]
                    .split(',')
                    .map(str::trim)
                    .filter(|p| !p.is_empty())
                    .map(param_size)
                    .collect(),
                None => Vec::new(),
            },
            None => Vec::new(),
        };
        out.push(Entry { name, params });
    }
    out
}

/// Checks that the PTX's entry `spec.name`, if it can be found, has as many
/// parameters as the spec, each of the spec's size.
pub(crate) fn check_spec(ptx: &str, spec: &KernelSpec) -> Result<()> {
    let Some(entry) = entries(ptx).into_iter().find(|e| e.name == spec.name) else {
        return Ok(());
    };
    let bad = |message: String| RuntimeError::BadPtx {
        kernel: spec.name.clone(),
        message,
    };
    if entry.params.len() != spec.params.len() {
        let ptx_types: Vec<&str> = entry
            .params
            .iter()
            .map(|p| p.as_ref().map_or("?", |(ty, _)| ty.as_str()))
            .collect();
        let spec_params: Vec<String> = spec
            .params
            .iter()
            .map(|(name, ty)| format!("{name}: {ty}"))
            .collect();
        return Err(bad(format!(
            "the PTX entry has {} parameters ({}) but the spec lists {} ({})",
            entry.params.len(),
            ptx_types.join(", "),
            spec.params.len(),
            spec_params.join(", ")
        )));
    }
    for (index, (declared, (name, ty))) in entry.params.iter().zip(&spec.params).enumerate() {
        if let Some((ptx_ty, size)) = declared
            && *size != ty.size_bytes()
        {
            return Err(bad(format!(
                "parameter {index} (`{name}`): the spec says {ty} ({} bytes) but the PTX \
                 declares {ptx_ty} ({size} bytes)",
                ty.size_bytes()
            )));
        }
    }
    Ok(())
}

/// Bytes of statically sized shared memory the module declares
/// (`.shared .align 16 .b8 name[4096];`): the sum of every `.shared`
/// array with a size. `extern` (dynamic) arrays count nothing.
pub(crate) fn static_shared_bytes(ptx: &str) -> u64 {
    strip_comments(ptx)
        .lines()
        .map(str::trim)
        .filter(|l| l.starts_with(".shared") && !l.contains(".extern"))
        .filter_map(|l| {
            let elem = [(".b8", 1), (".b16", 2), (".b32", 4), (".b64", 8)]
                .iter()
                .find(|(t, _)| l.split_whitespace().any(|w| w == *t))
                .map_or(1, |(_, b)| *b);
            let count: u64 = l[l.find('[')? + 1..l.find(']')?].trim().parse().ok()?;
            Some(count * elem)
        })
        .sum()
}

/// The message for an entry the driver did not find.
pub(crate) fn missing_entry_message(ptx: &str, name: &str) -> String {
    let names: Vec<String> = entries(ptx).into_iter().map(|e| e.name).collect();
    if names.is_empty() {
        format!("the PTX has no `.entry {name}` (it defines no entry at all)")
    } else {
        format!(
            "the PTX has no `.entry {name}`; it defines: {}",
            names.join(", ")
        )
    }
}

/// Type and size of one `.param` declaration (`.param .u64 name`,
/// `.param .align 8 .b8 name[16]`).
fn param_size(decl: &str) -> Option<(String, usize)> {
    let mut tokens = decl.split_whitespace();
    if tokens.next()? != ".param" {
        return None;
    }
    let mut ty = None;
    let mut count = 1usize;
    for token in tokens {
        if let Some(bits) = scalar_bits(token) {
            ty = Some((token.to_string(), bits / 8));
        } else if let Some(open) = token.find('[') {
            let close = token[open..].find(']')? + open;
            count = token[open + 1..close].trim().parse().ok()?;
        }
    }
    let (name, size) = ty?;
    Some((name, size * count))
}

/// Width of a PTX scalar type (`.u64` -> 64).
fn scalar_bits(token: &str) -> Option<usize> {
    let t = token.strip_prefix('.')?;
    let bits = t
        .strip_prefix("bf")
        .or_else(|| t.strip_prefix(['u', 's', 'b', 'f']))?;
    match bits {
        "8" | "16" | "32" | "64" => bits.parse().ok(),
        _ => None,
    }
}

/// `ptx` without `//` and `/* */` comments.
fn strip_comments(ptx: &str) -> String {
    let mut out = String::with_capacity(ptx.len());
    let mut rest = ptx;
    loop {
        let line = rest.find("//");
        let block = rest.find("/*");
        match (line, block) {
            (Some(l), b) if b.is_none_or(|b| l < b) => {
                out.push_str(&rest[..l]);
                rest = match rest[l..].find('\n') {
                    Some(nl) => &rest[l + nl..],
                    None => "",
                };
            }
            (_, Some(b)) => {
                out.push_str(&rest[..b]);
                out.push(' ');
                rest = match rest[b + 2..].find("*/") {
                    Some(end) => &rest[b + 2 + end + 2..],
                    None => "",
                };
            }
            _ => {
                out.push_str(rest);
                return out;
            }
        }
    }
}

/// Position of `directive` as a whole word (not `.entryfoo`).
fn find_directive(text: &str, directive: &str) -> Option<usize> {
    let mut from = 0;
    while let Some(i) = text[from..].find(directive) {
        let at = from + i;
        let end = at + directive.len();
        let before_ok = at == 0 || !is_ident(text.as_bytes()[at - 1]);
        let after_ok = end == text.len() || !is_ident(text.as_bytes()[end]);
        if before_ok && after_ok {
            return Some(at);
        }
        from = end;
    }
    None
}

fn is_ident(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'$' || b == b'.'
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn static_shared_memory_is_summed() {
        let ptx = ".version 8.0\n.shared .align 16 .b8 __tile_shared[262144];\n\
                   .shared .align 4 .b32 other[10]; // 40 bytes\n\
                   .extern .shared .align 16 .b8 dynamic[];\n\
                   st.shared.v4.b32 [%rd1], {%r1, %r2, %r3, %r4};\n";
        assert_eq!(static_shared_bytes(ptx), 262_184);
        assert_eq!(static_shared_bytes(".version 8.0\n"), 0);
    }
    use crate::kernel::ParamType;

    const PTX: &str = r#"
//
// Generated by hand
//
.version 8.0
.target sm_90
.address_size 64

	// .globl	add_one
.visible .entry add_one(
	.param .u64 add_one_param_0, // x
	.param .u32 add_one_param_1  /* n */
)
.maxntid 128, 1, 1
{
	ret;
}

.entry other ( .param .align 8 .b8 s[16], .param .b16 h, .param .f32 f )
{ ret; }
/* .entry commented_out( .param .u64 p ) */
"#;

    fn spec(params: &[ParamType]) -> KernelSpec {
        KernelSpec {
            name: "add_one".into(),
            params: params
                .iter()
                .enumerate()
                .map(|(i, t)| (format!("p{i}"), *t))
                .collect(),
            num_warps: 4,
            shared_mem_bytes: 0,
            i32_offset_elem_bytes: vec![],
            specialization: Default::default(),
        }
    }

    #[test]
    fn reads_entries_and_parameter_sizes() {
        let e = entries(PTX);
        assert_eq!(
            e,
            vec![
                Entry {
                    name: "add_one".into(),
                    params: vec![Some((".u64".into(), 8)), Some((".u32".into(), 4))],
                },
                Entry {
                    name: "other".into(),
                    params: vec![
                        Some((".b8".into(), 16)),
                        Some((".b16".into(), 2)),
                        Some((".f32".into(), 4)),
                    ],
                },
            ]
        );
    }

    #[test]
    fn a_matching_spec_passes() {
        check_spec(PTX, &spec(&[ParamType::Ptr, ParamType::I32])).unwrap();
        check_spec(PTX, &spec(&[ParamType::I64, ParamType::F32])).unwrap();
    }

    #[test]
    fn a_count_mismatch_lists_both_sides() {
        let err = check_spec(PTX, &spec(&[ParamType::Ptr])).unwrap_err();
        assert_eq!(
            err.to_string(),
            "kernel `add_one`: the PTX entry has 2 parameters (.u64, .u32) but the spec lists \
             1 (p0: ptr)"
        );
    }

    #[test]
    fn a_size_mismatch_names_the_parameter() {
        let err = check_spec(PTX, &spec(&[ParamType::Ptr, ParamType::I64])).unwrap_err();
        assert_eq!(
            err.to_string(),
            "kernel `add_one`: parameter 1 (`p1`): the spec says i64 (8 bytes) but the PTX \
             declares .u32 (4 bytes)"
        );
    }

    #[test]
    fn an_entry_it_cannot_find_is_left_to_the_driver() {
        let mut s = spec(&[]);
        s.name = "elsewhere".into();
        check_spec(PTX, &s).unwrap();
        assert_eq!(
            missing_entry_message(PTX, "elsewhere"),
            "the PTX has no `.entry elsewhere`; it defines: add_one, other"
        );
        assert_eq!(
            missing_entry_message(".version 8.0", "k"),
            "the PTX has no `.entry k` (it defines no entry at all)"
        );
    }

    #[test]
    fn scalar_types() {
        assert_eq!(scalar_bits(".u64"), Some(64));
        assert_eq!(scalar_bits(".s32"), Some(32));
        assert_eq!(scalar_bits(".bf16"), Some(16));
        assert_eq!(scalar_bits(".b8"), Some(8));
        assert_eq!(scalar_bits(".f16x2"), None);
        assert_eq!(scalar_bits(".param"), None);
        assert_eq!(scalar_bits(".align"), None);
    }
}
