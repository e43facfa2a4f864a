use super::*;
use crate::asm::assemble;
use crate::machine::{ElemType, Memory};
use alloc::format;

/// Runs straight-line code on all lanes of a 4-lane warp with R0 = lane.
fn run(src: &str, memory: Memory) -> Machine {
    let (p, d) = assemble(src);
    assert!(d.is_empty(), "{d:?}");
    let mut m = Machine::new(4, 16, memory);
    for l in 0..4 {
        m.set_reg(l, Reg(0), l);
    }
    for i in &p.instrs {
        let all = m.all_lanes();
        execute(&mut m, i, all).unwrap();
    }
    m
}

#[test]
fn integer_ops() {
    let m = run("IADD R1, R0, -0x1\nIMAD R2, R0, 0x3, R1\nISCADD R3, R0, 0x100, 0x2\nSHR R4, R1, 0x1\nSHR.U32 R5, R1, 0x1c\nIMUL.HI.U32 R6, R1, 0x10\n", Memory::default());
    assert_eq!(m.reg(0, Reg(1)), u32::MAX);
    assert_eq!(m.reg(2, Reg(2)), 7);
    assert_eq!(m.reg(3, Reg(3)), 0x10c);
    assert_eq!(m.reg(0, Reg(4)), u32::MAX, "arithmetic shift keeps the sign");
    assert_eq!(m.reg(0, Reg(5)), 0xf);
    assert_eq!(m.reg(0, Reg(6)), 0xf);
}

#[test]
fn predicates_and_select() {
    let m = run(
        "ISETP.GE.AND P0, P1, R0, 0x2, PT\nSEL R1, 0x7, 0x9, P0\n@P1 IADD R2, R2, 0x1\nISETP.LT.U32.AND P2, PT, R1, -0x1, PT\n",
        Memory::default(),
    );
    assert_eq!((m.reg(1, Reg(1)), m.reg(2, Reg(1))), (9, 7));
    assert_eq!((m.reg(1, Reg(2)), m.reg(2, Reg(2))), (1, 0), "guard masks the lanes off");
    assert!(m.pred(0, Pred(2)), "unsigned compare: 9 < 0xffffffff");
}

#[test]
fn float_ops_and_logic() {
    let m = run("MOV R1, 1.5\nFFMA R2, R1, 2, 0.25\nFADD R3, R2, -R1\nFSETP.GT.AND P0, PT, R3, 1.7, PT\nLOP3.LUT R4, R0, 0x3, RZ, 0xc0, !PT\nLOP.XOR R5, R0, ~RZ\n", Memory::default());
    assert_eq!(f32::from_bits(m.reg(0, Reg(2))), 3.25);
    assert_eq!(f32::from_bits(m.reg(0, Reg(3))), 1.75);
    assert!(m.pred(0, Pred(0)));
    assert_eq!(m.reg(3, Reg(4)), 3, "0xc0 is a AND b");
    assert_eq!(m.reg(1, Reg(5)), !1);
}

#[test]
fn loads_stores_and_clock() {
    let mut mem = Memory::default();
    let base = mem.add("a", ElemType::I32, alloc::vec![10, 20, 30, 40, 0, 0, 0, 0]);
    let src = alloc::format!("ISCADD R1, R0, {base:#x}, 0x2\nLD R2, [R1]\nST [R1+0x10], R2\nLD.64 R4, [R1+-0x0]\nCS2R R6, SR_CLOCKLO\n");
    let mut m = run(&src.replace("LD.64 R4, [R1+-0x0]", "NOP"), mem);
    assert_eq!(m.memory.buffer("a").unwrap().1, [10, 20, 30, 40, 10, 20, 30, 40]);
    m.clock = 5;
    let (p, _) = assemble("LD.64 R8, [R1]\nCS2R R10, SR_CLOCKLO\nLD R3, [R1+0x100]\n");
    execute(&mut m, &p.instrs[0], LaneMask(1)).unwrap();
    execute(&mut m, &p.instrs[1], LaneMask(1)).unwrap();
    assert_eq!((m.reg(0, Reg(8)), m.reg(0, Reg(9)), m.reg(0, Reg(10))), (10, 20, 5));
    assert!(matches!(execute(&mut m, &p.instrs[2], LaneMask(1)), Err(ExecError::Access(_, e)) if e.contains("lane 0")));
}

/// The row-wise data path against plain per-lane arithmetic, at widths either side of the
/// 32- and 64-slot row sizes (padding slots must never leak into lanes or predicates).
#[test]
fn every_width_matches_per_lane_arithmetic() {
    let src = "S2R R0, SR_LANEID\nIMAD R1, R0, 0x3, -0x7\nISETP.GT.AND P0, P1, R1, 0x10, PT\n@P0 IADD R2, R1, -R0\n@!P0 MOV R2, 0x63\n\
               ISETP.NE.U32.OR P2, PT, R0, 0x5, P0\nSEL R3, R0, R1, P2\nFADD R4, -R0, 1.5\nFSETP.LT.AND P3, PT, R4, -10.0, PT\n";
    let (p, d) = assemble(src);
    assert!(d.is_empty(), "{d:?}");
    for width in [1, 2, 7, 31, 32, 33, 40, 63, 64] {
        let mut m = Machine::new(width, 8, Memory::default());
        // Only some lanes run: the others must keep their (zero) registers.
        let mask = LaneMask(m.all_lanes().0 & 0xf0f0_f0f0_f0f0_f0ff);
        for i in &p.instrs {
            execute(&mut m, i, mask).unwrap();
        }
        for l in 0..width {
            let on = mask.contains(l);
            let r1 = (l as i32 * 3 - 7) as u32;
            let p0 = (r1 as i32) > 0x10;
            let r2 = if p0 { r1.wrapping_sub(l) } else { 0x63 };
            let p2 = l != 5 || p0;
            let r4 = (-f32::from_bits(l) + 1.5).to_bits(); // R0 holds integer bits
            let want = if on { [l, r1, r2, if p2 { l } else { r1 }, r4] } else { [0; 5] };
            let got = [0, 1, 2, 3, 4].map(|r| m.reg(l, Reg(r)));
            assert_eq!(got, want, "width {width} lane {l}");
            let preds = [0, 1, 2, 3].map(|p| m.pred(l, Pred(p)));
            let want_preds = if on { [p0, !p0, p2, f32::from_bits(r4) < -10.0] } else { [false; 4] };
            assert_eq!(preds, want_preds, "width {width} lane {l}");
        }
        assert_eq!(m.preds.iter().fold(0, |a, p| a | p.0) & !m.all_lanes().0, 0, "width {width}: a predicate set a padding slot");
    }
}

/// Assembles `src` (which must be clean) into its instructions.
fn code(src: &str) -> alloc::vec::Vec<Instruction> {
    let (p, d) = assemble(src);
    assert!(d.is_empty(), "{src}: {d:?}");
    p.instrs
}

/// A warp of `width` lanes with R0 = `r0(lane)`, running `src` on the lanes of `mask`.
fn run_on(width: u32, mask: LaneMask, r0: impl Fn(u32) -> u32, src: &str) -> Result<Machine, ExecError> {
    let mut m = Machine::new(width, 16, Memory::default());
    for l in 0..width {
        m.set_reg(l, Reg(0), r0(l));
    }
    for i in &code(src) {
        execute(&mut m, i, mask)?;
    }
    Ok(m)
}

/// A small deterministic pseudo-random sequence (xorshift), for test values.
fn values(seed: u32, n: usize) -> alloc::vec::Vec<u32> {
    let mut x = seed | 1;
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            x
        })
        .collect()
}

/// CUDA's shuffles in the words of the programming guide, with `w` the `width` argument: the
/// reference for `SHFL`'s PTX lane arithmetic. `None`: the lane keeps its own value.
fn cuda_shfl(mode: &str, lane: u32, b: u32, w: u32) -> Option<u32> {
    let base = lane / w * w;
    match mode {
        "IDX" => Some(base + b % w),
        "UP" => (lane - base >= b).then(|| lane - b),
        "DOWN" => (lane - base + b < w).then(|| lane + b),
        _ => ((lane ^ b) < base + w).then_some(lane ^ b),
    }
}

#[test]
fn shuffles_match_cudas_definitions() {
    for width in [8, 32, 64] {
        let vals = values(width, width as usize);
        // All lanes, then every third lane off (their values must not be read).
        for mask in [LaneMask::full(width), LaneMask(LaneMask::full(width).0 & !0x4924_9249_2492_4924)] {
            for mode in ["IDX", "UP", "DOWN", "BFLY"] {
                for w in [2, 4, 8, 16, 32] {
                    for b in [0, 1, 3, 5, 16, 31] {
                        let c = ((32 - w) << 8) | if mode == "UP" { 0 } else { 0x1f };
                        let src = format!("SHFL.{mode} P1, R1, R0, {b:#x}, {c:#x}\n");
                        let m = run_on(width, mask, |l| vals[l as usize], &src).unwrap();
                        for l in mask.iter() {
                            let half = l & !31;
                            let want_src = cuda_shfl(mode, l - half, b, w).map(|j| j + half);
                            let want = want_src.filter(|&j| mask.contains(j)).map_or(vals[l as usize], |j| vals[j as usize]);
                            let what = format!("width {width} mask {mask:?} {src} lane {l}");
                            assert_eq!(m.reg(l, Reg(1)), want, "{what}");
                            assert_eq!(m.pred(l, Pred(1)), want_src.is_some(), "{what}: in range");
                        }
                        for l in (0..width).filter(|&l| !mask.contains(l)) {
                            assert_eq!((m.reg(l, Reg(1)), m.pred(l, Pred(1))), (0, false), "lane {l} did not run");
                        }
                    }
                }
            }
        }
    }
}

#[test]
fn a_shuffle_reads_every_source_before_any_lane_writes() {
    // Rotating R0 in place: each lane must read its neighbour's old value.
    let mut m = Machine::new(4, 4, Memory::default());
    for l in 0..4 {
        m.set_reg(l, Reg(0), 10 + l);
        m.set_reg(l, Reg(1), (l + 1) % 4);
    }
    execute(&mut m, &code("SHFL.IDX PT, R0, R0, R1, 0x1f\n")[0], LaneMask::full(4)).unwrap();
    assert_eq!([0, 1, 2, 3].map(|l| m.reg(l, Reg(0))), [11, 12, 13, 10]);
}

#[test]
fn votes_match_a_count_of_the_running_lanes() {
    for width in [5, 32, 64] {
        let vals = values(width + 7, width as usize);
        for mask in [LaneMask::full(width), LaneMask(LaneMask::full(width).0 & 0x0f0f_3333_5555_ffff)] {
            let src =
                "LOP.AND R1, R0, 0x1\nISETP.NE.AND P0, PT, R1, RZ, PT\nVOTE.ALL R2, P1, P0\nVOTE.ANY R3, P2, !P0\nVOTE.EQ R4, P3, P0\n";
            let m = run_on(width, mask, |l| vals[l as usize], src).unwrap();
            for l in mask.iter() {
                let group: alloc::vec::Vec<u32> = mask.iter().filter(|&k| k & !31 == l & !31).collect();
                let odd: alloc::vec::Vec<u32> = group.iter().copied().filter(|&k| vals[k as usize] & 1 == 1).collect();
                let ballot = odd.iter().fold(0u32, |a, &k| a | 1 << (k & 31));
                let even_ballot = group.iter().filter(|&&k| vals[k as usize] & 1 == 0).fold(0u32, |a, &k| a | 1 << (k & 31));
                let what = format!("width {width} mask {mask:?} lane {l}");
                assert_eq!((m.reg(l, Reg(2)), m.reg(l, Reg(3)), m.reg(l, Reg(4))), (ballot, even_ballot, ballot), "{what}");
                let all = odd.len() == group.len();
                assert_eq!([1, 2, 3].map(|p| m.pred(l, Pred(p))), [all, odd.len() < group.len(), all || odd.is_empty()], "{what}");
            }
        }
    }
    // `__activemask()`.
    let m = run_on(8, LaneMask(0b1011_0110), |_| 0, "VOTE.ANY R1, PT, PT\n").unwrap();
    assert_eq!(m.reg(1, Reg(1)), 0b1011_0110);
}

#[test]
fn a_member_mask_must_name_only_running_lanes() {
    let full = "SHFL.DOWN PT, R1, R0, 0x1, 0x1f, 0xffffffff\n";
    assert!(run_on(8, LaneMask::full(8), |l| l, full).is_ok(), "mask bits past the warp width name no lane");
    let Err(ExecError::Members(f)) = run_on(8, LaneMask(0x0f), |l| l, full) else { panic!() };
    assert_eq!((f.mask, f.named, f.missing, f.guarded_off), (u32::MAX, LaneMask(0xff), LaneMask(0xf0), LaneMask::EMPTY));
    // Lanes issued with it but guarded off are missing too, and said to be here.
    let Err(ExecError::Members(f)) = run_on(4, LaneMask(0xf), |l| l, "ISETP.LT.AND P0, PT, R0, 0x2, PT\n@P0 VOTE.ALL R1, PT, PT, 0x7\n")
    else {
        panic!()
    };
    assert_eq!((f.missing, f.guarded_off), (LaneMask(0x4), LaneMask(0x4)));
    // A mask in a register, each lane's own; WARPSYNC checks the same way.
    assert!(run_on(4, LaneMask(0x3), |_| 3, "WARPSYNC R0\nVOTE.ANY R1, PT, PT, R0\n").is_ok());
    assert!(matches!(run_on(4, LaneMask(0x3), |_| 7, "WARPSYNC R0\n"), Err(ExecError::Members(f)) if f.missing == LaneMask(0x4)));
    // In a 64-lane warp a mask names lanes of the executing lane's half.
    assert!(run_on(64, LaneMask(0xffff_0000_0000_0000), |_| 0, "VOTE.ANY R1, PT, PT, 0xffff0000\n").is_ok());
}

#[test]
fn bit_counts_and_reversal() {
    let vals = values(3, 64).into_iter().chain([0, 1, u32::MAX, 0x8000_0000, 0x7fff_ffff]).collect::<alloc::vec::Vec<_>>();
    let m = run_on(
        vals.len().min(64) as u32,
        LaneMask::full(64),
        |l| vals[l as usize],
        "POPC R1, R0\nFLO.U32 R2, R0\nFLO.S32 R3, R0\nFLO.U32.SH R4, R0\nBREV R5, R0\n",
    )
    .unwrap();
    for (l, &x) in vals.iter().enumerate().take(64) {
        let l = l as u32;
        let highest = |v: u32| (0..32).rev().find(|&k| v >> k & 1 == 1);
        let flo_u = highest(x).unwrap_or(u32::MAX);
        let flo_s = highest(if (x as i32) < 0 { !x } else { x }).unwrap_or(u32::MAX);
        let brev = (0..32).fold(0u32, |a, k| a | (x >> k & 1) << (31 - k));
        // `.SH`: the leading zeros, but 0xffffffff (as without it) for zero.
        let clz = if x == 0 { u32::MAX } else { (0..32).take_while(|&k| x >> (31 - k) & 1 == 0).count() as u32 };
        let got = [1, 2, 3, 4, 5].map(|r| m.reg(l, Reg(r)));
        assert_eq!(got, [(0..32).filter(|k| x >> k & 1 == 1).count() as u32, flo_u, flo_s, clz, brev], "{x:#x}");
    }
}

#[test]
fn min_max_and_division_against_wide_arithmetic() {
    let a = values(11, 32);
    let b: alloc::vec::Vec<u32> = values(17, 32).into_iter().enumerate().map(|(i, v)| [v, v % 7, 0, u32::MAX][i % 4]).collect();
    let mut m = Machine::new(32, 16, Memory::default());
    for l in 0..32 {
        m.set_reg(l, Reg(0), if l == 7 { i32::MIN as u32 } else { a[l as usize] });
        m.set_reg(l, Reg(1), b[l as usize]);
    }
    let src = "ISETP.LT.AND P0, PT, R0, RZ, PT\nIMNMX R2, R0, R1, P0\nIMNMX.U32 R3, R0, R1, !P0\nIDIV.S32 R4, R0, R1\nIREM.S32 R5, R0, R1\nIDIV.U32 R6, R0, R1\nIREM.U32 R7, R0, R1\n";
    for i in &code(src) {
        let all = m.all_lanes();
        execute(&mut m, i, all).unwrap();
    }
    for l in 0..32 {
        let (x, y) = (m.reg(l, Reg(0)), b[l as usize]);
        let (sx, sy) = (x as i32 as i64, y as i32 as i64);
        let neg = sx < 0;
        let smin = if neg { sx.min(sy) } else { sx.max(sy) } as u32;
        let umax = if neg { x.max(y) } else { x.min(y) };
        let (sq, sr) = if y == 0 { (u32::MAX, u32::MAX) } else { ((sx / sy) as u32, (sx % sy) as u32) };
        let (uq, ur) = (x.checked_div(y).unwrap_or(u32::MAX), x.checked_rem(y).unwrap_or(u32::MAX));
        let got = [2, 3, 4, 5, 6, 7].map(|r| m.reg(l, Reg(r)));
        assert_eq!(got, [smin, umax, sq, sr, uq, ur], "lane {l}: {x:#x}, {y:#x}");
    }
    // INT_MIN / -1 wraps (lane 7 divides by -1: the i64 quotient above, 2^31, has INT_MIN's low bits).
    assert_eq!((b[7], m.reg(7, Reg(4)), m.reg(7, Reg(5))), (u32::MAX, i32::MIN as u32, 0));
}

#[test]
fn float_min_max_rounding_and_special_functions() {
    let f = |x: f32| x.to_bits();
    let xs = [2.5f32, -2.5, 3.5, -1.5, 0.5, f32::NAN, 4.0, -0.7];
    let m = run_on(
        8,
        LaneMask::full(8),
        |l| f(xs[l as usize]),
        "FMNMX R1, R0, 1.0, PT\nFMNMX R2, R0, 1.0, !PT\nFRND R3, R0\nFRND.FLOOR R4, R0\nFRND.CEIL R5, R0\nFRND.TRUNC R6, R0\n",
    )
    .unwrap();
    let even = [2.0, -2.0, 4.0, -2.0, 0.0, f32::NAN, 4.0, -1.0];
    for (l, &x) in xs.iter().enumerate() {
        let l = l as u32;
        let got = [1, 2, 3, 4, 5, 6].map(|r| f32::from_bits(m.reg(l, Reg(r))));
        let nan_loses = |v: f32| if x.is_nan() { 1.0 } else { v };
        let want = [
            nan_loses(x.min(1.0)),
            nan_loses(x.max(1.0)),
            even[l as usize],
            (x as f64).floor() as f32,
            (x as f64).ceil() as f32,
            (x as f64).trunc() as f32,
        ];
        for (g, w) in got.iter().zip(want) {
            assert!(g.to_bits() == w.to_bits() || (g.is_nan() && w.is_nan()), "lane {l} ({x}): {got:?} vs {want:?}");
        }
    }
    let m = run_on(
        1,
        LaneMask(1),
        |_| 0,
        "MUFU.RCP R1, 4.0\nMUFU.RSQ R2, 4.0\nMUFU.SQRT R3, 2.0\nMUFU.EX2 R4, 3.0\nMUFU.LG2 R5, 8.0\nMUFU.SIN R6, 1.0\nMUFU.COS R7, 1.0\n",
    )
    .unwrap();
    let got = [1, 2, 3, 4, 5, 6, 7].map(|r| f32::from_bits(m.reg(0, Reg(r))) as f64);
    let want = [0.25, 0.5, 2f64.sqrt(), 8.0, 3.0, 1f64.sin(), 1f64.cos()];
    for (g, w) in got.iter().zip(want) {
        assert!((g - w).abs() <= 1e-6 * w.abs().max(1.0), "{got:?} vs {want:?}");
    }
}

#[test]
fn atomics_update_in_lane_order() {
    type Update = fn(u32, u32) -> u32;
    let ops: [(&str, Update); 10] = [
        ("ADD", |o, b| o.wrapping_add(b)),
        ("MIN", |o, b| (o as i32).min(b as i32) as u32),
        ("MIN.U32", |o, b| o.min(b)),
        ("MAX", |o, b| (o as i32).max(b as i32) as u32),
        ("MAX.U32", |o, b| o.max(b)),
        ("AND", |o, b| o & b),
        ("OR", |o, b| o | b),
        ("XOR", |o, b| o ^ b),
        ("INC", |o, b| if o >= b { 0 } else { o + 1 }),
        ("DEC", |o, b| if o == 0 || o > b { b } else { o - 1 }),
    ];
    let bs = [5u32, 0xffff_fff0, 3, 7, 0, 2, 9, 1];
    for (name, f) in ops {
        for shared in [false, true] {
            let mut mem = Memory::default();
            let base =
                if shared { mem.add_shared("s", ElemType::U32, alloc::vec![4, 6]) } else { mem.add("g", ElemType::U32, alloc::vec![4, 6]) };
            let mut m = Machine::new(8, 8, mem);
            for l in 0..8 {
                m.set_reg(l, Reg(0), base + 4 * (l % 2));
                m.set_reg(l, Reg(1), bs[l as usize]);
            }
            let op = if shared { "ATOMS" } else { "ATOM" };
            execute(&mut m, &code(&format!("{op}.{name} R2, [R0], R1\n"))[0], LaneMask::full(8)).unwrap();
            let mut words = [4u32, 6];
            for l in 0..8 {
                let w = &mut words[l % 2];
                assert_eq!(m.reg(l as u32, Reg(2)), *w, "{op}.{name} lane {l} gets the old value");
                *w = f(*w, bs[l]);
            }
            assert_eq!(m.memory.words[0], words, "{op}.{name}");
        }
    }
    let mut mem = Memory::default();
    let base = mem.add("f", ElemType::F32, alloc::vec![1.5f32.to_bits()]);
    let mut m = Machine::new(4, 4, mem);
    for l in 0..4 {
        m.set_reg(l, Reg(0), base);
    }
    execute(&mut m, &code("ATOMG.E.ADD.F32.FTZ.RN PT, R2, [R0], 0.25\n")[0], LaneMask::full(4)).unwrap();
    assert_eq!(f32::from_bits(m.memory.words[0][0]), 2.5);
    assert_eq!(f32::from_bits(m.reg(3, Reg(2))), 2.25);
}

#[test]
fn shared_and_global_addresses_are_apart() {
    let mut mem = Memory::default();
    let g = mem.add("g", ElemType::I32, alloc::vec![1, 2, 3, 4]);
    let s = mem.add_shared("s", ElemType::I32, alloc::vec![0; 4]);
    let mut m = Machine::new(4, 8, mem);
    for l in 0..4 {
        m.set_reg(l, Reg(0), g + 4 * l);
        m.set_reg(l, Reg(1), s + 4 * l);
    }
    for i in &code("LDG R2, [R0]\nSTS [R1], R2\nLDS R3, [R1]\nATOMS.ADD R4, [R1], 0x10\n") {
        let all = m.all_lanes();
        execute(&mut m, i, all).unwrap();
    }
    assert_eq!(m.memory.buffer("s").unwrap().1, [17, 18, 19, 20]);
    assert_eq!((m.reg(2, Reg(3)), m.mem_instructions), (3, 1), "shared accesses are not global transactions");
    // Generic LD/ST/ATOM reach either space, as CUDA's generic addressing does.
    for i in &code("LD R5, [R1]\nST [R0], R5\nATOM.ADD R6, [R1], 0x1\n") {
        let all = m.all_lanes();
        execute(&mut m, i, all).unwrap();
    }
    assert_eq!((m.reg(0, Reg(5)), m.reg(0, Reg(6))), (17, 17));
    assert_eq!((m.memory.buffer("g").unwrap().1[0], m.memory.buffer("s").unwrap().1[0]), (17, 18));
    for (line, want) in [
        ("LDG R2, [R1]", "in shared memory, but the instruction accesses global memory (LDS/STS/ATOMS"),
        ("STG [R1], R2", "in shared memory"),
        ("ATOMG.ADD R2, [R1], 0x1", "in shared memory"),
        ("LDS R2, [R0]", "in global memory, but the instruction accesses shared memory (LDG/STG/ATOMG"),
        ("STS [R0], R2", "in global memory"),
        ("ATOMS.EXCH R2, [R0], 0x1", "in global memory"),
    ] {
        let Err(ExecError::Access(_, e)) = execute(&mut m, &code(&format!("{line}\n"))[0], LaneMask(1)) else { panic!("{line}") };
        assert!(e.contains(want) && e.contains("lane 0"), "{line}: {e}");
    }
}

#[test]
fn special_registers_read_the_launch() {
    let mut m = Machine::new(32, 12, Memory::default());
    m.launch = crate::machine::Launch { grid: [4, 3, 2], block: [8, 6, 2], block_idx: [3, 1, 0], first_thread: 64 };
    let src = "S2R R0, SR_TID.X\nS2R R1, SR_TID.Y\nS2R R2, SR_TID.Z\nS2R R3, SR_NTID.Y\nS2R R4, SR_CTAID.X\nS2R R5, SR_NCTAID.Z\nS2R R6, SR_LANEID\n";
    for i in &code(src) {
        let all = m.all_lanes();
        execute(&mut m, i, all).unwrap();
    }
    for l in 0..32 {
        let t = 64 + l; // warp 2 of a block of 96 threads
        let got = [0, 1, 2, 3, 4, 5, 6].map(|r| m.reg(l, Reg(r)));
        assert_eq!(got, [t % 8, t / 8 % 6, t / 48, 6, 3, 2, l], "lane {l}");
    }
    // A single-warp launch reads as before: the lane, the width, zeros.
    let m = run_on(
        8,
        LaneMask::full(8),
        |_| 0,
        "S2R R1, SR_TID.X\nS2R R2, SR_NTID.X\nS2R R3, SR_TID.Y\nS2R R4, SR_CTAID.X\nS2R R5, SR_NCTAID.X\n",
    )
    .unwrap();
    assert_eq!([1, 2, 3, 4, 5].map(|r| m.reg(5, Reg(r))), [5, 8, 0, 0, 1]);
}

/// A warp of `n` lanes with the pairs R0:R1 = `a[lane]` and R2:R3 = `b[lane]`.
fn with_pairs(a: &[u64], b: &[u64]) -> Machine {
    let mut m = Machine::new(a.len() as u32, 24, Memory::default());
    for l in 0..a.len() {
        let l32 = l as u32;
        m.set_reg(l32, Reg(0), a[l] as u32);
        m.set_reg(l32, Reg(1), (a[l] >> 32) as u32);
        m.set_reg(l32, Reg(2), b[l] as u32);
        m.set_reg(l32, Reg(3), (b[l] >> 32) as u32);
    }
    m
}

fn pair(m: &Machine, lane: u32, r: u8) -> u64 {
    (m.reg(lane, Reg(r + 1)) as u64) << 32 | m.reg(lane, Reg(r)) as u64
}

fn run_all(m: &mut Machine, src: &str) {
    for i in &code(src) {
        let all = LaneMask::full(m.width);
        execute(m, i, all).unwrap();
    }
}

#[test]
fn sixty_four_bit_adds_subtracts_multiplies_and_shifts_match_u64() {
    let a: alloc::vec::Vec<u64> =
        values(5, 32).chunks(2).map(|w| (w[0] as u64) << 32 | w[1] as u64).chain([0, u64::MAX, 1 << 32, 7]).collect();
    let b: alloc::vec::Vec<u64> = values(9, 32).chunks(2).map(|w| (w[0] as u64) << 32 | w[1] as u64).chain([0, 1, 1, 0]).collect();
    let mut m = with_pairs(&a, &b);
    // R4:R5 = a + b, R6:R7 = a - b, R8:R9 = lo(a) * lo(b) + b (signed and unsigned), R12.. shifts.
    run_all(
        &mut m,
        "IADD3 R4, P0, R0, R2, RZ\nIADD3.X R5, R1, R3, RZ, P0, !PT\n\
         IADD3 R6, P1, PT, R0, -R2, RZ\nIADD3.X R7, R1, ~R3, RZ, P1, !PT\n\
         IMAD.WIDE R8, R0, R2, R2\nIMAD.WIDE.U32 R10, R0, R2, R2\n\
         SHF.L.U64.HI R13, R0, 0x5, R1\nSHF.L.U32 R12, R0, 0x5, RZ\n\
         SHF.R.S64 R14, R0, 0x24, R1\nSHF.R.S32.HI R15, RZ, 0x24, R1\n\
         SHF.R.U32.HI R16, RZ, 0x3, R0\n",
    );
    for l in 0..a.len() {
        let (x, y) = (a[l], b[l]);
        let lane = l as u32;
        let what = format!("lane {l}: {x:#x}, {y:#x}");
        assert_eq!(pair(&m, lane, 4), x.wrapping_add(y), "add {what}");
        assert_eq!(pair(&m, lane, 6), x.wrapping_sub(y), "subtract {what}");
        let wide_s = ((x as u32 as i32 as i64) * (y as u32 as i32 as i64)) as u64;
        assert_eq!(pair(&m, lane, 8), wide_s.wrapping_add(y), "IMAD.WIDE {what}");
        assert_eq!(pair(&m, lane, 10), (x as u32 as u64 * y as u32 as u64).wrapping_add(y), "IMAD.WIDE.U32 {what}");
        assert_eq!(pair(&m, lane, 12), x << 5, "shift left {what}");
        assert_eq!(m.reg(lane, Reg(14)) as u64 | (m.reg(lane, Reg(15)) as u64) << 32, ((x as i64) >> 36) as u64, "shift right {what}");
        assert_eq!(m.reg(lane, Reg(16)), (x as u32) >> 3, "{what}");
    }
}

#[test]
fn doubles_and_conversions_match_f64() {
    let xs = [1.5f64, -2.25, 1e300, f64::NAN, 0.1, -0.0, 3e9, -7.9];
    let ys = [0.5f64, 4.0, 1e10, 1.0, 0.2, 0.0, -1e9, 2.5];
    let mut m = with_pairs(&xs.map(f64::to_bits), &ys.map(f64::to_bits));
    run_all(
        &mut m,
        "DADD R4, R0, -R2\nDMUL R6, R0, R2\nDFMA R8, R0, R2, 1.0\nDSETP.LT.AND P0, P1, R0, R2, PT\nDMNMX R10, R0, R2, P0\n\
         F2F.F32.F64 R12, R0\nF2F.F64.F32 R14, R12\nF2I.S64.F64.TRUNC R16, R0\nF2I.U64.F64.TRUNC R18, R0\nF2I.F64.TRUNC R20, R0\n\
         I2F.F64.S64 R22, R16\n",
    );
    let same = |g: f64, w: f64| g.to_bits() == w.to_bits() || (g.is_nan() && w.is_nan());
    for l in 0..8 {
        let (x, y) = (xs[l], ys[l]);
        let lane = l as u32;
        let d = |r: u8| f64::from_bits(pair(&m, lane, r));
        let what = format!("lane {l}: {x}, {y}");
        assert!(same(d(4), x - y) && same(d(6), x * y) && same(d(8), x.mul_add(y, 1.0)), "{what}");
        let lt = x < y;
        assert_eq!((m.pred(lane, Pred(0)), m.pred(lane, Pred(1))), (lt, !lt), "{what}: the inverse holds for NaN");
        assert!(same(d(10), if x < y { x.min(y) } else { x.max(y) }), "{what}");
        assert!(same(f32::from_bits(m.reg(lane, Reg(12))) as f64, x as f32 as f64) && same(d(14), x as f32 as f64), "{what}");
        assert_eq!((pair(&m, lane, 16), pair(&m, lane, 18), m.reg(lane, Reg(20))), (x as i64 as u64, x as u64, x as i32 as u32), "{what}");
        assert!(same(d(22), x as i64 as f64), "{what}");
    }
    // Integers to floats round once; 32-bit sources sign- or zero-extend.
    let big = (1u64 << 62) + (1 << 38) + 1; // not exact in f32: rounds up
    let mut m = with_pairs(&[big, u64::MAX], &[0, 0]);
    run_all(&mut m, "I2F.F32.S64 R4, R0\nI2F.F32.U64 R5, R0\nI2F.F64 R6, R1\nI2F.F64.U32 R8, R1\n");
    assert_eq!(f32::from_bits(m.reg(0, Reg(4))), big as i64 as f32);
    assert_eq!(f32::from_bits(m.reg(1, Reg(5))), u64::MAX as f32);
    assert_eq!((f64::from_bits(pair(&m, 1, 6)), f64::from_bits(pair(&m, 1, 8))), (-1.0, u32::MAX as f64));
}

#[test]
fn printf_records_each_guarded_lane_in_lane_order() {
    let (p, d) = assemble(
        "ISETP.GE.AND P0, PT, R0, 0x2, PT\nI2F R3, R0\nF2F.F64.F32 R1, R3\n@P0 PRINTF \"lane %d: %f\\n\", R0, R1\nPRINTF \"all\\n\"\n",
    );
    assert!(d.is_empty(), "{d:?}");
    let mut m = Machine::new(4, 16, Memory::default());
    for l in 0..4 {
        m.set_reg(l, Reg(0), l);
    }
    for i in &p.instrs {
        let all = m.all_lanes();
        execute(&mut m, i, all).unwrap();
    }
    m.output.seal(5);
    let shown = crate::printf::lines(&p.formats, &m.output);
    let texts: alloc::vec::Vec<(Option<u32>, &str)> = shown.iter().map(|l| (l.lane, l.text.as_str())).collect();
    assert_eq!(
        texts,
        [
            (Some(2), "lane 2: 2.000000\n"),
            (Some(3), "lane 3: 3.000000\n"),
            (Some(0), "all\n"),
            (Some(1), "all\n"),
            (Some(2), "all\n"),
            (Some(3), "all\n")
        ]
    );
    assert!(shown.iter().all(|l| l.step == 5));
    // Lanes masked off by the model print nothing.
    let before = m.output.len();
    execute(&mut m, &p.instrs[4], LaneMask(0b1000)).unwrap();
    assert_eq!(m.output.len(), before + 1);
}

#[test]
fn printf_from_a_buffer_reads_each_lanes_own_arguments() {
    // Two lanes' vprintf buffers, 16 bytes each: an int, padding, then a double.
    let mut mem = Memory::default();
    let (a, b) = (2.5f64.to_bits(), (-0.75f64).to_bits());
    let words = alloc::vec![7, 0, a as u32, (a >> 32) as u32, 9, 0, b as u32, (b >> 32) as u32];
    let base = mem.add("local", ElemType::I32, words);
    let src = alloc::format!("ISCADD R6, R0, {base:#x}, 0x4\nPRINTF \"%d: %.2f\\n\", [R6]\nPRINTF \"%d\", [R7]\n");
    let (p, d) = assemble(&src);
    assert!(d.is_empty(), "{d:?}");
    let mut m = Machine::new(2, 8, mem);
    for l in 0..2 {
        m.set_reg(l, Reg(0), l);
        m.set_reg(l, Reg(7), 0x10);
    }
    let all = m.all_lanes();
    execute(&mut m, &p.instrs[0], all).unwrap();
    execute(&mut m, &p.instrs[1], all).unwrap();
    m.output.seal(2);
    let texts: alloc::vec::Vec<alloc::string::String> = crate::printf::lines(&p.formats, &m.output).into_iter().map(|l| l.text).collect();
    assert_eq!(texts, ["7: 2.50\n", "9: -0.75\n"]);
    // A buffer outside memory is a fault naming the lane.
    assert!(matches!(execute(&mut m, &p.instrs[2], all), Err(ExecError::Fault(e)) if e.contains("lane 0")));
}

#[test]
fn predicate_logic() {
    // P0: lanes 1 and 3; P1: lanes 2 and 3.
    let src = "LOP.AND R1, R0, 0x1\nISETP.NE.AND P0, PT, R1, RZ, PT\nISETP.GE.AND P1, PT, R0, 0x2, PT\n\
               PSETP.AND P2, P0, P1\nPSETP.OR P3, P0, !P1\nPSETP.XOR P4, P0, P1\nPSETP.AND P5, !P0, PT\nPSETP.AND PT, P0, P1\n";
    let m = run(src, Memory::default());
    let lanes = |p: u8| (0..4).filter(|&l| m.pred(l, Pred(p))).collect::<alloc::vec::Vec<u32>>();
    assert_eq!([lanes(2), lanes(3), lanes(4), lanes(5)], [alloc::vec![3], alloc::vec![0, 1, 3], alloc::vec![1, 2], alloc::vec![0, 2]]);
    // Only the lanes that run are written.
    let mut m = Machine::new(4, 4, Memory::default());
    m.preds[2] = LaneMask(0b1111);
    execute(&mut m, &code("PSETP.AND P2, !PT, PT\n")[0], LaneMask(0b0011)).unwrap();
    assert_eq!(m.preds[2], LaneMask(0b1100));
}

#[test]
fn ordered_comparisons_are_false_on_nan_and_unordered_ones_true() {
    let nan = f32::NAN.to_bits();
    let cases =
        [(1.0f32.to_bits(), 2.0f32.to_bits()), (2.0f32.to_bits(), 2.0f32.to_bits()), (nan, 2.0f32.to_bits()), (1.0f32.to_bits(), nan)];
    let names = ["LT", "LE", "GT", "GE", "EQ", "NE", "LTU", "LEU", "GTU", "GEU", "EQU", "NEU", "NUM", "NAN"];
    // Per case (1 < 2, 2 == 2, NaN, NaN): each comparison's result.
    let want: [[bool; 4]; 14] = [
        [true, false, false, false],
        [true, true, false, false],
        [false, false, false, false],
        [false, true, false, false],
        [false, true, false, false],
        [true, false, false, false],
        [true, false, true, true],
        [true, true, true, true],
        [false, false, true, true],
        [false, true, true, true],
        [false, true, true, true],
        [true, false, true, true],
        [true, true, false, false],
        [false, false, true, true],
    ];
    for (name, want) in names.iter().zip(want) {
        let mut m = Machine::new(4, 8, Memory::default());
        for (l, (a, b)) in cases.iter().enumerate() {
            m.set_reg(l as u32, Reg(0), *a);
            m.set_reg(l as u32, Reg(1), *b);
            // The same values as doubles in R2:R3 and R4:R5.
            let d = |x: u32| (f32::from_bits(x) as f64).to_bits();
            m.set_reg(l as u32, Reg(2), d(*a) as u32);
            m.set_reg(l as u32, Reg(3), (d(*a) >> 32) as u32);
            m.set_reg(l as u32, Reg(4), d(*b) as u32);
            m.set_reg(l as u32, Reg(5), (d(*b) >> 32) as u32);
        }
        let src = format!("FSETP.{name}.AND P0, P1, R0, R1, PT\nDSETP.{name}.AND P2, PT, R2, R4, PT\n");
        for i in &code(&src) {
            execute(&mut m, i, LaneMask::full(4)).unwrap();
        }
        let got = [0, 1, 2, 3].map(|l| m.pred(l, Pred(0)));
        assert_eq!(got, want, "FSETP.{name}");
        assert_eq!([0, 1, 2, 3].map(|l| m.pred(l, Pred(1))), want.map(|w| !w), "FSETP.{name}'s second predicate");
        assert_eq!([0, 1, 2, 3].map(|l| m.pred(l, Pred(2))), want, "DSETP.{name}");
    }
}

#[test]
fn lane_masks_and_the_warp_number() {
    let mut m = Machine::new(64, 12, Memory::default());
    m.launch = crate::machine::Launch { grid: [1, 1, 1], block: [256, 1, 1], block_idx: [0, 0, 0], first_thread: 128 };
    let src = "S2R R0, SR_LTMASK\nS2R R1, SR_LEMASK\nS2R R2, SR_GTMASK\nS2R R3, SR_GEMASK\nS2R R4, SR_EQMASK\nS2R R5, SR_WARPID\n";
    for i in &code(src) {
        execute(&mut m, i, LaneMask::full(64)).unwrap();
    }
    for l in 0..64u32 {
        let k = l % 32; // the lane's place in its 32-lane half
        let bit = |j: u32| 1u32 << j;
        let below = (0..k).fold(0, |a, j| a | bit(j));
        let above = (k + 1..32).fold(0, |a, j| a | bit(j));
        let got = [0, 1, 2, 3, 4, 5].map(|r| m.reg(l, Reg(r)));
        assert_eq!(got, [below, below | bit(k), above, above | bit(k), bit(k), 2], "lane {l}");
    }
}

#[test]
fn a_trap_stops_with_the_lanes_that_ran_it() {
    let mut m = Machine::new(4, 4, Memory::default());
    m.preds[0] = LaneMask(0b0110);
    let trap = &code("@P0 BPT.TRAP\n")[0];
    assert_eq!(execute(&mut m, trap, LaneMask(0b0011)), Err(ExecError::Trap(LaneMask(0b0010))));
    assert_eq!(execute(&mut m, trap, LaneMask(0b1001)), Ok(()), "no lane's guard holds: nothing happens");
}

#[test]
fn conversions_and_float_modes_through_the_data_path() {
    let f = |x: f32| x.to_bits();
    let xs = [2.5f32, -2.5, 1e10, f32::NAN];
    let m = run_on(
        4,
        LaneMask::full(4),
        |l| f(xs[l as usize]),
        "F2I.S32.FLOOR R1, R0\nF2I.CEIL R2, R0\nF2I.ROUND R3, R0\nF2I.U32.TRUNC R4, R0\n",
    )
    .unwrap();
    let got = |r: u8| [0, 1, 2, 3].map(|l| m.reg(l, Reg(r)) as i32);
    assert_eq!(got(1), [2, -3, i32::MAX, 0], "saturating, NaN to 0");
    assert_eq!(got(2), [3, -2, i32::MAX, 0]);
    assert_eq!(got(3), [2, -2, i32::MAX, 0], "to the nearest even");
    assert_eq!(got(4), [2, 0, -1, 0], "unsigned: negative to 0, large to 0xffffffff");
    let m = run_on(1, LaneMask(1), |_| 16_777_217, "I2F.F32.S32.RP R1, R0\nI2F.F32.S32.RZ R2, R0\nI2F.RM R3, -R0\n").unwrap();
    assert_eq!([1, 2, 3].map(|r| f32::from_bits(m.reg(0, Reg(r)))), [16_777_218.0, 16_777_216.0, -16_777_218.0]);
    let src = "FADD.RP R1, R0, 1e-30\nFMUL.RM R2, R0, 1.1\nFFMA.RZ R3, R0, 1.1, -1e-30\nFDIV.RP R4, R0, 3.0\nFADD.SAT R5, R0, 0.5\nF2F.F32.F64.RM R6, R8\n";
    let mut m = Machine::new(1, 12, Memory::default());
    m.set_reg(0, Reg(0), f(1.0));
    m.set_reg(0, Reg(8), 0.1f64.to_bits() as u32);
    m.set_reg(0, Reg(9), (0.1f64.to_bits() >> 32) as u32);
    for i in &code(src) {
        execute(&mut m, i, LaneMask(1)).unwrap();
    }
    let next = |x: f32| f32::from_bits(x.to_bits() + 1);
    let prev = |x: f32| f32::from_bits(x.to_bits() - 1);
    let got = [1, 2, 3, 4, 5, 6].map(|r| f32::from_bits(m.reg(0, Reg(r))));
    // 1/3 and 0.1 are rounded up by RN, so RP keeps 1/3f and RM steps below 0.1f.
    assert_eq!(got, [next(1.0), 1.1, prev(1.1), 1.0 / 3.0, 1.0, prev(0.1)]);
}

#[test]
fn redux_combines_the_running_lanes_of_each_half() {
    // Lanes 0-3 and 34-35 of a 64-lane warp run; each half reduces its own.
    let mask = LaneMask(0b1111 | 0b11 << 34);
    let m =
        run_on(64, mask, |l| l.wrapping_sub(2), "REDUX.SUM R1, R0\nREDUX.MIN.S32 R2, R0\nREDUX.MAX R3, R0\nREDUX.XOR R4, R0\n").unwrap();
    let v = |l: u32| [1, 2, 3, 4].map(|r| m.reg(l, Reg(r)));
    // Lanes 0-3 hold -2, -1, 0, 1: sum -2, signed min -2, unsigned max 0xffffffff (-1), xor.
    let low = [(-2i32) as u32, (-2i32) as u32, u32::MAX, (-2i32 as u32) ^ (-1i32 as u32) ^ 1];
    assert_eq!(v(0), low);
    assert_eq!(v(3), low);
    assert_eq!(v(34), [32 + 33, 32, 33, 32 ^ 33]);
    assert_eq!(m.reg(5, Reg(1)), 0, "a lane that did not run keeps its register");
}

#[test]
fn plop3_computes_any_function_of_three_predicates() {
    // P1 = lane & 1, P2 = lane & 2; P3 = P1 and P2 (0x80 with c = PT), P4 = P1 or P2 (0xfc).
    let m = run_on(
        4,
        LaneMask::full(4),
        |l| l,
        "LOP3.LUT R1, R0, 0x1, RZ, 0xc0\nISETP.NE.U32.AND P1, PT, R1, RZ, PT\nLOP3.LUT R2, R0, 0x2, RZ, 0xc0\nISETP.NE.U32.AND P2, PT, R2, RZ, PT\nPLOP3.LUT P3, P4, P1, P2, PT, 0x80, 0xfc\nPLOP3.LUT P5, PT, PT, PT, PT, 0x8, 0x0\n",
    )
    .unwrap();
    for l in 0..4 {
        assert_eq!(m.pred(l, Pred(3)), l == 3, "and, lane {l}");
        assert_eq!(m.pred(l, Pred(4)), l != 0, "or, lane {l}");
        assert!(!m.pred(l, Pred(5)), "0x8 of all-true rows is false");
    }
}

#[test]
fn a_wide_load_into_its_own_address_register_reads_every_word_first() {
    let mut mem = Memory::default();
    let base = mem.add("a", crate::machine::ElemType::U32, alloc::vec![7, 9]);
    let m = run(&alloc::format!("MOV R0, {base:#x}\nMOV R1, RZ\nLD.64 R0, [R0]\n"), mem);
    assert_eq!((m.reg(0, Reg(0)), m.reg(0, Reg(1))), (7, 9));
}

/// The row loops read sources in place while they write the destination row (`rows.rs`): every
/// way a destination can also be a source, with partial and full masks, gives what running the
/// instruction one lane at a time gives (the scalar path, which reads each lane's own value).
#[test]
fn rows_read_in_place_match_one_lane_at_a_time() {
    let srcs = [
        "IADD R2, R2, R3",
        "IADD R2, R3, R2",
        "IADD R2, R2, R2",
        "IADD R2, R3, R3",
        "IADD R2, R3, R4",
        "IADD R2, R2, 0x5",
        "IADD R2, R3, -R2",
        "SHR.U32 R2, R2, 0x3",
        "FADD R2, R2, R3",
        "FMUL R2, R3, R2",
        "IMAD R2, R2, R3, R4",
        "IMAD R2, R3, R4, R2",
        "IMAD R2, R3, R4, R5",
        "SEL R2, R3, R2, P0",
        "ISETP.LT.AND P1, PT, R2, R3, PT",
        "ISETP.GE.U32.AND P1, PT, R2, 0x40, PT",
        "FSETP.GT.AND P1, P2, R3, R2, PT",
    ];
    for src in srcs {
        let instr = &code(src)[0];
        for (width, seed) in [(7, 3), (32, 5), (32, 9), (40, 11), (64, 13)] {
            let mut m = Machine::new(width, 8, Memory::default());
            let v = values(seed, 8 * 64 + 2);
            for l in 0..width {
                for r in 1..8 {
                    m.set_reg(l, Reg(r), v[(r as usize) * 64 + l as usize] % 200);
                }
            }
            m.preds[0] = LaneMask(v[0] as u64 | (v[1] as u64) << 32) & m.all_lanes();
            for mask in [m.all_lanes(), LaneMask(v[2] as u64 | (v[3] as u64) << 32) & m.all_lanes()] {
                let mut rows = m.clone();
                execute(&mut rows, instr, mask).unwrap();
                let mut one = m.clone();
                for l in mask.iter() {
                    execute(&mut one, instr, LaneMask::lane(l)).unwrap();
                }
                for l in 0..width {
                    let regs = |m: &Machine| (1..8).map(|r| m.reg(l, Reg(r))).collect::<alloc::vec::Vec<_>>();
                    assert_eq!(regs(&rows), regs(&one), "{src}, width {width}, mask {:#x}, lane {l}", mask.0);
                    let preds = |m: &Machine| [1, 2].map(|p| m.pred(l, Pred(p)));
                    assert_eq!(preds(&rows), preds(&one), "{src}, width {width}, mask {:#x}, lane {l}", mask.0);
                }
            }
        }
    }
}
