//! The kernel body rewritten into builder calls:
//! - `program_id(0)`, `load(p)`, `arange(0, n)`, ... (the kernel
//!   builder's methods called as functions) become calls on the builder;
//! - `for i in range(start, end, step) { ... }` becomes `for_range`, the
//!   variables the body assigns carried through the loop;
//! - `if c { ... } else { ... }` becomes a branch that is `scf.if` when
//!   `c` is a tile and plain Rust when it is a `bool` (a constexpr test);
//!   the variables the branches assign (and its value, if it has one) are
//!   its results.
//!
//! Everything else stays as written: tile arithmetic is Rust operators on
//! `Tile`s, and Rust loops (`for i in 0..4`) and `while` run while the
//! kernel is built (unrolled, as Triton's `static_range`).

use crate::carried;
use proc_macro2::{Span, TokenStream};
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;
use syn::visit_mut::VisitMut;
use syn::{Expr, Ident, Stmt};

/// The kernel builder's methods a body calls as plain functions.
const BUILDER_FNS: &[&str] = &[
    "program_id",
    "num_programs",
    "arange",
    "zeros",
    "full",
    "constant",
    "i32",
    "i64",
    "f32",
    "load",
    "store",
    "atomic_add",
    "atomic_max",
    "atomic_min",
    "atomic_xchg",
    "atomic_cas",
    "atomic_rmw",
    "make_block_ptr",
    "dot",
    "where_",
    "device_print",
    "device_print_hex",
    "device_assert",
    "for_range",
    "for_range_staged",
    "if_else",
    "if_then",
    "while_loop",
];

/// Rewrites `block` (the kernel's body) in place; `builder` is the
/// builder's variable. Errors are collected, each at the user's code.
pub fn rewrite(block: &mut syn::Block, builder: &Ident) -> syn::Result<()> {
    let mut rewriter = Rewriter {
        builder: builder.clone(),
        errors: Vec::new(),
        unit_stmt: false,
        unit_block: true,
    };
    rewriter.visit_block_mut(block);
    match rewriter.errors.into_iter().reduce(|mut a, b| {
        a.combine(b);
        a
    }) {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

struct Rewriter {
    builder: Ident,
    errors: Vec<syn::Error>,
    /// The next expression visited is a statement (its value unused).
    unit_stmt: bool,
    /// The next block visited is a statement (its tail's value unused).
    unit_block: bool,
}

impl VisitMut for Rewriter {
    fn visit_expr_mut(&mut self, expr: &mut Expr) {
        let unit = std::mem::take(&mut self.unit_stmt);
        // Inner code first: a loop's or branch's carried variables are
        // then read from code already rewritten (an inner loop assigns
        // its results like any other assignment). A kernel loop's body and
        // the sides of a branch whose value is not used are statements.
        match expr {
            Expr::ForLoop(l) if range_of(&l.expr).is_some() => {
                self.visit_expr_mut(&mut l.expr);
                self.unit_block = true;
                self.visit_block_mut(&mut l.body);
            }
            Expr::If(i) if unit && !matches!(*i.cond, Expr::Let(_)) => {
                self.visit_expr_mut(&mut i.cond);
                self.unit_block = true;
                self.visit_block_mut(&mut i.then_branch);
                if let Some((_, e)) = &mut i.else_branch {
                    match &mut **e {
                        Expr::Block(b) => {
                            self.unit_block = true;
                            self.visit_block_mut(&mut b.block);
                        }
                        other => {
                            self.unit_stmt = true;
                            self.visit_expr_mut(other);
                        }
                    }
                }
            }
            _ => syn::visit_mut::visit_expr_mut(self, expr),
        }
        let replaced = match expr {
            Expr::Call(call) => self.builder_call(call),
            Expr::ForLoop(l) => self.for_loop(l),
            Expr::If(i) => self.branch(i, unit),
            _ => Ok(None),
        };
        match replaced {
            Ok(Some(new)) => {
                *expr = syn::parse2(new).expect("the rewritten expression parses");
            }
            Ok(None) => {}
            Err(e) => self.errors.push(e),
        }
    }

    fn visit_block_mut(&mut self, block: &mut syn::Block) {
        let unit = std::mem::take(&mut self.unit_block);
        let last = block.stmts.len().saturating_sub(1);
        for (i, stmt) in block.stmts.iter_mut().enumerate() {
            match stmt {
                Stmt::Expr(e, semi) => {
                    // A statement, or the value of a block nobody reads.
                    self.unit_stmt = semi.is_some() || i != last || unit;
                    self.visit_expr_mut(e);
                }
                other => syn::visit_mut::visit_stmt_mut(self, other),
            }
        }
    }

    // Items nested in the body (helper functions) are not kernel code.
    fn visit_item_mut(&mut self, _: &mut syn::Item) {}
}

impl Rewriter {
    /// `load(p)` as `builder.load(p)`, the method named by the user's
    /// identifier (so `#[track_caller]` reports the user's line), and
    /// `builder()` as the builder itself.
    fn builder_call(&self, call: &syn::ExprCall) -> syn::Result<Option<TokenStream>> {
        let Some(ident) = plain_ident(&call.func) else {
            return Ok(None);
        };
        let k = &self.builder;
        if ident == "builder" && call.args.is_empty() {
            return Ok(Some(quote!(#k)));
        }
        if !BUILDER_FNS.iter().any(|f| ident == f) {
            return Ok(None);
        }
        let args = &call.args;
        Ok(Some(quote_spanned!(ident.span()=> #k.#ident(#args))))
    }

    /// `for i in range(start, end[, step])[.num_stages(s)] { body }` as a
    /// `for_range` carrying what the body assigns. Other `for` loops are
    /// Rust loops, run as the kernel is built.
    fn for_loop(&self, l: &mut syn::ExprForLoop) -> syn::Result<Option<TokenStream>> {
        let Some((range_call, stages)) = range_of(&l.expr) else {
            return Ok(None);
        };
        let (start, end, step) = match range_call.args.iter().collect::<Vec<_>>().as_slice() {
            [end] => (quote!(0), quote!(#end), quote!(1)),
            [start, end] => (quote!(#start), quote!(#end), quote!(1)),
            [start, end, step] => (quote!(#start), quote!(#end), quote!(#step)),
            _ => {
                return Err(syn::Error::new(
                    range_call.span(),
                    "`range` takes (end), (start, end) or (start, end, step)",
                ));
            }
        };
        if let Some(label) = &l.label {
            return Err(syn::Error::new(
                label.span(),
                "a kernel loop has no label: `break` and `continue` are not supported in it",
            ));
        }
        let var = match &*l.pat {
            syn::Pat::Ident(p) => p.ident.clone(),
            syn::Pat::Wild(w) => Ident::new("_", w.span()),
            other => {
                return Err(syn::Error::new(
                    other.span(),
                    "a kernel loop's variable is a plain name (or `_`)",
                ));
            }
        };
        refuse_jumps(&l.body)?;
        let carried = carried::assigned_outside(&l.body, std::slice::from_ref(&var));
        let stmts = statements(&l.body);
        let k = &self.builder;
        let span = l.for_token.span();
        let init = quote!([#(#carried),*]);
        let body = quote!(|#var, [#(mut #carried),*]| { #(#stmts)* [#(#carried),*] });
        let call = match stages {
            None => quote_spanned!(span=> #k.for_range(#start, #end, #step, #init, #body)),
            Some(s) => {
                quote_spanned!(span=> #k.for_range_staged(#s, #start, #end, #step, #init, #body))
            }
        };
        Ok(Some(quote_spanned! {span=>
            { [#(#carried),*] = #call; }
        }))
    }

    /// `if c { a } else { b }` as a branch on `c` (a tile or a `bool`)
    /// whose results are the variables either side assigns, and its value
    /// where both sides end in one.
    fn branch(&self, i: &mut syn::ExprIf, unit: bool) -> syn::Result<Option<TokenStream>> {
        if matches!(*i.cond, Expr::Let(_)) {
            return Ok(None);
        }
        refuse_jumps(&i.then_branch)?;
        let otherwise: Option<syn::Block> = i.else_branch.as_ref().map(|(_, e)| match &**e {
            Expr::Block(b) => b.block.clone(),
            // `else if`: already rewritten into an expression.
            other => syn::parse2(quote!({ #other })).expect("a block parses"),
        });
        if let Some(o) = &otherwise {
            refuse_jumps(o)?;
        }
        let mut carried = carried::assigned_outside(&i.then_branch, &[]);
        if let Some(o) = &otherwise {
            for name in carried::assigned_outside(o, &[]) {
                if !carried.contains(&name) {
                    carried.push(name);
                }
            }
        }
        let valued = !unit
            && otherwise.is_some()
            && tail(&i.then_branch).is_some()
            && otherwise.as_ref().and_then(tail).is_some();
        let cond = &i.cond;
        let k = &self.builder;
        let span = i.if_token.span();
        let side = |block: &syn::Block| {
            let (stmts, result) = if valued {
                let mut b = block.clone();
                let Some(Stmt::Expr(v, None)) = b.stmts.pop() else {
                    unreachable!("a valued side ends in its value")
                };
                (b.stmts, quote!([#v, #(#carried),*]))
            } else {
                (statements(block), quote!([#(#carried),*]))
            };
            quote! {
                || {
                    #(let mut #carried = #carried;)*
                    #(#stmts)*
                    #result
                }
            }
        };
        let then = side(&i.then_branch);
        if carried.is_empty() && !valued {
            let otherwise = match &otherwise {
                Some(o) => {
                    let o = side(o);
                    quote!(::core::option::Option::Some(#o))
                }
                None => quote!(::tile::__macro_support::no_else()),
            };
            return Ok(Some(quote_spanned! {span=>
                ::tile::__macro_support::guard(#k, #cond, #then, #otherwise)
            }));
        }
        let otherwise = match &otherwise {
            Some(o) => side(o),
            None => quote!(|| [#(#carried),*]),
        };
        let call = quote_spanned! {span=>
            ::tile::__macro_support::branch(#k, #cond, #then, #otherwise)
        };
        Ok(Some(if valued {
            quote_spanned! {span=>
                {
                    let __tile_value;
                    [__tile_value, #(#carried),*] = #call;
                    __tile_value
                }
            }
        } else {
            quote_spanned! {span=> { [#(#carried),*] = #call; } }
        }))
    }
}

/// The block's tail expression (its value), if it ends in one.
fn tail(block: &syn::Block) -> Option<&Expr> {
    match block.stmts.last() {
        Some(Stmt::Expr(e, None)) => Some(e),
        _ => None,
    }
}

/// The statements of a block whose value is not used: its tail, if any,
/// run as a statement.
fn statements(block: &syn::Block) -> Vec<Stmt> {
    let mut stmts = block.stmts.clone();
    if let Some(Stmt::Expr(_, semi @ None)) = stmts.last_mut() {
        *semi = Some(Default::default());
    }
    stmts
}

/// `range(...)` (and its stage count, from `range(...).num_stages(s)`)
/// when `expr` is one.
fn range_of(expr: &Expr) -> Option<(&syn::ExprCall, Option<&Expr>)> {
    match expr {
        Expr::Call(c) if plain_ident(&c.func).is_some_and(|i| i == "range") => Some((c, None)),
        Expr::MethodCall(m) if m.method == "num_stages" && m.args.len() == 1 => {
            let (call, None) = range_of(&m.receiver)? else {
                return None;
            };
            Some((call, m.args.first()))
        }
        _ => None,
    }
}

/// The identifier of a path of one segment (`load`, not `a::load`).
fn plain_ident(func: &Expr) -> Option<&Ident> {
    match func {
        Expr::Path(p) if p.qself.is_none() && p.path.segments.len() == 1 => {
            let seg = &p.path.segments[0];
            seg.arguments.is_none().then_some(&seg.ident)
        }
        _ => None,
    }
}

/// `break`, `continue` and `return` cannot leave a kernel loop or branch
/// (each is one region of IR): refused at the keyword.
fn refuse_jumps(block: &syn::Block) -> syn::Result<()> {
    struct Jumps(Option<syn::Error>);
    impl<'a> syn::visit::Visit<'a> for Jumps {
        fn visit_expr_break(&mut self, e: &'a syn::ExprBreak) {
            self.found(e.break_token.span, "`break`");
        }
        fn visit_expr_continue(&mut self, e: &'a syn::ExprContinue) {
            self.found(e.continue_token.span, "`continue`");
        }
        fn visit_expr_return(&mut self, e: &'a syn::ExprReturn) {
            self.found(e.return_token.span, "`return`");
        }
        // Rust loops and closures inside have jumps of their own.
        fn visit_expr_closure(&mut self, _: &'a syn::ExprClosure) {}
        fn visit_expr_loop(&mut self, _: &'a syn::ExprLoop) {}
        fn visit_expr_while(&mut self, _: &'a syn::ExprWhile) {}
        fn visit_expr_for_loop(&mut self, l: &'a syn::ExprForLoop) {
            if range_of(&l.expr).is_some() {
                syn::visit::visit_expr_for_loop(self, l);
            }
        }
        fn visit_item(&mut self, _: &'a syn::Item) {}
    }
    impl Jumps {
        fn found(&mut self, span: Span, what: &str) {
            if self.0.is_none() {
                self.0 = Some(syn::Error::new(
                    span,
                    format!(
                        "{what} cannot leave a kernel loop or branch (each is one region of the kernel's IR): \
                         carry a flag, mask, or use `while_loop`"
                    ),
                ));
            }
        }
    }
    let mut jumps = Jumps(None);
    syn::visit::Visit::visit_block(&mut jumps, block);
    jumps.0.map_or(Ok(()), Err)
}
