// The `tile` dialect, defined in IRDL and loaded into every context at
// start-up (see `context.rs`). IRDL checks the structure of each op: operand
// and result kinds, required attributes and their enumerated values. What IRDL
// cannot express (shapes that must agree, permutations, axes in range) is
// checked in Rust by `verify.rs`, from the same rules the kernel builder uses.
irdl.dialect @tile {
  // A global-memory pointer to one element: `!tile.ptr<f32>`.
  irdl.type @ptr {
    %f16 = irdl.is f16
    %bf16 = irdl.is bf16
    %f8e4m3 = irdl.is f8E4M3FN
    %f8e5m2 = irdl.is f8E5M2
    %f32 = irdl.is f32
    %f64 = irdl.is f64
    %i1 = irdl.is i1
    %i8 = irdl.is i8
    %i16 = irdl.is i16
    %i32 = irdl.is i32
    %i64 = irdl.is i64
    %pointee = irdl.any_of(%f16, %bf16, %f32, %f64, %i1, %i8, %i16, %i32, %i64, %f8e4m3, %f8e5m2)
    irdl.parameters(pointee: %pointee)
  }

  // A block pointer: a window of the given tensor type into a strided
  // N-d view of global memory: `!tile.block_ptr<tensor<16x64xf32>>`.
  irdl.type @block_ptr {
    %block = irdl.base "!builtin.tensor"
    irdl.parameters(block: %block)
  }

  // The program's index along `axis` (0, 1 or 2) of the launch grid.
  irdl.operation @program_id {
    %axis = irdl.base "#builtin.integer"
    irdl.attributes { "axis" = %axis }
    %i32 = irdl.is i32
    irdl.results(result: %i32)
  }

  // The number of programs along `axis` (0, 1 or 2) of the launch grid.
  irdl.operation @num_programs {
    %axis = irdl.base "#builtin.integer"
    irdl.attributes { "axis" = %axis }
    %i32 = irdl.is i32
    irdl.results(result: %i32)
  }

  // The 1-d tensor start, start + 1, ..., end - 1 of i32.
  irdl.operation @arange {
    %start = irdl.base "#builtin.integer"
    %end = irdl.base "#builtin.integer"
    irdl.attributes { "start" = %start, "end" = %end }
    %tensor = irdl.base "!builtin.tensor"
    irdl.results(result: %tensor)
  }

  // A tensor with every element equal to a scalar.
  irdl.operation @splat {
    %scalar = irdl.any
    irdl.operands(src: %scalar)
    %tensor = irdl.base "!builtin.tensor"
    irdl.results(result: %tensor)
  }

  // Repeats a tensor along its axes of size 1.
  irdl.operation @broadcast {
    %src = irdl.base "!builtin.tensor"
    irdl.operands(src: %src)
    %result = irdl.base "!builtin.tensor"
    irdl.results(result: %result)
  }

  // Inserts an axis of size 1 at `axis`.
  irdl.operation @expand_dims {
    %axis = irdl.base "#builtin.integer"
    irdl.attributes { "axis" = %axis }
    %src = irdl.base "!builtin.tensor"
    irdl.operands(src: %src)
    %result = irdl.base "!builtin.tensor"
    irdl.results(result: %result)
  }

  // The same elements in row-major order, in another shape of the same
  // size.
  irdl.operation @reshape {
    %src = irdl.base "!builtin.tensor"
    irdl.operands(src: %src)
    %result = irdl.base "!builtin.tensor"
    irdl.results(result: %result)
  }

  // The axes reordered: result axis i is source axis `order[i]`.
  irdl.operation @permute {
    %order = irdl.base "#builtin.dense_array"
    irdl.attributes { "order" = %order }
    %src = irdl.base "!builtin.tensor"
    irdl.operands(src: %src)
    %result = irdl.base "!builtin.tensor"
    irdl.results(result: %result)
  }

  // Two tensors of one type interleaved along a new last axis of size 2:
  // `result[..., 0]` is `lhs`, `result[..., 1]` is `rhs`.
  irdl.operation @join {
    %lhs = irdl.base "!builtin.tensor"
    %rhs = irdl.base "!builtin.tensor"
    irdl.operands(lhs: %lhs, rhs: %rhs)
    %result = irdl.base "!builtin.tensor"
    irdl.results(result: %result)
  }

  // The inverse of `join`: a tensor whose last axis has size 2 split into
  // its two halves along that axis (the axis removed).
  irdl.operation @split {
    %src = irdl.base "!builtin.tensor"
    irdl.operands(src: %src)
    %lhs = irdl.base "!builtin.tensor"
    %rhs = irdl.base "!builtin.tensor"
    irdl.results(lhs: %lhs, rhs: %rhs)
  }

  // Two tensors concatenated along `axis`, `lhs` first; their other axes
  // agree.
  irdl.operation @cat {
    %axis = irdl.base "#builtin.integer"
    irdl.attributes { "axis" = %axis }
    %lhs = irdl.base "!builtin.tensor"
    %rhs = irdl.base "!builtin.tensor"
    irdl.operands(lhs: %lhs, rhs: %rhs)
    %result = irdl.base "!builtin.tensor"
    irdl.results(result: %result)
  }

  // Pointer plus element offset (scaled by the element size when lowered).
  // The result has the type of the pointer operand.
  irdl.operation @addptr {
    %any = irdl.any
    %scalar_ptr = irdl.parametric @tile::@ptr<%any>
    %ptr_tensor = irdl.base "!builtin.tensor"
    %ptr = irdl.any_of(%scalar_ptr, %ptr_tensor)
    %i32 = irdl.is i32
    %i64 = irdl.is i64
    %offset_tensor = irdl.base "!builtin.tensor"
    %offset = irdl.any_of(%i32, %i64, %offset_tensor)
    irdl.operands(ptr: %ptr, offset: %offset)
    irdl.results(result: %ptr)
  }

  // Load through a pointer or a tensor of pointers. Masked-off lanes touch
  // no memory and yield `other`, or zero when `other` is absent.
  irdl.operation @load {
    %any = irdl.any
    %scalar_ptr = irdl.parametric @tile::@ptr<%any>
    %ptr_tensor = irdl.base "!builtin.tensor"
    %ptr = irdl.any_of(%scalar_ptr, %ptr_tensor)
    %i1 = irdl.is i1
    %mask_tensor = irdl.base "!builtin.tensor"
    %mask = irdl.any_of(%i1, %mask_tensor)
    %other = irdl.any
    irdl.operands(ptr: %ptr, mask: optional %mask, other: optional %other)
    %cache_none = irdl.is ""
    %cache_ca = irdl.is "ca"
    %cache_cg = irdl.is "cg"
    %cache = irdl.any_of(%cache_none, %cache_ca, %cache_cg)
    %evict_normal = irdl.is ""
    %evict_first = irdl.is "evict_first"
    %evict_last = irdl.is "evict_last"
    %evict = irdl.any_of(%evict_normal, %evict_first, %evict_last)
    %true = irdl.is true
    %false = irdl.is false
    %volatile = irdl.any_of(%true, %false)
    irdl.attributes { "cache_modifier" = %cache, "eviction_policy" = %evict, "volatile" = %volatile }
    %result = irdl.any
    irdl.results(result: %result)
  }

  // Store through a pointer or a tensor of pointers. Masked-off lanes write
  // nothing.
  irdl.operation @store {
    %any = irdl.any
    %scalar_ptr = irdl.parametric @tile::@ptr<%any>
    %ptr_tensor = irdl.base "!builtin.tensor"
    %ptr = irdl.any_of(%scalar_ptr, %ptr_tensor)
    %value = irdl.any
    %i1 = irdl.is i1
    %mask_tensor = irdl.base "!builtin.tensor"
    %mask = irdl.any_of(%i1, %mask_tensor)
    irdl.operands(ptr: %ptr, value: %value, mask: optional %mask)
    %cache_none = irdl.is ""
    %cache_wb = irdl.is "wb"
    %cache_cg = irdl.is "cg"
    %cache_cs = irdl.is "cs"
    %cache_wt = irdl.is "wt"
    %cache = irdl.any_of(%cache_none, %cache_wb, %cache_cg, %cache_cs, %cache_wt)
    %evict_normal = irdl.is ""
    %evict_first = irdl.is "evict_first"
    %evict_last = irdl.is "evict_last"
    %evict = irdl.any_of(%evict_normal, %evict_first, %evict_last)
    irdl.attributes { "cache_modifier" = %cache, "eviction_policy" = %evict }
  }

  // A block pointer over `base` viewed as a tensor of the given shape and
  // strides (in elements), starting at `offsets`. `order` lists the axes
  // from the most to the least contiguous.
  irdl.operation @make_block_ptr {
    %any = irdl.any
    %base = irdl.parametric @tile::@ptr<%any>
    %i64 = irdl.is i64
    %i32 = irdl.is i32
    irdl.operands(base: %base, shape: variadic %i64, strides: variadic %i64, offsets: variadic %i32)
    %order = irdl.base "#builtin.dense_array"
    irdl.attributes { "order" = %order }
    %result = irdl.base @tile::@block_ptr
    irdl.results(result: %result)
  }

  // Moves a block pointer by the given number of elements along each axis.
  irdl.operation @advance {
    %block_ptr = irdl.base @tile::@block_ptr
    %i32 = irdl.is i32
    irdl.operands(ptr: %block_ptr, offsets: variadic %i32)
    irdl.results(result: %block_ptr)
  }

  // Load the block a block pointer points at. Only the axes listed in
  // `boundary_check` are checked; out-of-bounds elements take `padding`:
  // "zero", "nan", "undefined" (no fill), or a constant of the element type.
  irdl.operation @block_load {
    %block_ptr = irdl.base @tile::@block_ptr
    irdl.operands(ptr: %block_ptr)
    %boundary_check = irdl.base "#builtin.dense_array"
    %pad_zero = irdl.is "zero"
    %pad_nan = irdl.is "nan"
    %pad_undefined = irdl.is "undefined"
    %pad_float = irdl.base "#builtin.float"
    %pad_int = irdl.base "#builtin.integer"
    %padding = irdl.any_of(%pad_zero, %pad_nan, %pad_undefined, %pad_float, %pad_int)
    %cache_none = irdl.is ""
    %cache_ca = irdl.is "ca"
    %cache_cg = irdl.is "cg"
    %cache = irdl.any_of(%cache_none, %cache_ca, %cache_cg)
    %evict_normal = irdl.is ""
    %evict_first = irdl.is "evict_first"
    %evict_last = irdl.is "evict_last"
    %evict = irdl.any_of(%evict_normal, %evict_first, %evict_last)
    %true = irdl.is true
    %false = irdl.is false
    %volatile = irdl.any_of(%true, %false)
    irdl.attributes { "boundary_check" = %boundary_check, "padding" = %padding, "cache_modifier" = %cache, "eviction_policy" = %evict, "volatile" = %volatile }
    %result = irdl.base "!builtin.tensor"
    irdl.results(result: %result)
  }

  // Store a tensor into the block a block pointer points at; elements out of
  // bounds along the axes in `boundary_check` are not written.
  irdl.operation @block_store {
    %block_ptr = irdl.base @tile::@block_ptr
    %value = irdl.base "!builtin.tensor"
    irdl.operands(ptr: %block_ptr, value: %value)
    %boundary_check = irdl.base "#builtin.dense_array"
    %cache_none = irdl.is ""
    %cache_wb = irdl.is "wb"
    %cache_cg = irdl.is "cg"
    %cache_cs = irdl.is "cs"
    %cache_wt = irdl.is "wt"
    %cache = irdl.any_of(%cache_none, %cache_wb, %cache_cg, %cache_cs, %cache_wt)
    %evict_normal = irdl.is ""
    %evict_first = irdl.is "evict_first"
    %evict_last = irdl.is "evict_last"
    %evict = irdl.any_of(%evict_normal, %evict_first, %evict_last)
    irdl.attributes { "boundary_check" = %boundary_check, "cache_modifier" = %cache, "eviction_policy" = %evict }
  }

  // Reduce a tensor along `axis` with sum, max or min, or find the index
  // (i32) of its maximum or minimum. Without `keep_dims` the axis is
  // removed (a 1-d tensor reduces to a scalar).
  irdl.operation @reduce {
    %src = irdl.base "!builtin.tensor"
    irdl.operands(src: %src)
    %sum = irdl.is "sum"
    %max = irdl.is "max"
    %min = irdl.is "min"
    %argmax = irdl.is "argmax"
    %argmin = irdl.is "argmin"
    %kind = irdl.any_of(%sum, %max, %min, %argmax, %argmin)
    %axis = irdl.base "#builtin.integer"
    %true = irdl.is true
    %false = irdl.is false
    %keep_dims = irdl.any_of(%true, %false)
    irdl.attributes { "kind" = %kind, "axis" = %axis, "keep_dims" = %keep_dims }
    %result = irdl.any
    irdl.results(result: %result)
  }

  // The inclusive scan of a tensor along `axis` with sum, prod, max or min:
  // element i is the combination of elements 0..=i (with `reverse`, of
  // i..=n-1). The result has the source's type.
  irdl.operation @scan {
    %src = irdl.base "!builtin.tensor"
    irdl.operands(src: %src)
    %sum = irdl.is "sum"
    %prod = irdl.is "prod"
    %max = irdl.is "max"
    %min = irdl.is "min"
    %kind = irdl.any_of(%sum, %prod, %max, %min)
    %axis = irdl.base "#builtin.integer"
    %true = irdl.is true
    %false = irdl.is false
    %reverse = irdl.any_of(%true, %false)
    irdl.attributes { "kind" = %kind, "axis" = %axis, "reverse" = %reverse }
    %result = irdl.base "!builtin.tensor"
    irdl.results(result: %result)
  }

  // An atomic read-modify-write through a pointer or a tensor of pointers:
  // each element's old value is combined with `val` by `kind` and stored;
  // the old values are the result (zero where the mask is off, and nothing
  // is touched there). `sem` orders the thread's other accesses around it,
  // `scope` says which threads it is atomic with respect to.
  irdl.operation @atomic_rmw {
    %any = irdl.any
    %scalar_ptr = irdl.parametric @tile::@ptr<%any>
    %ptr_tensor = irdl.base "!builtin.tensor"
    %ptr = irdl.any_of(%scalar_ptr, %ptr_tensor)
    %value = irdl.any
    %i1 = irdl.is i1
    %mask_tensor = irdl.base "!builtin.tensor"
    %mask = irdl.any_of(%i1, %mask_tensor)
    irdl.operands(ptr: %ptr, val: %value, mask: optional %mask)
    %add = irdl.is "add"
    %max = irdl.is "max"
    %min = irdl.is "min"
    %and = irdl.is "and"
    %or = irdl.is "or"
    %xor = irdl.is "xor"
    %xchg = irdl.is "xchg"
    %kind = irdl.any_of(%add, %max, %min, %and, %or, %xor, %xchg)
    %relaxed = irdl.is "relaxed"
    %acquire = irdl.is "acquire"
    %release = irdl.is "release"
    %acq_rel = irdl.is "acq_rel"
    %sem = irdl.any_of(%relaxed, %acquire, %release, %acq_rel)
    %cta = irdl.is "cta"
    %gpu = irdl.is "gpu"
    %sys = irdl.is "sys"
    %scope = irdl.any_of(%cta, %gpu, %sys)
    irdl.attributes { "kind" = %kind, "sem" = %sem, "scope" = %scope }
    %result = irdl.any
    irdl.results(result: %result)
  }

  // An atomic compare-and-swap: where an element equals `cmp` (bit for
  // bit), `val` is stored; the old values are the result.
  irdl.operation @atomic_cas {
    %any = irdl.any
    %scalar_ptr = irdl.parametric @tile::@ptr<%any>
    %ptr_tensor = irdl.base "!builtin.tensor"
    %ptr = irdl.any_of(%scalar_ptr, %ptr_tensor)
    %cmp = irdl.any
    %value = irdl.any
    irdl.operands(ptr: %ptr, cmp: %cmp, val: %value)
    %relaxed = irdl.is "relaxed"
    %acquire = irdl.is "acquire"
    %release = irdl.is "release"
    %acq_rel = irdl.is "acq_rel"
    %sem = irdl.any_of(%relaxed, %acquire, %release, %acq_rel)
    %cta = irdl.is "cta"
    %gpu = irdl.is "gpu"
    %sys = irdl.is "sys"
    %scope = irdl.any_of(%cta, %gpu, %sys)
    irdl.attributes { "sem" = %sem, "scope" = %scope }
    %result = irdl.any
    irdl.results(result: %result)
  }

  // Prints every element of its operand (a number, scalar or tensor), one
  // line per element: `pid (x, y, z) idx (i, j) prefix: value`; without an
  // operand, `pid (x, y, z) prefix` once per program. Floats print as C's
  // `%f`, integers in decimal, or as `0x..` with `hex`.
  irdl.operation @print {
    %value = irdl.any
    irdl.operands(value: optional %value)
    %prefix = irdl.base "#builtin.string"
    %true = irdl.is true
    %false = irdl.is false
    %hex = irdl.any_of(%true, %false)
    irdl.attributes { "prefix" = %prefix, "hex" = %hex }
  }

  // Stops the kernel with `message` and the op's file:line where any
  // element of `condition` (i1, a scalar or a tensor) is false. Compiled
  // only into modules with the `tile.debug` attribute; elsewhere it is
  // dropped.
  irdl.operation @assert {
    %i1 = irdl.is i1
    %tensor = irdl.base "!builtin.tensor"
    %condition = irdl.any_of(%i1, %tensor)
    irdl.operands(condition: %condition)
    %message = irdl.base "#builtin.string"
    irdl.attributes { "message" = %message }
  }

  // The matrix product a (M x K) times b (K x N) plus acc (M x N), on
  // tensor cores where the types allow. Inputs f16, bf16 or f32 accumulate
  // in f32; i8 accumulates in i32. `input_precision` says how f32 inputs
  // multiply: "tf32", "tf32x3" or "ieee" (other inputs take "ieee").
  irdl.operation @dot {
    %a = irdl.base "!builtin.tensor"
    %b = irdl.base "!builtin.tensor"
    %acc = irdl.base "!builtin.tensor"
    irdl.operands(a: %a, b: %b, acc: %acc)
    %tf32 = irdl.is "tf32"
    %tf32x3 = irdl.is "tf32x3"
    %ieee = irdl.is "ieee"
    %precision = irdl.any_of(%tf32, %tf32x3, %ieee)
    irdl.attributes { "input_precision" = %precision }
    %result = irdl.base "!builtin.tensor"
    irdl.results(result: %result)
  }

  // ---- Layouts (added by the tile-assign-layouts pass) ----

  // A blocked distribution of a tensor over the threads of a program, the
  // encoding of a laid-out tensor type. Per axis: elements each thread holds
  // contiguously, threads of a warp, warps of the program; `order` lists the
  // axes from fastest- to slowest-varying. Tensors larger than the pattern
  // repeat it; smaller ones are held by several threads (replicated).
  irdl.attribute @blocked {
    %size_per_thread = irdl.base "#builtin.dense_array"
    %threads_per_warp = irdl.base "#builtin.dense_array"
    %warps_per_cta = irdl.base "#builtin.dense_array"
    %order = irdl.base "#builtin.dense_array"
    irdl.parameters(size_per_thread: %size_per_thread, threads_per_warp: %threads_per_warp, warps_per_cta: %warps_per_cta, order: %order)
  }

  // The accumulator layout of tensor-core products: `version` 2 for
  // mma.sync, 3 for wgmma; warps along M and N; the columns one
  // instruction gives each warp (8 for mma.sync).
  irdl.attribute @mma {
    %version = irdl.base "#builtin.integer"
    %warps_per_cta = irdl.base "#builtin.dense_array"
    %instr_n = irdl.base "#builtin.integer"
    irdl.parameters(version: %version, warps_per_cta: %warps_per_cta, instr_n: %instr_n)
  }

  // The parent layout with axis `dim` removed: the layout of a tensor that
  // `expand_dims` along `dim` turns into one with the parent layout (and
  // that a reduction along `dim` produces).
  irdl.attribute @slice {
    %dim = irdl.base "#builtin.integer"
    %parent = irdl.any
    irdl.parameters(dim: %dim, parent: %parent)
  }

  // The same tensor in another layout (moved through shared memory where
  // threads must exchange elements).
  irdl.operation @convert_layout {
    %src = irdl.base "!builtin.tensor"
    irdl.operands(src: %src)
    %result = irdl.base "!builtin.tensor"
    irdl.results(result: %result)
  }
}
