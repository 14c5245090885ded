//! Reading kernels from MLIR text: what the views decode, what is refused
//! and where errors point.

use super::*;
use crate::value::Elems;
use melior::ir::Module;

/// Reads the kernel of the MLIR text `text`.
fn read(text: &str) -> R<Program> {
    let context = tile_dialect::new_context().unwrap();
    let module = Module::parse(&context, text).expect("the test's IR parses");
    Program::read(&module)
}

/// Reads a kernel whose body is `body`, with arguments `%x: f32`,
/// `%y: f64`, `%h: f16` and `%i: i8`.
fn read_body(body: &str) -> R<Program> {
    read(&format!(
        "func.func @k(%x: f32, %y: f64, %h: f16, %i: i8) attributes {{tile.kernel}} {{\n\
         {body}\n  return\n}}"
    ))
}

#[test]
fn float_math_the_gpu_refuses_is_refused_at_the_op() {
    let e = read_body(r#"%0 = math.atan %x : f32 loc("k.rs":3:7)"#).unwrap_err();
    assert_eq!(e.op, "math.atan");
    assert_eq!(e.location, "k.rs:3:7");
    assert_eq!(
        e.message,
        "would need NVIDIA's libdevice, which the GPU path does not link (the interpreter \
         refuses what the GPU cannot run)"
    );
    let e = read_body(r#"%0 = math.exp %y : f64 loc("k.rs":4:1)"#).unwrap_err();
    assert!(e.message.starts_with("on f64 would need"), "{e}");
    assert_eq!(e.to_string(), format!("k.rs:4:1: `math.exp` {}", e.message));
    for refused in ["%0 = arith.remf %x, %x : f32", "%0 = math.sin %y : f64"] {
        assert!(read_body(refused).is_err(), "{refused}");
    }
    for accepted in [
        "%0 = math.sqrt %y : f64",
        "%0 = math.absf %y : f64",
        "%0 = math.floor %h : f16",
        "%0 = math.ceil %y : f64",
        "%0 = arith.maxnumf %y, %y : f64",
        "%0 = arith.minnumf %h, %h : f16",
        "%0 = math.exp %h : f16",
        "%0 = math.rsqrt %x : f32",
        "%0 = math.absi %i : i8",
    ] {
        read_body(accepted).unwrap_or_else(|e| panic!("{accepted}: {e}"));
    }
}

#[test]
fn unknown_ops_and_missing_kernels_are_errors() {
    let e = read_body("%0 = arith.bitcast %x : f32 to i32 loc(unknown)").unwrap_err();
    assert_eq!(e.op, "arith.bitcast");
    assert_eq!(e.location, "unknown");
    assert_eq!(
        e.message,
        "is not an op the interpreter knows (arith.bitcast)"
    );
    let e = read("module {}").unwrap_err();
    assert_eq!(
        (e.op.as_str(), e.location.as_str(), e.message.as_str()),
        ("builtin.module", "module", "holds no func.func kernel")
    );
}

#[test]
fn constants_hold_elements_as_the_interpreter_does() {
    let p = read_body(
        "%0 = arith.constant true\n\
         %1 = arith.constant dense<-1> : tensor<4xi8>\n\
         %2 = arith.constant 0.1 : f32\n\
         %3 = arith.constant 0x7FC00000 : f32\n\
         %4 = arith.constant -9223372036854775808 : i64\n\
         %5 = arith.constant dense<true> : tensor<2xi1>\n\
         %6 = arith.constant dense<0xFC00> : tensor<2x2xf16>",
    )
    .unwrap();
    let consts: Vec<&Tensor> = p
        .body
        .insts
        .iter()
        .filter_map(|i| match &i.kind {
            Kind::Constant(t) => Some(t),
            _ => None,
        })
        .collect();
    assert_eq!(consts[0].elems, Elems::Int(vec![1]));
    assert_eq!(consts[1].elems, Elems::Int(vec![-1; 4]));
    assert_eq!(consts[1].shape, vec![4]);
    assert_eq!(consts[2].elems, Elems::Float(vec![0.1f32 as f64]));
    assert!(consts[3].as_floats().unwrap()[0].is_nan());
    assert_eq!(consts[4].elems, Elems::Int(vec![i64::MIN]));
    assert_eq!(consts[5].elems, Elems::Int(vec![1, 1]));
    assert_eq!(consts[6].elems, Elems::Float(vec![f64::NEG_INFINITY; 4]));
    assert_eq!(consts[6].dtype, DType::F16);
}

/// A kernel making a block pointer of `tensor<4x{elem}>` from `%p` and
/// loading it with `padding`.
fn block_load(elem: &str, padding: &str) -> R<Program> {
    read(&format!(
        "func.func @k(%p: !tile.ptr<{elem}>, %n: i64, %o: i32) attributes {{tile.kernel}} {{\n\
         %b = \"tile.make_block_ptr\"(%p, %n, %n, %o) {{order = array<i32: 0>, \
         operandSegmentSizes = array<i32: 1, 1, 1, 1>}} : (!tile.ptr<{elem}>, i64, i64, i32) \
         -> !tile.block_ptr<tensor<4x{elem}>>\n\
         %v = \"tile.block_load\"(%b) {{boundary_check = array<i32: 0>, cache_modifier = \"\", \
         eviction_policy = \"\", padding = {padding}, volatile = false}} : \
         (!tile.block_ptr<tensor<4x{elem}>>) -> tensor<4x{elem}>\n\
         return\n}}"
    ))
}

fn padding_of(p: &Program) -> (Vec<usize>, Padding) {
    match &p.body.insts[1].kind {
        Kind::BlockLoad { check, padding } => (check.clone(), *padding),
        k => panic!("{k:?}"),
    }
}

#[test]
fn block_loads_read_their_padding_through_the_view() {
    let p = block_load("i8", "-1 : i8").unwrap();
    assert_eq!(p.body.insts[0].kind, Kind::MakeBlockPtr(1));
    assert_eq!(padding_of(&p), (vec![0], Padding::Value(-1.0)));
    let p = block_load("f32", "0xFF800000 : f32").unwrap();
    assert_eq!(padding_of(&p).1, Padding::Value(f64::NEG_INFINITY));
    let p = block_load("f16", "\"undefined\"").unwrap();
    assert_eq!(padding_of(&p).1, Padding::Undefined);
    let e = block_load("i32", "\"nan\"").unwrap_err();
    assert_eq!(
        (e.op.as_str(), e.message.as_str()),
        ("tile.block_load", "pads an integer block with nan")
    );
}

#[test]
fn values_are_numbered_in_nested_loops_and_params_keep_their_names() {
    let p = read(
        r#"func.func @outer(%a: i32) { return }
        func.func @k(%n: i32 {tile.name = "n"}, %x: !tile.ptr<i32>) attributes {tile.kernel} {
          %c0 = arith.constant 0 : i32
          %c1 = arith.constant 1 : i32
          %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c0) -> (i32) : i32 {
            %q = scf.for %j = %c0 to %i step %c1 iter_args(%in = %acc) -> (i32) : i32 {
              %s = arith.addi %in, %j : i32
              scf.yield %s : i32
            }
            scf.yield %q : i32
          }
          "tile.store"(%x, %r) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (!tile.ptr<i32>, i32) -> ()
          return
        }"#,
    )
    .unwrap();
    assert_eq!(p.name, "k");
    let names: Vec<&str> = p.params.iter().map(|x| x.name.as_str()).collect();
    assert_eq!(names, ["n", "arg1"]);
    assert_eq!(p.params[0].ty, TileType::scalar(DType::I32));
    let outer = &p.body.insts[2];
    let Kind::For(body) = &outer.kind else {
        panic!("{:?}", outer.kind)
    };
    assert_eq!(outer.operands, vec![2, 0, 3, 2]);
    assert_eq!(body.args.len(), 2);
    let Kind::For(inner) = &body.insts[0].kind else {
        panic!("{:?}", body.insts[0].kind)
    };
    // The inner loop's bound is the outer induction variable.
    assert_eq!(body.insts[0].operands[1], body.args[0]);
    assert_eq!(inner.insts[0].kind, Kind::Int(IntOp::Add));
    assert_eq!(inner.insts[1].kind, Kind::Yield);
    let store = &p.body.insts[3];
    assert_eq!(store.kind, Kind::Store { mask: false });
    assert_eq!(store.operands, vec![1, outer.results[0]]);
    let mut slots: Vec<usize> = p.params.iter().map(|x| x.slot).collect();
    fn collect(b: &Body, out: &mut Vec<usize>) {
        out.extend(&b.args);
        for i in &b.insts {
            out.extend(&i.results);
            if let Kind::For(inner) = &i.kind {
                collect(inner, out);
            }
        }
    }
    collect(&p.body, &mut slots);
    slots.sort_unstable();
    assert_eq!(
        slots,
        (0..p.slots).collect::<Vec<_>>(),
        "one slot per value"
    );
}
