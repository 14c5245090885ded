//! A small typed builder of inline PTX: operands by register class,
//! instructions from typed parts (state space, cache and eviction
//! qualifiers, vector width, width in bits), guards, and the
//! `llvm.inline_asm` op that runs them.
//!
//! ```text
//! mov.b32 $0, $1;
//! @$3 ld.global.L1::evict_last.b32 $0, [ $2 ];
//! ```

use super::builder::{Ir, Val};
use melior::ir::Type;
use std::fmt::Write;
use tile_dialect::view::AccessAttrs;
use tile_dialect::{CacheModifier, EvictionPolicy};

/// The register class of an operand, and its constraint letter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RegClass {
    /// A predicate (`b`, an `i1`).
    Pred,
    /// 16 bits (`h`).
    B16,
    /// 32 bits (`r`).
    B32,
    /// 64 bits or a global address (`l`).
    B64,
    /// An `f32` (`f`).
    F32,
    /// An `f64` (`d`).
    F64,
}

impl RegClass {
    fn letter(self) -> char {
        match self {
            RegClass::Pred => 'b',
            RegClass::B16 => 'h',
            RegClass::B32 => 'r',
            RegClass::B64 => 'l',
            RegClass::F32 => 'f',
            RegClass::F64 => 'd',
        }
    }
}

/// An operand of the asm: an output or an input, by position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Operand {
    /// The `i`-th output.
    Out(usize),
    /// The `i`-th input.
    In(usize),
}

/// A global memory access's qualifiers: `.volatile.global`, or `.global`
/// with its cache operator and L1 eviction priority.
pub fn qualifiers(a: &AccessAttrs) -> String {
    if a.volatile {
        return ".volatile.global".into();
    }
    let mut q = String::from(".global");
    if a.cache != CacheModifier::Default {
        q.push('.');
        q.push_str(a.cache.name());
    }
    match a.eviction {
        EvictionPolicy::EvictFirst => q.push_str(".L1::evict_first"),
        EvictionPolicy::EvictLast => q.push_str(".L1::evict_last"),
        EvictionPolicy::Normal => {}
    }
    q
}

/// One instruction: a guard, an opcode, operands in PTX order.
struct Instr {
    guard: Option<Operand>,
    opcode: String,
    operands: Vec<Arg>,
}

/// An operand as PTX writes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Arg {
    /// A register.
    Reg(Operand),
    /// A vector of registers: `{$0, $1}`.
    Vector(Vec<Operand>),
    /// An address: `[ $0 ]`.
    Address(Operand),
    /// An immediate.
    Imm(i64),
    /// A predicate declared with [`PtxAsm::predicate`].
    Pred(&'static str),
}

/// How an input is passed: in a register of a class, or in the register
/// of an output (read and written in place).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Input {
    Class(RegClass),
    Tied(usize),
}

/// Inline PTX being put together.
#[derive(Default)]
pub struct PtxAsm<'c> {
    outputs: Vec<(RegClass, Type<'c>)>,
    inputs: Vec<(Input, Val)>,
    predicates: Vec<&'static str>,
    instrs: Vec<Instr>,
}

impl<'c> PtxAsm<'c> {
    /// An empty asm block.
    pub fn new() -> Self {
        PtxAsm {
            outputs: Vec::new(),
            inputs: Vec::new(),
            predicates: Vec::new(),
            instrs: Vec::new(),
        }
    }

    /// A new output register of class `class`, read back as `ty`.
    pub fn output(&mut self, class: RegClass, ty: Type<'c>) -> Operand {
        self.outputs.push((class, ty));
        Operand::Out(self.outputs.len() - 1)
    }

    /// `value` as an input register of class `class`.
    pub fn input(&mut self, class: RegClass, value: Val) -> Operand {
        self.inputs.push((Input::Class(class), value));
        Operand::In(self.inputs.len() - 1)
    }

    /// `value` as the initial content of output `out`, which the asm
    /// reads and writes in place.
    pub fn tied(&mut self, out: Operand, value: Val) {
        let Operand::Out(i) = out else {
            panic!("only an output can be read in place");
        };
        self.inputs.push((Input::Tied(i), value));
    }

    /// Declares a predicate register local to the asm (which then goes in
    /// braces), named `name`.
    pub fn predicate(&mut self, name: &'static str) -> Arg {
        self.predicates.push(name);
        Arg::Pred(name)
    }

    /// Any instruction: `[@guard] opcode args`.
    pub fn instruction(&mut self, guard: Option<Operand>, opcode: &str, args: Vec<Arg>) {
        self.push(guard, opcode.to_string(), args);
    }

    fn push(&mut self, guard: Option<Operand>, opcode: String, operands: Vec<Arg>) {
        self.instrs.push(Instr {
            guard,
            opcode,
            operands,
        });
    }

    /// `mov.<ty> dst, src` (`ty`: `b16`, `b32`, `b64`, `f32`).
    pub fn mov(&mut self, ty: &str, dst: Operand, src: Operand) {
        self.push(
            None,
            format!("mov.{ty}"),
            vec![Arg::Reg(dst), Arg::Reg(src)],
        );
    }

    /// `[@guard] ld<q>[.vN].<ty> dsts, [addr]`: `dsts` one register, or a
    /// vector of them; `ty` the width's type (`u8`, `b16`, `b32`, `b64`).
    pub fn load(
        &mut self,
        guard: Option<Operand>,
        access: &AccessAttrs,
        ty: &str,
        dsts: &[Operand],
        addr: Operand,
    ) {
        let (vector, dst) = vector_arg(dsts);
        self.push(
            guard,
            format!("ld{}{vector}.{ty}", qualifiers(access)),
            vec![dst, Arg::Address(addr)],
        );
    }

    /// `[@guard] st<q>[.vN].<ty> [addr], srcs`.
    pub fn store(
        &mut self,
        guard: Option<Operand>,
        access: &AccessAttrs,
        ty: &str,
        addr: Operand,
        srcs: &[Operand],
    ) {
        let (vector, src) = vector_arg(srcs);
        self.push(
            guard,
            format!("st{}{vector}.{ty}", qualifiers(access)),
            vec![Arg::Address(addr), src],
        );
    }

    /// `[@guard] st.shared.<ty> [addr], src`: one element into shared
    /// memory (`addr` a shared-space pointer).
    pub fn shared_store(&mut self, guard: Option<Operand>, ty: &str, addr: Operand, src: Operand) {
        self.push(
            guard,
            format!("st.shared.{ty}"),
            vec![Arg::Address(addr), Arg::Reg(src)],
        );
    }

    /// A one-operand instruction `opcode dst, src` (`ex2.approx.ftz.f32`).
    pub fn unary(&mut self, opcode: &str, dst: Operand, src: Operand) {
        self.push(None, opcode.to_string(), vec![Arg::Reg(dst), Arg::Reg(src)]);
    }

    fn index(&self, o: Operand) -> usize {
        match o {
            Operand::Out(i) => i,
            Operand::In(i) => self.outputs.len() + i,
        }
    }

    /// The asm text and its constraint string.
    pub fn text(&self) -> (String, String) {
        let mut asm = String::new();
        let scoped = !self.predicates.is_empty();
        if scoped {
            asm.push_str("{\n\t");
            for p in &self.predicates {
                let _ = write!(asm, ".reg .pred {p};\n\t");
            }
        }
        for (n, i) in self.instrs.iter().enumerate() {
            if n > 0 {
                asm.push_str("\n\t");
            }
            if let Some(g) = i.guard {
                let _ = write!(asm, "@${} ", self.index(g));
            }
            asm.push_str(&i.opcode);
            for (k, a) in i.operands.iter().enumerate() {
                asm.push_str(if k == 0 { " " } else { ", " });
                match a {
                    Arg::Reg(o) => {
                        let _ = write!(asm, "${}", self.index(*o));
                    }
                    Arg::Vector(os) => {
                        let regs: Vec<String> =
                            os.iter().map(|o| format!("${}", self.index(*o))).collect();
                        let _ = write!(asm, "{{{}}}", regs.join(", "));
                    }
                    Arg::Address(o) => {
                        let _ = write!(asm, "[ ${} ]", self.index(*o));
                    }
                    Arg::Imm(v) => {
                        let _ = write!(asm, "{v}");
                    }
                    Arg::Pred(p) => asm.push_str(p),
                }
            }
            asm.push(';');
        }
        if scoped {
            asm.push_str("\n\t}");
        }
        let constraints: Vec<String> = self
            .outputs
            .iter()
            .map(|(c, _)| format!("={}", c.letter()))
            .chain(self.inputs.iter().map(|(input, _)| match input {
                Input::Class(c) => c.letter().to_string(),
                Input::Tied(i) => i.to_string(),
            }))
            .collect();
        (asm, constraints.join(","))
    }

    /// Appends the asm, which has one output and no side effects, to the
    /// prologue (its inputs defined there) and returns the output.
    pub fn emit_hoisted(self, ir: &Ir<'c>) -> Val {
        let (asm, constraints) = self.text();
        let args: Vec<Val> = self.inputs.iter().map(|(_, v)| *v).collect();
        assert_eq!(self.outputs.len(), 1, "a hoisted asm has one output");
        ir.hoisted_inline_asm(&asm, &constraints, &args, self.outputs[0].1)
    }

    /// Appends the `llvm.inline_asm` op and returns the outputs' values.
    /// Memory accesses are marked as having side effects, so that nothing
    /// merges, hoists or reorders them across stores.
    pub fn emit(self, ir: &Ir<'c>, side_effects: bool) -> Vec<Val> {
        let (asm, constraints) = self.text();
        let args: Vec<Val> = self.inputs.iter().map(|(_, v)| *v).collect();
        let types: Vec<Type<'c>> = self.outputs.iter().map(|(_, t)| *t).collect();
        match types.as_slice() {
            [] => {
                ir.inline_asm(&asm, &constraints, &args, None, side_effects);
                Vec::new()
            }
            [one] => vec![
                ir.inline_asm(&asm, &constraints, &args, Some(*one), side_effects)
                    .expect("an asm with one output"),
            ],
            many => {
                let s = ir
                    .inline_asm(
                        &asm,
                        &constraints,
                        &args,
                        Some(ir.struct_type(many)),
                        side_effects,
                    )
                    .expect("an asm with outputs");
                many.iter()
                    .enumerate()
                    .map(|(i, t)| ir.extract_value(s, i as i64, *t))
                    .collect()
            }
        }
    }
}

fn vector_arg(regs: &[Operand]) -> (String, Arg) {
    match regs {
        [one] => (String::new(), Arg::Reg(*one)),
        many => (format!(".v{}", many.len()), Arg::Vector(many.to_vec())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn qualifiers_follow_the_access() {
        let mut a = AccessAttrs::default();
        assert_eq!(qualifiers(&a), ".global");
        a.cache = CacheModifier::CacheGlobal;
        a.eviction = EvictionPolicy::EvictLast;
        assert_eq!(qualifiers(&a), ".global.cg.L1::evict_last");
        a.volatile = true;
        assert_eq!(qualifiers(&a), ".volatile.global");
    }
}
