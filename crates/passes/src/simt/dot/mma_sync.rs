//! A product on `mma.sync` (sm_80 and up): `#tile.mma` version 2.
//!
//! Each warp holds 16x8 blocks of the accumulator (warp `w` starts at row
//! `16 * (w % wm)` and column `8 * (w / wm)`; repetitions step by the
//! warps' cover). For each 32 bytes of K (16 f16 or bf16, 8 tf32, 32 i8)
//! and each block it loads fragments from the staged rows and issues one
//! `mma.sync.aligned.m16n8kK.row.col`. In every type, `a`'s fragment is
//! four 32-bit words of rows `g` and `g + 8` at bytes `4t` and `16 + 4t`
//! of the step, and `b`'s two words of row (column of `b`) `g` at those
//! bytes, where `g = lane / 4` and `t = lane % 4`.

use super::super::builder::Val;
use super::super::emit::Emitter;
use super::{A, Operands, Staged, tile_offset};
use crate::pass::PassError;
use melior::dialect::arith;
use melior::ir::attribute::Attribute;
use melior::ir::{Identifier, OperationRef};
use tile_coalesce::{Distribution, Mma};
use tile_dialect::DType;

/// Bytes of K one instruction takes, in every input type.
const STEP_BYTES: i64 = 32;

/// The accumulator after `acc + a @ b` with `mma.sync`.
pub fn product<'c>(
    e: &mut Emitter<'_, 'c>,
    op: &OperationRef<'c, '_>,
    mma: &Mma,
    out: &Distribution,
    s: &Operands<'_>,
    acc: Vec<Val>,
) -> Result<Vec<Val>, PassError> {
    let kind = Kind::of(s.inputs).ok_or_else(|| {
        PassError::at(op, format!("cannot multiply {} on tensor cores", s.inputs))
    })?;
    let attributes = attributes(e, kind);
    let [wm, wn] = mma.warps_per_cta.map(i64::from);
    let [m, n] = [out.shape[0], out.shape[1]];
    let (_, lane, warp) = e.thread();
    let warp_m = e.digit(warp, 0, wm);
    let warp_n = e.digit(warp, wm.trailing_zeros(), wn);
    let g = e.digit(lane, 2, 8);
    let t = e.digit(lane, 0, 4);
    let m_reps = (m / (16 * wm)).max(1);
    let n_reps = (n / (8 * wn)).max(1);
    let eb = s.b.tile.elem_bytes;
    let a = s.a;
    let a_k_major = match a {
        A::Shared(st) => st.k_major,
        A::Registers(_) => true,
    };
    // K in steps of 32 bytes: a K-major tile's narrow rows are padded with
    // zeros to 32 bytes; an MN-major tile (K down its rows) holds exactly K.
    let steps = (s.k * eb + STEP_BYTES - 1) / STEP_BYTES;
    if !(a_k_major && s.b.k_major) && s.k * eb % STEP_BYTES != 0 {
        return Err(PassError::at(
            op,
            format!(
                "multiplies {} with K = {} read down rows of shared memory; mma.sync needs K a multiple of {} there",
                s.inputs,
                s.k,
                STEP_BYTES / eb
            ),
        ));
    }
    // The thread's first row of each block of `a` and of `b`.
    let first = |e: &mut Emitter<'_, 'c>, w: Val, size: i64, warps: i64, rep: i64, extent: i64| {
        let c = e.i32(size);
        let x = e.ir.binary(arith::muli, w, c);
        let c = e.i32(rep * size * warps);
        let x = e.ir.binary(arith::addi, x, c);
        let x = e.ir.binary(arith::addi, x, g);
        wrap(e, x, extent, size * warps)
    };
    let a_rows: Vec<[Val; 2]> = (0..m_reps)
        .map(|r| {
            let r0 = first(e, warp_m, 16, wm, r, m);
            // Row `g + 8` of the same 16: `r0` is below 8 in its block of
            // 16 and `m` a multiple of 16, so it stays inside the tile.
            let eight = e.i32(8);
            [r0, e.ir.binary(arith::addi, r0, eight)]
        })
        .collect();
    let b_rows: Vec<Val> = (0..n_reps).map(|r| first(e, warp_n, 8, wn, r, n)).collect();
    let mut regs = acc;
    for step in 0..steps {
        // Columns (elements of K) of the words at bytes 4t and 16 + 4t.
        let c = e.i32(4 / eb.min(4));
        let lane_col = e.ir.binary(arith::muli, t, c);
        let c = e.i32(step * STEP_BYTES / eb);
        let c0 = e.ir.binary(arith::addi, lane_col, c);
        let c = e.i32(16 / eb);
        let c1 = e.ir.binary(arith::addi, c0, c);
        let load_a = |e: &mut Emitter<'_, 'c>, st: &Staged, rows: &[Val; 2]| {
            [(rows[0], c0), (rows[1], c0), (rows[0], c1), (rows[1], c1)]
                .map(|(r, c)| word(e, st, r, c, kind))
        };
        let load_b = |e: &mut Emitter<'_, 'c>, st: &Staged, row: Val| {
            [(row, c0), (row, c1)].map(|(r, c)| word(e, st, r, c, kind))
        };
        let a_hi: Vec<[Val; 4]> = match a {
            A::Shared(st) => a_rows.iter().map(|r| load_a(e, &st, r)).collect(),
            // The fragments are 32-bit words; f16 products take each as two
            // halves (as `word` types the ones it loads).
            A::Registers(words) => words[step as usize]
                .iter()
                .map(|w| w.map(|x| as_operand(e, x, kind)))
                .collect(),
        };
        let b_hi: Vec<[Val; 2]> = b_rows.iter().map(|&r| load_b(e, &s.b, r)).collect();
        let low = s.low.map(|(a_low, b_low)| {
            let a: Vec<[Val; 4]> = a_rows.iter().map(|r| load_a(e, &a_low, r)).collect();
            let b: Vec<[Val; 2]> = b_rows.iter().map(|&r| load_b(e, &b_low, r)).collect();
            (a, b)
        });
        for mr in 0..m_reps as usize {
            for nr in 0..n_reps as usize {
                let at = (mr * n_reps as usize + nr) * 4;
                let mut c: [Val; 4] = [regs[at], regs[at + 1], regs[at + 2], regs[at + 3]];
                if let Some((a_low, b_low)) = &low {
                    // The small products first.
                    c = instruction(e, &attributes, &a_low[mr], &b_hi[nr], c);
                    c = instruction(e, &attributes, &a_hi[mr], &b_low[nr], c);
                }
                c = instruction(e, &attributes, &a_hi[mr], &b_hi[nr], c);
                regs[at..at + 4].copy_from_slice(&c);
            }
        }
    }
    Ok(regs)
}

/// A 32-bit word `x` typed as the instruction takes an operand of `kind`:
/// two halves for f16, the word itself otherwise.
fn as_operand<'c>(e: &mut Emitter<'_, 'c>, x: Val, kind: Kind) -> Val {
    if kind != Kind::F16 {
        return x;
    }
    let f16 = e.reg_type(DType::F16);
    let ty = e.ir.vector_type(2, f16);
    e.ir.generic("llvm.bitcast", &[x], &[ty], &[])[0]
}

/// Index `x` modulo `extent` where the warps' `cover` exceeds it (extra
/// warps hold copies).
fn wrap<'c>(e: &mut Emitter<'_, 'c>, x: Val, extent: i64, cover: i64) -> Val {
    if cover <= extent {
        return x;
    }
    let mask = e.i32(extent - 1);
    e.ir.binary(arith::andi, x, mask)
}

/// The 32-bit word of operand `st` holding the elements of row (of `a`;
/// column of `b`) `mn` at K = `k ..`, typed as the instruction takes it:
/// one load where K is contiguous, else one load an element, packed.
fn word<'c>(e: &mut Emitter<'_, 'c>, st: &Staged, mn: Val, k: Val, kind: Kind) -> Val {
    let base = e.shared_buffer();
    let i8 = e.ir.int_type(8);
    let i32 = e.ir.int_type(32);
    let f16 = e.reg_type(DType::F16);
    let ty = if kind == Kind::F16 {
        e.ir.vector_type(2, f16)
    } else {
        i32
    };
    if st.k_major {
        let at = tile_offset(e, st, mn, k);
        let p = e.ir.gep(base, at, i8);
        return e.ir.load(p, ty, 4);
    }
    // K runs down the rows: gather the word's elements one by one.
    let eb = st.tile.elem_bytes;
    let elem = e.ir.int_type((eb * 8) as u32);
    let mut word: Option<Val> = None;
    for i in 0..4 / eb {
        let c = e.i32(i);
        let row = e.ir.binary(arith::addi, k, c);
        let at = tile_offset(e, st, row, mn);
        let p = e.ir.gep(base, at, i8);
        let x = e.ir.load(p, elem, eb as u64);
        let x = e.ir.cast(arith::extui, x, i32);
        let x = if i > 0 {
            let shift = e.i32(i * eb * 8);
            e.ir.binary(arith::shli, x, shift)
        } else {
            x
        };
        word = Some(match word {
            None => x,
            Some(w) => e.ir.binary(arith::ori, w, x),
        });
    }
    as_operand(e, word.expect("a word has elements"), kind)
}

/// The PTX types of one instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    F16,
    Bf16,
    Tf32,
    S8,
}

impl Kind {
    fn of(inputs: DType) -> Option<Kind> {
        Some(match inputs {
            DType::F16 => Kind::F16,
            DType::BF16 => Kind::Bf16,
            DType::F32 => Kind::Tf32,
            DType::I8 => Kind::S8,
            _ => return None,
        })
    }

    /// The `#nvvm.mma_type` of both multiplicands.
    fn type_attribute(self) -> &'static str {
        match self {
            Kind::F16 => "#nvvm.mma_type<f16>",
            Kind::Bf16 => "#nvvm.mma_type<bf16>",
            Kind::Tf32 => "#nvvm.mma_type<tf32>",
            Kind::S8 => "#nvvm.mma_type<s8>",
        }
    }

    /// The instruction's `#nvvm.shape`: m16n8 and K of 32 bytes.
    fn shape_attribute(self) -> &'static str {
        match self {
            Kind::F16 | Kind::Bf16 => "#nvvm.shape<m = 16, n = 8, k = 16>",
            Kind::Tf32 => "#nvvm.shape<m = 16, n = 8, k = 8>",
            Kind::S8 => "#nvvm.shape<m = 16, n = 8, k = 32>",
        }
    }
}

/// The attributes of every `nvvm.mma.sync` of `kind`, made once a product
/// (the nvvm attributes have no C API builders: each is parsed from its
/// fixed text).
fn attributes<'c>(e: &Emitter<'_, 'c>, kind: Kind) -> Vec<(Identifier<'c>, Attribute<'c>)> {
    let context = e.types.context();
    let attr = |text: &str| -> Attribute<'c> {
        Attribute::parse(context, text).expect("the nvvm dialect is loaded")
    };
    let ptx_type = attr(kind.type_attribute());
    let mut attributes = vec![
        (
            Identifier::new(context, "layoutA"),
            attr("#nvvm.mma_layout<row>"),
        ),
        (
            Identifier::new(context, "layoutB"),
            attr("#nvvm.mma_layout<col>"),
        ),
        (
            Identifier::new(context, "shape"),
            attr(kind.shape_attribute()),
        ),
        (Identifier::new(context, "multiplicandAPtxType"), ptx_type),
        (Identifier::new(context, "multiplicandBPtxType"), ptx_type),
        (
            Identifier::new(context, "operandSegmentSizes"),
            e.ir.i32_array(&[4, 2, 4]),
        ),
    ];
    if kind == Kind::S8 {
        attributes.push((
            Identifier::new(context, "intOverflowBehavior"),
            attr("#nvvm.mma_int_overflow<wrapped>"),
        ));
    }
    attributes
}

/// `d = a * b + c` for one 16x8 block: `nvvm.mma.sync` with `attributes`.
fn instruction<'c>(
    e: &mut Emitter<'_, 'c>,
    attributes: &[(Identifier<'c>, Attribute<'c>)],
    a: &[Val; 4],
    b: &[Val; 2],
    c: [Val; 4],
) -> [Val; 4] {
    let acc = c[0].ty();
    let result = e.ir.struct_type(&[acc; 4]);
    let operands: Vec<Val> = a.iter().chain(b).chain(&c).copied().collect();
    let d =
        e.ir.generic("nvvm.mma.sync", &operands, &[result], attributes)[0];
    [0, 1, 2, 3].map(|i| e.ir.extract_value(d, i, acc))
}
