//! Atomics: every kind in every type it supports, each lane on its own
//! address (old values and the memory after, masked lanes untouched), then
//! many programs contending for few addresses (adds of 1 must hand out
//! every count exactly once, max/min/and/or/xor reach the combination of
//! all operands, an exchange's old values and final value are the initial
//! value and the operands exactly once, one compare-and-swap wins per
//! address), a scalar pointer (one atomic per program, its old value in
//! every thread), and a tile smaller than the layout (threads hold copies:
//! each element is updated once per program, and every copy reads the old
//! value).

use super::{EXACT, N, Num, check, decode, encode, round};
use crate::gpu_check::Outcome;
use tile::{Arg, AtomicKind, DType, Device, Kernel, MemScope, MemSem};

/// Lanes of each program.
const LANES: i32 = 128;

/// Compiles `kernel`, uploads `buffers`, launches `grid` programs with
/// the buffers then `n`, and returns the buffers' contents.
fn launch(
    device: &Device,
    kernel: &Kernel,
    grid: u32,
    buffers: &[(DType, Vec<Num>)],
) -> Result<Vec<Vec<Num>>, String> {
    let jit = tile::jit(kernel, tile::Options::default()).map_err(|e| e.to_string())?;
    let uploaded = buffers
        .iter()
        .map(|(d, v)| device.upload(&encode(*d, v)))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| e.to_string())?;
    let mut args: Vec<Arg> = uploaded.iter().map(Arg::from).collect();
    args.push(Arg::I32(N as i32));
    jit.launch(device, grid, &args).map_err(|e| e.to_string())?;
    uploaded
        .iter()
        .zip(buffers)
        .map(|(b, (d, _))| {
            device
                .download(b)
                .map(|bytes| decode(*d, &bytes))
                .map_err(|e| e.to_string())
        })
        .collect()
}

/// The reference of one update.
fn apply(kind: AtomicKind, d: DType, old: Num, val: Num) -> Num {
    let v = match (old, val) {
        (Num::Int(a), Num::Int(b)) => Num::Int(match kind {
            AtomicKind::Add => a + b,
            AtomicKind::Max => a.max(b),
            AtomicKind::Min => a.min(b),
            AtomicKind::And => a & b,
            AtomicKind::Or => a | b,
            AtomicKind::Xor => a ^ b,
            AtomicKind::Xchg => b,
        }),
        (a, b) => Num::Float(match kind {
            AtomicKind::Add => a.f() + b.f(),
            AtomicKind::Max => a.f().max(b.f()),
            AtomicKind::Min => a.f().min(b.f()),
            _ => b.f(),
        }),
    };
    round(d, v)
}

/// The types `kind` supports, in sweep order.
fn types(kind: AtomicKind) -> Vec<DType> {
    DType::ALL
        .into_iter()
        .filter(|&d| kind.supports(d))
        .collect()
}

/// Inputs of mixed sign (small integers, or multiples of 1/4).
fn values(d: DType, which: i128, n: usize) -> Vec<Num> {
    (0..n as i128)
        .map(|i| {
            let k = (i * 37 + which * 11) % 23 - 11;
            round(
                d,
                if d.is_float() {
                    Num::Float(k as f64 * 0.25)
                } else {
                    Num::Int(k * 1001 + which)
                },
            )
        })
        .collect()
}

/// One program, each lane on its own address, masked to the first `N`.
fn distinct(context: &melior::Context, device: &Device) -> Vec<(String, Outcome)> {
    let mut out = Vec::new();
    for kind in AtomicKind::ALL {
        for d in types(kind) {
            let kernel = Kernel::build(context, &format!("atomic_{kind}"), |k| {
                let mem = k.arg_ptr("mem", d);
                let val = k.arg_ptr("val", d);
                let old = k.arg_ptr("old", d);
                let n = k.arg("n", DType::I32);
                let offs = k.arange(0, LANES);
                let m = offs.lt(n);
                let v = k.load(val + offs).build();
                let o = k.atomic_rmw(kind, mem + offs, v).mask(m).build();
                k.store(old + offs, o).build();
            });
            let init = values(d, 1, LANES as usize);
            let vals = values(d, 2, LANES as usize);
            let outcome = kernel
                .map_err(|e| e.to_string())
                .and_then(|k| {
                    launch(
                        device,
                        &k,
                        1,
                        &[
                            (d, init.clone()),
                            (d, vals.clone()),
                            (d, vec![Num::Int(7); LANES as usize]),
                        ],
                    )
                })
                .and_then(|got| {
                    let mem_want: Vec<Num> = (0..LANES as usize)
                        .map(|i| {
                            if i < N {
                                apply(kind, d, init[i], vals[i])
                            } else {
                                init[i]
                            }
                        })
                        .collect();
                    let zero = round(d, Num::Int(0));
                    let old_want: Vec<Num> = (0..LANES as usize)
                        .map(|i| if i < N { init[i] } else { zero })
                        .collect();
                    check(d, &got[0], &mem_want, EXACT).map_err(|e| format!("memory: {e}"))?;
                    check(d, &got[2], &old_want, EXACT).map_err(|e| format!("old: {e}"))
                });
            out.push((format!("{kind} {d} distinct lanes"), outcome));
        }
    }
    out
}

/// `programs` programs of `LANES` lanes on `ADDRESSES` addresses.
const ADDRESSES: usize = 8;

/// Many programs on few addresses.
fn contended(context: &melior::Context, device: &Device) -> Vec<(String, Outcome)> {
    let mut out = Vec::new();
    for kind in AtomicKind::ALL {
        for d in types(kind) {
            // Adds of 1 stay exact: at most 256 per address in bf16.
            let programs: usize = if d == DType::BF16 { 16 } else { 64 };
            let total = programs * LANES as usize;
            let per = total / ADDRESSES;
            let kernel = Kernel::build(context, &format!("contended_{kind}"), |k| {
                let mem = k.arg_ptr("mem", d);
                let val = k.arg_ptr("val", d);
                let old = k.arg_ptr("old", d);
                let _n = k.arg("n", DType::I32);
                let lane = k.arange(0, LANES);
                let g = k.program_id(0) * LANES + lane;
                let v = k.load(val + g).build();
                let o = k
                    .atomic_rmw(kind, mem + lane % ADDRESSES as i32, v)
                    .sem(if kind == AtomicKind::Add {
                        MemSem::Relaxed
                    } else {
                        MemSem::AcqRel
                    })
                    .build();
                k.store(old + g, o).build();
            });
            // Counts from 0 stay exact in every type.
            let init = if kind == AtomicKind::Add {
                vec![round(d, Num::Int(0)); ADDRESSES]
            } else {
                values(d, 5, ADDRESSES)
            };
            let vals: Vec<Num> = if kind == AtomicKind::Add {
                vec![round(d, Num::Int(1)); total]
            } else {
                values(d, 3, total)
            };
            let outcome = kernel
                .map_err(|e| e.to_string())
                .and_then(|k| {
                    launch(
                        device,
                        &k,
                        programs as u32,
                        &[
                            (d, init.clone()),
                            (d, vals.clone()),
                            (d, vec![Num::Int(0); total]),
                        ],
                    )
                })
                .and_then(|got| {
                    for a in 0..ADDRESSES {
                        let mine: Vec<usize> = (a..total).step_by(ADDRESSES).collect();
                        let fin = got[0][a];
                        let mut olds: Vec<Num> = mine.iter().map(|&i| got[2][i]).collect();
                        let key = |x: &Num| x.f();
                        olds.sort_by(|x, y| key(x).total_cmp(&key(y)));
                        let expect_final = mine
                            .iter()
                            .fold(init[a], |acc, &i| apply(kind, d, acc, vals[i]));
                        if kind == AtomicKind::Xchg {
                            // Olds and final: the initial value and every
                            // operand, once each.
                            let mut all = olds.clone();
                            all.push(fin);
                            all.sort_by(|x, y| key(x).total_cmp(&key(y)));
                            let mut want: Vec<Num> = mine.iter().map(|&i| vals[i]).collect();
                            want.push(init[a]);
                            want.sort_by(|x, y| key(x).total_cmp(&key(y)));
                            check(d, &all, &want, EXACT)
                                .map_err(|e| format!("address {a}: {e}"))?;
                            continue;
                        }
                        check(d, &[fin], &[expect_final], EXACT)
                            .map_err(|e| format!("address {a} final: {e}"))?;
                        if kind == AtomicKind::Add {
                            // Every count from init to init + per - 1,
                            // handed out once.
                            let want: Vec<Num> = (0..per)
                                .map(|c| apply(kind, d, init[a], round(d, Num::Int(c as i128))))
                                .collect();
                            check(d, &olds, &want, EXACT)
                                .map_err(|e| format!("address {a} olds: {e}"))?;
                        }
                    }
                    Ok(())
                });
            out.push((
                format!("{kind} {d} {programs} programs on {ADDRESSES} addresses"),
                outcome,
            ));
        }
    }
    out
}

/// Compare-and-swap races: per address, the lane whose `cmp` matched
/// won, exactly one, and every other lane saw the winner's value.
fn cas_race(context: &melior::Context, device: &Device) -> Vec<(String, Outcome)> {
    let mut out = Vec::new();
    for d in [DType::I32, DType::I64, DType::F32, DType::F64] {
        let programs = 32usize;
        let total = programs * LANES as usize;
        let kernel = Kernel::build(context, "cas_race", |k| {
            let mem = k.arg_ptr("mem", d);
            let val = k.arg_ptr("val", d);
            let old = k.arg_ptr("old", d);
            let expect = k.arg_ptr("expect", d);
            let _n = k.arg("n", DType::I32);
            let lane = k.arange(0, LANES);
            let g = k.program_id(0) * LANES + lane;
            let v = k.load(val + g).build();
            let init = k.load(expect + lane % ADDRESSES as i32).build();
            let o = k
                .atomic_cas(mem + lane % ADDRESSES as i32, init, v)
                .scope(MemScope::Gpu)
                .build();
            k.store(old + g, o).build();
        });
        let init: Vec<Num> = (0..ADDRESSES)
            .map(|a| round(d, Num::Int(-(a as i128) - 1)))
            .collect();
        let vals: Vec<Num> = (0..total)
            .map(|i| round(d, Num::Int(i as i128 + 1)))
            .collect();
        let outcome = kernel
            .map_err(|e| e.to_string())
            .and_then(|k| {
                launch(
                    device,
                    &k,
                    programs as u32,
                    &[
                        (d, init.clone()),
                        (d, vals.clone()),
                        (d, vec![Num::Int(0); total]),
                        (d, init.clone()),
                    ],
                )
            })
            .and_then(|got| {
                for a in 0..ADDRESSES {
                    let fin = got[0][a];
                    let mine: Vec<usize> = (a..total).step_by(ADDRESSES).collect();
                    // Every lane compares with the initial value: the
                    // first to arrive wins, the others see its value.
                    let winners: Vec<usize> = mine
                        .iter()
                        .copied()
                        .filter(|&i| got[2][i] == init[a])
                        .filter(|&i| vals[i] == fin)
                        .collect();
                    if winners.len() != 1 {
                        return Err(format!(
                            "address {a}: {} lanes won (final {fin:?})",
                            winners.len()
                        ));
                    }
                    if let Some(&i) = mine
                        .iter()
                        .find(|&&i| got[2][i] != init[a] && got[2][i] != fin)
                    {
                        return Err(format!(
                            "address {a}: lane {i} saw {:?}, neither the initial nor the final value",
                            got[2][i]
                        ));
                    }
                }
                Ok(())
            });
        out.push((format!("cas {d} {programs} programs race"), outcome));
    }
    out
}

/// A scalar pointer (one add per program, the old value in every thread)
/// and a 16-element tile under 4 warps (copies; each element added once per
/// program, and every copy's old value right).
fn scalar_and_copies(context: &melior::Context, device: &Device) -> Vec<(String, Outcome)> {
    let programs = 64usize;
    let scalar = Kernel::build(context, "scalar_atomic", |k| {
        let counter = k.arg_ptr("counter", DType::I32);
        let seen = k.arg_ptr("seen", DType::I32);
        let _n = k.arg("n", DType::I32);
        let old = k.atomic_add(counter, 1).build();
        // Every thread's copy, reduced: min and max agree when all hold it.
        let all = old.broadcast_to(&[1, i64::from(LANES)]);
        let lo = all.min(1);
        let hi = all.max(1);
        let pid = k.program_id(0);
        k.store(seen + pid * 2 + k.arange(0, 1), lo).build();
        k.store(seen + pid * 2 + 1 + k.arange(0, 1), hi).build();
    });
    let scalar_outcome = scalar
        .map_err(|e| e.to_string())
        .and_then(|k| {
            launch(
                device,
                &k,
                programs as u32,
                &[
                    (DType::I32, vec![Num::Int(0)]),
                    (DType::I32, vec![Num::Int(-1); 2 * programs]),
                ],
            )
        })
        .and_then(|got| {
            check(DType::I32, &got[0], &[Num::Int(programs as i128)], EXACT)?;
            let mut olds = Vec::new();
            for p in 0..programs {
                let (lo, hi) = (got[1][2 * p], got[1][2 * p + 1]);
                if lo != hi {
                    return Err(format!("program {p}: threads saw {lo:?} to {hi:?}"));
                }
                olds.push(lo.i());
            }
            olds.sort_unstable();
            let want: Vec<i128> = (0..programs as i128).collect();
            if olds != want {
                return Err(format!("old values {olds:?}"));
            }
            Ok(())
        });
    let copies = Kernel::build(context, "copies_atomic", |k| {
        let mem = k.arg_ptr("mem", DType::I32);
        let lows = k.arg_ptr("lows", DType::I32);
        let _n = k.arg("n", DType::I32);
        let offs = k.arange(0, 16);
        let old = k.atomic_add(mem + offs, 1).build();
        // A copy left at zero would pull the minimum down.
        let lo = old.expand_dims(0).min(1);
        let pid = k.program_id(0);
        k.store(lows + pid + k.arange(0, 1), lo).build();
    });
    let copies_outcome = copies
        .map_err(|e| e.to_string())
        .and_then(|k| {
            launch(
                device,
                &k,
                programs as u32,
                &[
                    (DType::I32, vec![Num::Int(1000); 16]),
                    (DType::I32, vec![Num::Int(0); programs]),
                ],
            )
        })
        .and_then(|got| {
            let want = vec![Num::Int(1000 + programs as i128); 16];
            check(DType::I32, &got[0], &want, EXACT).map_err(|e| format!("memory: {e}"))?;
            match got[1].iter().position(|v| v.i() < 1000) {
                Some(p) => Err(format!("program {p}: a copy read {:?}", got[1][p])),
                None => Ok(()),
            }
        });
    vec![
        (
            format!(
                "scalar pointer, {programs} programs: counts 0..{programs} once each, all threads agree"
            ),
            scalar_outcome,
        ),
        (
            format!(
                "16-element tile under 4 warps, {programs} programs: once per program, copies read the old value"
            ),
            copies_outcome,
        ),
    ]
}

/// Every atomic case: `(case, outcome)`.
pub fn atomics(context: &melior::Context, device: &Device) -> Vec<(String, Outcome)> {
    let mut out = distinct(context, device);
    out.extend(contended(context, device));
    out.extend(cas_race(context, device));
    out.extend(scalar_and_copies(context, device));
    out
}
