//! Control-flow graphs: the graph value (`graph`) and its construction from a program (`build`).

pub(crate) mod build;
mod graph;

pub use build::{build, BlockRange, ProgramCfg};
pub use graph::*;
