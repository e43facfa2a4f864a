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

use super::timing::{Params, P};
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
    /// The latency-aware timing model (`sim::timing`) with these parameters, in place of the
    /// counts above: each instruction issues when its operands, its pipe and the control flow
    /// before it let it. Not serialized: presets travel by name.
    #[cfg_attr(feature = "serde", serde(skip))]
    pub timing: Option<Params>,
}

impl CostModel {
    pub const KEPLER: CostModel = CostModel { instruction: 1, divergence: 32, spill: 42, fill: 42, timing: None };
    pub const MAXWELL: CostModel = CostModel { instruction: 1, divergence: 26, spill: 88, fill: 88, timing: None };
    /// The H100 (sm_90) as measured in `reference/h100/REPORT.md`: 13 cycles per divergent event
    /// (a loop exit that splits the warp), which covers the extra BSYNC the exiting lanes issue;
    /// no stack to spill.
    pub const H100: CostModel = CostModel { instruction: 1, divergence: 13, spill: 0, fill: 0, timing: None };
    /// Hovland's Tesla (GT200) model: a warp instruction takes 4 cycles on the SM's 8 cores, and
    /// divergent paths simply run one after another. No stack cost is modelled; the divergence
    /// cost is the issue of the carrier instruction the stack adds.
    pub const TESLA: CostModel = CostModel { instruction: 4, divergence: 4, spill: 0, fill: 0, timing: None };
    pub const PRESETS: &'static [(&'static str, CostModel)] =
        &[("kepler", CostModel::KEPLER), ("maxwell", CostModel::MAXWELL), ("h100", CostModel::H100), ("tesla", CostModel::TESLA)];
    /// The latency-aware H100 model, calibrated on the GPU (`core/data/h100_timing.txt`).
    pub const H100_TIMED: &'static str = "h100-timed";

    /// The H100's timing model with its calibrated parameters.
    pub fn h100_timed() -> CostModel {
        CostModel { timing: Some(Params::h100()), ..CostModel::H100 }
    }

    pub fn preset(name: &str) -> Option<CostModel> {
        if name == CostModel::H100_TIMED {
            return Some(CostModel::h100_timed());
        }
        CostModel::PRESETS.iter().find(|(n, _)| *n == name).map(|(_, c)| *c)
    }
    /// Every preset's name, in the order menus list them.
    pub fn names() -> alloc::vec::Vec<&'static str> {
        let mut names: alloc::vec::Vec<&'static str> = CostModel::PRESETS.iter().map(|p| p.0).collect();
        names.insert(3, CostModel::H100_TIMED);
        names
    }
    /// Every preset's name, comma-separated, for "unknown preset" messages.
    pub fn known_presets() -> alloc::string::String {
        CostModel::names().join(", ")
    }

    /// Sets one field by name (`instruction`, `divergence`, `spill`, `fill`, or under the timing
    /// model one of its parameters, `latency.fp32` ...); false if unknown.
    pub fn set(&mut self, field: &str, value: u32) -> bool {
        match field {
            "instruction" => self.instruction = value,
            "divergence" => self.divergence = value,
            "spill" => self.spill = value,
            "fill" => self.fill = value,
            _ => match (self.timing.as_mut(), P::from_name(field)) {
                (Some(t), Some(p)) => t.set(p, value.min(u16::MAX as u32) as u16),
                _ => return false,
            },
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
