//! How each value of a kernel moves when the program's index along grid
//! axis 0 or 1 grows by one, the other unchanged: its *step* along that
//! axis. `rows = program_id(0) * 64 + arange(0, 64)` steps by 64 along
//! axis 0 and by nothing along axis 1; `x + rows[:, None] * stride +
//! cols[None, :]` steps along axis 0 by `64 * stride` elements (not known
//! when `stride` is an argument) and along axis 1 by what `cols` steps by.
//!
//! A step is the same for every element of a tensor (the value is an
//! affine function of the program's index with a constant coefficient),
//! nothing (the value does not depend on that index), or unknown. Pointer
//! steps count elements of the pointee, as `tile.addptr` offsets do; a
//! block pointer has the step of its base and of each offset.
//!
//! Used by `tile-launch-order` ([`crate::launch_order`]) to see which
//! program axis moves an access onto the memory right after its own.

use crate::axis_analysis::AxisAnalysis;
use crate::edit::{key, ops_of};
use melior::ir::block::BlockLike;
use melior::ir::operation::OperationLike;
use melior::ir::{BlockRef, OperationRef, RegionLike, Value};
use std::collections::HashMap;
use tile_dialect::ops;
use tile_dialect::view::{ForLoop, IfOp, KernelFunc, attr, op_name};

/// The grid axes whose steps are followed (axis 2 is taken as a constant).
pub const AXES: usize = 2;

/// Loop rounds before the carried values still changing are dropped.
const MAX_LOOP_ROUNDS: usize = 3;

/// How a value moves along one program axis.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// It does not depend on that axis's index.
    None,
    /// It grows by this much (elements, for pointers) per program.
    By(i64),
    /// Anything else.
    Unknown,
}

impl Step {
    fn add(self, other: Step) -> Step {
        match (self, other) {
            (Step::None, s) | (s, Step::None) => s,
            (Step::By(a), Step::By(b)) => a.checked_add(b).map_or(Step::Unknown, Step::By),
            _ => Step::Unknown,
        }
    }

    fn neg(self) -> Step {
        match self {
            Step::By(a) => a.checked_neg().map_or(Step::Unknown, Step::By),
            s => s,
        }
    }

    fn scale(self, c: i64) -> Step {
        match self {
            Step::By(a) => a.checked_mul(c).map_or(Step::Unknown, Step::By),
            s => s,
        }
    }
}

/// The steps of a value along axes 0 and 1.
pub type Steps = [Step; AXES];

/// Steps of a value that depends on no program index.
pub const FIXED: Steps = [Step::None; AXES];

/// Steps of a value nothing is known of.
const UNKNOWN: Steps = [Step::Unknown; AXES];

fn each(a: Steps, b: Steps, f: impl Fn(Step, Step) -> Step) -> Steps {
    [f(a[0], b[0]), f(a[1], b[1])]
}

/// What is known of one value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fact {
    /// An integer, boolean, float or pointer value (scalar or tensor).
    Value(Steps),
    /// A block pointer: the steps of its base and of each offset; `None`
    /// when its shape or strides depend on a program index.
    Block(Option<BlockSteps>),
}

/// The steps of a block pointer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BlockSteps {
    /// The base pointer's.
    pub base: Steps,
    /// Each offset's (elements along that axis of the block).
    pub offsets: Vec<Steps>,
}

/// The result of the analysis of one kernel.
pub struct ProgramSteps<'a, 't, 'c> {
    axes: &'a AxisAnalysis<'t, 'c>,
    facts: HashMap<usize, Fact>,
}

impl<'a, 't, 'c> ProgramSteps<'a, 't, 'c> {
    /// Analyses the kernel `func`, with the constants `axes` proved.
    pub fn run(axes: &'a AxisAnalysis<'t, 'c>, func: &OperationRef<'c, '_>) -> Self {
        let mut s = ProgramSteps {
            axes,
            facts: HashMap::new(),
        };
        if let Ok(Some(f)) = KernelFunc::read(func)
            && let Some(body) = f.body
        {
            for arg in &f.args {
                s.set(arg.value, Fact::Value(FIXED));
            }
            s.block(&body);
        }
        s
    }

    /// The steps of a non-block value (unknown along both axes when not
    /// analysed).
    pub fn steps(&self, v: Value<'c, '_>) -> Steps {
        match self.facts.get(&key(v)) {
            Some(Fact::Value(s)) => *s,
            _ => UNKNOWN,
        }
    }

    /// The steps of a block pointer value, when known.
    pub fn block_ptr(&self, v: Value<'c, '_>) -> Option<&BlockSteps> {
        match self.facts.get(&key(v)) {
            Some(Fact::Block(b)) => b.as_ref(),
            _ => None,
        }
    }

    fn fact(&self, v: Value<'c, '_>) -> Fact {
        self.facts
            .get(&key(v))
            .cloned()
            .unwrap_or(Fact::Value(UNKNOWN))
    }

    fn set(&mut self, v: Value<'c, '_>, f: Fact) {
        self.facts.insert(key(v), f);
    }

    fn block(&mut self, block: &BlockRef<'c, '_>) {
        for op in ops_of(block) {
            self.op(&op);
        }
    }

    fn op(&mut self, op: &OperationRef<'c, '_>) {
        if let Ok(Some(l)) = ForLoop::read(op) {
            return self.for_loop(&l);
        }
        if let Ok(Some(b)) = IfOp::read(op) {
            return self.branch(&b);
        }
        if op.region_count() > 0 {
            // Loops of other shapes (`scf.while`) and ops with bodies of
            // their own (reductions' combiners): what they produce is not
            // followed.
            for i in 0..op.region_count() {
                let Ok(region) = op.region(i) else { continue };
                let mut block = region.first_block();
                while let Some(b) = block {
                    for j in 0..b.argument_count() {
                        if let Ok(arg) = b.argument(j) {
                            self.set(arg.into(), Fact::Value(UNKNOWN));
                        }
                    }
                    self.block(&b);
                    block = b.next_in_region();
                }
            }
            let operands: Vec<Value<'c, '_>> = op.operands().collect();
            let f = match op_name(op) {
                "scf.while" => UNKNOWN,
                _ => generic(&operands, |v| self.steps(v)),
            };
            for r in op.results() {
                self.set(r.into(), Fact::Value(f));
            }
            return;
        }
        let fact = self.transfer(op);
        for r in op.results() {
            self.set(r.into(), fact.clone());
        }
    }

    fn for_loop(&mut self, l: &ForLoop<'c, '_>) {
        let bounds_fixed = [l.lower, l.upper, l.step]
            .iter()
            .all(|&v| self.steps(v) == FIXED);
        let iv = if bounds_fixed { FIXED } else { UNKNOWN };
        self.set(l.induction, Fact::Value(iv));
        let mut carried: Vec<Fact> = l.inits.iter().map(|&v| self.fact(v)).collect();
        let mut settled = false;
        for round in 1..=MAX_LOOP_ROUNDS {
            for (arg, f) in l.iter_args.iter().zip(&carried) {
                self.set(*arg, f.clone());
            }
            self.block(&l.body);
            let yielded: Vec<Fact> = l.yielded.iter().map(|&v| self.fact(v)).collect();
            if yielded == carried {
                settled = true;
                break;
            }
            // A carried value that the body moves differently is dropped;
            // in the last round, every one is.
            for (c, y) in carried.iter_mut().zip(&yielded) {
                if c != y || round == MAX_LOOP_ROUNDS {
                    *c = unknown_like(c);
                }
            }
        }
        if !settled {
            // The body's facts, again from what is carried in the end.
            for (arg, f) in l.iter_args.iter().zip(&carried) {
                self.set(*arg, f.clone());
            }
            self.block(&l.body);
        }
        for (r, f) in l.results.iter().zip(carried) {
            self.set(*r, f);
        }
    }

    fn branch(&mut self, b: &IfOp<'c, '_>) {
        self.block(&b.then_block);
        if let Some(e) = &b.else_block {
            self.block(e);
        }
        let uniform = self.steps(b.condition) == FIXED;
        for (i, r) in b.results.iter().enumerate() {
            let then = b.then_yielded.get(i).map(|&v| self.fact(v));
            let other = b.else_yielded.get(i).map(|&v| self.fact(v));
            // Anything else is unknown (a block pointer's facts read as
            // unknown too: `block_ptr` finds no block there).
            let f = match (then, other) {
                (Some(t), Some(e)) if uniform && t == e => t,
                _ => Fact::Value(UNKNOWN),
            };
            self.set(*r, f);
        }
    }

    /// A constant integer `v` (scalar or splat) that no program index moves.
    fn constant(&self, v: Value<'c, '_>) -> Option<i64> {
        if self.steps(v) != FIXED {
            return None;
        }
        self.axes.info(v).constant
    }

    fn transfer(&self, op: &OperationRef<'c, '_>) -> Fact {
        let name = op_name(op);
        let operands: Vec<Value<'c, '_>> = op.operands().collect();
        let s = |i: usize| operands.get(i).map_or(UNKNOWN, |&v| self.steps(v));
        let value = match name {
            ops::PROGRAM_ID => {
                // The verifier makes `axis` 0, 1 or 2.
                let axis = attr::int(op, "axis").ok();
                let mut steps = FIXED;
                match axis.and_then(|a| usize::try_from(a).ok()) {
                    Some(a) if a < AXES => steps[a] = Step::By(1),
                    Some(2) => {}
                    _ => steps = UNKNOWN,
                }
                steps
            }
            "arith.addi" => each(s(0), s(1), Step::add),
            "arith.subi" => each(s(0), s(1), |a, b| a.add(b.neg())),
            "arith.muli" => match (self.constant(operands[0]), self.constant(operands[1])) {
                (Some(c), _) => s(1).map(|x| x.scale(c)),
                (_, Some(c)) => s(0).map(|x| x.scale(c)),
                _ => generic(&operands, |v| self.steps(v)),
            },
            "arith.shli" => match self.constant(operands[1]) {
                Some(c @ 0..=30) => s(0).map(|x| x.scale(1 << c)),
                _ => generic(&operands, |v| self.steps(v)),
            },
            "arith.extsi"
            | "arith.extui"
            | "arith.index_cast"
            | "arith.index_castui"
            | ops::SPLAT
            | ops::BROADCAST
            | ops::EXPAND_DIMS
            | ops::RESHAPE
            | ops::PERMUTE
            | ops::CONVERT_LAYOUT => s(0),
            ops::ADDPTR => each(s(0), s(1), Step::add),
            ops::MAKE_BLOCK_PTR => return Fact::Block(self.make_block_ptr(op)),
            ops::ADVANCE => return Fact::Block(self.advance(op)),
            _ => generic(&operands, |v| self.steps(v)),
        };
        Fact::Value(value)
    }

    fn make_block_ptr(&self, op: &OperationRef<'c, '_>) -> Option<BlockSteps> {
        let groups = grouped(op, 4)?;
        let (base, shape, strides, offsets) = (&groups[0], &groups[1], &groups[2], &groups[3]);
        if shape.iter().chain(strides).any(|&v| self.steps(v) != FIXED) {
            return None;
        }
        Some(BlockSteps {
            base: self.steps(*base.first()?),
            offsets: offsets.iter().map(|&v| self.steps(v)).collect(),
        })
    }

    fn advance(&self, op: &OperationRef<'c, '_>) -> Option<BlockSteps> {
        let operands: Vec<Value<'c, '_>> = op.operands().collect();
        let mut b = self.block_ptr(*operands.first()?)?.clone();
        let by = &operands[1..];
        if by.len() != b.offsets.len() {
            return None;
        }
        for (o, &v) in b.offsets.iter_mut().zip(by) {
            *o = each(*o, self.steps(v), Step::add);
        }
        Some(b)
    }
}

/// The steps of a result of an op not followed: along each axis, none
/// when none of its operands moves along it, else unknown.
fn generic<'c, 'a>(operands: &[Value<'c, 'a>], steps: impl Fn(Value<'c, 'a>) -> Steps) -> Steps {
    let mut out = FIXED;
    for v in operands {
        for (o, s) in out.iter_mut().zip(steps(*v)) {
            if s != Step::None {
                *o = Step::Unknown;
            }
        }
    }
    out
}

/// Nothing known, of the same kind as `f`.
fn unknown_like(f: &Fact) -> Fact {
    match f {
        Fact::Value(_) => Fact::Value(UNKNOWN),
        Fact::Block(_) => Fact::Block(None),
    }
}

/// `op`'s operands in its `operandSegmentSizes` groups.
fn grouped<'c, 'a>(op: &OperationRef<'c, 'a>, groups: usize) -> Option<Vec<Vec<Value<'c, 'a>>>> {
    let sizes = attr::segments(op, groups).ok()?;
    let mut values = op.operands();
    Some(
        sizes
            .iter()
            .map(|&n| values.by_ref().take(n).collect())
            .collect(),
    )
}

#[cfg(test)]
mod tests;
