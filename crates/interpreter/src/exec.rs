//! Running a [`Program`] over a grid: every program one after another,
//! each a walk over its instructions with whole tensors as values.

use crate::program::{Body, CastOp, FloatOp, Inst, IntOp, Kind, Predicate, Program, UnaryOp};
use crate::value::{
    BlockPtr, Elems, Pointer, Tensor, Value, at, signed, unflatten, unsigned, wrap,
};
use crate::{float, memory, reduce};
use std::cmp::Ordering;
use tile_dialect::DType;
use tile_dialect::types::{Elem, TileType};
use tile_runtime::{
    Allocation, Arg, HostMemory, InterpretError, InterpretFault, Result, RuntimeError,
};

/// One launch: the program, the memory, the grid and the arguments.
pub struct Launch<'a> {
    pub(crate) program: &'a Program,
    pub(crate) memory: &'a mut HostMemory,
    pub(crate) grid: [u32; 3],
    /// The allocation each pointer argument points into (by parameter).
    pub(crate) allocations: Vec<Option<Allocation>>,
    /// The program being run.
    pub(crate) pid: [u32; 3],
    slots: Vec<Option<Value>>,
}

/// What running a block ended with.
enum Flow {
    /// The values of its `scf.yield`.
    Yield(Vec<Value>),
    /// A `func.return`, or the end of the block.
    Return,
}

/// Runs every program of `grid`, in order x fastest, then y, then z.
pub fn run(program: &Program, memory: &mut HostMemory, grid: [u32; 3], args: &[Arg]) -> Result<()> {
    let values = bind(program, args)?;
    let allocations = program
        .params
        .iter()
        .zip(args)
        .map(|(_, a)| match a {
            Arg::Ptr { ptr, .. } => memory.allocation(ptr.0),
            _ => None,
        })
        .collect();
    let mut launch = Launch {
        program,
        memory,
        grid,
        allocations,
        pid: [0; 3],
        slots: vec![None; program.slots],
    };
    for z in 0..grid[2] {
        for y in 0..grid[1] {
            for x in 0..grid[0] {
                launch.pid = [x, y, z];
                for (p, v) in program.params.iter().zip(&values) {
                    launch.slots[p.slot] = Some(v.clone());
                }
                launch.block(&program.body)?;
            }
        }
    }
    Ok(())
}

/// The parameters' values, after checking count and types.
fn bind(program: &Program, args: &[Arg]) -> Result<Vec<Value>> {
    let mismatch = |message: String| RuntimeError::NotInterpretable {
        kernel: Some(program.name.clone()),
        message,
    };
    if args.len() != program.params.len() {
        return Err(mismatch(format!(
            "takes {} arguments, {} given",
            program.params.len(),
            args.len()
        )));
    }
    program
        .params
        .iter()
        .zip(args)
        .enumerate()
        .map(|(i, (p, a))| {
            let scalar = |d: DType, v: Elems| {
                Value::Tensor(Tensor {
                    shape: vec![],
                    dtype: d,
                    elems: v,
                })
            };
            Ok(match (p.ty.elem(), a) {
                (Some(Elem::Ptr(d)), Arg::Ptr { ptr, .. }) => scalar(
                    d,
                    Elems::Ptr(vec![Pointer {
                        addr: ptr.0,
                        param: i as u32,
                    }]),
                ),
                (Some(Elem::Num(DType::I32)), Arg::I32(v)) => {
                    scalar(DType::I32, Elems::Int(vec![*v as i64]))
                }
                (Some(Elem::Num(DType::I64)), Arg::I64(v)) => {
                    scalar(DType::I64, Elems::Int(vec![*v]))
                }
                (Some(Elem::Num(DType::F32)), Arg::F32(v)) => {
                    scalar(DType::F32, Elems::Float(vec![*v as f64]))
                }
                (Some(Elem::Num(DType::F16)), Arg::F16(b)) => {
                    scalar(DType::F16, Elems::Float(vec![float::f16_to_f64(*b)]))
                }
                (Some(Elem::Num(DType::BF16)), Arg::BF16(b)) => scalar(
                    DType::BF16,
                    Elems::Float(vec![f32::from_bits((*b as u32) << 16) as f64]),
                ),
                _ => {
                    return Err(mismatch(format!(
                        "argument {i} (`{}`) is {}, the parameter is {}",
                        p.name,
                        a.param_type(),
                        p.ty
                    )));
                }
            })
        })
        .collect()
}

impl Launch<'_> {
    /// The fault `fault` at `inst` in the current program.
    pub(crate) fn fault(&self, inst: &Inst, fault: InterpretFault) -> RuntimeError {
        RuntimeError::Interpreter(Box::new(InterpretError {
            kernel: self.program.name.clone(),
            op: inst.op.clone(),
            location: inst.location.clone(),
            program: self.pid,
            fault,
        }))
    }

    /// A fault for IR the verifier should not have let through.
    pub(crate) fn malformed(&self, inst: &Inst, what: &str) -> RuntimeError {
        self.fault(
            inst,
            InterpretFault::Unsupported(format!("malformed op: {what}")),
        )
    }

    pub(crate) fn value(&self, inst: &Inst, i: usize) -> Result<&Value> {
        inst.operands
            .get(i)
            .and_then(|&s| self.slots[s].as_ref())
            .ok_or_else(|| self.malformed(inst, &format!("operand {i} has no value")))
    }

    pub(crate) fn tensor(&self, inst: &Inst, i: usize) -> Result<&Tensor> {
        match self.value(inst, i)? {
            Value::Tensor(t) => Ok(t),
            Value::BlockPtr(_) => {
                Err(self.malformed(inst, &format!("operand {i} is a block pointer")))
            }
        }
    }

    pub(crate) fn block_ptr(&self, inst: &Inst, i: usize) -> Result<&BlockPtr> {
        match self.value(inst, i)? {
            Value::BlockPtr(b) => Ok(b),
            Value::Tensor(_) => {
                Err(self.malformed(inst, &format!("operand {i} is not a block pointer")))
            }
        }
    }

    fn ints(&self, inst: &Inst, i: usize) -> Result<(&[i64], DType)> {
        let t = self.tensor(inst, i)?;
        match t.as_ints() {
            Some(v) => Ok((v, t.dtype)),
            None => Err(self.malformed(inst, &format!("operand {i} is not integer"))),
        }
    }

    fn floats(&self, inst: &Inst, i: usize) -> Result<(&[f64], DType)> {
        let t = self.tensor(inst, i)?;
        match t.as_floats() {
            Some(v) => Ok((v, t.dtype)),
            None => Err(self.malformed(inst, &format!("operand {i} is not float"))),
        }
    }

    /// A scalar integer operand, sign-extended.
    pub(crate) fn scalar_int(&self, inst: &Inst, i: usize) -> Result<i64> {
        let (v, d) = self.ints(inst, i)?;
        match v {
            [x] => Ok(signed(*x, d)),
            _ => Err(self.malformed(inst, &format!("operand {i} is not a scalar"))),
        }
    }

    /// The result type's shape and number type.
    pub(crate) fn result(&self, inst: &Inst) -> Result<(Vec<usize>, DType)> {
        let ty = inst
            .ty
            .as_ref()
            .ok_or_else(|| self.malformed(inst, "no result type"))?;
        let d = match ty {
            TileType::Tensor { elem, .. } => match elem {
                Elem::Num(d) | Elem::Ptr(d) => *d,
            },
            TileType::BlockPtr { dtype, .. } => *dtype,
        };
        Ok((ty.shape().iter().map(|&x| x as usize).collect(), d))
    }

    fn set(&mut self, inst: &Inst, v: Value) {
        if let Some(&slot) = inst.results.first() {
            self.slots[slot] = Some(v);
        }
    }

    fn block(&mut self, body: &Body) -> Result<Flow> {
        for inst in &body.insts {
            match &inst.kind {
                Kind::Yield => {
                    let values = (0..inst.operands.len())
                        .map(|i| self.value(inst, i).cloned())
                        .collect::<Result<_>>()?;
                    return Ok(Flow::Yield(values));
                }
                Kind::Return => return Ok(Flow::Return),
                Kind::For(b) => self.for_loop(inst, b)?,
                _ => {
                    let v = self.step(inst)?;
                    if let Some(v) = v {
                        self.set(inst, v);
                    }
                }
            }
        }
        Ok(Flow::Return)
    }

    fn for_loop(&mut self, inst: &Inst, body: &Body) -> Result<()> {
        let lb = self.scalar_int(inst, 0)?;
        let ub = self.scalar_int(inst, 1)?;
        let step = self.scalar_int(inst, 2)?;
        let iv_type = self.tensor(inst, 0)?.dtype;
        if step <= 0 {
            return Err(self.fault(
                inst,
                InterpretFault::Unsupported(format!(
                    "the loop's step is {step}; scf.for needs a positive step"
                )),
            ));
        }
        let mut carried: Vec<Value> = (3..inst.operands.len())
            .map(|i| self.value(inst, i).cloned())
            .collect::<Result<_>>()?;
        let mut iv = lb;
        while iv < ub {
            self.slots[body.args[0]] = Some(Value::Tensor(Tensor::ints(vec![], iv_type, vec![iv])));
            for (&slot, v) in body.args[1..].iter().zip(carried.drain(..)) {
                self.slots[slot] = Some(v);
            }
            carried = match self.block(body)? {
                Flow::Yield(v) => v,
                Flow::Return => return Err(self.malformed(inst, "a loop body without scf.yield")),
            };
            iv = match iv.checked_add(step) {
                Some(next) if wrap(next, iv_type) == next => next,
                // The induction variable would wrap: the loop ends.
                _ => break,
            };
        }
        for (&slot, v) in inst.results.iter().zip(carried) {
            self.slots[slot] = Some(v);
        }
        Ok(())
    }

    /// Runs one instruction other than control flow; its result, if any.
    fn step(&mut self, inst: &Inst) -> Result<Option<Value>> {
        let t = |x: Tensor| Ok(Some(Value::Tensor(x)));
        match &inst.kind {
            Kind::ProgramId(axis) => t(Tensor::ints(
                vec![],
                DType::I32,
                vec![self.pid[*axis] as i64],
            )),
            Kind::NumPrograms(axis) => t(Tensor::ints(
                vec![],
                DType::I32,
                vec![self.grid[*axis] as i64],
            )),
            Kind::Arange(start) => {
                let (shape, d) = self.result(inst)?;
                let n = shape.iter().product::<usize>() as i64;
                t(Tensor::ints(shape, d, (*start..*start + n).collect()))
            }
            Kind::Splat => {
                let (shape, _) = self.result(inst)?;
                let src = self.tensor(inst, 0)?;
                let n = shape.iter().product();
                t(Tensor {
                    shape,
                    dtype: src.dtype,
                    elems: src.elems.gather(std::iter::repeat_n(0, n)),
                })
            }
            Kind::Broadcast => {
                let (shape, _) = self.result(inst)?;
                let src = self.tensor(inst, 0)?;
                t(broadcast(src, shape))
            }
            Kind::ExpandDims(_) | Kind::Identity => {
                let (shape, _) = self.result(inst)?;
                t(self.tensor(inst, 0)?.clone().reshaped(shape))
            }
            Kind::AddPtr => self.addptr(inst).map(|x| Some(Value::Tensor(x))),
            Kind::Load { mask, other } => {
                memory::load(self, inst, *mask, *other).map(|x| Some(Value::Tensor(x)))
            }
            Kind::Store { mask } => memory::store(self, inst, *mask).map(|()| None),
            Kind::MakeBlockPtr(rank) => self
                .make_block_ptr(inst, *rank)
                .map(|b| Some(Value::BlockPtr(b))),
            Kind::Advance => {
                let mut b = self.block_ptr(inst, 0)?.clone();
                for (axis, o) in b.offsets.iter_mut().enumerate() {
                    *o = wrap(*o + self.scalar_int(inst, axis + 1)?, DType::I32);
                }
                Ok(Some(Value::BlockPtr(b)))
            }
            Kind::BlockLoad { check, padding } => {
                memory::block_load(self, inst, check, *padding).map(|x| Some(Value::Tensor(x)))
            }
            Kind::BlockStore { check } => memory::block_store(self, inst, check).map(|()| None),
            // The result type's shape says whether the axis is kept.
            Kind::Reduce { kind, axis, .. } => {
                let (shape, d) = self.result(inst)?;
                let src = self.tensor(inst, 0)?;
                if *axis >= src.shape.len() {
                    return Err(self.malformed(inst, "axis out of range"));
                }
                t(reduce::reduce(src, *kind, *axis, shape, d))
            }
            Kind::Constant(c) => t(c.clone()),
            Kind::Int(op) => self.int_binary(inst, *op).map(|x| Some(Value::Tensor(x))),
            Kind::Float(op) => self.float_binary(inst, *op).map(|x| Some(Value::Tensor(x))),
            Kind::Unary(op) => {
                let (x, d) = self.floats(inst, 0)?;
                let f = unary(*op);
                let shape = self.tensor(inst, 0)?.shape.clone();
                t(Tensor::floats(shape, d, x.iter().map(|&v| f(v)).collect()))
            }
            Kind::AbsI => {
                let (x, d) = self.ints(inst, 0)?;
                let shape = self.tensor(inst, 0)?.shape.clone();
                t(Tensor::ints(
                    shape,
                    d,
                    x.iter().map(|&v| v.wrapping_abs()).collect(),
                ))
            }
            Kind::Cast(op) => self.cast(inst, *op).map(|x| Some(Value::Tensor(x))),
            Kind::CmpI(p) => self.cmpi(inst, *p).map(|x| Some(Value::Tensor(x))),
            Kind::CmpF(p) => self.cmpf(inst, *p).map(|x| Some(Value::Tensor(x))),
            Kind::Select => self.select(inst).map(|x| Some(Value::Tensor(x))),
            Kind::For(_) | Kind::Yield | Kind::Return => {
                Err(self.malformed(inst, "control flow out of place"))
            }
        }
    }

    fn addptr(&self, inst: &Inst) -> Result<Tensor> {
        let (shape, d) = self.result(inst)?;
        let ptrs = self.tensor(inst, 0)?;
        let Some(p) = ptrs.as_ptrs() else {
            return Err(self.malformed(inst, "operand 0 is not a pointer"));
        };
        let (offs, od) = self.ints(inst, 1)?;
        let n = shape.iter().product::<usize>();
        let size = float::size_of(d) as i64;
        let out = (0..n)
            .map(|i| {
                let base = p[at(p.len(), i)];
                let off = signed(offs[at(offs.len(), i)], od);
                Pointer {
                    addr: base.addr.wrapping_add(off.wrapping_mul(size) as u64),
                    param: base.param,
                }
            })
            .collect();
        Ok(Tensor {
            shape,
            dtype: d,
            elems: Elems::Ptr(out),
        })
    }

    fn make_block_ptr(&self, inst: &Inst, rank: usize) -> Result<BlockPtr> {
        let (block, d) = self.result(inst)?;
        let base = match self.tensor(inst, 0)?.as_ptrs() {
            Some([p]) => *p,
            _ => return Err(self.malformed(inst, "the base is not a scalar pointer")),
        };
        if block.len() != rank {
            return Err(self.malformed(inst, "block rank differs from the view's"));
        }
        let group = |g: usize| -> Result<Vec<i64>> {
            (0..rank)
                .map(|a| self.scalar_int(inst, 1 + g * rank + a))
                .collect()
        };
        Ok(BlockPtr {
            base,
            dtype: d,
            shape: group(0)?,
            strides: group(1)?,
            offsets: group(2)?,
            block,
        })
    }

    fn int_binary(&self, inst: &Inst, op: IntOp) -> Result<Tensor> {
        let (a, d) = self.ints(inst, 0)?;
        let (b, _) = self.ints(inst, 1)?;
        let shape = self.tensor(inst, 0)?.shape.clone();
        let mut out = Vec::with_capacity(a.len());
        for (i, (&x, &y)) in a.iter().zip(b).enumerate() {
            let (sx, sy) = (signed(x, d), signed(y, d));
            let (ux, uy) = (unsigned(x, d), unsigned(y, d));
            let divides = matches!(
                op,
                IntOp::DivS
                    | IntOp::DivU
                    | IntOp::RemS
                    | IntOp::RemU
                    | IntOp::CeilDivS
                    | IntOp::FloorDivS
            );
            if divides && uy == 0 {
                return Err(self.fault(
                    inst,
                    InterpretFault::DivisionByZero {
                        index: unflatten(i, &shape),
                    },
                ));
            }
            let bits = d.bits() as u64;
            out.push(match op {
                IntOp::Add => x.wrapping_add(y),
                IntOp::Sub => x.wrapping_sub(y),
                IntOp::Mul => x.wrapping_mul(y),
                IntOp::DivS => sx.wrapping_div(sy),
                IntOp::DivU => (ux / uy) as i64,
                IntOp::RemS => sx.wrapping_rem(sy),
                IntOp::RemU => (ux % uy) as i64,
                IntOp::CeilDivS => {
                    let q = sx.wrapping_div(sy);
                    if q.wrapping_mul(sy) != sx && ((sx < 0) == (sy < 0)) {
                        q + 1
                    } else {
                        q
                    }
                }
                IntOp::FloorDivS => {
                    let q = sx.wrapping_div(sy);
                    if q.wrapping_mul(sy) != sx && ((sx < 0) != (sy < 0)) {
                        q - 1
                    } else {
                        q
                    }
                }
                IntOp::And => x & y,
                IntOp::Or => x | y,
                IntOp::Xor => x ^ y,
                IntOp::MaxS => sx.max(sy),
                IntOp::MinS => sx.min(sy),
                IntOp::MaxU => ux.max(uy) as i64,
                IntOp::MinU => ux.min(uy) as i64,
                // A shift by the width or more is poison in LLVM; the
                // interpreter gives 0 (or the sign, shifting right).
                IntOp::Shl if uy >= bits => 0,
                IntOp::Shl => x << uy,
                IntOp::ShrS if uy >= bits => {
                    if sx < 0 {
                        -1
                    } else {
                        0
                    }
                }
                IntOp::ShrS => sx >> uy,
                IntOp::ShrU if uy >= bits => 0,
                IntOp::ShrU => (ux >> uy) as i64,
            });
        }
        Ok(Tensor::ints(shape, d, out))
    }

    fn float_binary(&self, inst: &Inst, op: FloatOp) -> Result<Tensor> {
        let (a, d) = self.floats(inst, 0)?;
        let (b, _) = self.floats(inst, 1)?;
        let shape = self.tensor(inst, 0)?.shape.clone();
        let f = |x: f64, y: f64| match op {
            FloatOp::Add => x + y,
            FloatOp::Sub => x - y,
            FloatOp::Mul => x * y,
            FloatOp::Div => x / y,
            FloatOp::Maximum => maximum(x, y),
            FloatOp::Minimum => -maximum(-x, -y),
            FloatOp::MaxNum => maxnum(x, y),
            FloatOp::MinNum => -maxnum(-x, -y),
        };
        Ok(Tensor::floats(
            shape,
            d,
            a.iter().zip(b).map(|(&x, &y)| f(x, y)).collect(),
        ))
    }

    fn cast(&self, inst: &Inst, op: CastOp) -> Result<Tensor> {
        let (shape, to) = self.result(inst)?;
        let src = self.tensor(inst, 0)?;
        let from = src.dtype;
        let out = match (op, &src.elems) {
            (CastOp::Float, Elems::Float(v)) => Tensor::floats(shape, to, v.clone()),
            (CastOp::ExtS, Elems::Int(v)) => {
                Tensor::ints(shape, to, v.iter().map(|&x| signed(x, from)).collect())
            }
            (CastOp::ExtU, Elems::Int(v)) => Tensor::ints(
                shape,
                to,
                v.iter().map(|&x| unsigned(x, from) as i64).collect(),
            ),
            (CastOp::Trunc, Elems::Int(v)) => Tensor::ints(shape, to, v.clone()),
            (CastOp::SIToFP, Elems::Int(v)) => Tensor::floats(
                shape,
                to,
                v.iter()
                    .map(|&x| int_to_float(signed(x, from) as i128, to))
                    .collect(),
            ),
            (CastOp::UIToFP, Elems::Int(v)) => Tensor::floats(
                shape,
                to,
                v.iter()
                    .map(|&x| int_to_float(unsigned(x, from) as i128, to))
                    .collect(),
            ),
            (CastOp::FPToSI, Elems::Float(v)) => {
                let (lo, hi) = match to.bits() {
                    1 => (-1i128, 0),
                    b => (-(1i128 << (b - 1)), (1i128 << (b - 1)) - 1),
                };
                Tensor::ints(
                    shape,
                    to,
                    v.iter().map(|&x| float_to_int(x, lo, hi)).collect(),
                )
            }
            (CastOp::FPToUI, Elems::Float(v)) => {
                let hi = (1i128 << to.bits()) - 1;
                Tensor::ints(
                    shape,
                    to,
                    v.iter().map(|&x| float_to_int(x, 0, hi)).collect(),
                )
            }
            _ => return Err(self.malformed(inst, "cast of the wrong kind of operand")),
        };
        Ok(out)
    }

    fn cmpi(&self, inst: &Inst, p: Predicate) -> Result<Tensor> {
        let (a, d) = self.ints(inst, 0)?;
        let (b, _) = self.ints(inst, 1)?;
        let shape = self.tensor(inst, 0)?.shape.clone();
        let out = a
            .iter()
            .zip(b)
            .map(|(&x, &y)| {
                let o = if p.unsigned_or_unordered {
                    unsigned(x, d).cmp(&unsigned(y, d))
                } else {
                    signed(x, d).cmp(&signed(y, d))
                };
                holds(p, o) as i64
            })
            .collect();
        Ok(Tensor::ints(shape, DType::I1, out))
    }

    fn cmpf(&self, inst: &Inst, p: Predicate) -> Result<Tensor> {
        let (a, _) = self.floats(inst, 0)?;
        let (b, _) = self.floats(inst, 1)?;
        let shape = self.tensor(inst, 0)?.shape.clone();
        let out = a
            .iter()
            .zip(b)
            .map(|(&x, &y)| match x.partial_cmp(&y) {
                None => p.unsigned_or_unordered as i64,
                Some(o) => holds(p, o) as i64,
            })
            .collect();
        Ok(Tensor::ints(shape, DType::I1, out))
    }

    fn select(&self, inst: &Inst) -> Result<Tensor> {
        let (shape, _) = self.result(inst)?;
        let (c, _) = self.ints(inst, 0)?;
        let a = self.tensor(inst, 1)?;
        let b = self.tensor(inst, 2)?;
        let n = shape.iter().product::<usize>();
        let pick = |i: usize| (c[at(c.len(), i)] & 1) != 0;
        let elems = match (&a.elems, &b.elems) {
            (Elems::Int(x), Elems::Int(y)) => Elems::Int(choose(n, pick, x, y)),
            (Elems::Float(x), Elems::Float(y)) => Elems::Float(choose(n, pick, x, y)),
            (Elems::Ptr(x), Elems::Ptr(y)) => Elems::Ptr(choose(n, pick, x, y)),
            _ => return Err(self.malformed(inst, "select between different kinds")),
        };
        Ok(Tensor {
            shape,
            dtype: a.dtype,
            elems,
        })
    }
}

/// Element `i` of `x` where `pick(i)`, else of `y` (either may be a
/// scalar, standing for all `n`).
fn choose<T: Copy>(n: usize, pick: impl Fn(usize) -> bool, x: &[T], y: &[T]) -> Vec<T> {
    (0..n)
        .map(|i| {
            if pick(i) {
                x[at(x.len(), i)]
            } else {
                y[at(y.len(), i)]
            }
        })
        .collect()
}

/// True when predicate `p` holds for ordering `o`.
fn holds(p: Predicate, o: Ordering) -> bool {
    match o {
        Ordering::Less => p.lt,
        Ordering::Equal => p.eq,
        Ordering::Greater => p.gt,
    }
}

/// IEEE 754 `maximum`: a NaN operand gives NaN, and +0 is above -0.
pub fn maximum(x: f64, y: f64) -> f64 {
    if x.is_nan() || y.is_nan() {
        f64::NAN
    } else if x == y {
        if x.is_sign_negative() { y } else { x }
    } else {
        x.max(y)
    }
}

/// `maxnum`: a NaN operand loses to a number.
pub fn maxnum(x: f64, y: f64) -> f64 {
    if x.is_nan() {
        y
    } else if y.is_nan() {
        x
    } else {
        maximum(x, y)
    }
}

fn unary(op: UnaryOp) -> fn(f64) -> f64 {
    match op {
        UnaryOp::Neg => |x| -x,
        UnaryOp::Abs => f64::abs,
        UnaryOp::Exp => f64::exp,
        UnaryOp::Exp2 => f64::exp2,
        UnaryOp::Log => f64::ln,
        UnaryOp::Log2 => f64::log2,
        UnaryOp::Sqrt => f64::sqrt,
        UnaryOp::Rsqrt => |x| 1.0 / x.sqrt(),
        UnaryOp::Sin => f64::sin,
        UnaryOp::Cos => f64::cos,
        UnaryOp::Floor => f64::floor,
        UnaryOp::Ceil => f64::ceil,
    }
}

/// An integer converted to float type `d`, rounded once.
fn int_to_float(v: i128, d: DType) -> f64 {
    match d {
        DType::F32 => v as f32 as f64,
        _ => float::round(v as f64, d),
    }
}

/// A float converted towards zero to an integer in `[lo, hi]`, saturating;
/// NaN gives 0 (what `cvt.rzi` does on the GPU).
fn float_to_int(x: f64, lo: i128, hi: i128) -> i64 {
    if x.is_nan() {
        return 0;
    }
    let t = x.trunc();
    if t <= lo as f64 {
        lo as i64
    } else if t >= hi as f64 {
        hi as i64
    } else {
        t as i64
    }
}

/// `src` repeated along its axes of size 1 to `shape`.
pub fn broadcast(src: &Tensor, shape: Vec<usize>) -> Tensor {
    let n: usize = shape.iter().product();
    let src_strides = crate::value::row_major_strides(&src.shape);
    let picks = (0..n).map(|flat| {
        let index = unflatten(flat, &shape);
        index
            .iter()
            .zip(&src.shape)
            .zip(&src_strides)
            .map(|((&i, &dim), &stride)| if dim == 1 { 0 } else { i as usize * stride })
            .sum()
    });
    Tensor {
        elems: src.elems.gather(picks),
        shape,
        dtype: src.dtype,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn maximum_propagates_nan_and_orders_zeros() {
        assert!(maximum(1.0, f64::NAN).is_nan());
        assert_eq!(maximum(-0.0, 0.0).to_bits(), 0f64.to_bits());
        assert_eq!(maximum(0.0, -0.0).to_bits(), 0f64.to_bits());
        assert_eq!((-maximum(0.0, -0.0)).to_bits(), (-0f64).to_bits());
        assert_eq!(maxnum(f64::NAN, 2.0), 2.0);
        assert!(maxnum(f64::NAN, f64::NAN).is_nan());
    }

    #[test]
    fn float_to_int_saturates_like_cvt_rzi() {
        assert_eq!(
            float_to_int(1e10, i32::MIN as i128, i32::MAX as i128),
            i32::MAX as i64
        );
        assert_eq!(float_to_int(-2.7, i32::MIN as i128, i32::MAX as i128), -2);
        assert_eq!(float_to_int(f64::NAN, 0, 255), 0);
        assert_eq!(float_to_int(-3.0, 0, 255), 0);
    }

    #[test]
    fn broadcast_repeats_unit_axes() {
        let col = Tensor::ints(vec![2, 1], DType::I32, vec![1, 2]);
        let b = broadcast(&col, vec![2, 3]);
        assert_eq!(b.as_ints().unwrap(), &[1, 1, 1, 2, 2, 2]);
        let row = Tensor::ints(vec![1, 3], DType::I32, vec![1, 2, 3]);
        assert_eq!(
            broadcast(&row, vec![2, 3]).as_ints().unwrap(),
            &[1, 2, 3, 1, 2, 3]
        );
    }
}
