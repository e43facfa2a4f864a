//! Cycle estimates from event counts, with the papers' measured presets.
//!
//! Bialas & Strzelecki fit 32 cycles per divergent branch on Kepler (26 on Maxwell), which covers
//! the push, the carrier instruction and the pop, and about 84 (Maxwell: 176) cycles per spill
//! plus fill, split evenly between the push that spills and the pop that fills (their Section
//! IV-A measures about 40 and 42 on Kepler). The issue cost of ordinary instructions is not
//! fitted by the paper; it is one cycle here, so differences between runs are exact. An
//! instruction that stands for a sequence costs the sequence's issues: warpscope's `IDIV`/`IREM`
//! cost `isa::DIVIDE_ISSUES` (15) instructions, the length of nvcc's division sequence, and its
//! `FDIV`/`DDIV` as many for the division subroutine nvcc calls.

use crate::model::Effects;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct CostModel {
    /// Cycles per warp instruction issued (carriers of DIV pops excepted: see `divergence`).
    pub instruction: u32,
    /// Cycles per divergent branch: its push, the carrier instruction and the pop.
    pub divergence: u32,
    /// Cycles per chunk spilled to memory.
    pub spill: u32,
    /// Cycles per chunk filled back from memory.
    pub fill: u32,
}

impl CostModel {
    pub const KEPLER: CostModel = CostModel { instruction: 1, divergence: 32, spill: 42, fill: 42 };
    pub const MAXWELL: CostModel = CostModel { instruction: 1, divergence: 26, spill: 88, fill: 88 };
    /// The H100 (sm_90) as measured in `reference/h100/REPORT.md`: 13 cycles per divergent event
    /// (a loop exit that splits the warp), which covers the extra BSYNC the exiting lanes issue;
    /// no stack to spill.
    pub const H100: CostModel = CostModel { instruction: 1, divergence: 13, spill: 0, fill: 0 };
    /// Hovland's Tesla (GT200) model: a warp instruction takes 4 cycles on the SM's 8 cores, and
    /// divergent paths simply run one after another. No stack cost is modelled; the divergence
    /// cost is the issue of the carrier instruction the stack adds.
    pub const TESLA: CostModel = CostModel { instruction: 4, divergence: 4, spill: 0, fill: 0 };
    pub const PRESETS: &'static [(&'static str, CostModel)] =
        &[("kepler", CostModel::KEPLER), ("maxwell", CostModel::MAXWELL), ("h100", CostModel::H100), ("tesla", CostModel::TESLA)];

    pub fn preset(name: &str) -> Option<CostModel> {
        CostModel::PRESETS.iter().find(|(n, _)| *n == name).map(|(_, c)| *c)
    }
    /// Every preset's name, comma-separated, for "unknown preset" messages.
    pub fn known_presets() -> alloc::string::String {
        CostModel::PRESETS.iter().map(|p| p.0).collect::<alloc::vec::Vec<_>>().join(", ")
    }

    /// Sets one field by name (`instruction`, `divergence`, `spill`, `fill`); false if unknown.
    pub fn set(&mut self, field: &str, value: u32) -> bool {
        match field {
            "instruction" => self.instruction = value,
            "divergence" => self.divergence = value,
            "spill" => self.spill = value,
            "fill" => self.fill = value,
            _ => return false,
        }
        true
    }

    /// Cycles one step costs; `issues`: the warp instructions it stands for (`Op::issues`).
    pub fn cycles(&self, fx: &Effects, issues: u32) -> u64 {
        let issue = if fx.div_carrier { 0 } else { self.instruction as u64 * issues as u64 };
        issue + fx.divergent as u64 * self.divergence as u64 + fx.spills as u64 * self.spill as u64 + fx.fills as u64 * self.fill as u64
    }
}

impl Default for CostModel {
    fn default() -> Self {
        CostModel::KEPLER
    }
}
