//! The module a kernel function becomes: `build` (the kernel for given
//! constexprs, through the builder), `jit` (compiled on demand and cached
//! per constexpr value), typed `launch`/`launch_async`, `options` and
//! `NAME`.

use crate::signature::{Kind, Param};
use crate::{attr, body, signature};
use proc_macro2::{Span, TokenStream};
use quote::{quote, quote_spanned};
use syn::Ident;

/// Expands `#[tile::kernel(attr)] item`.
pub fn kernel(attr: TokenStream, item: TokenStream) -> syn::Result<TokenStream> {
    let attr = attr::parse(attr)?;
    let mut func: syn::ItemFn = syn::parse2(item)?;
    let params = signature::parse(&mut func.sig)?;
    let k = Ident::new("__tile_k", Span::mixed_site());
    let mut block = *func.block;
    body::rewrite(&mut block, &k)?;

    let name = &func.sig.ident;
    // Element types (`fn k<T: Element>(x: Ptr<T>)`): each function of the
    // module is generic over them, and a kernel is made per element type.
    let type_params: Vec<&Ident> = func.sig.generics.type_params().map(|t| &t.ident).collect();
    // Each with `tile::Element` added to the bounds the user wrote.
    let bounded: Vec<TokenStream> = func
        .sig
        .generics
        .type_params()
        .map(|t| {
            let (ident, bounds) = (&t.ident, &t.bounds);
            if bounds.is_empty() {
                quote!(#ident: ::tile::Element)
            } else {
                quote!(#ident: ::tile::Element + #bounds)
            }
        })
        .collect();
    let (generics, turbofish, build_generics) = if type_params.is_empty() {
        (quote!(), quote!(), quote!(<'c>))
    } else {
        (
            quote!(<#(#bounded),*>),
            quote!(::<#(#type_params),*>),
            quote!(<'c, #(#bounded),*>),
        )
    };
    let where_clause = &func.sig.generics.where_clause;
    let name_str = name.to_string();
    let vis = &func.vis;
    let attrs = &func.attrs;

    let declarations = params.iter().filter_map(|p| {
        let n = &p.name;
        let n_str = n.to_string();
        match &p.kind {
            Kind::Ptr(elem) => Some(quote_spanned! {n.span()=>
                let #n = #k.arg_ptr(#n_str, <#elem as ::tile::Element>::DTYPE);
            }),
            Kind::Scalar(ty) => Some(quote_spanned! {n.span()=>
                let #n = #k.arg(#n_str, <#ty as ::tile::ScalarArg>::DTYPE);
            }),
            Kind::Constexpr(_) => None,
        }
    });
    let constexprs: Vec<(&Ident, &syn::Type)> = params
        .iter()
        .filter_map(|p| match &p.kind {
            Kind::Constexpr(ty) => Some((&p.name, ty)),
            _ => None,
        })
        .collect();
    let const_names: Vec<&Ident> = constexprs.iter().map(|(n, _)| *n).collect();
    let const_types: Vec<&syn::Type> = constexprs.iter().map(|(_, t)| *t).collect();
    let launch_params: Vec<TokenStream> = params.iter().map(launch_param).collect();
    let dtype_slots: Vec<TokenStream> = type_params.iter().map(|_| quote!(::tile::DType)).collect();
    let launch_args: Vec<TokenStream> = params.iter().filter_map(launch_arg).collect();

    let num_warps = attr
        .num_warps
        .as_ref()
        .map(|n| quote!(options.num_warps = #n;));
    let num_stages = attr
        .num_stages
        .as_ref()
        .map(|n| quote!(options.num_stages = #n;));
    let build_call = quote_spanned! {name.span()=>
        ::tile::Kernel::build(context, NAME, |#k| {
            #(#declarations)*
            #block
        })
    };

    let launchers = match &attr.autotune {
        None => quote! {
        /// Launches the kernel on `device` over `grid`, waiting for it
            /// to finish; arguments as the kernel function declares them.
            pub fn launch #generics (
                device: &::tile::Device,
                grid: impl ::core::convert::Into<::tile::Grid>,
                #(#launch_params),*
            ) -> ::tile::Result<()> #where_clause {
                let args = [#(#launch_args),*];
                jit #turbofish (#(#const_names),*)?.launch(device, grid, &args)?;
                Ok(())
            }

            /// [`launch`] without waiting: the kernel is queued on the
            /// device's stream.
            pub fn launch_async #generics (
                device: &::tile::Device,
                grid: impl ::core::convert::Into<::tile::Grid>,
                #(#launch_params),*
            ) -> ::tile::Result<()> #where_clause {
                let args = [#(#launch_args),*];
                jit #turbofish (#(#const_names),*)?.launch_async(device, grid, &args)?;
                Ok(())
            }
        },
        Some(configs) => autotuned(
            &params,
            &attr.key,
            configs,
            &generics,
            &turbofish,
            where_clause,
            &type_params,
        )?,
    };

    Ok(quote! {
        #(#attrs)*
        #vis mod #name {
            #![allow(non_snake_case, unused_imports, clippy::too_many_arguments)]
            use super::*;

            /// The kernel's name, in its IR and its PTX.
            pub const NAME: &str = #name_str;

            /// The compile options: the attribute's, the rest
            /// `tile::Options::default()`.
            pub fn options() -> ::tile::Options {
                #[allow(unused_mut)]
                let mut options = ::tile::Options::default();
                #num_warps
                #num_stages
                options
            }

            /// The kernel for these constexprs, through the kernel builder.
            #[allow(unused_mut, unused_assignments, unused_braces, clippy::all)]
            pub fn build #build_generics (
                context: &'c ::tile::melior::Context,
                #(#const_names: #const_types),*
            ) -> ::tile::Result<::tile::Kernel<'c>> #where_clause {
                #build_call.map_err(::tile::Error::from)
            }

            /// The kernel for these constexprs compiled on demand (one
            /// variant per set of argument facts), made once per constexpr
            /// value in this process.
            pub fn jit #generics (#(#const_names: #const_types),*) -> ::tile::Result<::std::sync::Arc<::tile::Jit>> #where_clause {
                static VARIANTS: ::tile::__macro_support::JitCache<(
                    #(#dtype_slots,)* #(#const_types,)*
                )> = ::tile::__macro_support::JitCache::new();
                let key = (
                    #(<#type_params as ::tile::Element>::DTYPE,)*
                    #(::core::clone::Clone::clone(&#const_names),)*
                );
                VARIANTS.get(key, move || {
                    ::tile::__macro_support::jit_of(options(), move |context| {
                        build #turbofish (context, #(#const_names),*)
                    })
                })
            }

            #launchers
        }
    })
}

/// The launcher's parameter for `p`: a buffer of the pointer's elements, a
/// scalar of its type, the constexpr's value.
fn launch_param(p: &Param) -> TokenStream {
    let n = &p.name;
    match &p.kind {
        Kind::Ptr(elem) => quote_spanned!(n.span()=> #n: impl ::tile::PtrArg<#elem>),
        Kind::Scalar(ty) | Kind::Constexpr(ty) => quote_spanned!(n.span()=> #n: #ty),
    }
}

/// The kernel argument made of `p`'s value (none for a constexpr).
fn launch_arg(p: &Param) -> Option<TokenStream> {
    let n = &p.name;
    match &p.kind {
        Kind::Ptr(elem) => Some(quote!(::tile::PtrArg::<#elem>::arg(#n)?)),
        Kind::Scalar(ty) => Some(quote!(<#ty as ::tile::ScalarArg>::arg(#n))),
        Kind::Constexpr(_) => None,
    }
}

/// `autotuner`, `launch` and `launch_async` of an autotuned kernel: the
/// constexprs come from each configuration (by name), the tuning is keyed
/// by the `key` parameters' values, and the grid is a function of the
/// chosen configuration.
fn autotuned(
    params: &[Param],
    key: &[Ident],
    configs: &syn::Path,
    generics: &TokenStream,
    turbofish: &TokenStream,
    where_clause: &Option<syn::WhereClause>,
    type_params: &[&Ident],
) -> syn::Result<TokenStream> {
    for k in key {
        match params.iter().find(|p| p.name == *k) {
            Some(Param {
                kind: Kind::Scalar(_),
                ..
            }) => {}
            Some(_) => {
                return Err(syn::Error::new(
                    k.span(),
                    "a tuning key is a scalar parameter (its value at launch)",
                ));
            }
            None => return Err(syn::Error::new(k.span(), "no parameter of this name")),
        }
    }
    let const_params: Vec<(&Ident, &syn::Type)> = params
        .iter()
        .filter_map(|p| match &p.kind {
            Kind::Constexpr(ty) => Some((&p.name, ty)),
            _ => None,
        })
        .collect();
    let const_names: Vec<&Ident> = const_params.iter().map(|(n, _)| *n).collect();
    let const_types: Vec<&syn::Type> = const_params.iter().map(|(_, t)| *t).collect();
    let const_strs: Vec<String> = const_names.iter().map(|n| n.to_string()).collect();
    let runtime: Vec<&Param> = params
        .iter()
        .filter(|p| !matches!(p.kind, Kind::Constexpr(_)))
        .collect();
    let launch_params: Vec<TokenStream> = runtime.iter().map(|p| launch_param(p)).collect();
    let launch_args: Vec<TokenStream> = runtime.iter().filter_map(|p| launch_arg(p)).collect();
    let runtime_names: Vec<&Ident> = runtime.iter().map(|p| &p.name).collect();
    let key_format: String = key.iter().map(|k| format!("{k}={{:?}} ")).collect();
    let dtype_slots: Vec<TokenStream> = type_params.iter().map(|_| quote!(::tile::DType)).collect();
    Ok(quote! {
        /// The autotuner over the attribute's configurations: one kernel
        /// per configuration, its constexprs taken from the
        /// configuration's values of the same names; made once per
        /// element type in this process.
        pub fn autotuner #generics () -> ::tile::Result<::std::sync::Arc<::tile::Autotuner<::tile::TileCompiler>>> #where_clause {
            static TUNERS: ::tile::__macro_support::Made<(#(#dtype_slots,)*), ::tile::Autotuner<::tile::TileCompiler>> =
                ::tile::__macro_support::Made::new();
            TUNERS.get((#(<#type_params as ::tile::Element>::DTYPE,)*), || {
                ::tile::__macro_support::tuner(NAME, #configs(), options(), |context, config| {
                    #(let #const_names: #const_types =
                        ::tile::__macro_support::config_value(config, #const_strs)?;)*
                    build #turbofish (context, #(#const_names),*).map_err(|e| e.to_string())
                })
            })
        }

        /// Launches the best configuration for the key's values (timing
        /// every configuration first, on a new key) over the grid `grid`
        /// gives for it, and waits; arguments as the kernel function
        /// declares them, without the constexprs (the configuration's).
        pub fn launch #generics (
            device: &::tile::Device,
            grid: impl Fn(&::tile::Config) -> ::tile::Grid,
            #(#launch_params),*
        ) -> ::tile::Result<()> #where_clause {
            launch_async #turbofish (device, grid, #(#runtime_names),*)?;
            device.synchronize()?;
            Ok(())
        }

        /// [`launch`] without waiting.
        pub fn launch_async #generics (
            device: &::tile::Device,
            grid: impl Fn(&::tile::Config) -> ::tile::Grid,
            #(#launch_params),*
        ) -> ::tile::Result<()> #where_clause {
            let key = format!(#key_format, #(#key),*);
            let args = [#(#launch_args),*];
            autotuner #turbofish ()?.launch(device, key.trim_end(), grid, &args)?;
            Ok(())
        }
    })
}
