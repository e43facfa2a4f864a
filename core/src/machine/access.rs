//! Where a memory instruction's lanes land: each word each lane touches and the buffer element it
//! falls in, computed from the instruction and the machine state before it runs. A pure function
//! for views (the app's memory panel) and checks; the data path (`exec`) makes the accesses and
//! shares its address arithmetic with this.

use alloc::vec::Vec;

use super::exec::address;
use super::{Cell, LaneMask, Machine};
use crate::isa::{AccessKind, Instruction};

/// One word one lane touches: its byte address and, when it is inside a buffer, the element.
/// A byte or halfword access touches the word it lies in; `addr` is the byte's address.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Touch {
    pub lane: u32,
    pub addr: u32,
    /// `None` for an address outside every buffer or not aligned (the data path faults).
    pub cell: Option<Cell>,
    /// Elements from `cell` on that the access covers: more than one where a word (of PTX's or
    /// SASS's `LD.E`, `LD.E.64`...) reads or writes a buffer of bytes or halfwords.
    pub elems: u32,
}

/// A touched element and every lane that touched it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct CellTouch {
    pub cell: Cell,
    pub lanes: LaneMask,
}

/// What `instr` does to memory on `lanes` of `m`: the kind of access and the words touched, or
/// `None` for an instruction that does not access memory.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Access {
    pub kind: AccessKind,
    /// The lanes that access memory: those of `lanes` whose guard holds.
    pub lanes: LaneMask,
    /// Lane by lane (lowest first), word by word.
    pub touches: Vec<Touch>,
}

/// The memory `instr` accesses when it runs on `lanes` of `m` (its guard read from `m`, as the
/// data path reads it). Pure: `m` is the state before the instruction.
pub fn access(m: &Machine, instr: &Instruction, lanes: LaneMask) -> Option<Access> {
    let used = instr.op.memory_use()?;
    let lanes = m.guard_mask(instr.guard, lanes) & m.all_lanes();
    let mut touches = Vec::with_capacity((lanes.count() * used.words) as usize);
    for lane in lanes.iter() {
        for w in 0..used.words {
            let addr = address(m, lane, used.addr, w);
            // A byte or halfword of a wider element is that element.
            let cell =
                if used.bytes >= 4 || !addr.is_multiple_of(used.bytes) { m.memory.cell_at(addr) } else { m.memory.cell_containing(addr) };
            let elems = cell.map_or(1, |c| {
                let b = &m.memory.buffers[c.buffer as usize];
                (used.bytes.min(4) / b.elem.bytes()).clamp(1, b.count.saturating_sub(c.index).max(1))
            });
            touches.push(Touch { lane, addr, cell, elems });
        }
    }
    Some(Access { kind: used.kind, lanes, touches })
}

impl Access {
    /// Only the touches of `lanes` (a step's issued lanes, of an access computed for more).
    pub fn within(mut self, lanes: LaneMask) -> Access {
        self.lanes &= lanes;
        self.touches.retain(|t| lanes.contains(t.lane));
        self
    }

    /// Each touched element once, in memory order, with the lanes that touched it.
    pub fn cells(&self) -> Vec<CellTouch> {
        let mut cells: Vec<CellTouch> = Vec::new();
        for t in &self.touches {
            let Some(first) = t.cell else { continue };
            for index in first.index..first.index + t.elems {
                let cell = Cell { index, ..first };
                match cells.binary_search_by(|c| c.cell.cmp(&cell)) {
                    Ok(k) => cells[k].lanes = cells[k].lanes.with(t.lane),
                    Err(k) => cells.insert(k, CellTouch { cell, lanes: LaneMask::lane(t.lane) }),
                }
            }
        }
        cells
    }

    /// Touches outside every buffer (none in a step that ran: the data path faults on them).
    pub fn stray(&self) -> usize {
        self.touches.iter().filter(|t| t.cell.is_none()).count()
    }
}

#[cfg(test)]
mod tests;
