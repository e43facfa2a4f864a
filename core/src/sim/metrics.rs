//! Run metrics, counted as the warp steps.

use alloc::vec;
use alloc::vec::Vec;

use crate::cfg::ProgramCfg;
use crate::machine::LaneMask;
use crate::model::{Issued, PlainStep};

#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct Metrics {
    pub steps: u64,
    pub warp_instructions: u64,
    /// Sum over warp instructions of the lanes that did their work (guard held).
    pub thread_instructions: u64,
    /// Sum over warp instructions of the lanes that issued them, guard or not (ncu's
    /// `smsp__thread_inst_executed`; the guard's count is its `_pred_on`).
    pub active_thread_instructions: u64,
    pub pushes: u64,
    pub pops: u64,
    pub max_stack_depth: u64,
    pub spills: u64,
    pub fills: u64,
    pub divergent_branches: u64,
    pub cycles: u64,
    /// Warp instructions issued with no lane at their pc (thread frontiers on Sandy Bridge).
    pub idle_instructions: u64,
    /// Executions of each instruction, by pc.
    pub instr_counts: Vec<u64>,
    /// The clock lane 0 read first and last (`clock()`, `clock64()`): a kernel that times
    /// itself reads it around its body, so their difference is what it would report.
    pub clock_reads: Option<(u64, u64)>,
    /// Whether the program reads the clock at all, so a step of one that does not never looks.
    pub reads_clock: bool,
    /// The last work mask counted and its lanes: steps mostly run the lanes the step before ran,
    /// and a population count without a `popcnt` instruction is a dozen more per step.
    work_seen: LaneMask,
    work_lanes: u64,
    mask_seen: LaneMask,
    mask_lanes: u64,
}

impl Metrics {
    pub fn new(program: &crate::program::Program) -> Metrics {
        let reads_clock = program.instrs.iter().any(|i| i.op.clock_word().is_some());
        Metrics { instr_counts: vec![0; program.len()], reads_clock, ..Metrics::default() }
    }

    /// Counts one step; `counts` is false for a part of a real SASS instruction's sequence,
    /// which is no warp instruction of its own.
    pub fn record(&mut self, issued: &Issued, depth: usize, cycles: u64, counts: bool) {
        let fx = &issued.effects;
        self.record_plain(PlainStep { pc: issued.pc, mask: issued.mask, work: issued.work }, depth, cycles, counts);
        self.pushes += fx.pushes as u64;
        self.pops += fx.pops as u64;
        self.spills += fx.spills as u64;
        self.fills += fx.fills as u64;
        self.divergent_branches += fx.divergent as u64;
    }

    /// A plain step (`Reconvergence::step_plain`), and what every step counts.
    #[inline(always)]
    pub fn record_plain(&mut self, p: PlainStep, depth: usize, cycles: u64, counts: bool) {
        self.steps += 1;
        self.warp_instructions += counts as u64;
        if counts {
            if p.work != self.work_seen {
                self.work_seen = p.work;
                self.work_lanes = p.work.count() as u64;
            }
            self.thread_instructions += self.work_lanes;
            if p.mask != self.mask_seen {
                self.mask_seen = p.mask;
                self.mask_lanes = p.mask.count() as u64;
            }
            self.active_thread_instructions += self.mask_lanes;
        }
        self.max_stack_depth = self.max_stack_depth.max(depth as u64);
        self.cycles += cycles;
        self.idle_instructions += p.mask.is_empty() as u64;
        if let Some(c) = self.instr_counts.get_mut(p.pc.index()) {
            *c += 1;
        }
    }

    /// Lane 0 read the clock, which said `value`.
    pub fn clock_read(&mut self, value: u64) {
        self.clock_reads = Some(self.clock_reads.map_or((value, value), |(first, _)| (first, value)));
    }

    /// Cycles between lane 0's first and last clock reads (0 when it read it at most once).
    pub fn clock_window(&self) -> u64 {
        self.clock_reads.map_or(0, |(first, last)| last - first)
    }

    /// Executions of each block: how often its first instruction ran.
    pub fn block_counts(&self, cfg: &ProgramCfg) -> Vec<u64> {
        cfg.blocks.iter().map(|b| self.instr_counts.get(b.start.index()).copied().unwrap_or(0)).collect()
    }

    /// Active lanes over (W x warp instructions): 1.0 when no lane ever idles. This is the
    /// thread-frontier paper's activity factor.
    pub fn simd_efficiency(&self, width: u32) -> f64 {
        if self.warp_instructions == 0 {
            return 1.0;
        }
        self.thread_instructions as f64 / (width as f64 * self.warp_instructions as f64)
    }
}

/// The run metrics front ends show, named once: the CLI's rows and JSON, a sweep's columns and
/// plot choices, and the page's metrics all list these, in this order.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Metric {
    Cycles,
    WarpInstructions,
    ThreadInstructions,
    SimdEfficiency,
    Pushes,
    Pops,
    MaxStackDepth,
    Spills,
    Fills,
    DivergentBranches,
    Steps,
    ClockWindow,
}

impl Metric {
    pub const ALL: &'static [Metric] = &[
        Metric::Cycles,
        Metric::WarpInstructions,
        Metric::ThreadInstructions,
        Metric::SimdEfficiency,
        Metric::Pushes,
        Metric::Pops,
        Metric::MaxStackDepth,
        Metric::Spills,
        Metric::Fills,
        Metric::DivergentBranches,
        Metric::Steps,
        Metric::ClockWindow,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Metric::Cycles => "cycles",
            Metric::WarpInstructions => "warp_instructions",
            Metric::ThreadInstructions => "thread_instructions",
            Metric::SimdEfficiency => "simd_efficiency",
            Metric::Pushes => "pushes",
            Metric::Pops => "pops",
            Metric::MaxStackDepth => "max_stack_depth",
            Metric::Spills => "spills",
            Metric::Fills => "fills",
            Metric::DivergentBranches => "divergent_branches",
            Metric::ClockWindow => "clock_window",
            Metric::Steps => "steps",
        }
    }

    /// An axis label.
    pub fn label(self) -> &'static str {
        match self {
            Metric::Cycles => "cycles (cost model)",
            Metric::WarpInstructions => "warp instructions",
            Metric::ThreadInstructions => "thread instructions",
            Metric::SimdEfficiency => "SIMD efficiency",
            Metric::Pushes => "stack pushes",
            Metric::Pops => "stack pops",
            Metric::MaxStackDepth => "max stack depth",
            Metric::Spills => "stack spills",
            Metric::Fills => "stack fills",
            Metric::DivergentBranches => "divergent branches",
            Metric::Steps => "steps",
            Metric::ClockWindow => "cycles between lane 0's clock reads",
        }
    }

    pub fn from_name(name: &str) -> Option<Metric> {
        Metric::ALL.iter().copied().find(|m| m.name() == name)
    }

    /// Whether the metric counts cycles, so hardware measurements in cycles can stand beside it:
    /// the cost model's count and the clock a kernel that times itself reads.
    pub fn counts_cycles(self) -> bool {
        matches!(self, Metric::Cycles | Metric::ClockWindow)
    }

    /// True for a fraction (printed with decimals), false for a count.
    pub fn is_ratio(self) -> bool {
        self == Metric::SimdEfficiency
    }
}

/// Every `Metric` of one run, as plain numbers (a sweep point, the page's metrics panel).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct PointMetrics {
    pub steps: u64,
    pub warp_instructions: u64,
    pub thread_instructions: u64,
    pub simd_efficiency: f64,
    pub pushes: u64,
    pub pops: u64,
    pub max_stack_depth: u64,
    pub spills: u64,
    pub fills: u64,
    pub divergent_branches: u64,
    pub cycles: u64,
    /// Cycles between lane 0's first and last clock reads: what a kernel that times itself reports.
    pub clock_window: u64,
}

impl PointMetrics {
    /// The metrics of a warp of `width` lanes.
    pub fn of(m: &Metrics, width: u32) -> PointMetrics {
        PointMetrics {
            steps: m.steps,
            warp_instructions: m.warp_instructions,
            thread_instructions: m.thread_instructions,
            simd_efficiency: m.simd_efficiency(width),
            pushes: m.pushes,
            pops: m.pops,
            max_stack_depth: m.max_stack_depth,
            spills: m.spills,
            fills: m.fills,
            divergent_branches: m.divergent_branches,
            cycles: m.cycles,
            clock_window: m.clock_window(),
        }
    }

    pub fn get(&self, metric: Metric) -> f64 {
        match metric {
            Metric::Steps => self.steps as f64,
            Metric::WarpInstructions => self.warp_instructions as f64,
            Metric::ThreadInstructions => self.thread_instructions as f64,
            Metric::SimdEfficiency => self.simd_efficiency,
            Metric::Pushes => self.pushes as f64,
            Metric::Pops => self.pops as f64,
            Metric::MaxStackDepth => self.max_stack_depth as f64,
            Metric::Spills => self.spills as f64,
            Metric::Fills => self.fills as f64,
            Metric::DivergentBranches => self.divergent_branches as f64,
            Metric::Cycles => self.cycles as f64,
            Metric::ClockWindow => self.clock_window as f64,
        }
    }

    /// The metric as the CLI and the CSV print it: counts whole, ratios to six places.
    pub fn text(&self, metric: Metric) -> alloc::string::String {
        let v = self.get(metric);
        if metric.is_ratio() {
            alloc::format!("{v:.6}")
        } else {
            alloc::format!("{v}")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::isa::Pc;
    use crate::model::Effects;

    /// Thread instructions add each step's work lanes, whether the mask changed or not.
    #[test]
    fn thread_instructions_count_each_steps_lanes() {
        let mut m = Metrics::default();
        let masks = [u64::MAX, u64::MAX, 0xff, 0, 0xff, 1 << 63, u64::MAX, 0b101];
        for (i, &w) in masks.iter().enumerate() {
            let issued = Issued { pc: Pc(0), mask: LaneMask(u64::MAX), work: LaneMask(w), effects: Effects::default() };
            // The fourth step is part of a SASS instruction's sequence: it counts nothing.
            m.record(&issued, 0, 1, i != 3);
        }
        assert_eq!(m.thread_instructions, 64 + 64 + 8 + 8 + 1 + 64 + 2);
    }
}
