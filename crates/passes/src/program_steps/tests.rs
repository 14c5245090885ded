//! The steps of values probed in small kernels: each op marked
//! `{test.probe}` reports the steps of its result (and of a block
//! pointer's base and offsets), in the order the ops come.

use super::{BlockSteps, ProgramSteps, Step, Steps};
use crate::axis_analysis::AxisAnalysis;
use melior::ir::BlockLike;
use melior::ir::operation::{OperationLike, WalkOrder, WalkResult};
use melior::ir::{OperationRef, Value};
use tile_dialect::view::TypeTable;

use Step::{By, None as Fixed, Unknown};

/// The steps of every probed result of the one function of `body` (the
/// body of `func.func @k(%n: i32, %x: !tile.ptr<f32>)`).
fn probes(body: &str) -> Vec<(Steps, Option<BlockSteps>)> {
    let text = format!(
        "func.func @k(%n: i32, %x: !tile.ptr<f32>) attributes {{tile.kernel}} {{\n\
         %pm = \"tile.program_id\"() {{axis = 0 : i32}} : () -> i32\n\
         %pn = \"tile.program_id\"() {{axis = 1 : i32}} : () -> i32\n\
         %zero = arith.constant 0 : i32\n{body}\n  return\n}}"
    );
    let context = melior::Context::new();
    crate::register_all(&context).unwrap();
    let module = melior::ir::Module::parse(&context, &text).unwrap_or_else(|| panic!("{text}"));
    let func = module.body().first_operation().unwrap();
    let types = TypeTable::new(&context);
    let axes = AxisAnalysis::run(&types, &func);
    let steps = ProgramSteps::run(&axes, &func);
    let mut found = Vec::new();
    func.walk(WalkOrder::PreOrder, |op: OperationRef| {
        if op.has_attribute("test.probe") {
            let v: Value = op.result(0).unwrap().into();
            found.push((steps.steps(v), steps.block_ptr(v).cloned()));
        }
        WalkResult::Advance
    });
    found
}

/// The value steps alone.
fn steps_of(body: &str) -> Vec<Steps> {
    probes(body).into_iter().map(|(s, _)| s).collect()
}

#[test]
fn program_indices_and_arithmetic() {
    let got = steps_of(
        "%c64 = arith.constant 64 : i32
         %c32 = arith.constant 32 : i32
         %c3 = arith.constant 3 : i32
         %c16 = arith.constant 16 : i32
         %z = \"tile.program_id\"() {axis = 2 : i32} : () -> i32
         %p0 = arith.addi %pm, %zero {test.probe} : i32
         %p1 = arith.addi %pn, %zero {test.probe} : i32
         %p2 = arith.addi %z, %zero {test.probe} : i32
         %a = arith.muli %pn, %c64 {test.probe} : i32
         %b = arith.muli %c32, %pn {test.probe} : i32
         %d = arith.subi %a, %b {test.probe} : i32
         %s = arith.shli %pn, %c3 {test.probe} : i32
         %r = arith.muli %pm, %n {test.probe} : i32
         %f = arith.addi %r, %a {test.probe} : i32
         %g = arith.divsi %pm, %c16 {test.probe} : i32
         %h = arith.muli %pm, %pn {test.probe} : i32
         %w = arith.extsi %d {test.probe} : i32 to i64",
    );
    assert_eq!(
        got,
        vec![
            [By(1), Fixed],
            [Fixed, By(1)],
            [Fixed, Fixed],
            [Fixed, By(64)],
            [Fixed, By(32)],
            [Fixed, By(32)],
            [Fixed, By(8)],
            [Unknown, Fixed],
            [Unknown, By(64)],
            [Unknown, Fixed],
            [Unknown, Unknown],
            [Fixed, By(32)],
        ]
    );
}

/// A loop's carried value keeps its steps when every iteration moves it
/// by the same amount in every program; one the body moves by a program
/// index loses them, and so do values computed from it in the body. The
/// induction variable moves only when the bounds do.
#[test]
fn loops() {
    let got = steps_of(
        "%c32 = arith.constant 32 : i32
         %c1 = arith.constant 1 : i32
         %a = arith.muli %pn, %c32 : i32
         %r = scf.for %i = %zero to %n step %c1 iter_args(%v = %a) -> (i32) : i32 {
           %iv = arith.addi %i, %zero {test.probe} : i32
           %w = arith.addi %v, %c32 : i32
           scf.yield %w : i32
         }
         %p = arith.addi %r, %zero {test.probe} : i32
         %q = scf.for %i = %pm to %n step %c1 iter_args(%v = %a) -> (i32) : i32 {
           %iv = arith.addi %i, %zero {test.probe} : i32
           %w = arith.addi %v, %pn : i32
           scf.yield %w : i32
         }
         %p2 = arith.addi %q, %zero {test.probe} : i32",
    );
    assert_eq!(
        got,
        vec![
            [Fixed, Fixed],
            [Fixed, By(32)],
            [Unknown, Unknown],
            [Unknown, Unknown],
        ]
    );
}

/// Of two carried values, the one every iteration moves the same way
/// keeps its steps while the other loses them.
#[test]
fn a_settled_carried_value_keeps_its_steps_beside_one_that_does_not() {
    let got = steps_of(
        "%c32 = arith.constant 32 : i32
         %c1 = arith.constant 1 : i32
         %a = arith.muli %pn, %c32 : i32
         %r:2 = scf.for %i = %zero to %n step %c1 iter_args(%v1 = %a, %v2 = %a) -> (i32, i32) : i32 {
           %w1 = arith.addi %v1, %c32 : i32
           %w2 = arith.addi %v2, %pn : i32
           scf.yield %w1, %w2 : i32, i32
         }
         %p1 = arith.addi %r#0, %zero {test.probe} : i32
         %p2 = arith.addi %r#1, %zero {test.probe} : i32",
    );
    assert_eq!(got, vec![[Fixed, By(32)], [Unknown, Unknown]]);
}

/// Carried values that lose their steps one after another, each through
/// the one before: after the last round, the body's values are taken
/// again from what is carried in the end.
#[test]
fn a_chain_of_carried_values_settles_in_the_body_too() {
    let got = steps_of(
        "%c32 = arith.constant 32 : i32
         %c1 = arith.constant 1 : i32
         %a = arith.muli %pn, %c32 : i32
         %r:4 = scf.for %i = %zero to %n step %c1
             iter_args(%v1 = %a, %v2 = %a, %v3 = %a, %v4 = %a) -> (i32, i32, i32, i32) : i32 {
           %p = arith.addi %v4, %zero {test.probe} : i32
           %w = arith.addi %v1, %pn : i32
           scf.yield %w, %v1, %v2, %v3 : i32, i32, i32, i32
         }
         %q = arith.addi %r#3, %zero {test.probe} : i32",
    );
    assert_eq!(got, vec![[Unknown, Unknown], [Unknown, Unknown]]);
}

/// A branch yields a value's steps when its condition is the same in
/// every program and both sides' steps agree; otherwise they are unknown.
/// A `while` loop's results are never followed.
#[test]
fn branches_and_while_loops() {
    let got = steps_of(
        "%c32 = arith.constant 32 : i32
         %a = arith.muli %pn, %c32 : i32
         %b = arith.addi %a, %pm : i32
         %u = arith.cmpi slt, %n, %c32 : i32
         %m = arith.cmpi slt, %pm, %c32 : i32
         %r1 = scf.if %u -> (i32) { scf.yield %a : i32 } else { scf.yield %a : i32 }
         %p1 = arith.addi %r1, %zero {test.probe} : i32
         %r2 = scf.if %m -> (i32) { scf.yield %a : i32 } else { scf.yield %a : i32 }
         %p2 = arith.addi %r2, %zero {test.probe} : i32
         %r3 = scf.if %u -> (i32) { scf.yield %a : i32 } else { scf.yield %b : i32 }
         %p3 = arith.addi %r3, %zero {test.probe} : i32
         %w = scf.while (%k = %zero) : (i32) -> i32 {
           %go = arith.cmpi slt, %k, %n : i32
           scf.condition(%go) %k : i32
         } do {
         ^bb0(%k: i32):
           scf.yield %k : i32
         }
         %p4 = arith.addi %w, %zero {test.probe} : i32",
    );
    assert_eq!(
        got,
        vec![
            [Fixed, By(32)],
            [Unknown, Unknown],
            [Unknown, Unknown],
            [Unknown, Unknown],
        ]
    );
}

/// A block pointer's offsets step with the program indices that make
/// them, `advance` adds its own steps, and a block whose shape depends on
/// a program index is not followed.
#[test]
fn block_pointers() {
    let ty = "!tile.block_ptr<tensor<64x64xf32>>";
    let got = probes(&format!(
        "%c64 = arith.constant 64 : i32
         %one = arith.constant 1 : i64
         %r0 = arith.muli %pm, %c64 : i32
         %c0 = arith.muli %pn, %c64 : i32
         %s = arith.extsi %n : i32 to i64
         %b = \"tile.make_block_ptr\"(%x, %s, %s, %s, %one, %r0, %c0) {{order = array<i32: 1, 0>, operandSegmentSizes = array<i32: 1, 2, 2, 2>, test.probe}} : (!tile.ptr<f32>, i64, i64, i64, i64, i32, i32) -> {ty}
         %a = \"tile.advance\"(%b, %c64, %zero) {{test.probe}} : ({ty}, i32, i32) -> {ty}
         %a2 = \"tile.advance\"(%b, %zero, %pn) {{test.probe}} : ({ty}, i32, i32) -> {ty}
         %e = arith.extsi %pm : i32 to i64
         %bad = \"tile.make_block_ptr\"(%x, %e, %s, %s, %one, %r0, %c0) {{order = array<i32: 1, 0>, operandSegmentSizes = array<i32: 1, 2, 2, 2>, test.probe}} : (!tile.ptr<f32>, i64, i64, i64, i64, i32, i32) -> {ty}"
    ));
    let block = |offsets: Vec<Steps>| {
        Some(BlockSteps {
            base: [Fixed, Fixed],
            offsets,
        })
    };
    let at = |i: usize| got[i].1.clone();
    assert_eq!(at(0), block(vec![[By(64), Fixed], [Fixed, By(64)]]));
    assert_eq!(at(1), block(vec![[By(64), Fixed], [Fixed, By(64)]]));
    assert_eq!(at(2), block(vec![[By(64), Fixed], [Fixed, By(65)]]));
    assert_eq!(at(3), None);
}
