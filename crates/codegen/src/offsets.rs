//! Which pointer arguments a kernel addresses with 32-bit offsets.
//!
//! `tile.addptr(ptr, offsets)` lowers to a `getelementptr` with the offsets'
//! own width, so i32 offsets reach at most `i32::MAX` elements from the
//! pointer they move. The runtime refuses a launch that hands such a
//! pointer a larger buffer ([`tile_runtime::KernelSpec::check_args`]); this
//! analysis tells it which arguments that applies to.
//!
//! A pointer is traced back from each narrow `tile.addptr` (offsets of i32
//! or a narrower integer type) through the ops
//! that carry pointers unchanged (`tile.splat`, `tile.broadcast`,
//! `tile.expand_dims`, `tile.convert_layout`, the ops that move elements:
//! `tile.reshape`, `tile.permute`, `tile.join`, `tile.split`, `tile.cat`;
//! and `arith.select`), earlier
//! narrow `tile.addptr`s, `scf.for` and `scf.while` (the init operand and
//! the yielded or forwarded value of a loop-carried pointer) and `scf.if`
//! (what either branch yields) to the kernel's arguments. An
//! `addptr` with i64 offsets on the way ends the trace: the pointer was
//! rebased with 64-bit arithmetic (`x_ptr + pid.to(DType::I64) * stride`),
//! and the i32 offsets after it are relative to that base. Block pointers
//! use 64-bit addresses and never count.
//!
//! The reading is conservative where it cannot see the values: a pointer
//! that a loop advances by i32 steps stays flagged (the steps add up in 64
//! bits, but nothing here shows the offsets within each step stay small),
//! and a pointer is flagged when any one of its paths to an argument is
//! free of 64-bit offsets.

use melior::ir::block::{BlockArgument, BlockLike};
use melior::ir::operation::{OperationLike, OperationResult};
use melior::ir::{BlockRef, RegionLike, Value, ValueLike};
use tile_dialect::ops;
use tile_dialect::view::{decode_type, dtype_of, element_type, op_name};

/// For each argument of the kernel whose entry block is `entry`, in order:
/// the pointee size in bytes when some `tile.addptr` with i32 (or
/// narrower) offsets moves a pointer derived from it, `None` otherwise.
/// With several such `addptr`s the smallest pointee counts (it reaches the
/// most elements of a buffer).
pub(crate) fn i32_offset_elem_bytes(entry: BlockRef) -> Vec<Option<u32>> {
    let mut found = vec![None; entry.argument_count()];
    visit(entry, entry, &mut found);
    found
}

/// Records, for every narrow `tile.addptr` in `block` and the regions
/// nested in it, the arguments its pointer derives from.
fn visit(block: BlockRef, entry: BlockRef, found: &mut [Option<u32>]) {
    let mut next = block.first_operation();
    while let Some(op) = next {
        if name(&op) == ops::ADDPTR
            && narrow_offsets(&op)
            && op.result_count() == 1
            && let Some(bytes) = op.result(0).ok().and_then(|r| pointee_bytes(r.into()))
            && let Ok(ptr) = op.operand(0)
        {
            for arg in roots(ptr, entry) {
                if let Some(slot) = found.get_mut(arg) {
                    *slot = Some(slot.map_or(bytes, |b: u32| b.min(bytes)));
                }
            }
        }
        for region in op.regions() {
            let mut inner = region.first_block();
            while let Some(b) = inner {
                visit(b, entry, found);
                inner = b.next_in_region();
            }
        }
        next = op.next_in_block();
    }
}

/// The positions of the kernel arguments (block arguments of `entry`) that
/// the pointer `value` derives from.
fn roots(value: Value, entry: BlockRef) -> Vec<usize> {
    let mut roots = Vec::new();
    let mut seen: Vec<Value> = Vec::new();
    let mut todo = vec![value];
    while let Some(v) = todo.pop() {
        if seen.contains(&v) {
            continue;
        }
        seen.push(v);
        // Each kind checked before converting: melior's conversion error
        // prints the value, and with it the whole module.
        if v.is_block_argument()
            && let Ok(arg) = BlockArgument::try_from(v)
        {
            let n = arg.argument_number();
            // SAFETY: a block argument's owner is the live block holding it.
            let block =
                unsafe { BlockRef::from_raw(mlir_sys::mlirBlockArgumentGetOwner(v.to_raw())) };
            if block == entry {
                roots.push(n);
            } else if let Some(op) = block.parent_operation() {
                match name(&op) {
                    "scf.for" if n >= 1 => {
                        // Region arguments: the induction variable, then one
                        // per carried value; operands: bounds and step, then
                        // the inits.
                        todo.extend(op.operand(2 + n).ok());
                        todo.extend(block.terminator().and_then(|t| t.operand(n - 1).ok()));
                    }
                    "scf.while" => {
                        let before = op.region(0).ok().and_then(|r| r.first_block());
                        todo.extend(if before == Some(block) {
                            carried(&op, n)
                        } else {
                            forwarded(&op, n)
                        });
                    }
                    _ => {}
                }
            }
        } else if v.is_operation_result()
            && let Ok(result) = OperationResult::try_from(v)
        {
            let op = result.owner();
            match name(&op) {
                ops::SPLAT
                | ops::BROADCAST
                | ops::EXPAND_DIMS
                | ops::CONVERT_LAYOUT
                | ops::RESHAPE
                | ops::PERMUTE
                | ops::SPLIT => {
                    todo.extend(op.operand(0).ok());
                }
                ops::JOIN | ops::CAT => todo.extend(op.operands()),
                ops::ADDPTR if narrow_offsets(&op) => todo.extend(op.operand(0).ok()),
                "arith.select" => {
                    todo.extend([1, 2].into_iter().filter_map(|i| op.operand(i).ok()))
                }
                "scf.for" => {
                    let r = result.result_number();
                    todo.extend(op.operand(3 + r).ok());
                    let body = op.region(0).ok().and_then(|region| region.first_block());
                    todo.extend(
                        body.and_then(|b| b.terminator())
                            .and_then(|t| t.operand(r).ok()),
                    );
                }
                "scf.if" => {
                    let r = result.result_number();
                    for region in op.regions() {
                        todo.extend(
                            region
                                .first_block()
                                .and_then(|b| b.terminator())
                                .and_then(|t| t.operand(r).ok()),
                        );
                    }
                }
                "scf.while" => todo.extend(forwarded(&op, result.result_number())),
                _ => {}
            }
        }
    }
    roots
}

/// What carried slot `n` of an `scf.while` (its condition block's
/// argument) may hold: its initial value and the value the body yields.
fn carried<'c, 'a>(op: &melior::ir::OperationRef<'c, 'a>, n: usize) -> Vec<Value<'c, 'a>> {
    let mut found: Vec<Value> = op.operand(n).ok().into_iter().collect();
    found.extend(terminator_operand(op, 1, n));
    found
}

/// What forwarded slot `n` of an `scf.while` (its body's argument, its
/// result) may hold: the value `scf.condition` forwards.
fn forwarded<'c, 'a>(op: &melior::ir::OperationRef<'c, 'a>, n: usize) -> Vec<Value<'c, 'a>> {
    terminator_operand(op, 0, n + 1).into_iter().collect()
}

/// Operand `n` of the terminator of region `region` of `op`.
fn terminator_operand<'c, 'a>(
    op: &melior::ir::OperationRef<'c, 'a>,
    region: usize,
    n: usize,
) -> Option<Value<'c, 'a>> {
    op.region(region)
        .ok()
        .and_then(|r| r.first_block())
        .and_then(|b| b.terminator())
        .and_then(|t| t.operand(n).ok())
}

/// The op's name (`tile.addptr`).
fn name<'c>(op: &impl OperationLike<'c, 'c>) -> &'c str {
    op_name(op)
}

/// True when the offsets of the `tile.addptr` `op` are integers of at most
/// 32 bits.
fn narrow_offsets<'c>(op: &impl OperationLike<'c, 'c>) -> bool {
    op.operand(1)
        .ok()
        .and_then(|offsets| dtype_of(element_type(offsets.r#type())))
        .is_some_and(|d| d.is_integer() && d.bits() <= 32)
}

/// The size in bytes of what the pointer (or tensor of pointers) `value`
/// points at.
fn pointee_bytes(value: Value) -> Option<u32> {
    let dtype = decode_type(value.r#type())?.elem()?.pointee()?;
    Some(dtype.bits().div_ceil(8))
}

#[cfg(test)]
mod tests {
    use crate::kernel_spec;
    use tile_dialect::{DType, Kernel, KernelBuilder, new_context};

    const BLOCK: i32 = 128;

    /// The spec's `i32_offset_elem_bytes` of a kernel built by `body`.
    fn offsets(body: impl for<'k> FnOnce(&'k KernelBuilder<'k>)) -> Vec<Option<u32>> {
        let context = new_context().unwrap();
        let kernel = Kernel::build(&context, "k", body).unwrap_or_else(|e| panic!("{e}"));
        kernel_spec(kernel.module(), 4)
            .unwrap()
            .i32_offset_elem_bytes
    }

    #[test]
    fn i32_offsets_flag_their_pointers_with_the_element_size() {
        let found = offsets(|k| {
            let x = k.arg_ptr("x", DType::F32);
            let h = k.arg_ptr("h", DType::F16);
            let out = k.arg_ptr("out", DType::I8);
            let n = k.arg("n", DType::I32);
            let offs = k.program_id(0) * BLOCK + k.arange(0, BLOCK);
            let m = offs.lt(n);
            let a = k.load(x + offs).mask(m).build();
            let b = k.load(h + offs).mask(m).build().to(DType::F32);
            k.store(out + offs, (a + b).to(DType::I8)).mask(m).build();
        });
        assert_eq!(found, vec![Some(4), Some(2), Some(1), None]);
    }

    #[test]
    fn i64_offsets_do_not_flag() {
        let found = offsets(|k| {
            let x = k.arg_ptr("x", DType::F32);
            let out = k.arg_ptr("out", DType::F32);
            let n = k.arg("n", DType::I64);
            let offs =
                k.program_id(0).to(DType::I64) * (BLOCK as i64) + k.arange(0, BLOCK).to(DType::I64);
            let m = offs.lt(n);
            let v = k.load(x + offs).mask(m).build();
            k.store(out + offs, v).mask(m).build();
        });
        assert_eq!(found, vec![None, None, None]);
    }

    #[test]
    fn i32_offsets_after_a_64_bit_rebase_do_not_flag() {
        // Triton's idiom for large tensors: the program's base in i64, the
        // offsets within the block in i32.
        let found = offsets(|k| {
            let x = k.arg_ptr("x", DType::F32);
            let row = k.arg_ptr("row", DType::F32);
            let stride = k.arg("stride", DType::I64);
            let base = x + k.program_id(0).to(DType::I64) * stride;
            let v = k.load(base + k.arange(0, BLOCK)).build();
            // An i32 offset before the i64 one still flags.
            let start = row + k.program_id(0) * BLOCK;
            k.store(start + stride + k.arange(0, BLOCK), v).build();
        });
        assert_eq!(found, vec![None, Some(4), None]);
    }

    #[test]
    fn pointers_moved_by_shape_ops_are_traced() {
        // Pointers that pass through a shape op before a narrow addptr
        // still reach their arguments; a join or cat reaches both.
        let found = offsets(|k| {
            let a = k.arg_ptr("a", DType::F32);
            let b = k.arg_ptr("b", DType::F32);
            let c = k.arg_ptr("c", DType::F32);
            let d = k.arg_ptr("d", DType::I8);
            let e = k.arg_ptr("e", DType::F32);
            let pa = a.broadcast_to(&[8]).reshape(&[2, 4]).trans();
            let (lo, _) = b.broadcast_to(&[8]).join(c.broadcast_to(&[8])).split();
            let v = k.load(lo + k.arange(0, 8)).build();
            k.store(pa + k.zeros(&[4, 2], DType::I32), v.reshape(&[4, 2]))
                .build();
            let pd = d.broadcast_to(&[4]).cat(d.broadcast_to(&[4]), 0);
            let w = k.load(pd + k.arange(0, 8)).build();
            k.store(e + k.arange(0, 8).to(DType::I64), w.to(DType::F32))
                .build();
        });
        assert_eq!(found, vec![Some(4), Some(4), Some(4), Some(1), None]);
    }

    #[test]
    fn block_pointers_do_not_flag() {
        let found = offsets(|k| {
            let a = k.arg_ptr("a", DType::F32);
            let m = k.arg("m", DType::I32);
            let n = k.arg("n", DType::I32);
            let block = k
                .make_block_ptr(a)
                .shape([m, n])
                .strides([n, k.i32(1)])
                .offsets([k.program_id(0), k.i32(0)])
                .block_shape([1, BLOCK as i64])
                .order([1, 0])
                .build();
            let v = k.load(block).boundary_check(&[0, 1]).build();
            k.store(block.advance([0, BLOCK]), v)
                .boundary_check(&[0, 1])
                .build();
        });
        assert_eq!(found, vec![None, None, None]);
    }

    #[test]
    fn pointers_carried_through_loops_are_traced_to_their_arguments() {
        let found = offsets(|k| {
            let x = k.arg_ptr("x", DType::F32);
            let y = k.arg_ptr("y", DType::F64);
            let out = k.arg_ptr("out", DType::F32);
            let n = k.arg("n", DType::I32);
            let acc = k.zeros(&[BLOCK as i64], DType::F32);
            // `x` enters the loop bare and is moved by i32 offsets inside.
            // `y` is moved by i64 steps only, inside and after the loop.
            // `out` comes out of the loop and is moved by i32 offsets after.
            let [acc, _, _, out] = k.for_range(0, n, 1, [acc, x, y, out], |_, [acc, p, q, o]| {
                let v = k.load(p + k.arange(0, BLOCK)).build();
                let w = k.load(q + k.arange(0, BLOCK).to(DType::I64)).build();
                [
                    acc + v + w.to(DType::F32),
                    p + BLOCK,
                    q + k.i64(BLOCK as i64),
                    o,
                ]
            });
            k.store(out + k.arange(0, BLOCK), acc).build();
        });
        assert_eq!(found, vec![Some(4), None, Some(4), None]);
    }

    #[test]
    fn each_path_through_a_loop_reaches_its_own_argument() {
        // Every pointer here reaches its argument by one path only, and the
        // slots sit where no two of the loop's operand and result numberings
        // coincide: `p` enters the loop as `a` and is yielded as `d` (its
        // body argument, moved inside, reaches both), `q` enters as `c` and
        // is yielded as `b` (only the loop's result is moved: both again),
        // `e` is moved twice by i32 offsets (the first move passed through),
        // `f` is only loaded.
        let found = offsets(|k| {
            let a = k.arg_ptr("a", DType::F32);
            let b = k.arg_ptr("b", DType::F16);
            let c = k.arg_ptr("c", DType::F16);
            let d = k.arg_ptr("d", DType::F32);
            let e = k.arg_ptr("e", DType::F32);
            let f = k.arg_ptr("f", DType::F32);
            let n = k.arg("n", DType::I32);
            let zero = k.i32(0);
            let [_, _, _, q] = k.for_range(0, n, 1, [zero, zero, a, c], |i, [s, t, p, _]| {
                let v = k.load(p + k.arange(0, BLOCK)).build();
                k.store(f + k.arange(0, BLOCK).to(DType::I64), v).build();
                [s + i, t + 1, d, b]
            });
            let w = k.load(q + k.arange(0, BLOCK)).build();
            k.store((e + 5) + k.arange(0, BLOCK), w.to(DType::F32))
                .build();
        });
        assert_eq!(
            found,
            vec![Some(4), Some(2), Some(2), Some(4), Some(4), None, None]
        );
    }

    #[test]
    fn parsed_ir_is_read_the_same_way() {
        // Either of two pointers chosen lane by lane, then moved by i32
        // offsets: both are flagged. A pointer only loaded is not.
        let text = r#"
          func.func @k(%x: !tile.ptr<f32>, %y: !tile.ptr<f32>, %z: !tile.ptr<f32>)
              attributes {tile.kernel} {
            %offs = "tile.arange"() {end = 16 : i32, start = 0 : i32} : () -> tensor<16xi32>
            %c8 = arith.constant dense<8> : tensor<16xi32>
            %m = arith.cmpi slt, %offs, %c8 : tensor<16xi32>
            %px = "tile.splat"(%x) : (!tile.ptr<f32>) -> tensor<16x!tile.ptr<f32>>
            %py = "tile.splat"(%y) : (!tile.ptr<f32>) -> tensor<16x!tile.ptr<f32>>
            %p = arith.select %m, %px, %py : tensor<16xi1>, tensor<16x!tile.ptr<f32>>
            %q = "tile.addptr"(%p, %offs) : (tensor<16x!tile.ptr<f32>>, tensor<16xi32>) -> tensor<16x!tile.ptr<f32>>
            %v = "tile.load"(%q) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 0, 0>, volatile = false} : (tensor<16x!tile.ptr<f32>>) -> tensor<16xf32>
            %s = "tile.load"(%z) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 0, 0>, volatile = false} : (!tile.ptr<f32>) -> f32
            return
          }
        "#;
        let context = new_context().unwrap();
        tile_passes::register_all(&context).unwrap();
        let module = tile_passes::parse_module(&context, text, "select.mlir")
            .unwrap_or_else(|e| panic!("{e}"));
        let spec = kernel_spec(&module, 4).unwrap();
        assert_eq!(spec.i32_offset_elem_bytes, vec![Some(4), Some(4), None]);
    }

    #[test]
    fn pointers_through_branches_and_while_loops_are_traced() {
        // %a through an if's result, %b through a while loop's carried
        // value, %c through its forwarded value inside the loop, %e
        // through the loop's result (forwarded, moved only after the
        // loop), each then moved by i32 offsets: all flagged. %f, only
        // loaded, is not.
        let text = r#"
          func.func @k(%a: !tile.ptr<f32>, %b: !tile.ptr<f16>, %c: !tile.ptr<f64>,
                       %d: !tile.ptr<f32>, %e: !tile.ptr<i8>, %f: !tile.ptr<f32>, %n: i32)
              attributes {tile.kernel} {
            %c0 = arith.constant 0 : i32
            %cond = arith.cmpi sgt, %n, %c0 : i32
            %p = scf.if %cond -> (!tile.ptr<f32>) {
              scf.yield %a : !tile.ptr<f32>
            } else {
              scf.yield %d : !tile.ptr<f32>
            }
            %q = "tile.addptr"(%p, %n) : (!tile.ptr<f32>, i32) -> !tile.ptr<f32>
            %r:2 = scf.while (%x = %b, %i = %c0) : (!tile.ptr<f16>, i32) -> (!tile.ptr<f64>, !tile.ptr<i8>) {
              %mx = "tile.addptr"(%x, %n) : (!tile.ptr<f16>, i32) -> !tile.ptr<f16>
              %go = arith.cmpi slt, %i, %n : i32
              scf.condition(%go) %c, %e : !tile.ptr<f64>, !tile.ptr<i8>
            } do {
            ^bb0(%y: !tile.ptr<f64>, %z: !tile.ptr<i8>):
              %moved = "tile.addptr"(%y, %n) : (!tile.ptr<f64>, i32) -> !tile.ptr<f64>
              scf.yield %b, %n : !tile.ptr<f16>, i32
            }
            %after = "tile.addptr"(%r#1, %n) : (!tile.ptr<i8>, i32) -> !tile.ptr<i8>
            %w = "tile.load"(%f) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 0, 0>, volatile = false} : (!tile.ptr<f32>) -> f32
            %v = "tile.load"(%q) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 0, 0>, volatile = false} : (!tile.ptr<f32>) -> f32
            return
          }
        "#;
        let context = new_context().unwrap();
        tile_passes::register_all(&context).unwrap();
        let module = tile_passes::parse_module(&context, text, "control.mlir")
            .unwrap_or_else(|e| panic!("{e}"));
        let spec = kernel_spec(&module, 4).unwrap();
        // %d is moved too: it is the if's other branch.
        assert_eq!(
            spec.i32_offset_elem_bytes,
            vec![Some(4), Some(2), Some(8), Some(4), Some(1), None, None]
        );
    }
}
