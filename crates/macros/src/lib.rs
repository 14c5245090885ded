//! `#[tile::kernel]`: a tile kernel written as a Rust function.
//!
//! Use it through the `tile` crate (`#[tile::kernel]`), whose
//! documentation of [`kernel`] is the user's guide; this crate only
//! rewrites the function into calls of `tile`'s kernel builder. The
//! expansion is plain builder code: every tile op keeps the user's span,
//! so a builder error names the user's line, and a type error points into
//! the user's function.

use proc_macro::TokenStream;

mod attr;
mod body;
mod carried;
mod expand;
mod signature;

/// Turns `fn name(params) { body }` into a module `name` holding
/// `build`, `jit`, `launch`, `launch_async`, `options` and `NAME`. See
/// `tile::kernel` for the language.
#[proc_macro_attribute]
pub fn kernel(attr: TokenStream, item: TokenStream) -> TokenStream {
    match expand::kernel(attr.into(), item.into()) {
        Ok(tokens) => tokens.into(),
        Err(e) => e.to_compile_error().into(),
    }
}
