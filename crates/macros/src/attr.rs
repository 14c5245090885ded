//! The attribute's arguments: `#[tile::kernel(num_warps = 8,
//! num_stages = 3)]`.

use proc_macro2::TokenStream;
use syn::LitInt;

/// Compile options given on the attribute; `None` keeps
/// `tile::Options::default()`'s.
#[derive(Default)]
pub struct KernelAttr {
    /// Warps per program.
    pub num_warps: Option<LitInt>,
    /// Pipeline stages of the kernel's loops.
    pub num_stages: Option<LitInt>,
}

/// Reads the attribute's `key = value` list.
pub fn parse(tokens: TokenStream) -> syn::Result<KernelAttr> {
    let mut attr = KernelAttr::default();
    let parser = syn::meta::parser(|meta| {
        let slot = if meta.path.is_ident("num_warps") {
            &mut attr.num_warps
        } else if meta.path.is_ident("num_stages") {
            &mut attr.num_stages
        } else {
            return Err(meta.error("unknown option: expected `num_warps = N` or `num_stages = N`"));
        };
        if slot.is_some() {
            return Err(meta.error("option given twice"));
        }
        let value: LitInt = meta.value()?.parse()?;
        let n: u32 = value.base10_parse()?;
        if n == 0 {
            return Err(syn::Error::new(value.span(), "must be at least 1"));
        }
        *slot = Some(value);
        Ok(())
    });
    syn::parse::Parser::parse2(parser, tokens)?;
    Ok(attr)
}
