//! Control flow: `scf.for`, `scf.if` and `scf.while`.

use super::{Flow, InterpretFault, Launch, Result};
use crate::program::{Body, Inst};
use crate::value::{Tensor, Value, wrap};

impl Launch<'_> {
    pub(super) fn for_loop(&mut self, inst: &Inst, body: &Body) -> Result<()> {
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
            self.count_iteration(inst)?;
            self.slots[body.args[0]] = Some(Value::Tensor(Tensor::ints(vec![], iv_type, vec![iv])));
            for (&slot, v) in body.args[1..].iter().zip(carried.drain(..)) {
                self.slots[slot] = Some(v);
            }
            carried = match self.block(body)? {
                Flow::Yield(v) => v,
                _ => return Err(self.malformed(inst, "a loop body without scf.yield")),
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

    /// `scf.if`: runs the branch the condition picks; its yielded values
    /// are the results.
    pub(super) fn branch(
        &mut self,
        inst: &Inst,
        then: &Body,
        otherwise: Option<&Body>,
    ) -> Result<()> {
        let taken = if self.scalar_int(inst, 0)? != 0 {
            Some(then)
        } else {
            otherwise
        };
        let Some(body) = taken else {
            return Ok(());
        };
        let values = match self.block(body)? {
            Flow::Yield(v) => v,
            _ => return Err(self.malformed(inst, "a branch without scf.yield")),
        };
        self.set_results(inst, values);
        Ok(())
    }

    /// `scf.while`: the condition block forwards values to the body while
    /// its condition holds, and out of the loop when it fails.
    pub(super) fn while_loop(&mut self, inst: &Inst, before: &Body, after: &Body) -> Result<()> {
        let mut carried: Vec<Value> = (0..inst.operands.len())
            .map(|i| self.value(inst, i).cloned())
            .collect::<Result<_>>()?;
        loop {
            self.bind(&before.args, carried);
            let (go_on, forwarded) = match self.block(before)? {
                Flow::Condition(go_on, v) => (go_on, v),
                _ => {
                    return Err(self.malformed(inst, "a condition block without scf.condition"));
                }
            };
            if !go_on {
                self.set_results(inst, forwarded);
                return Ok(());
            }
            self.count_iteration(inst)?;
            self.bind(&after.args, forwarded);
            carried = match self.block(after)? {
                Flow::Yield(v) => v,
                _ => return Err(self.malformed(inst, "a loop body without scf.yield")),
            };
        }
    }

    fn bind(&mut self, slots: &[usize], values: Vec<Value>) {
        for (&slot, v) in slots.iter().zip(values) {
            self.slots[slot] = Some(v);
        }
    }

    fn set_results(&mut self, inst: &Inst, values: Vec<Value>) {
        self.bind(&inst.results, values);
    }
}
