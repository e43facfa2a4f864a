//! `MATCH` against a count of the running lanes, with and without member masks, 32-bit and
//! 64-bit, in warps either side of 32 lanes.

use alloc::format;
use alloc::vec::Vec;

use crate::asm::assemble;
use crate::isa::{Pred, Reg};
use crate::machine::{execute, LaneMask, Machine, Memory};

fn run(width: u32, mask: LaneMask, regs: impl Fn(u32) -> [u32; 3], src: &str) -> Machine {
    let (p, d) = assemble(src);
    assert!(d.is_empty(), "{src}: {d:?}");
    let mut m = Machine::new(width, 12, Memory::default());
    for l in 0..width {
        for (r, v) in regs(l).into_iter().enumerate() {
            m.set_reg(l, Reg(r as u8), v);
        }
    }
    for i in &p.instrs {
        execute(&mut m, i, mask).unwrap();
    }
    m
}

#[test]
fn match_finds_the_lanes_with_each_value() {
    for width in [6, 32, 64] {
        let full = LaneMask::full(width);
        for mask in [full, LaneMask(full.0 & 0x5555_5555_3333_3333)] {
            // R0: three values; R1: the high word of a pair with R0; R2: one value everywhere.
            let m = run(
                width,
                mask,
                |l| [l % 3, l / 4, 7],
                "MATCH.ANY R4, R0\nMATCH.ALL P1, R5, R0\nMATCH.ALL P2, R6, R2\nMATCH.ANY.U64 R7, R0\n",
            );
            for l in mask.iter() {
                let half: Vec<u32> = mask.iter().filter(|&k| k & !31 == l & !31).collect();
                let bits = |f: &dyn Fn(u32) -> bool| half.iter().filter(|&&k| f(k)).fold(0u32, |a, &k| a | 1 << (k & 31));
                let all = bits(&|_| true);
                let what = format!("width {width} mask {mask:?} lane {l}");
                assert_eq!(m.reg(l, Reg(4)), bits(&|k| k % 3 == l % 3), "{what}: ANY");
                let one_value = half.iter().all(|&k| k % 3 == l % 3);
                assert_eq!((m.reg(l, Reg(5)), m.pred(l, Pred(1))), (if one_value { all } else { 0 }, one_value), "{what}: ALL");
                assert_eq!((m.reg(l, Reg(6)), m.pred(l, Pred(2))), (all, true), "{what}: ALL of one value");
                assert_eq!(m.reg(l, Reg(7)), bits(&|k| k % 3 == l % 3 && k / 4 == l / 4), "{what}: ANY.U64 compares the pair");
            }
            for l in (0..width).filter(|&l| !mask.contains(l)) {
                assert_eq!((m.reg(l, Reg(4)), m.pred(l, Pred(2))), (0, false), "lane {l} did not run");
            }
        }
    }
}

#[test]
fn a_match_mask_limits_the_lanes_compared() {
    // Lanes 0-3 hold 0, 1, 0, 1; each names only lanes 0 and 2 (or 1 and 3) in its mask.
    let src = "LOP.AND R0, R0, 0x1\nMATCH.ANY R4, R0, R1\nMATCH.ALL P0, R5, R0, R1\n";
    let m = run(4, LaneMask::full(4), |l| [l, if l % 2 == 0 { 0b0101 } else { 0b1010 }, 0], src);
    assert_eq!([0, 1, 2, 3].map(|l| m.reg(l, Reg(4))), [0b0101, 0b1010, 0b0101, 0b1010]);
    assert_eq!(
        [0, 1, 2, 3].map(|l| (m.reg(l, Reg(5)), m.pred(l, Pred(0)))),
        [(0b0101, true), (0b1010, true), (0b0101, true), (0b1010, true)]
    );
    // A mask naming a lane that does not run is the member-mask fault, as for SHFL and VOTE.
    let (p, _) = assemble("MATCH.ANY R4, R0, 0xf\n");
    let mut m = Machine::new(4, 8, Memory::default());
    assert!(
        matches!(execute(&mut m, &p.instrs[0], LaneMask(0b0111)), Err(crate::machine::ExecError::Members(f)) if f.missing == LaneMask(0b1000))
    );
}
