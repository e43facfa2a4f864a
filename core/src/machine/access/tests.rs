//! `access` against a slow reference that tries every element of every buffer, and against the
//! data path: the elements a store or an atomic changes are the ones it says it writes.

use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;

use super::*;
use crate::isa::{Address, AtomOp, Guard, Op, Pred, Reg, Space, Src, Width};
use crate::machine::{execute, ElemType, Memory};

/// A small deterministic generator (the core has no RNG; the cases must replay).
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u32 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 >> 16) as u32
    }
    fn below(&mut self, n: u32) -> u32 {
        self.next() % n
    }
}

const BASE: Reg = Reg(1);
const SRC: Reg = Reg(4);

/// A machine whose lanes point into three buffers; with `strays`, some also past an end,
/// between buffers or unaligned.
fn machine(rng: &mut Rng, width: u32, strays: bool) -> Machine {
    let mut memory = Memory::default();
    let short = if strays { 3 } else { 16 };
    for (k, len) in [short, short + rng.below(40), short + rng.below(70)].into_iter().enumerate() {
        let elem = [ElemType::I32, ElemType::U32, ElemType::F32][k];
        memory.add(["a", "b", "c"][k], elem, vec![0; len as usize]);
    }
    let bases: Vec<u32> = memory.buffers.iter().map(|b| b.base).collect();
    let mut m = Machine::new(width, 8, memory);
    for lane in 0..width {
        let base = bases[rng.below(3) as usize];
        let addr = match if strays { rng.below(8) } else { 2 } {
            0 => base.wrapping_sub(4 * rng.below(4)),
            1 => base + 1 + rng.below(3),
            // Up to 80 words on: past the end of the shorter buffers (a fault) unless `strays` is off.
            _ => base + 4 * rng.below(if strays { 80 } else { 3 }),
        };
        m.set_reg(lane, BASE, addr);
        for w in 0..4 {
            m.set_reg(lane, Reg(SRC.0 + w as u8), lane + 1 + w);
        }
        m.set_pred(lane, Pred(0), rng.below(3) != 0);
    }
    m
}

/// A load, store, atomic or move; with `strays`, offsets that may leave a buffer.
fn instruction(rng: &mut Rng, strays: bool) -> Instruction {
    let offsets: &[i32] = if strays { &[0, 4, 8, -4, 24] } else { &[0, 4, 8] };
    let addr = Address { base: BASE, offset: offsets[rng.below(offsets.len() as u32) as usize] };
    let width = [Width::W32, Width::W64, Width::W128, Width::U8, Width::S16][rng.below(5) as usize];
    let op = match rng.below(5) {
        0 => Op::Ld { dst: Reg(5), addr, width, space: Space::Generic },
        1 => Op::St { src: SRC, addr, width, space: Space::Generic },
        2 => Op::Atom { op: AtomOp::Add, dst: Reg(6), addr, b: Src::Imm(1), c: Src::Imm(0), space: Space::Generic, wide: false },
        3 => Op::Atom { op: AtomOp::Exch, dst: Reg(6), addr, b: Src::reg(SRC), c: Src::Imm(0), space: Space::Generic, wide: true },
        _ => Op::Mov { dst: Reg(5), src: Src::Imm(1) },
    };
    let guard = match rng.below(3) {
        0 => None,
        n => Some(Guard { pred: Pred(0), negated: n == 2 }),
    };
    Instruction { guard, op, pop: false, text: String::new() }
}

/// Every (lane, element or none) an instruction touches, found the slow way: each lane's guard
/// evaluated on its own, each address compared with every element of every buffer.
fn reference(m: &Machine, instr: &Instruction, lanes: LaneMask) -> Vec<(u32, Option<Cell>)> {
    let (addr, words, bytes) = match instr.op {
        Op::Ld { addr, width, .. } | Op::St { addr, width, .. } => (addr, width.words(), width.bytes()),
        Op::Atom { addr, wide, .. } => (addr, 1 + wide as u32, 4 + 4 * wide as u32),
        _ => return Vec::new(),
    };
    let mut out = Vec::new();
    for lane in (0..m.width).filter(|&l| lanes.contains(l)) {
        if instr.guard.is_some_and(|g| m.pred(lane, g.pred) == g.negated) {
            continue;
        }
        for w in 0..words {
            let at = m.reg(lane, addr.base).wrapping_add(addr.offset as u32).wrapping_add(4 * w);
            // A byte or halfword lies in a word; a misaligned halfword is in none.
            let word = if bytes < 4 && at.is_multiple_of(bytes) { at - at % 4 } else { at };
            let mut cell = None;
            for (k, b) in m.memory.buffers.iter().enumerate() {
                for i in 0..b.len {
                    if b.base + 4 * i == word {
                        cell = Some(Cell { buffer: k as u32, index: i });
                    }
                }
            }
            out.push((lane, cell));
        }
    }
    out
}

#[test]
fn touches_match_the_reference() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    for case in 0..600 {
        let width = [1, 5, 32, 64][case % 4];
        let m = machine(&mut rng, width, true);
        let instr = instruction(&mut rng, true);
        let lanes = LaneMask(((rng.next() as u64) << 32 | rng.next() as u64) & LaneMask::full(width).0);
        let expected = reference(&m, &instr, lanes);
        let got = access(&m, &instr, lanes);
        match got {
            None => assert!(matches!(instr.op, Op::Mov { .. }), "case {case}: {instr:?}"),
            Some(a) => {
                assert_eq!(a.touches.iter().map(|t| (t.lane, t.cell)).collect::<Vec<_>>(), expected, "case {case}: {instr:?}");
                // Every lane that accesses touches at least one word.
                assert_eq!(a.lanes, LaneMask(expected.iter().fold(0, |b, t| b | 1 << t.0)), "case {case}");
            }
        }
    }
}

#[test]
fn writes_are_the_elements_the_data_path_changes() {
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    let mut checked = 0;
    for case in 0..600 {
        let width = [4, 32, 64][case % 3];
        let strays = case % 5 == 0;
        let m = machine(&mut rng, width, strays);
        let instr = instruction(&mut rng, strays);
        let lanes = LaneMask::full(width);
        let Some(a) = access(&m, &instr, lanes) else { continue };
        let mut after = m.clone();
        if execute(&mut after, &instr, lanes).is_err() {
            // A fault is an address outside every buffer, and only then.
            assert!(a.stray() > 0, "case {case}: the data path faulted on {instr:?}, the view found every address");
            continue;
        }
        assert_eq!(a.stray(), 0, "case {case}");
        let mut changed = Vec::new();
        for (k, (before, now)) in m.memory.words.iter().zip(&after.memory.words).enumerate() {
            changed.extend((0..before.len()).filter(|&i| before[i] != now[i]).map(|i| Cell { buffer: k as u32, index: i as u32 }));
        }
        let cells: Vec<Cell> = a.cells().iter().map(|c| c.cell).collect();
        // Memory starts at 0 and every stored value and increment is non-zero: a write changes it.
        if a.kind.writes() {
            assert_eq!(changed, cells, "case {case}: {instr:?}");
            checked += 1;
        } else {
            assert!(changed.is_empty(), "case {case}: a load changed memory");
        }
    }
    assert!(checked > 100, "only {checked} writes checked");
}

#[test]
fn cells_group_lanes_in_memory_order() {
    let mut memory = Memory::default();
    let a = memory.add("a", ElemType::I32, vec![0; 8]);
    let mut m = Machine::new(4, 8, memory);
    // Lanes 0 and 2 at a[3], lane 1 at a[0], lane 3 at a[3] too: an atomic's pile-up.
    for (lane, i) in [(0, 3), (1, 0), (2, 3), (3, 3)] {
        m.set_reg(lane, BASE, a + 4 * i);
    }
    let instr = Instruction {
        guard: None,
        op: Op::Atom {
            op: AtomOp::Add,
            dst: Reg(6),
            addr: Address { base: BASE, offset: 0 },
            b: Src::Imm(1),
            c: Src::Imm(0),
            space: Space::Generic,
            wide: false,
        },
        pop: false,
        text: String::new(),
    };
    let got = access(&m, &instr, LaneMask::full(4)).unwrap();
    assert_eq!(got.kind, AccessKind::Update);
    assert_eq!(
        got.cells(),
        [
            CellTouch { cell: Cell { buffer: 0, index: 0 }, lanes: LaneMask(0b0010) },
            CellTouch { cell: Cell { buffer: 0, index: 3 }, lanes: LaneMask(0b1101) }
        ]
    );
    assert_eq!(got.within(LaneMask(0b0011)).cells().len(), 2);
}

#[test]
fn a_word_into_bytes_or_halfwords_touches_each_element_it_covers() {
    // Buffers of bytes, halfwords and words; stores of every width at aligned addresses. What a
    // store changes, element by element, is what the view says it writes.
    let mut rng = Rng(0x853c_49e6_748f_ea9b);
    let mut checked = 0;
    for case in 0..400 {
        let mut memory = Memory::default();
        for (k, elem) in [ElemType::U8, ElemType::I16, ElemType::I32].into_iter().enumerate() {
            let count = 96 + rng.below(32);
            memory.add_elements(
                crate::machine::Space::Global,
                ["a", "b", "c"][k],
                elem,
                count,
                vec![0; elem.words_for(count as u64) as usize],
            );
        }
        let bases: Vec<u32> = memory.buffers.iter().map(|b| b.base).collect();
        let mut m = Machine::new(4, 8, memory);
        for lane in 0..4 {
            m.set_reg(lane, BASE, bases[rng.below(3) as usize] + 16 * rng.below(2) + 16 * lane);
            for w in 0..4 {
                // Every byte non-zero, so a write shows in every element it covers.
                m.set_reg(lane, Reg(SRC.0 + w as u8), 0x0101_0101 * (lane + 2 + w));
            }
        }
        let width = [Width::W32, Width::W64, Width::W128, Width::U8, Width::S16][case % 5];
        let instr = Instruction {
            guard: None,
            op: Op::St { src: SRC, addr: Address { base: BASE, offset: 0 }, width, space: Space::Generic },
            pop: false,
            text: String::new(),
        };
        let lanes = LaneMask::full(4);
        let a = access(&m, &instr, lanes).unwrap();
        let mut after = m.clone();
        if execute(&mut after, &instr, lanes).is_err() {
            continue;
        }
        let mut changed = Vec::new();
        for (k, b) in m.memory.buffers.iter().enumerate() {
            let (before, now) = (&m.memory.words[k], &after.memory.words[k]);
            changed.extend((0..b.count).filter(|&i| b.value(before, i) != b.value(now, i)).map(|i| Cell { buffer: k as u32, index: i }));
        }
        let cells: Vec<Cell> = a.cells().iter().map(|c| c.cell).collect();
        assert_eq!(changed, cells, "case {case}: {width:?}");
        checked += 1;
    }
    assert_eq!(checked, 400, "every store is aligned and inside its buffer");
}
