//! Every CFG fact a front end shows about a program, computed once: blocks with their ranges,
//! dominators, reconvergence points, priorities and thread frontiers, and edges marked as back edges. The CLI's
//! `cfg` command and the wasm facade both print this, so they cannot disagree.

use alloc::vec::Vec;

use super::{back_edges, compute_dominators, compute_post_dominators, rpo_priorities, thread_frontiers, PostDom};
use crate::cfg::{build, BlockId, EdgeKind, ProgramCfg};
use crate::isa::{Op, Pc};
use crate::program::Program;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct BlockFacts {
    pub id: BlockId,
    /// Instructions `start..end`.
    pub start: Pc,
    pub end: Pc,
    pub idom: Option<BlockId>,
    /// The immediate post-dominator: where paths leaving this block first meet again.
    pub ipdom: Option<PostDom>,
    /// Reverse-post-order priority; `None` when unreachable.
    pub priority: Option<u32>,
    /// Ends in a guarded `BRA`: the lanes may split here, and reconverge at `ipdom`.
    pub divergent_branch: bool,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct EdgeFacts {
    pub from: BlockId,
    pub to: BlockId,
    pub kind: EdgeKind,
    /// Closes a loop (its target dominates its source, in DFS order).
    pub back: bool,
}

#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct CfgFacts {
    pub graph: ProgramCfg,
    pub blocks: Vec<BlockFacts>,
    pub edges: Vec<EdgeFacts>,
    pub exits: Vec<BlockId>,
    /// Thread frontier of each block, with layout order as priority (the thread-frontier models').
    pub frontiers: Vec<Vec<BlockId>>,
}

pub fn cfg_facts(prog: &Program) -> CfgFacts {
    let graph = build(prog);
    let doms = compute_dominators(&graph.cfg);
    let pdoms = compute_post_dominators(&graph.cfg);
    let prio = rpo_priorities(&graph.cfg);
    let backs = back_edges(&graph.cfg);
    let blocks = graph
        .blocks
        .iter()
        .enumerate()
        .map(|(b, r)| {
            let id = BlockId(b as u32);
            let last = prog.get(Pc(r.end.0.saturating_sub(1)));
            BlockFacts {
                id,
                start: r.start,
                end: r.end,
                idom: doms.idom(id),
                ipdom: pdoms.ipdom(id),
                priority: prio.get(b).copied().flatten(),
                divergent_branch: last.is_some_and(|i| matches!(i.op, Op::Bra { uniform: false, .. }) && i.guard.is_some()),
            }
        })
        .collect();
    let edges = graph
        .cfg
        .edges()
        .iter()
        .map(|e| EdgeFacts { from: e.from, to: e.to, kind: e.kind, back: backs.contains(&(e.from, e.to)) })
        .collect();
    let exits = graph.cfg.exits().to_vec();
    let frontiers = thread_frontiers(&graph.cfg);
    CfgFacts { graph, blocks, edges, exits, frontiers }
}
