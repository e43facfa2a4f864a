//! Reconvergence models: how a warp picks which lanes run which instruction next.
//!
//! Each model is one module behind the `Reconvergence` trait. Models take CFG facts from
//! `analysis` when they need them and never compute them themselves; the data path
//! (`machine::execute`) is shared.

pub mod hw_stack;
pub mod kepler;

use alloc::string::String;
use alloc::vec::Vec;

use crate::isa::Pc;
use crate::machine::{LaneMask, Machine};
use crate::program::Program;
pub use hw_stack::{StackConfig, Token, TokenKind};

/// What one step did to the control state, for metrics, the cost model and the timeline.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Effects {
    pub pushes: u32,
    pub pops: u32,
    pub spills: u32,
    pub fills: u32,
    /// A branch split the active lanes.
    pub divergent: bool,
    /// A pop restored lanes that had been split off (a DIV token) or joined a region (SYNC).
    pub reconverged: bool,
    /// The instruction ran as the carrier of a DIV-token pop; its cost is part of the divergence cost.
    pub div_carrier: bool,
    /// Lanes left the kernel.
    pub exited: bool,
}

/// The instruction one step issued.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Issued {
    pub pc: Pc,
    /// The lanes that ran it (before its own guard).
    pub mask: LaneMask,
    /// The lanes that did its work: those whose guard held (every active lane for control flow).
    pub work: LaneMask,
    pub effects: Effects,
}

/// Why a model cannot go on.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum ControlError {
    Fault(String),
    Deadlock(String),
}

/// One entry of a model's stack, for views.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct StackEntry {
    pub kind: TokenKind,
    pub mask: LaneMask,
    pub pc: Pc,
    /// False when the entry has been spilled to memory.
    pub on_chip: bool,
}

/// The one trait every reconvergence model implements.
pub trait Reconvergence {
    /// Issues one warp instruction: chooses pc and lanes, runs the data path, updates control state.
    /// Only called while `finished()` is false.
    fn step(&mut self, prog: &Program, m: &mut Machine) -> Result<Issued, ControlError>;
    /// True when no lane is left to run.
    fn finished(&self) -> bool;
    /// The pc that issues next, if any.
    fn pc(&self) -> Option<Pc>;
    /// The lanes that issue next.
    fn active(&self) -> LaneMask;
    /// Entries on the reconvergence stack, bottom first.
    fn stack(&self) -> Vec<StackEntry>;
    fn depth(&self) -> usize;
    /// The lanes the next step issues (not always `active`: a pop runs its carrier with the
    /// popped token's lanes).
    fn issuing(&self, prog: &Program) -> LaneMask;
    /// Where a lane that has not exited runs next (issuing) or resumes (waiting).
    fn lane_pc(&self, prog: &Program, lane: u32) -> Option<Pc>;
}

/// The selectable models.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "kebab-case"))]
pub enum ModelKind {
    /// Fermi/Kepler token stack: SSY/SYNC, `.S`, PBK/BRK, PCNT/CONT, CAL/RET.
    Kepler,
}

impl ModelKind {
    pub const ALL: &'static [ModelKind] = &[ModelKind::Kepler];

    pub fn name(self) -> &'static str {
        match self {
            ModelKind::Kepler => "kepler",
        }
    }
    pub fn from_name(name: &str) -> Option<ModelKind> {
        ModelKind::ALL.iter().copied().find(|k| k.name() == name)
    }
    /// The code a C kernel is compiled to for this model.
    pub fn compile_target(self) -> crate::compile::Target {
        match self {
            ModelKind::Kepler => crate::compile::Target::Kepler,
        }
    }
    /// Every model's name, comma-separated, for "unknown model" messages.
    pub fn known_names() -> alloc::string::String {
        ModelKind::ALL.iter().map(|k| k.name()).collect::<alloc::vec::Vec<_>>().join(", ")
    }
}

/// A model's state; an enum so the whole warp state stays plain, clonable data.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum ModelState {
    Kepler(kepler::TokenStackModel),
}

impl ModelState {
    pub fn new(kind: ModelKind, prog: &Program, m: &mut Machine, stack: StackConfig) -> ModelState {
        match kind {
            ModelKind::Kepler => ModelState::Kepler(kepler::TokenStackModel::new(prog, m, stack)),
        }
    }
    pub fn kind(&self) -> ModelKind {
        match self {
            ModelState::Kepler(_) => ModelKind::Kepler,
        }
    }
    fn inner(&self) -> &dyn Reconvergence {
        match self {
            ModelState::Kepler(s) => s,
        }
    }
}

impl Reconvergence for ModelState {
    fn step(&mut self, prog: &Program, m: &mut Machine) -> Result<Issued, ControlError> {
        match self {
            // Static dispatch on the hot path.
            ModelState::Kepler(s) => s.step(prog, m),
        }
    }
    fn finished(&self) -> bool {
        match self {
            ModelState::Kepler(s) => s.finished(),
        }
    }
    fn pc(&self) -> Option<Pc> {
        match self {
            ModelState::Kepler(s) => s.pc(),
        }
    }
    fn active(&self) -> LaneMask {
        self.inner().active()
    }
    fn stack(&self) -> Vec<StackEntry> {
        self.inner().stack()
    }
    fn depth(&self) -> usize {
        match self {
            ModelState::Kepler(s) => s.depth(),
        }
    }
    fn issuing(&self, prog: &Program) -> LaneMask {
        self.inner().issuing(prog)
    }
    fn lane_pc(&self, prog: &Program, lane: u32) -> Option<Pc> {
        self.inner().lane_pc(prog, lane)
    }
}
