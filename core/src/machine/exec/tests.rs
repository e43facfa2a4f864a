use super::*;
use crate::asm::assemble;
use crate::machine::{ElemType, Memory};

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
    assert!(execute(&mut m, &p.instrs[2], LaneMask(1)).unwrap_err().contains("lane 0"));
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
