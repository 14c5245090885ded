//! The attribute's arguments: `#[tile::kernel(num_warps = 8,
//! num_stages = 3)]`, and for an autotuned kernel `autotune = CONFIGS,
//! key = [m, n, k]`.

use proc_macro2::TokenStream;
use syn::{Ident, LitInt, Path};

/// Compile options given on the attribute; `None` keeps
/// `tile::Options::default()`'s.
#[derive(Default)]
pub struct KernelAttr {
    /// Warps per program.
    pub num_warps: Option<LitInt>,
    /// Pipeline stages of the kernel's loops.
    pub num_stages: Option<LitInt>,
    /// A function `fn() -> Vec<tile::Config>`: the configurations to time.
    pub autotune: Option<Path>,
    /// The scalar parameters whose values key a tuning (Triton's `key`).
    pub key: Vec<Ident>,
}

/// Reads the attribute's `key = value` list.
pub fn parse(tokens: TokenStream) -> syn::Result<KernelAttr> {
    let mut attr = KernelAttr::default();
    let mut key_given = false;
    let parser = syn::meta::parser(|meta| {
        if meta.path.is_ident("autotune") {
            if attr.autotune.is_some() {
                return Err(meta.error("option given twice"));
            }
            attr.autotune = Some(meta.value()?.parse()?);
            return Ok(());
        }
        if meta.path.is_ident("key") {
            if key_given {
                return Err(meta.error("option given twice"));
            }
            key_given = true;
            let value = meta.value()?;
            let list: syn::ExprArray = value.parse()?;
            for elem in list.elems {
                match elem {
                    syn::Expr::Path(p) if p.path.get_ident().is_some() => {
                        attr.key.push(p.path.get_ident().expect("checked").clone());
                    }
                    other => {
                        return Err(syn::Error::new_spanned(
                            other,
                            "a key is a parameter's name: `key = [m, n, k]`",
                        ));
                    }
                }
            }
            return Ok(());
        }
        let slot = if meta.path.is_ident("num_warps") {
            &mut attr.num_warps
        } else if meta.path.is_ident("num_stages") {
            &mut attr.num_stages
        } else {
            return Err(meta.error(
                "unknown option: expected `num_warps = N`, `num_stages = N`, \
                 `autotune = CONFIGS_FN` or `key = [params]`",
            ));
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
    if key_given && attr.autotune.is_none() {
        return Err(syn::Error::new(
            proc_macro2::Span::call_site(),
            "`key` names what a tuning depends on: give `autotune = CONFIGS_FN` too",
        ));
    }
    Ok(attr)
}
