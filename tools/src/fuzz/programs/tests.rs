//! The judging of `fuzz --programs`: what counts as wrong, and which
//! choices of the generator are invalid.

use super::*;

fn program(expr: Expr) -> Program {
    Program {
        block: 64,
        other: 0.0,
        expr,
        divisor: Some(3),
        loop_: Some((4, 1)),
        loop_stages: Some(3),
        f16_literal: Some(0.25),
        warps: 2,
        stages: 2,
        chip: "sm_90",
        features: "+ptx80",
        n: 10,
    }
}

/// What an exact execution stores: the reference's values, then the
/// guard's poison.
fn stored(p: &Program, xs: &[f32], ys: &[f32]) -> Vec<f32> {
    let mut out: Vec<f32> = (0..xs.len())
        .map(|i| p.expected(i, xs[i], ys[i]).v as f32)
        .collect();
    out.extend([POISON; GUARD]);
    out
}

#[test]
fn an_element_two_ulps_off_is_wrong_and_the_exact_one_is_not() {
    // One rounding: the bound is one ulp.
    let p = Program {
        divisor: None,
        loop_: None,
        f16_literal: None,
        ..program(Expr::Add(Box::new(Expr::X), Box::new(Expr::Y)))
    };
    let xs: Vec<f32> = (0..10).map(|i| i as f32 * 0.37 - 1.0).collect();
    let ys: Vec<f32> = (0..10).map(|i| 2.0 - i as f32 * 0.11).collect();
    let mut out = stored(&p, &xs, &ys);
    assert!(check_output(&p, &xs, &ys, &out).is_ok());
    out[7] = f32::from_bits(out[7].to_bits() + 2);
    assert!(matches!(
        check_output(&p, &xs, &ys, &out),
        Err(Failure::Wrong(_))
    ));
}

#[test]
fn a_write_past_n_is_wrong() {
    let p = program(Expr::X);
    let xs = [1.0f32; 10];
    let mut out = stored(&p, &xs, &xs);
    out[10 + GUARD / 2] = 0.0;
    match check_output(&p, &xs, &xs, &out) {
        Err(Failure::Wrong(e)) => assert!(e.contains("past n"), "{e}"),
        _ => panic!("a write past n went unseen"),
    }
}

#[test]
fn min_taken_for_max_is_wrong() {
    let p = program(Expr::Min(Box::new(Expr::X), Box::new(Expr::Y)));
    let xs = [1.0f32, -2.0, 3.0];
    let ys = [0.5f32, -1.0, 4.0];
    let swapped = program(Expr::Max(Box::new(Expr::X), Box::new(Expr::Y)));
    let out = stored(&swapped, &xs, &ys);
    assert!(matches!(
        check_output(&p, &xs, &ys, &out),
        Err(Failure::Wrong(_))
    ));
}

#[test]
fn the_generators_invalid_choices_are_each_named() {
    let valid = program(Expr::X);
    assert_eq!(valid.invalid(), None);
    type Change = fn(&mut Program);
    let cases: [(&str, Change); 11] = [
        ("block", |p| p.block = 3),
        ("tile-size", |p| p.block = 1 << 21),
        ("warps", |p| p.warps = 64),
        ("chip", |p| p.chip = "sm_75"),
        ("PTX", |p| p.features = "+ptx60"),
        ("remainder", |p| p.divisor = Some(0)),
        ("step", |p| p.loop_ = Some((3, 0))),
        ("f16", |p| p.f16_literal = Some(1e10)),
        ("num_stages", |p| p.stages = 9),
        ("num_stages", |p| p.stages = 0),
        ("loop's stages", |p| p.loop_stages = Some(0)),
    ];
    for (word, change) in cases {
        let mut p = program(Expr::X);
        change(&mut p);
        let why = p.invalid().unwrap_or_else(|| panic!("{word}: not invalid"));
        assert!(why.contains(word), "{word}: {why}");
    }
}
