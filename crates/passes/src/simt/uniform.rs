//! Which per-thread values every thread of a warp holds alike, as `ptxas`
//! can tell (it keeps those in the warp's uniform registers), and the sums
//! of such a value and a per-thread one.
//!
//! A value is *uniform* when it is computed, by ops without side effects,
//! from constants, kernel parameters, the block's coordinates, the warp
//! number broadcast from lane 0 ([`super::emit::Emitter::uniform_warp`])
//! and the induction variables of loops with uniform bounds (the last
//! three as the lowering records them: [`Uniformity::assume`]). The thread
//! id, loads and a loop's carried values are not.
//!
//! An address `p + (u + t)` with `u` uniform and `t` per thread is built as
//! `(p + u) + t` ([`Uniformity::split`], used by `block_ptr::addptr`): the
//! row bases of a tile whose rows sit in each thread's registers then stay
//! in uniform registers, outside the loop that walks the columns, and each
//! thread keeps only its column offset (an online softmax of two bf16 rows
//! a program: 37 registers to 32, with [`super::latency`]'s directive off).
//! The two agree unless `u + t` overflows `i32`, which no address in
//! bounds does (offsets are `i32` element counts).

use super::builder::Val;
use melior::ir::operation::OperationLike;
use melior::ir::operation::OperationResult;
use melior::ir::{Value, ValueLike};
use std::collections::HashMap;

/// How deep [`Uniformity::is_uniform`] follows operands before it gives up
/// (and says no).
const MAX_DEPTH: usize = 48;

/// Ops whose result is uniform when all their operands are: pure
/// arithmetic, casts and address computations.
fn is_pure(name: &str) -> bool {
    (name.starts_with("arith.") && name != "arith.constant")
        || matches!(
            name,
            "llvm.getelementptr"
                | "llvm.sext"
                | "llvm.zext"
                | "llvm.trunc"
                | "llvm.ptrtoint"
                | "llvm.inttoptr"
                | "llvm.addrspacecast"
                | "llvm.bitcast"
        )
}

/// Ops whose result is uniform whatever their operands.
fn is_uniform_source(name: &str) -> bool {
    matches!(
        name,
        "arith.constant"
            | "llvm.mlir.constant"
            | "llvm.mlir.addressof"
            | "llvm.mlir.poison"
            | "llvm.mlir.undef"
            | "gpu.block_id"
            | "gpu.grid_dim"
            | "gpu.block_dim"
            | "gpu.cluster_id"
    )
}

/// What is known of the values built so far.
#[derive(Default)]
pub struct Uniformity {
    /// Values already classified.
    known: HashMap<Val, bool>,
    /// Sums recorded as `uniform + per-thread`.
    splits: HashMap<Val, (Val, Val)>,
}

impl Uniformity {
    /// Records that `v` is uniform (a value made so on purpose).
    pub fn assume(&mut self, v: Val) {
        self.known.insert(v, true);
    }

    /// Whether every thread of a warp holds `v` alike, as `ptxas` sees it.
    pub fn is_uniform(&mut self, v: Val) -> bool {
        self.uniform_at(v, 0)
    }

    fn uniform_at(&mut self, v: Val, depth: usize) -> bool {
        if let Some(&k) = self.known.get(&v) {
            return k;
        }
        if depth > MAX_DEPTH {
            return false;
        }
        let value: Value = v.value();
        let uniform = if value.is_operation_result() {
            let op = OperationResult::try_from(value)
                .expect("an op result")
                .owner();
            let name = op.name();
            let name = name.as_string_ref().as_str().unwrap_or_default();
            if is_uniform_source(name) {
                true
            } else if is_pure(name) && op.region_count() == 0 {
                let operands: Vec<Val> = op.operands().map(Val::of).collect();
                operands.into_iter().all(|o| self.uniform_at(o, depth + 1))
            } else {
                false
            }
        } else {
            // Block arguments are uniform only as recorded ([`Self::assume`]:
            // the kernel's parameters, the induction variables of loops
            // with uniform bounds), the blocks being built before the ops
            // that will hold them.
            false
        };
        self.known.insert(v, uniform);
        uniform
    }

    /// Records that `sum` is `uniform + varying`.
    pub fn set_split(&mut self, sum: Val, uniform: Val, varying: Val) {
        self.splits.insert(sum, (uniform, varying));
    }

    /// `(uniform, varying)` when `sum` was recorded as their sum.
    pub fn split(&self, sum: Val) -> Option<(Val, Val)> {
        self.splits.get(&sum).copied()
    }
}
