//! Running a [`Program`] over a grid: every program one after another,
//! each a walk over its instructions with whole tensors as values.

mod arith;
mod control;

pub use arith::{maximum, maxnum};

use crate::program::{Body, Inst, Kind, Program};
use crate::value::{BlockPtr, Elems, Pointer, Tensor, Value, at, signed, unflatten, wrap};
use crate::{atomic, dot, float, memory, rearrange, reduce, scan};
use std::io::Write;
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
    /// Loop iterations left before the step limit (`u64::MAX`: none).
    steps_left: u64,
}

/// What running a block ended with.
enum Flow {
    /// The values of its `scf.yield`.
    Yield(Vec<Value>),
    /// An `scf.condition`: whether the loop goes on, and the values it
    /// forwards.
    Condition(bool, Vec<Value>),
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
        steps_left: program.step_limit.unwrap_or(u64::MAX),
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
                (Some(Elem::Num(DType::F16)), Arg::F16(v)) => {
                    scalar(DType::F16, Elems::Float(vec![v.to_f64()]))
                }
                (Some(Elem::Num(DType::BF16)), Arg::BF16(v)) => {
                    scalar(DType::BF16, Elems::Float(vec![v.to_f64()]))
                }
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

    /// Counts one iteration of the loop `inst`; a fault once the launch's
    /// step limit is spent.
    pub(crate) fn count_iteration(&mut self, inst: &Inst) -> Result<()> {
        if self.steps_left == 0 {
            let limit = self.program.step_limit.unwrap_or(u64::MAX);
            return Err(self.fault(inst, InterpretFault::StepLimit { limit }));
        }
        self.steps_left -= 1;
        Ok(())
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
                Kind::Condition => {
                    let go_on = self.scalar_int(inst, 0)? != 0;
                    let values = (1..inst.operands.len())
                        .map(|i| self.value(inst, i).cloned())
                        .collect::<Result<_>>()?;
                    return Ok(Flow::Condition(go_on, values));
                }
                Kind::Return => return Ok(Flow::Return),
                Kind::For(b) => self.for_loop(inst, b)?,
                Kind::If { then, otherwise } => self.branch(inst, then, otherwise.as_ref())?,
                Kind::While { before, after } => self.while_loop(inst, before, after)?,
                Kind::Split => {
                    let (lo, hi) = rearrange::split(self.tensor(inst, 0)?)
                        .ok_or_else(|| self.malformed(inst, "splits a last axis other than 2"))?;
                    let [a, b] = inst.results[..] else {
                        return Err(self.malformed(inst, "has other than two results"));
                    };
                    self.slots[a] = Some(Value::Tensor(lo));
                    self.slots[b] = Some(Value::Tensor(hi));
                }
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
            Kind::Permute(order) => {
                let src = self.tensor(inst, 0)?;
                if order.len() != src.shape.len() {
                    return Err(self.malformed(inst, "order of another rank"));
                }
                t(rearrange::permute(src, order))
            }
            Kind::Join => {
                let (a, b) = (self.tensor(inst, 0)?, self.tensor(inst, 1)?);
                t(rearrange::join(a, b)
                    .ok_or_else(|| self.malformed(inst, "joins tensors of different types"))?)
            }
            Kind::Cat(axis) => {
                let (a, b) = (self.tensor(inst, 0)?, self.tensor(inst, 1)?);
                t(rearrange::cat(a, b, *axis)
                    .ok_or_else(|| self.malformed(inst, "concatenates tensors that do not fit"))?)
            }
            // Run by the block: it sets two results.
            Kind::Split => Err(self.malformed(inst, "split outside a block")),
            Kind::AddPtr => self.addptr(inst).map(|x| Some(Value::Tensor(x))),
            Kind::Load { mask, other } => {
                memory::load(self, inst, *mask, *other).map(|x| Some(Value::Tensor(x)))
            }
            Kind::Store { mask } => memory::store(self, inst, *mask).map(|()| None),
            Kind::AtomicRmw { kind, mask } => {
                atomic::rmw(self, inst, *kind, *mask).map(|x| Some(Value::Tensor(x)))
            }
            Kind::AtomicCas => atomic::cas(self, inst).map(|x| Some(Value::Tensor(x))),
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
            Kind::Print { prefix, hex } => {
                let value = match inst.operands.len() {
                    0 => None,
                    _ => Some(self.tensor(inst, 0)?),
                };
                let lines = crate::print::lines(self.pid, prefix, *hex, value);
                let mut out = std::io::stdout().lock();
                for line in lines {
                    // Printing is best effort, as on the GPU.
                    let _ = writeln!(out, "{line}");
                }
                Ok(None)
            }
            Kind::Assert { message } => {
                if self.program.debug {
                    let c = self.tensor(inst, 0)?;
                    let Elems::Int(v) = &c.elems else {
                        return Err(self.malformed(inst, "asserts a condition that is not i1"));
                    };
                    if let Some(i) = v.iter().position(|&b| b == 0) {
                        return Err(self.fault(
                            inst,
                            InterpretFault::AssertionFailed {
                                message: message.clone(),
                                index: unflatten(i, &c.shape),
                            },
                        ));
                    }
                }
                Ok(None)
            }
            Kind::Scan {
                kind,
                axis,
                reverse,
            } => {
                let src = self.tensor(inst, 0)?;
                if *axis >= src.shape.len() {
                    return Err(self.malformed(inst, "axis out of range"));
                }
                t(scan::scan(src, *kind, *axis, *reverse))
            }
            Kind::Dot { precision, .. } => {
                let (a, b, acc) = (
                    self.tensor(inst, 0)?,
                    self.tensor(inst, 1)?,
                    self.tensor(inst, 2)?,
                );
                let fits = a.shape.len() == 2
                    && b.shape.len() == 2
                    && a.shape[1] == b.shape[0]
                    && acc.shape == [a.shape[0], b.shape[1]];
                if !fits {
                    return Err(self.malformed(inst, "operand shapes do not fit a matrix product"));
                }
                t(dot::dot(a, b, acc, *precision))
            }
            Kind::Constant(c) => t(c.clone()),
            Kind::Int(op) => self.int_binary(inst, *op).map(|x| Some(Value::Tensor(x))),
            Kind::Float(op) => self.float_binary(inst, *op).map(|x| Some(Value::Tensor(x))),
            Kind::Unary(op) => self.unary(inst, *op).map(|x| Some(Value::Tensor(x))),
            Kind::AbsI => self.abs_int(inst).map(|x| Some(Value::Tensor(x))),
            Kind::Cast(op) => self.cast(inst, *op).map(|x| Some(Value::Tensor(x))),
            Kind::CmpI(p) => self.cmpi(inst, *p).map(|x| Some(Value::Tensor(x))),
            Kind::CmpF(p) => self.cmpf(inst, *p).map(|x| Some(Value::Tensor(x))),
            Kind::Select => self.select(inst).map(|x| Some(Value::Tensor(x))),
            Kind::Fma => self.fma(inst).map(|x| Some(Value::Tensor(x))),
            Kind::For(_)
            | Kind::If { .. }
            | Kind::While { .. }
            | Kind::Yield
            | Kind::Condition
            | Kind::Return => Err(self.malformed(inst, "control flow out of place")),
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
