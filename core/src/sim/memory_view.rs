//! What a recorded step did to memory, for the memory view: the access of the instruction it
//! issued (`machine::access` over the state before the step, for the lanes the step issued) and
//! one sentence saying it, `step 41: ST.E by lanes 0-15 wrote a[0..15]`.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt::Write;

use super::{advance, Sim};
use crate::isa::{Instruction, Pc};
use crate::machine::{access, Access, CellTouch, LaneList, Memory};
use crate::model::Reconvergence;

/// The memory access of one step (from the state after `step - 1` steps to the state after `step`).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct StepAccess {
    pub step: u64,
    pub pc: Pc,
    pub access: Access,
    /// Each element touched once, in memory order, with the lanes that touched it.
    pub cells: Vec<CellTouch>,
    /// The sentence for it: `step 41: ST.E by lanes 0-15 wrote a[0..15]`.
    pub text: String,
}

/// Index ranges listed in a sentence before the rest is counted.
const RANGES_SHOWN: usize = 6;

impl Sim {
    /// What step `t` did to memory; `None` for step 0, a step past the recorded run, or an
    /// instruction that does not access memory. Replays from a checkpoint on a copy of the state.
    pub fn step_access(&self, t: u64) -> Option<StepAccess> {
        let before = t.checked_sub(1)?;
        // The step's record names its instruction: most steps touch no memory and need no replay.
        let record = self.timeline.record_at(before as usize)?;
        self.program.get(Pc(record.pc))?.op.memory_use()?;
        let mut st = self.timeline.checkpoint_before(before).clone();
        while st.metrics.steps < before {
            advance(&self.program, &self.plain, &self.config, &mut st)?;
        }
        let pc = st.model.pc()?;
        let instr = self.program.get(pc)?;
        // Every lane that may issue, read before the step changes registers; kept to the lanes
        // the step issued once it has run.
        let all = access(&st.machine, instr, st.machine.live_lanes())?;
        let (issued, _) = advance(&self.program, &self.plain, &self.config, &mut st)?;
        if issued.pc != pc {
            return None;
        }
        let access = all.within(issued.mask);
        let cells = access.cells();
        let text = describe(&format!("step {t}"), instr, &access, &cells, &st.machine.memory);
        Some(StepAccess { step: t, pc, access, cells, text })
    }
}

/// `step 41: ST.E by lanes 0-15 wrote a[0..15]`: the instruction's opcode, the lanes that
/// accessed, the verb of the access and the elements, buffer by buffer, as index ranges.
/// `when` names the step (`step 41`, or in a launch `step 41, warp 3`).
pub fn describe(when: &str, instr: &Instruction, access: &Access, cells: &[CellTouch], memory: &Memory) -> String {
    let opcode = instr.text.split_whitespace().find(|w| !w.starts_with('@')).unwrap_or("");
    if access.lanes.is_empty() {
        return format!("{when}: {opcode} touched no memory: its guard was false in every lane it ran on");
    }
    let lanes = LaneList(access.lanes);
    let mut out = format!("{when}: {opcode} by {} {lanes} {} ", lanes.word(), access.kind.verb());
    let mut places: Vec<String> = Vec::new();
    for (buffer, group) in by_buffer(cells) {
        let name = memory.buffers.get(buffer as usize).map_or("?", |b| b.name.as_str());
        places.push(format!("{name}[{}]", ranges(group)));
    }
    out += &places.join(", ");
    let stray = access.stray();
    if stray > 0 {
        let _ = write!(
            out,
            "{}{stray} {} outside every buffer",
            if places.is_empty() { "" } else { " and " },
            if stray == 1 { "address" } else { "addresses" }
        );
    }
    out
}

/// Runs of `cells` (sorted) that share a buffer.
fn by_buffer(cells: &[CellTouch]) -> impl Iterator<Item = (u32, &[CellTouch])> {
    let mut rest = cells;
    core::iter::from_fn(move || {
        let first = rest.first()?.cell.buffer;
        let n = rest.iter().take_while(|c| c.cell.buffer == first).count();
        let (group, tail) = rest.split_at(n);
        rest = tail;
        Some((first, group))
    })
}

/// `0..15, 17, 20..31` (ranges inclusive, as lanes `0-15` are); past `RANGES_SHOWN` ranges the
/// rest is counted: `0, 2, 4, 6, 8, … (32 elements)`.
fn ranges(cells: &[CellTouch]) -> String {
    let mut runs: Vec<(u32, u32)> = Vec::new();
    for c in cells {
        match runs.last_mut() {
            Some((_, end)) if *end + 1 == c.cell.index => *end = c.cell.index,
            _ => runs.push((c.cell.index, c.cell.index)),
        }
    }
    let shown = if runs.len() > RANGES_SHOWN { RANGES_SHOWN - 1 } else { runs.len() };
    let mut parts: Vec<String> = runs[..shown].iter().map(|&(a, b)| if a == b { format!("{a}") } else { format!("{a}..{b}") }).collect();
    if shown < runs.len() {
        parts.push(format!("… ({} elements)", cells.len()));
    }
    parts.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::asm::assemble;
    use crate::machine::{ElemType, Machine};
    use crate::sim::SimConfig;
    use alloc::vec;

    fn sim(src: &str, width: u32) -> Sim {
        let (p, d) = assemble(src);
        assert!(d.is_empty(), "{d:?}");
        let mut memory = Memory::default();
        memory.add("a", ElemType::I32, vec![0; 64]);
        memory.add("out", ElemType::F32, vec![0; 4]);
        let mut m = Machine::new(width, 8, memory);
        let (a, out) = (m.memory.buffers[0].base, m.memory.buffers[1].base);
        for l in 0..width {
            m.set_reg(l, crate::isa::Reg(1), a);
            m.set_reg(l, crate::isa::Reg(2), out);
        }
        let mut s = Sim::new(p, m, SimConfig::default());
        s.run_to_end();
        s
    }

    #[test]
    fn a_store_by_lanes_says_which_elements_it_wrote() {
        // R3 = 4 * lane; lanes 0-15 store to a[lane]; all lanes add to out[0]; odd lanes read a[2 * lane].
        let s = sim(
            "S2R R0, SR_TID.X\nSHL R3, R0, 0x2\nIADD R4, R1, R3\nISETP.LT.AND P0, PT, R0, 0x10, PT\n@P0 ST.E [R4], R0\n\
             ATOM.E.ADD R5, [R2], 0x1\nIADD R6, R4, R3\nLOP.AND R7, R0, 0x1\nISETP.NE.AND P1, PT, R7, RZ, PT\n@P1 LD.E R5, [R6]\n\
             @P1 LD.E R5, [R6+0x400]\nEXIT\n",
            32,
        );
        assert_eq!(s.step_access(0), None);
        assert_eq!(s.step_access(4), None, "ISETP touches no memory");
        let st = s.step_access(5).unwrap();
        assert_eq!(st.text, "step 5: ST.E by lanes 0-15 wrote a[0..15]");
        assert_eq!(st.cells.len(), 16);
        assert_eq!(s.step_access(6).unwrap().text, "step 6: ATOM.E.ADD by lanes 0-31 updated out[0]");
        assert_eq!(s.step_access(6).unwrap().cells[0].lanes.count(), 32);
        let ld = s.step_access(10).unwrap();
        assert_eq!(
            ld.text,
            "step 10: LD.E by lanes 1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31 read a[2, 6, 10, 14, 18, … (16 elements)]"
        );
        assert_eq!(ld.cells.len(), 16);
        assert_eq!(s.step_access(13), None, "past the run");
    }

    #[test]
    fn a_guard_false_everywhere_touches_nothing() {
        let s = sim("ISETP.LT.AND P0, PT, RZ, RZ, PT\n@P0 ST.E [R1], RZ\nEXIT\n", 4);
        assert_eq!(s.step_access(2).unwrap().text, "step 2: ST.E touched no memory: its guard was false in every lane it ran on");
    }
}
