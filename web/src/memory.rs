//! The memory panel's views: every buffer of the run, what the step just executed did to memory
//! (from the core's `Sim::step_access`), and windows of element values as text (the core's
//! `Elem` display: floats with the fewest digits that read back). Formatting only.

use serde::Serialize;
use ts_rs::TS;
use warpscope_core::isa::AccessKind;
use warpscope_core::machine::{ElemType, LaneList, Memory, Space};
use warpscope_core::program::Program;
use warpscope_core::sim::{Sim, StepAccess};

/// The most elements one `Session.memory_cells` call returns.
pub const MEMORY_WINDOW_MAX: u32 = 4096;

#[derive(Serialize, TS)]
pub struct BufferView {
    pub name: String,
    pub elem: ElemType,
    /// Elements (a 64-bit element takes two words).
    pub len: u32,
    /// Byte address of element 0.
    pub base: u32,
    /// In shared memory (a `__shared__` variable: its own address window) rather than global memory.
    pub shared: bool,
}

/// An element the step touched, and the lanes that touched it.
#[derive(Serialize, TS)]
pub struct CellTouchView {
    /// Index into `MemoryView.buffers`.
    pub buffer: u32,
    pub index: u32,
    pub lanes: Vec<u32>,
    /// `0-15, 17`.
    pub lane_text: String,
}

/// What the step just executed (from the state after `step - 1` steps) did to memory.
#[derive(Serialize, TS)]
pub struct AccessView {
    pub kind: AccessKind,
    /// The core's word for a touched element: `written`, `read` or `updated`.
    pub participle: &'static str,
    pub pc: u32,
    pub addr: u32,
    pub line: Option<u32>,
    /// The instruction as written.
    pub instruction: String,
    /// The lanes that accessed memory (issued, with the guard holding).
    pub lanes: Vec<u32>,
    /// Each element touched once, in memory order.
    pub cells: Vec<CellTouchView>,
    /// `step 41: ST.E by lanes 0-15 wrote a[0..15]`.
    pub summary: String,
}

#[derive(Serialize, TS)]
pub struct MemoryView {
    pub step: f64,
    pub buffers: Vec<BufferView>,
    /// `None` at step 0 and when the step's instruction does not access memory.
    pub access: Option<AccessView>,
    /// A whole launch: `Session.shared_writers` says who wrote each shared element (false for a
    /// warp run alone).
    pub writers: bool,
    /// The step from which the block's shared-memory writes were no longer kept (a long run
    /// filled the log), if one did.
    pub writers_cut_at: Option<f64>,
}

impl MemoryView {
    pub fn new(sim: &Sim) -> MemoryView {
        MemoryView::of(sim.program(), &sim.state().machine.memory, sim.steps(), sim.step_access(sim.steps()))
    }

    /// `memory` after `step` steps, and what that step did to it (`access`).
    pub fn of(prog: &Program, memory: &Memory, step: u64, access: Option<StepAccess>) -> MemoryView {
        let buffers = memory
            .buffers
            .iter()
            .map(|b| BufferView { name: b.name.clone(), elem: b.elem, len: b.elements(), base: b.base, shared: b.space == Space::Shared })
            .collect();
        let access = access.map(|a| AccessView {
            kind: a.access.kind,
            participle: a.access.kind.participle(),
            pc: a.pc.0,
            addr: prog.addr(a.pc),
            line: prog.line(a.pc),
            instruction: prog.get(a.pc).map_or(String::new(), |i| i.text.clone()),
            lanes: a.access.lanes.iter().collect(),
            cells: a
                .cells
                .iter()
                .map(|c| CellTouchView {
                    buffer: c.cell.buffer,
                    index: c.cell.index,
                    lanes: c.lanes.iter().collect(),
                    lane_text: LaneList(c.lanes).to_string(),
                })
                .collect(),
            summary: a.text,
        });
        MemoryView { step: step as f64, buffers, access, writers: false, writers_cut_at: None }
    }
}

/// Elements `from..to` of buffer `buffer` as text (at most `MEMORY_WINDOW_MAX`, within the buffer).
pub fn cells_text(memory: &Memory, buffer: u32, from: u32, to: u32) -> Vec<String> {
    let (Some(b), Some(words)) = (memory.buffers.get(buffer as usize), memory.words.get(buffer as usize)) else { return Vec::new() };
    let to = to.min(b.elements()).min(from.saturating_add(MEMORY_WINDOW_MAX));
    // A byte shows the character it is, too: text in a `char` buffer reads as text.
    (from..to).map(|i| b.elem.shown(b.value(words, i))).collect()
}
