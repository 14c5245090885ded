//! Our passes as MLIR passes: how they are made, what they run on, and how
//! their failures become MLIR diagnostics.
//!
//! A pass over kernels ([`kernel_pass`]) is op-agnostic: run on a module it
//! visits every `func.func` in it; nested under `func.func` (as in
//! `builtin.module(func.func(tile-predicate))`) it runs on that function.
//! It edits the function in place through melior.

use melior::ir::operation::{OperationLike, WalkOrder, WalkResult};
use melior::ir::r#type::TypeId;
use melior::ir::{Location, OperationRef};
use melior::pass::{ExternalPass, Pass, create_external};
use mlir_sys::MlirLocation;
use std::ffi::CString;
use tile_dialect::view::op_name;

/// A failure of one of our passes: where and why.
#[derive(Debug, Clone)]
pub struct PassError {
    /// The op's location, if the failure is about one op.
    pub location: Option<MlirLocation>,
    /// The message, starting with the op's name.
    pub message: String,
}

impl PassError {
    /// A failure at `op`: the message is prefixed with the op's name, as
    /// MLIR's own op errors are.
    pub fn at<'c: 'a, 'a>(op: &impl OperationLike<'c, 'a>, message: impl Into<String>) -> Self {
        PassError {
            location: Some(op.location().to_raw()),
            message: format!("'{}' op {}", op_name(op), message.into()),
        }
    }

    /// A failure at a location, with a message used as it is.
    pub fn located(location: Location, message: impl Into<String>) -> Self {
        PassError {
            location: Some(location.to_raw()),
            message: message.into(),
        }
    }

    /// A failure about the whole module.
    pub fn module(message: impl Into<String>) -> Self {
        PassError {
            location: None,
            message: message.into(),
        }
    }

    /// Emits the failure as an MLIR error, at `fallback` when it has no
    /// location of its own.
    pub fn emit(&self, fallback: MlirLocation) {
        emit_error(self.location.unwrap_or(fallback), &self.message);
    }
}

/// A pass's result.
pub type PassResult = Result<(), PassError>;

/// Emits an MLIR error diagnostic.
pub fn emit_error(location: MlirLocation, message: &str) {
    let message = CString::new(message.replace('\0', " ")).expect("no interior NULs");
    // SAFETY: the location belongs to a live context; MLIR copies the text.
    unsafe { mlir_sys::mlirEmitError(location, message.as_ptr()) };
}

/// What describes one of our passes.
pub struct PassInfo {
    /// The class name, for MLIR's pass statistics and crash reports.
    pub name: &'static str,
    /// The command-line flag, without dashes (`tile-<name>`).
    pub flag: &'static str,
    /// One line for `--help`.
    pub summary: &'static str,
}

/// The identity MLIR gives one pass class: any static of this type.
#[repr(align(8))]
pub struct PassId;

/// Makes a pass that runs `body` on every `func.func` at or under the op
/// it runs on (see the module docs). The first failure is emitted as an
/// error diagnostic and fails the pass.
pub fn kernel_pass(
    id: &'static PassId,
    info: &PassInfo,
    body: for<'c, 'a> fn(&OperationRef<'c, 'a>) -> PassResult,
) -> Pass {
    external(id, info, "", move |op| {
        let mut failure = Ok(());
        for_each_func(op, |f| {
            if failure.is_ok() {
                failure = body(&f);
            }
        });
        failure
    })
}

/// Makes a pass anchored on `builtin.module` that runs `body` on it.
pub fn module_pass(
    id: &'static PassId,
    info: &PassInfo,
    body: for<'c, 'a> fn(&OperationRef<'c, 'a>) -> PassResult,
) -> Pass {
    external(id, info, "builtin.module", body)
}

/// An MLIR pass (on `anchor`, any op when empty) that runs `run` and turns
/// its failure into an error diagnostic (at the op it ran on when the
/// failure has no location of its own) and a failed pass.
fn external(
    id: &'static PassId,
    info: &PassInfo,
    anchor: &str,
    run: impl for<'c, 'a> Fn(&OperationRef<'c, 'a>) -> PassResult + Clone,
) -> Pass {
    create_external(
        move |op: OperationRef<'_, '_>, pass: ExternalPass<'_>| {
            if let Err(e) = run(&op) {
                e.emit(op.location().to_raw());
                pass.signal_failure();
            }
        },
        TypeId::create(id),
        info.name,
        info.flag,
        info.summary,
        anchor,
        &[],
    )
}

/// Calls `f` on `root` when it is a `func.func`, else on every
/// `func.func` nested in it (not inside another function).
pub fn for_each_func<'c, 'a>(root: &OperationRef<'c, 'a>, mut f: impl FnMut(OperationRef<'c, 'a>)) {
    if op_name(root) == "func.func" {
        f(*root);
        return;
    }
    let mut funcs = Vec::new();
    root.walk(WalkOrder::PreOrder, |op| {
        if op_name(&op) == "func.func" {
            funcs.push(op.to_raw());
            WalkResult::Skip
        } else {
            WalkResult::Advance
        }
    });
    for raw in funcs {
        // SAFETY: the functions are live ops under `root`, which the pass
        // manager keeps alive while the pass runs.
        f(unsafe { OperationRef::from_raw(raw) });
    }
}
