//! Which variables a loop body or an `if` branch assigns that were
//! declared before it: the values the loop carries (`scf.for`'s
//! iteration arguments) or the branch yields (`scf.if`'s results), as
//! Triton finds them in Python.

use syn::visit::Visit;
use syn::{Expr, Ident, Pat};

/// The names assigned in `block` (`x = ...`, `x += ...`, `[x, y] = ...`)
/// that no `let`, closure parameter or loop variable inside it declares,
/// in the order of their first assignment; `bound` are names already
/// declared inside (a loop's variable).
pub fn assigned_outside(block: &syn::Block, bound: &[Ident]) -> Vec<Ident> {
    let mut finder = Finder {
        scopes: vec![bound.iter().map(|i| i.to_string()).collect()],
        found: Vec::new(),
    };
    finder.visit_block(block);
    finder.found
}

struct Finder {
    /// Names declared in each enclosing scope inside the searched code.
    scopes: Vec<Vec<String>>,
    found: Vec<Ident>,
}

impl Finder {
    fn declared(&self, name: &str) -> bool {
        self.scopes.iter().any(|s| s.iter().any(|n| n == name))
    }

    fn declare(&mut self, pat: &Pat) {
        let mut names = Vec::new();
        bindings(pat, &mut names);
        self.scopes
            .last_mut()
            .expect("a scope is open")
            .extend(names.iter().map(|i| i.to_string()));
    }

    /// Records the variables `target` (the left side of an assignment)
    /// writes.
    fn assign(&mut self, target: &Expr) {
        match target {
            Expr::Path(p) if p.qself.is_none() && p.path.segments.len() == 1 => {
                let ident = &p.path.segments[0].ident;
                let name = ident.to_string();
                if !self.declared(&name) && !self.found.iter().any(|f| *f == name) {
                    self.found.push(ident.clone());
                }
            }
            Expr::Array(a) => a.elems.iter().for_each(|e| self.assign(e)),
            Expr::Tuple(t) => t.elems.iter().for_each(|e| self.assign(e)),
            Expr::Paren(p) => self.assign(&p.expr),
            // A field or an element of something: not a variable of ours.
            other => self.visit_expr(other),
        }
    }

    fn scoped(&mut self, f: impl FnOnce(&mut Self)) {
        self.scopes.push(Vec::new());
        f(self);
        self.scopes.pop();
    }
}

impl<'a> Visit<'a> for Finder {
    fn visit_block(&mut self, block: &'a syn::Block) {
        self.scoped(|s| syn::visit::visit_block(s, block));
    }

    fn visit_local(&mut self, local: &'a syn::Local) {
        if let Some(init) = &local.init {
            self.visit_expr(&init.expr);
            if let Some((_, diverge)) = &init.diverge {
                self.visit_expr(diverge);
            }
        }
        self.declare(&local.pat);
    }

    fn visit_expr_closure(&mut self, closure: &'a syn::ExprClosure) {
        self.scoped(|s| {
            closure.inputs.iter().for_each(|p| s.declare(p));
            s.visit_expr(&closure.body);
        });
    }

    fn visit_expr_for_loop(&mut self, l: &'a syn::ExprForLoop) {
        self.visit_expr(&l.expr);
        self.scoped(|s| {
            s.declare(&l.pat);
            s.visit_block(&l.body);
        });
    }

    fn visit_expr_assign(&mut self, e: &'a syn::ExprAssign) {
        self.visit_expr(&e.right);
        self.assign(&e.left);
    }

    fn visit_expr_binary(&mut self, e: &'a syn::ExprBinary) {
        use syn::BinOp::*;
        self.visit_expr(&e.right);
        match e.op {
            AddAssign(_) | SubAssign(_) | MulAssign(_) | DivAssign(_) | RemAssign(_)
            | BitXorAssign(_) | BitAndAssign(_) | BitOrAssign(_) | ShlAssign(_) | ShrAssign(_) => {
                self.assign(&e.left)
            }
            _ => self.visit_expr(&e.left),
        }
    }

    // Items inside the body have scopes of their own.
    fn visit_item(&mut self, _: &'a syn::Item) {}
}

/// The names a pattern binds.
pub fn bindings(pat: &Pat, out: &mut Vec<Ident>) {
    match pat {
        Pat::Ident(p) => {
            out.push(p.ident.clone());
            if let Some((_, sub)) = &p.subpat {
                bindings(sub, out);
            }
        }
        Pat::Tuple(t) => t.elems.iter().for_each(|p| bindings(p, out)),
        Pat::TupleStruct(t) => t.elems.iter().for_each(|p| bindings(p, out)),
        Pat::Slice(s) => s.elems.iter().for_each(|p| bindings(p, out)),
        Pat::Struct(s) => s.fields.iter().for_each(|f| bindings(&f.pat, out)),
        Pat::Reference(r) => bindings(&r.pat, out),
        Pat::Type(t) => bindings(&t.pat, out),
        Pat::Paren(p) => bindings(&p.pat, out),
        Pat::Or(o) => {
            if let Some(first) = o.cases.first() {
                bindings(first, out);
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(code: &str, bound: &[&str]) -> Vec<String> {
        let block: syn::Block = syn::parse_str(code).unwrap();
        let bound: Vec<Ident> = bound
            .iter()
            .map(|b| Ident::new(b, proc_macro2::Span::call_site()))
            .collect();
        assigned_outside(&block, &bound)
            .iter()
            .map(|i| i.to_string())
            .collect()
    }

    #[test]
    fn outer_assignments_in_first_order() {
        let code = "{ acc = acc + x; p += 4; acc = acc * 2; [q, r] = f(); (s) = 1; }";
        assert_eq!(names(code, &[]), ["acc", "p", "q", "r", "s"]);
    }

    #[test]
    fn locals_closure_parameters_and_loop_variables_are_not_carried() {
        let code = "{ let t = 1; t = 2; let (u, [v]) = g(); v = 3; \
                    let h = |w| { w = 1; }; for i in 0..4 { i = 5; z = i; } \
                    { let y = 0; y = 1; } y = 2; }";
        assert_eq!(names(code, &[]), ["z", "y"]);
        assert_eq!(names("{ i = i + 1; j = 1; }", &["i"]), ["j"]);
    }

    #[test]
    fn fields_and_elements_are_not_variables() {
        assert!(names("{ a.b = 1; c[0] = 2; }", &[]).is_empty());
    }
}
