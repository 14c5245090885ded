//! The kernel function's parameters: pointers (`x: Ptr<f32>`), scalars
//! (`n: i32`) and constexprs (`#[constexpr] block: i32`).

use quote::quote;
use syn::spanned::Spanned;
use syn::{FnArg, GenericArgument, Ident, Pat, PathArguments, Signature, Type};

/// How a parameter reaches the kernel.
pub enum Kind {
    /// A kernel argument pointing at elements of this Rust type.
    Ptr(Type),
    /// A scalar kernel argument of this Rust type.
    Scalar(Type),
    /// A Rust value the kernel is built for (one variant per value).
    Constexpr(Type),
}

/// One parameter of the kernel function.
pub struct Param {
    /// Its name, as the user spelt it (and as the kernel's IR names it).
    pub name: Ident,
    /// What it is.
    pub kind: Kind,
}

/// Reads the parameters of `sig`, refusing what a kernel cannot take
/// (receivers, patterns, generics, a return type, `async`).
pub fn parse(sig: &mut Signature) -> syn::Result<Vec<Param>> {
    if let Some(token) = &sig.asyncness {
        return Err(syn::Error::new(token.span(), "a kernel cannot be `async`"));
    }
    for param in &sig.generics.params {
        if !matches!(param, syn::GenericParam::Type(_)) {
            return Err(syn::Error::new(
                param.span(),
                "a kernel's generic parameters are element types (`T` in `Ptr<T>`): \
                 make other varying parts `#[constexpr]` parameters",
            ));
        }
    }
    if let syn::ReturnType::Type(_, ty) = &sig.output {
        return Err(syn::Error::new(
            ty.span(),
            "a kernel returns nothing: it writes its results through pointers",
        ));
    }
    let mut params = Vec::new();
    for input in sig.inputs.iter_mut() {
        let FnArg::Typed(arg) = input else {
            return Err(syn::Error::new(input.span(), "a kernel takes no `self`"));
        };
        let Pat::Ident(pat) = &*arg.pat else {
            return Err(syn::Error::new(
                arg.pat.span(),
                "a kernel parameter is a plain name (it names the kernel's argument)",
            ));
        };
        let before = arg.attrs.len();
        arg.attrs.retain(|a| !a.path().is_ident("constexpr"));
        let constexpr = arg.attrs.len() != before;
        if let Some(other) = arg.attrs.first() {
            return Err(syn::Error::new(
                other.span(),
                "the only attribute a kernel parameter takes is `#[constexpr]`",
            ));
        }
        let ty = (*arg.ty).clone();
        let kind = if constexpr {
            Kind::Constexpr(ty)
        } else if let Some(elem) = pointee(&ty)? {
            Kind::Ptr(elem)
        } else {
            Kind::Scalar(resolve(ty))
        };
        params.push(Param {
            name: pat.ident.clone(),
            kind,
        });
    }
    Ok(params)
}

/// `T` of a type written `Ptr<T>` (any path ending in `Ptr`).
fn pointee(ty: &Type) -> syn::Result<Option<Type>> {
    let Type::Path(path) = ty else {
        return Ok(None);
    };
    let Some(last) = path.path.segments.last() else {
        return Ok(None);
    };
    if last.ident != "Ptr" {
        return Ok(None);
    }
    let PathArguments::AngleBracketed(args) = &last.arguments else {
        return Err(syn::Error::new(
            last.span(),
            "`Ptr` takes its element type: `Ptr<f32>`",
        ));
    };
    match args.args.iter().collect::<Vec<_>>().as_slice() {
        [GenericArgument::Type(elem)] => Ok(Some(resolve(elem.clone()))),
        _ => Err(syn::Error::new(
            args.span(),
            "`Ptr` takes one element type: `Ptr<f32>`",
        )),
    }
}

/// `f16` and `bf16` written bare mean `half`'s types (as `tile`
/// re-exports them), so a kernel needs no `use` for them.
fn resolve(ty: Type) -> Type {
    if let Type::Path(p) = &ty
        && p.qself.is_none()
        && p.path.segments.len() == 1
        && p.path.segments[0].arguments.is_none()
    {
        let ident = &p.path.segments[0].ident;
        if ident == "f16" || ident == "bf16" {
            return syn::parse2(quote!(::tile::half::#ident)).expect("a path parses as a type");
        }
    }
    ty
}
