//! The same product `C = A @ B` written the ways users write it, each as
//! its Triton original reads (`bench/triton_matmul_styles.py` holds the
//! Python side, line for line):
//!
//! | [`Style`] | how A and B are addressed |
//! | --- | --- |
//! | `BlockPointers` | `make_block_ptr` + `advance` (our first example) |
//! | `Pointers` | Triton's tutorial 03: pointer tensors carried through the K loop, `% M` / `% N` on the rows, a mask on K |
//! | `Recomputed` | offsets rebuilt from the loop index each step, masks on M, N and K |
//! | `TransposedB` | `A @ B^T` with B stored `[N, K]` (nn.Linear's weight): B's tile loaded `[BN, BK]` and `.trans()`ed |
//! | `Batched` | `program_id(1)` over a batch, batch strides, pointers carried |
//! | `SplitK` | `program_id(1)` over slices of K, each slice's product `atomic_add`ed into an f32 C |
//! | `Persistent` | a fixed grid, each program stepping over output tiles by `num_programs` |
//! | `WhileK` | tutorial 03 with its K loop written as `while k < K` |
//!
//! Every style takes the same arguments: `a_ptr`, `b_ptr`, `c_ptr`, then
//! `m`, `n`, `k` (i32), then the strides of A, B and C (i32, in elements;
//! for `TransposedB` B's strides are those of the `[N, K]` storage:
//! `stride_bn`, `stride_bk`), then for `Batched` the batch strides of A, B
//! and C and for `SplitK` nothing more (`program_id(1)` is the slice; the
//! grid's second axis is the number of slices). Launch grids are given by
//! [`grid`].

use tile_dialect::{DType, Kernel, Padding, Result, Tile};

/// How a style kernel is written (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Style {
    /// Block pointers advanced through the K loop.
    BlockPointers,
    /// Tutorial 03: pointer tensors carried and advanced, masked on K.
    Pointers,
    /// Offsets recomputed from the loop index, masked on M, N and K.
    Recomputed,
    /// `A @ B^T`, B stored `[N, K]`, its tile `.trans()`ed.
    TransposedB,
    /// A batch of products, the batch on the grid's second axis.
    Batched,
    /// K split over the grid's second axis, results added atomically.
    SplitK,
    /// A persistent grid stepping over output tiles.
    Persistent,
    /// Tutorial 03 with a `while` K loop.
    WhileK,
}

impl Style {
    /// Every style, in table order.
    pub const ALL: [Style; 8] = [
        Style::BlockPointers,
        Style::Pointers,
        Style::Recomputed,
        Style::TransposedB,
        Style::Batched,
        Style::SplitK,
        Style::Persistent,
        Style::WhileK,
    ];

    /// The style's name on command lines and in tables.
    pub fn name(self) -> &'static str {
        match self {
            Style::BlockPointers => "block_ptr",
            Style::Pointers => "pointers",
            Style::Recomputed => "recomputed",
            Style::TransposedB => "b_transposed",
            Style::Batched => "batched",
            Style::SplitK => "split_k",
            Style::Persistent => "persistent",
            Style::WhileK => "while_k",
        }
    }

    /// The style named `name`.
    pub fn from_name(name: &str) -> Option<Style> {
        Style::ALL.into_iter().find(|s| s.name() == name)
    }
}

/// Tile sizes and the split of one style kernel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StyleConfig {
    /// Rows of C per program.
    pub block_m: i64,
    /// Columns of C per program.
    pub block_n: i64,
    /// K per step.
    pub block_k: i64,
    /// Block-rows of programs sharing columns of B.
    pub group_m: i64,
}

impl Default for StyleConfig {
    fn default() -> Self {
        StyleConfig {
            block_m: 128,
            block_n: 128,
            block_k: 64,
            group_m: 8,
        }
    }
}

/// The launch grid of `style` for an `m x n` product with `config`'s
/// tiles: one program per tile of C on the first axis, times `batch`
/// ([`Style::Batched`]) or `splits` ([`Style::SplitK`]) on the second;
/// at most `programs` programs for [`Style::Persistent`], which loops
/// over the tiles.
pub fn grid(
    style: Style,
    config: &StyleConfig,
    (m, n): (usize, usize),
    batch: u32,
    splits: u32,
    programs: u32,
) -> (u32, u32) {
    let tiles = m.div_ceil(config.block_m as usize) * n.div_ceil(config.block_n as usize);
    let tiles = u32::try_from(tiles).unwrap_or(u32::MAX);
    match style {
        Style::Batched => (tiles, batch),
        Style::SplitK => (tiles, splits),
        Style::Persistent => (tiles.min(programs), 1),
        _ => (tiles, 1),
    }
}

/// The output type of a product of `inputs`: the accumulator's (i32 for
/// i8, f32 otherwise) for f32 and i8 inputs and for [`Style::SplitK`]
/// (which adds into C atomically), else the inputs' type.
pub fn output_type(style: Style, inputs: DType) -> DType {
    match (style, inputs) {
        (_, DType::I8) => DType::I32,
        (Style::SplitK, _) | (_, DType::F32) => DType::F32,
        (_, d) => d,
    }
}

/// The accumulator type of a product of `inputs`.
fn acc_type(inputs: DType) -> DType {
    if inputs == DType::I8 {
        DType::I32
    } else {
        DType::F32
    }
}

/// The kernel of `style` for `inputs` (f16, bf16, f32 as TF32, i8).
pub fn kernel<'c>(
    context: &'c melior::Context,
    style: Style,
    config: StyleConfig,
    inputs: DType,
) -> Result<Kernel<'c>> {
    let name = format!("matmul_{}", style.name());
    let output = output_type(style, inputs);
    Kernel::build(context, &name, |k| {
        let a_ptr = k.arg_ptr("a_ptr", inputs);
        let b_ptr = k.arg_ptr("b_ptr", inputs);
        let c_ptr = k.arg_ptr("c_ptr", output);
        let m = k.arg("m", DType::I32);
        let n = k.arg("n", DType::I32);
        let kk = k.arg("k", DType::I32);
        let names = [
            "stride_am",
            "stride_ak",
            if style == Style::TransposedB {
                "stride_bn"
            } else {
                "stride_bk"
            },
            if style == Style::TransposedB {
                "stride_bk"
            } else {
                "stride_bn"
            },
            "stride_cm",
            "stride_cn",
        ];
        let [s_am, s_ak, s_b0, s_b1, s_cm, s_cn] = names.map(|s| k.arg(s, DType::I32));
        let (s_bk, s_bn) = if style == Style::TransposedB {
            (s_b1, s_b0)
        } else {
            (s_b0, s_b1)
        };
        let ptrs = Ptrs {
            a: a_ptr,
            b: b_ptr,
            c: c_ptr,
        };
        let strides = Strides {
            am: s_am,
            ak: s_ak,
            bk: s_bk,
            bn: s_bn,
            cm: s_cm,
            cn: s_cn,
        };
        let sizes = Sizes { m, n, k: kk };
        match style {
            Style::BlockPointers => {
                let (pid_m, pid_n) = grouped_program(k.program_id(0), m, n, config);
                block_pointers(
                    k, ptrs, strides, sizes, config, pid_m, pid_n, inputs, output,
                );
            }
            Style::Pointers | Style::TransposedB => {
                let (pid_m, pid_n) = grouped_program(k.program_id(0), m, n, config);
                let transposed = style == Style::TransposedB;
                pointers(
                    k, ptrs, strides, sizes, config, pid_m, pid_n, inputs, output, transposed,
                    false,
                );
            }
            Style::WhileK => {
                let (pid_m, pid_n) = grouped_program(k.program_id(0), m, n, config);
                pointers(
                    k, ptrs, strides, sizes, config, pid_m, pid_n, inputs, output, false, true,
                );
            }
            Style::Recomputed => {
                let (pid_m, pid_n) = grouped_program(k.program_id(0), m, n, config);
                recomputed(
                    k, ptrs, strides, sizes, config, pid_m, pid_n, inputs, output,
                );
            }
            Style::Batched => {
                let [s_ab, s_bb, s_cb] =
                    ["stride_ab", "stride_bb", "stride_cb"].map(|s| k.arg(s, DType::I32));
                let batch = k.program_id(1);
                let ptrs = Ptrs {
                    a: a_ptr + batch * s_ab,
                    b: b_ptr + batch * s_bb,
                    c: c_ptr + batch * s_cb,
                };
                let (pid_m, pid_n) = grouped_program(k.program_id(0), m, n, config);
                pointers(
                    k, ptrs, strides, sizes, config, pid_m, pid_n, inputs, output, false, false,
                );
            }
            Style::SplitK => {
                let (pid_m, pid_n) = grouped_program(k.program_id(0), m, n, config);
                split_k(k, ptrs, strides, sizes, config, pid_m, pid_n, inputs);
            }
            Style::Persistent => {
                let tiles = m.cdiv(config.block_m as i32) * n.cdiv(config.block_n as i32);
                let start = k.program_id(0);
                let step = k.num_programs(0);
                k.for_range(start, tiles, step, [], |tile, []| {
                    let (pid_m, pid_n) = grouped_program(tile, m, n, config);
                    pointers(
                        k, ptrs, strides, sizes, config, pid_m, pid_n, inputs, output, false, false,
                    );
                    []
                });
            }
        }
    })
}

/// The three matrices' base pointers.
#[derive(Clone, Copy)]
struct Ptrs<'k> {
    a: Tile<'k>,
    b: Tile<'k>,
    c: Tile<'k>,
}

/// The strides of A ([M, K]), B ([K, N]) and C ([M, N]).
#[derive(Clone, Copy)]
struct Strides<'k> {
    am: Tile<'k>,
    ak: Tile<'k>,
    bk: Tile<'k>,
    bn: Tile<'k>,
    cm: Tile<'k>,
    cn: Tile<'k>,
}

/// M, N and K.
#[derive(Clone, Copy)]
struct Sizes<'k> {
    m: Tile<'k>,
    n: Tile<'k>,
    k: Tile<'k>,
}

/// Tutorial 03's body: pointer tensors carried and advanced, the rows
/// wrapped with `%`, a mask on K. With `transposed_b`, B is stored
/// `[N, K]`: its tile is loaded `[BN, BK]` and `.trans()`ed. With
/// `while_k` the K loop is a `while` on the offset into K.
#[allow(clippy::too_many_arguments)]
fn pointers<'k>(
    k: &'k tile_dialect::KernelBuilder<'k>,
    p: Ptrs<'k>,
    s: Strides<'k>,
    z: Sizes<'k>,
    c: StyleConfig,
    pid_m: Tile<'k>,
    pid_n: Tile<'k>,
    inputs: DType,
    output: DType,
    transposed_b: bool,
    while_k: bool,
) {
    let (bm, bn, bk) = (c.block_m as i32, c.block_n as i32, c.block_k as i32);
    let offs_am = (pid_m * bm + k.arange(0, bm)) % z.m;
    let offs_bn = (pid_n * bn + k.arange(0, bn)) % z.n;
    let offs_k = k.arange(0, bk);
    let a_ptrs = p.a + (offs_am.expand_dims(1) * s.am + offs_k.expand_dims(0) * s.ak);
    let b_ptrs = if transposed_b {
        p.b + (offs_bn.expand_dims(1) * s.bn + offs_k.expand_dims(0) * s.bk)
    } else {
        p.b + (offs_k.expand_dims(1) * s.bk + offs_bn.expand_dims(0) * s.bn)
    };
    let acc = k.zeros(&[c.block_m, c.block_n], acc_type(inputs));
    let step = |acc: Tile<'k>, a_ptrs: Tile<'k>, b_ptrs: Tile<'k>, left: Tile<'k>| {
        let a = k
            .load(a_ptrs)
            .mask(offs_k.expand_dims(0).lt(left))
            .other(0)
            .build();
        let b = if transposed_b {
            k.load(b_ptrs)
                .mask(offs_k.expand_dims(0).lt(left))
                .other(0)
                .build()
                .trans()
        } else {
            k.load(b_ptrs)
                .mask(offs_k.expand_dims(1).lt(left))
                .other(0)
                .build()
        };
        (
            k.dot(a, b).acc(acc).build(),
            a_ptrs + bk * s.ak,
            b_ptrs + bk * s.bk,
        )
    };
    let acc = if while_k {
        let [acc, _, _, _] = k.while_loop(
            [acc, a_ptrs, b_ptrs, k.i32(0)],
            |[_, _, _, at]| at.lt(z.k),
            |[acc, a_ptrs, b_ptrs, at]| {
                let (acc, a_ptrs, b_ptrs) = step(acc, a_ptrs, b_ptrs, z.k - at);
                [acc, a_ptrs, b_ptrs, at + bk]
            },
        );
        acc
    } else {
        let steps = z.k.cdiv(bk);
        let [acc, _, _] = k.for_range(0, steps, 1, [acc, a_ptrs, b_ptrs], |i, [acc, a, b]| {
            let (acc, a, b) = step(acc, a, b, z.k - i * bk);
            [acc, a, b]
        });
        acc
    };
    store_c(k, p.c, s, z, c, pid_m, pid_n, acc.to(output));
}

/// Offsets rebuilt from the loop index each step; masks on M, N and K.
#[allow(clippy::too_many_arguments)]
fn recomputed<'k>(
    k: &'k tile_dialect::KernelBuilder<'k>,
    p: Ptrs<'k>,
    s: Strides<'k>,
    z: Sizes<'k>,
    c: StyleConfig,
    pid_m: Tile<'k>,
    pid_n: Tile<'k>,
    inputs: DType,
    output: DType,
) {
    let (bm, bn, bk) = (c.block_m as i32, c.block_n as i32, c.block_k as i32);
    let offs_m = pid_m * bm + k.arange(0, bm);
    let offs_n = pid_n * bn + k.arange(0, bn);
    let acc = k.zeros(&[c.block_m, c.block_n], acc_type(inputs));
    let steps = z.k.cdiv(bk);
    let [acc] = k.for_range(0, steps, 1, [acc], |i, [acc]| {
        let offs_k = i * bk + k.arange(0, bk);
        let a_ptrs = p.a + offs_m.expand_dims(1) * s.am + offs_k.expand_dims(0) * s.ak;
        let b_ptrs = p.b + offs_k.expand_dims(1) * s.bk + offs_n.expand_dims(0) * s.bn;
        let a_mask = offs_m.expand_dims(1).lt(z.m) & offs_k.expand_dims(0).lt(z.k);
        let b_mask = offs_k.expand_dims(1).lt(z.k) & offs_n.expand_dims(0).lt(z.n);
        let a = k.load(a_ptrs).mask(a_mask).other(0).build();
        let b = k.load(b_ptrs).mask(b_mask).other(0).build();
        [k.dot(a, b).acc(acc).build()]
    });
    store_c(k, p.c, s, z, c, pid_m, pid_n, acc.to(output));
}

/// Block pointers for A, B and C.
#[allow(clippy::too_many_arguments)]
fn block_pointers<'k>(
    k: &'k tile_dialect::KernelBuilder<'k>,
    p: Ptrs<'k>,
    s: Strides<'k>,
    z: Sizes<'k>,
    c: StyleConfig,
    pid_m: Tile<'k>,
    pid_n: Tile<'k>,
    inputs: DType,
    output: DType,
) {
    let (bm, bn, bk) = (c.block_m as i32, c.block_n as i32, c.block_k);
    let a_block = k
        .make_block_ptr(p.a)
        .shape([z.m, z.k])
        .strides([s.am, s.ak])
        .offsets([pid_m * bm, k.i32(0)])
        .block_shape([c.block_m, c.block_k])
        .order([1, 0])
        .build();
    let b_block = k
        .make_block_ptr(p.b)
        .shape([z.k, z.n])
        .strides([s.bk, s.bn])
        .offsets([k.i32(0), pid_n * bn])
        .block_shape([c.block_k, c.block_n])
        .order([1, 0])
        .build();
    let acc = k.zeros(&[c.block_m, c.block_n], acc_type(inputs));
    let steps = z.k.cdiv(bk as i32);
    let [acc, _, _] = k.for_range(0, steps, 1, [acc, a_block, b_block], |_, [acc, a, b]| {
        let a_tile = k
            .load(a)
            .boundary_check(&[0, 1])
            .padding(Padding::Zero)
            .build();
        let b_tile = k
            .load(b)
            .boundary_check(&[0, 1])
            .padding(Padding::Zero)
            .build();
        [
            k.dot(a_tile, b_tile).acc(acc).build(),
            a.advance([0, bk]),
            b.advance([bk, 0]),
        ]
    });
    let c_block = k
        .make_block_ptr(p.c)
        .shape([z.m, z.n])
        .strides([s.cm, s.cn])
        .offsets([pid_m * bm, pid_n * bn])
        .block_shape([c.block_m, c.block_n])
        .order([1, 0])
        .build();
    k.store(c_block, acc.to(output))
        .boundary_check(&[0, 1])
        .build();
}

/// Slice `program_id(1)` of K (`SPLIT` slices of whole steps), added into
/// an f32 C with `atomic_add`.
#[allow(clippy::too_many_arguments)]
fn split_k<'k>(
    k: &'k tile_dialect::KernelBuilder<'k>,
    p: Ptrs<'k>,
    s: Strides<'k>,
    z: Sizes<'k>,
    c: StyleConfig,
    pid_m: Tile<'k>,
    pid_n: Tile<'k>,
    inputs: DType,
) {
    let (bm, bn, bk) = (c.block_m as i32, c.block_n as i32, c.block_k as i32);
    let slice = k.program_id(1);
    let slices = k.num_programs(1);
    let offs_am = (pid_m * bm + k.arange(0, bm)) % z.m;
    let offs_bn = (pid_n * bn + k.arange(0, bn)) % z.n;
    let offs_k = slice * bk + k.arange(0, bk);
    let a_ptrs = p.a + (offs_am.expand_dims(1) * s.am + offs_k.expand_dims(0) * s.ak);
    let b_ptrs = p.b + (offs_k.expand_dims(1) * s.bk + offs_bn.expand_dims(0) * s.bn);
    let acc = k.zeros(&[c.block_m, c.block_n], acc_type(inputs));
    let steps = z.k.cdiv(bk * slices);
    let [acc, _, _] = k.for_range(
        0,
        steps,
        1,
        [acc, a_ptrs, b_ptrs],
        |i, [acc, a_ptrs, b_ptrs]| {
            let left = z.k - (i * slices + slice) * bk;
            let a = k
                .load(a_ptrs)
                .mask(k.arange(0, bk).expand_dims(0).lt(left))
                .other(0)
                .build();
            let b = k
                .load(b_ptrs)
                .mask(k.arange(0, bk).expand_dims(1).lt(left))
                .other(0)
                .build();
            [
                k.dot(a, b).acc(acc).build(),
                a_ptrs + bk * slices * s.ak,
                b_ptrs + bk * slices * s.bk,
            ]
        },
    );
    let offs_cm = pid_m * bm + k.arange(0, bm);
    let offs_cn = pid_n * bn + k.arange(0, bn);
    let c_ptrs = p.c + s.cm * offs_cm.expand_dims(1) + s.cn * offs_cn.expand_dims(0);
    let c_mask = offs_cm.expand_dims(1).lt(z.m) & offs_cn.expand_dims(0).lt(z.n);
    k.atomic_add(c_ptrs, acc).mask(c_mask).build();
}

/// Tutorial 03's store of C through pointer tensors, masked on M and N.
#[allow(clippy::too_many_arguments)]
fn store_c<'k>(
    k: &'k tile_dialect::KernelBuilder<'k>,
    c_ptr: Tile<'k>,
    s: Strides<'k>,
    z: Sizes<'k>,
    c: StyleConfig,
    pid_m: Tile<'k>,
    pid_n: Tile<'k>,
    value: Tile<'k>,
) {
    let (bm, bn) = (c.block_m as i32, c.block_n as i32);
    let offs_cm = pid_m * bm + k.arange(0, bm);
    let offs_cn = pid_n * bn + k.arange(0, bn);
    let c_ptrs = c_ptr + s.cm * offs_cm.expand_dims(1) + s.cn * offs_cn.expand_dims(0);
    let c_mask = offs_cm.expand_dims(1).lt(z.m) & offs_cn.expand_dims(0).lt(z.n);
    k.store(c_ptrs, value).mask(c_mask).build();
}

/// The program's block-row and block-column, `group_m` block-rows at a
/// time (the tutorial's grouped ordering).
fn grouped_program<'k>(
    pid: Tile<'k>,
    m: Tile<'k>,
    n: Tile<'k>,
    c: StyleConfig,
) -> (Tile<'k>, Tile<'k>) {
    let num_pid_m = m.cdiv(c.block_m as i32);
    let num_pid_n = n.cdiv(c.block_n as i32);
    let num_pid_in_group = num_pid_n * c.group_m as i32;
    let group_id = pid / num_pid_in_group;
    let first_pid_m = group_id * c.group_m as i32;
    let group_size_m = (num_pid_m - first_pid_m).minimum(c.group_m as i32);
    let in_group = pid % num_pid_in_group;
    (
        first_pid_m + in_group % group_size_m,
        in_group / group_size_m,
    )
}
