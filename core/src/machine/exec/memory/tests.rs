//! Byte and halfword accesses on the words they lie in, and 64-bit atomics on register pairs.

use alloc::format;
use alloc::vec;

use crate::asm::assemble;
use crate::isa::Reg;
use crate::machine::{execute, BadAccess, ElemType, ExecError, LaneMask, Machine, Memory};

/// Runs `src` on all `width` lanes, R0 = the address `addr(lane)`, R1 = `r1(lane)`.
fn run(mem: Memory, width: u32, addr: impl Fn(u32) -> u32, r1: impl Fn(u32) -> u32, src: &str) -> Result<Machine, ExecError> {
    let (p, d) = assemble(src);
    assert!(d.is_empty(), "{src}: {d:?}");
    let mut m = Machine::new(width, 12, mem);
    for l in 0..width {
        m.set_reg(l, Reg(0), addr(l));
        m.set_reg(l, Reg(1), r1(l));
    }
    for i in &p.instrs {
        execute(&mut m, i, LaneMask::full(width))?;
    }
    Ok(m)
}

#[test]
fn bytes_and_halfwords_load_extended() {
    let mut mem = Memory::default();
    let base = mem.add("a", ElemType::U32, vec![0x8002_7f81, 0x1234_fedc]);
    // Lane l reads byte l (8 lanes) and halfword l / 2 of the two words.
    let m = run(mem, 8, |l| base + l, |_| 0, "LDG.E.U8 R2, [R0]\nLD.S8 R3, [R0]\n").unwrap();
    let bytes = [0x81u32, 0x7f, 0x02, 0x80, 0xdc, 0xfe, 0x34, 0x12];
    for l in 0..8 {
        assert_eq!(m.reg(l, Reg(2)), bytes[l as usize], "lane {l} U8");
        assert_eq!(m.reg(l, Reg(3)), bytes[l as usize] as u8 as i8 as u32, "lane {l} S8");
    }
    let mut mem = Memory::default();
    let base = mem.add("a", ElemType::U32, vec![0x8002_7f81, 0x1234_fedc]);
    let m = run(mem, 4, |l| base + 2 * l, |_| 0, "LD.U16 R2, [R0]\nLD.S16 R3, [R0+0x0]\n").unwrap();
    let halves = [0x7f81u32, 0x8002, 0xfedc, 0x1234];
    for l in 0..4 {
        assert_eq!((m.reg(l, Reg(2)), m.reg(l, Reg(3))), (halves[l as usize], halves[l as usize] as u16 as i16 as u32), "lane {l}");
    }
}

#[test]
fn byte_stores_change_only_their_bytes_in_lane_order() {
    let mut mem = Memory::default();
    let base = mem.add("a", ElemType::U32, vec![0xaaaa_aaaa; 3]);
    // Lanes 0-7 store bytes 0-7; lanes 8 and 9 both store byte 8 (the later lane's stays).
    let m = run(mem, 10, |l| base + l.min(8), |l| 0x100 | l, "ST.E.U8 [R0], R1\n").unwrap();
    assert_eq!(m.memory.words[0], [0x0302_0100, 0x0706_0504, 0xaaaa_aa09]);
    let mut mem = Memory::default();
    let base = mem.add_shared("s", ElemType::U32, vec![0xaaaa_aaaa; 2]);
    let m = run(mem, 3, |l| base + 2 * l, |l| 0xbeef_0000 | l, "STS.U16 [R0], R1\n").unwrap();
    assert_eq!(m.memory.words[0], [0x0001_0000, 0xaaaa_0002], "a halfword store writes the low 16 bits");
    assert_eq!(m.mem_instructions, 0, "shared accesses count no global transactions");
}

#[test]
fn sub_word_faults_say_where() {
    let mut mem = Memory::default();
    let base = mem.add("a", ElemType::I32, vec![0; 2]);
    let fault = |addr: u32, line: &str| {
        let mut mem2 = Memory::default();
        mem2.add("a", ElemType::I32, vec![0; 2]);
        match run(mem2, 1, |_| addr, |_| 0, line) {
            Err(ExecError::Access(bad, e)) => (bad, e),
            other => panic!("{line}: {other:?}"),
        }
    };
    let (bad, e) = fault(base + 8, "LD.U8 R2, [R0]\n");
    assert_eq!(bad, BadAccess { lane: 0, addr: base + 8, misaligned: false });
    assert!(
        e.contains(&format!("load by lane 0 at address {:#x}", base + 8))
            && e.contains("past the end of the nearest buffer, `a`: element 2"),
        "{e}"
    );
    let (_, e) = fault(base + 9, "ST.U8 [R0], R1\n");
    assert!(
        e.contains(&format!("store by lane 0 at address {:#x}", base + 9)) && e.contains("past the end of the nearest buffer, `a`"),
        "{e}"
    );
    let (bad, e) = fault(base + 1, "LD.U16 R2, [R0]\n");
    assert!(e.contains("not 2-byte aligned") && bad == BadAccess { lane: 0, addr: base + 1, misaligned: true }, "{e}");
    assert!(fault(base + 3, "ST.S16 [R0], R1\n").1.contains("not 2-byte aligned"));
    let (bad, e) = fault(base + 1, "LD R2, [R0]\n");
    assert!(e.contains("not 4-byte aligned") && bad.misaligned, "words keep their message");
    assert!(fault(base, "LDS.U8 R2, [R0]\n").1.contains("in global memory"));
    // Inside the buffer, every byte address is fine.
    assert!(run(mem, 1, |_| base + 7, |_| 0, "LD.S8 R2, [R0]\nST.U8 [R0], R2\n").is_ok());
}

#[test]
fn sixty_four_bit_atomics_update_pairs_in_lane_order() {
    type Update = fn(u64, u64) -> u64;
    let ops: [(&str, Update); 8] = [
        ("ADD.64", |o, b| o.wrapping_add(b)),
        ("EXCH.64", |_, b| b),
        ("MIN.S64", |o, b| (o as i64).min(b as i64) as u64),
        ("MIN.U64", |o, b| o.min(b)),
        ("MAX.S64", |o, b| (o as i64).max(b as i64) as u64),
        ("MAX.U64", |o, b| o.max(b)),
        ("ADD.F64", |o, b| (f64::from_bits(o) + f64::from_bits(b)).to_bits()),
        ("XOR.64", |o, b| o ^ b),
    ];
    let start = [5u64 << 32 | 7, 1.5f64.to_bits()];
    let bs = [u64::MAX - 3, 3 << 40, 0.25f64.to_bits(), 1 << 63, 12, 2.0f64.to_bits()];
    for (name, f) in ops {
        for shared in [false, true] {
            let mut mem = Memory::default();
            let words = vec![start[0] as u32, (start[0] >> 32) as u32, start[1] as u32, (start[1] >> 32) as u32];
            let base = if shared { mem.add_shared("s", ElemType::U64, words) } else { mem.add("g", ElemType::U64, words) };
            let (p, _) = assemble(&format!("{} R4, [R0], R2\n", if shared { format!("ATOMS.{name}") } else { format!("ATOM.{name}") }));
            let mut m = Machine::new(6, 8, mem);
            for l in 0..6 {
                m.set_reg(l, Reg(0), base + 8 * (l % 2));
                m.set_reg(l, Reg(2), bs[l as usize] as u32);
                m.set_reg(l, Reg(3), (bs[l as usize] >> 32) as u32);
            }
            execute(&mut m, &p.instrs[0], LaneMask::full(6)).unwrap();
            let mut now = start;
            for l in 0..6u32 {
                let w = &mut now[(l % 2) as usize];
                let got = (m.reg(l, Reg(5)) as u64) << 32 | m.reg(l, Reg(4)) as u64;
                assert_eq!(got, *w, "{name} lane {l} gets the old pair");
                *w = f(*w, bs[l as usize]);
            }
            let words = &m.memory.words[0];
            assert_eq!(
                [words[0] as u64 | (words[1] as u64) << 32, words[2] as u64 | (words[3] as u64) << 32],
                now,
                "{name} shared {shared}"
            );
        }
    }
}

#[test]
fn sixty_four_bit_compare_and_swap() {
    let mut mem = Memory::default();
    let base = mem.add("g", ElemType::U64, vec![1, 2]);
    // R2:R3 = the value compared, R4:R5 = the new one. Lane 0 finds 0x2_00000001 and swaps;
    // lane 1 then compares against the old value and fails.
    let (p, _) = assemble("ATOM.CAS.64 R6, [R0], R2, R4\n");
    let mut m = Machine::new(2, 8, mem);
    for l in 0..2 {
        m.set_reg(l, Reg(0), base);
        m.set_reg(l, Reg(2), 1);
        m.set_reg(l, Reg(3), 2);
        m.set_reg(l, Reg(4), 10 + l);
        m.set_reg(l, Reg(5), 20 + l);
    }
    execute(&mut m, &p.instrs[0], LaneMask::full(2)).unwrap();
    assert_eq!(m.memory.words[0], [10, 20]);
    assert_eq!([m.reg(0, Reg(6)), m.reg(0, Reg(7)), m.reg(1, Reg(6)), m.reg(1, Reg(7))], [1, 2, 10, 20]);
    // The second word past the end faults.
    let mut mem = Memory::default();
    let base = mem.add("g", ElemType::U32, vec![1]);
    let e = run(mem, 1, |_| base, |_| 0, "ATOM.ADD.64 R2, [R0], R4\n").unwrap_err();
    assert!(matches!(&e, ExecError::Access(_, s) if s.contains("atomic by lane 0") && s.contains("past the end of `g`")), "{e:?}");
}

/// A lane past an array's end is told about the array the access's other lanes reach, though its
/// address lies nearer the next buffer; with no lane in a buffer, the nearest is named as such.
#[test]
fn a_fault_names_the_buffer_the_other_lanes_reach() {
    let layout = || {
        let mut mem = Memory::default();
        let a = mem.add("a", ElemType::I32, vec![0; 4]);
        let b = mem.add("b", ElemType::I32, vec![0; 4]);
        (mem, a, b)
    };
    let (mem, a, b) = layout();
    // Lane 1 reads `b`'s word before its start, which is `a`'s element (b - a) / 4.
    let e = match run(mem, 2, |l| if l == 0 { a } else { b - 4 }, |_| 0, "LD R2, [R0]\n") {
        Err(ExecError::Access(_, e)) => e,
        other => panic!("{other:?}"),
    };
    assert!(e.contains(&format!("past the end of `a`: element {}, and `a` holds 4", (b - 4 - a) / 4)), "{e}");
    let (mem, _, b) = layout();
    let e = match run(mem, 1, |_| b - 4, |_| 0, "LD R2, [R0]\n") {
        Err(ExecError::Access(_, e)) => e,
        other => panic!("{other:?}"),
    };
    assert!(e.contains("4 bytes before the start of the nearest buffer, `b`: element -1"), "{e}");
}
