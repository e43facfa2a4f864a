//! Control-flow graphs: the graph value (`graph`) and its construction from a program (`build`).

mod graph;

pub use graph::*;
