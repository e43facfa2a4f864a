//! STRUCT, the fourth scheme of the thread-frontier paper: remove all unstructured control flow
//! with the structural transforms of Zhang and D'Hollander as Wu et al. extend them, then run
//! the result under PDOM.
//!
//! `structure` is a pure function from a program to a program. Each function (the kernel, each
//! `CAL` target) is reduced with the patterns of structured code (`reduce`); where the reduction
//! sticks (`stuck`), one transform (`transform`) is applied and the reduction starts again:
//!
//! - **backward copy**: a loop entered at more than one block gets a copy of its body for each
//!   extra entry;
//! - **cut**: a loop left by more than one edge gets a guard register, one exit, and a dispatch
//!   on the guard after it;
//! - **forward copy**: a block joined by paths that should not meet there is copied for each
//!   predecessor but one (node splitting).
//!
//! The result is laid out again (`emit`) with every instruction's source line and the original
//! instruction it copies; copies are named after their block (`BB3'`, `BB3''`). A structured
//! program comes back unchanged. The output is bounded: past `growth_limit` instructions the
//! transform stops with an error at the line it was copying.

mod emit;
mod graph;
mod kernel;
mod reduce;
mod stuck;
mod transform;

#[cfg(test)]
mod tests;

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

pub use emit::node_name;
pub use graph::{CutPart, NodeRole, StructError};
use graph::{Graph, NodeId};
pub use kernel::restructure;
use reduce::Regions;
use stuck::Fix;

use crate::cfg::build::{build, ProgramCfg};
use crate::cfg::BlockId;
use crate::isa::{Pc, Reg};
use crate::program::Program;

/// The largest program the transform writes, whatever the input.
pub const MAX_STRUCTURED_INSTRUCTIONS: usize = 1 << 16;
/// Transforms applied at most (each one a copy or a cut).
const MAX_TRANSFORMS: u32 = 4096;

/// How often each transform was applied, and the static code it cost (the paper's Table 5).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct TransformCounts {
    /// Copies of a join made for one more predecessor.
    pub forward_copies: u32,
    /// Copies of a loop body made for one more entry.
    pub backward_copies: u32,
    /// Loops given a guard register and one exit.
    pub cuts: u32,
    /// Instructions before and after.
    pub instructions_before: u32,
    pub instructions_after: u32,
}

impl TransformCounts {
    /// Static code expansion: instructions after over before, minus one.
    pub fn static_expansion(&self) -> f64 {
        if self.instructions_before == 0 {
            return 0.0;
        }
        self.instructions_after as f64 / self.instructions_before as f64 - 1.0
    }
}

/// One block of the structured program's layout: an original block, a copy, or cut code.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct StructNode {
    pub name: String,
    pub role: NodeRole,
}

/// A program with no unstructured control flow left, and how it maps back.
#[derive(Clone, PartialEq, Debug)]
pub struct Structured {
    /// The program as it came in.
    pub original: Program,
    pub program: Program,
    /// Per pc: the original instruction it runs (`None`: written by the transform).
    pub origin: Vec<Option<Pc>>,
    /// Per pc: its node in `nodes`.
    pub node_of: Vec<u32>,
    pub nodes: Vec<StructNode>,
    pub counts: TransformCounts,
    /// The program as a listing: node names as labels, source lines as comments.
    pub listing: String,
    /// Per pc: its line in `listing`.
    pub listing_lines: Vec<u32>,
}

/// A block of the structured program's CFG as the views name it.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct BlockOrigin {
    /// `BB3`, `BB3'`, `cut1.test`; a block laid out from two nodes names both (`BB4'+BB5'`).
    pub name: String,
    /// The original block it is or copies (`None`: the cut wrote it).
    pub original: Option<BlockId>,
    /// 0 for the original itself, n for its n-th copy.
    pub copy: u32,
}

impl Structured {
    /// Each block of `graph` (the CFG of `program`) named by the nodes laid out in it.
    pub fn blocks(&self, graph: &ProgramCfg) -> Vec<BlockOrigin> {
        graph
            .blocks
            .iter()
            .map(|b| {
                let mut nodes: Vec<u32> = (b.start.0..b.end.0).filter_map(|pc| self.node_of.get(pc as usize).copied()).collect();
                nodes.dedup();
                let name = nodes.iter().filter_map(|&n| self.nodes.get(n as usize)).map(|n| n.name.as_str()).collect::<Vec<_>>().join("+");
                let (original, copy) = match nodes.first().and_then(|&n| self.nodes.get(n as usize)).map(|n| n.role) {
                    Some(NodeRole::Block { block, copy }) => (Some(block), copy),
                    _ => (None, 0),
                };
                BlockOrigin { name, original, copy }
            })
            .collect()
    }

    /// Where original instruction `pc` runs now: in the block itself, not a copy.
    pub fn moved(&self, pc: Pc) -> Option<Pc> {
        let original = |at: &usize| {
            self.node_of
                .get(*at)
                .and_then(|&n| self.nodes.get(n as usize))
                .is_some_and(|n| matches!(n.role, NodeRole::Block { copy: 0, .. }))
        };
        let runs: Vec<usize> = (0..self.origin.len()).filter(|&at| self.origin[at] == Some(pc)).collect();
        runs.iter().find(|at| original(at)).or(runs.first()).map(|&at| Pc(at as u32))
    }

    /// True when the transform changed nothing.
    pub fn unchanged(&self) -> bool {
        self.counts.forward_copies + self.counts.backward_copies + self.counts.cuts == 0
    }
}

/// The instructions the transform may write for a program of `n`.
pub fn growth_limit(n: usize) -> usize {
    (8 * n + 512).min(MAX_STRUCTURED_INSTRUCTIONS)
}

/// Whether every function of `prog` reduces to one region by the patterns of structured code.
pub fn is_structured(prog: &Program) -> bool {
    Graph::of(prog).is_ok_and(|g| reduce::structured(&g))
}

/// The program with its unstructured control flow transformed away.
pub fn structure(prog: &Program) -> Result<Structured, StructError> {
    structure_keeping(prog, &[])
}

/// `structure`, keeping the registers `keep` (a kernel's `//@ reg` inputs) out of the cuts'
/// guards as well as every register the program names.
pub fn structure_keeping(prog: &Program, keep: &[Reg]) -> Result<Structured, StructError> {
    let g = Graph::of(prog)?;
    let before = prog.len() as u32;
    let counts = TransformCounts { instructions_before: before, instructions_after: before, ..TransformCounts::default() };
    if reduce::structured(&g) {
        return Ok(unchanged(prog, counts));
    }
    let mut d = Driver { scratch: transform::Scratch::of(prog, keep), g, prog, counts, cut_heads: Vec::new() };
    for p in 0..d.g.procs.len() {
        while let Some(at) = d.step(p)? {
            d.check_growth(at)?;
        }
    }
    let e = emit::emit(&d.g, prog);
    let counts = TransformCounts { instructions_after: e.program.len() as u32, ..d.counts };
    let nodes: Vec<StructNode> = e.names.iter().map(|(name, role)| StructNode { name: name.clone(), role: *role }).collect();
    let (listing, listing_lines) = emit::listing(&e.program, &e.node_of, &nodes);
    Ok(Structured {
        original: prog.clone(),
        program: e.program,
        origin: e.origin,
        node_of: e.node_of,
        nodes,
        counts,
        listing,
        listing_lines,
    })
}

/// The transform under way: the graph, what it applied, and what the cuts may still use.
struct Driver<'a> {
    g: Graph,
    prog: &'a Program,
    counts: TransformCounts,
    scratch: transform::Scratch,
    /// Loop headers already cut: a second cut of one would not make progress.
    cut_heads: Vec<NodeId>,
}

impl Driver<'_> {
    /// Reduces procedure `p`; where it sticks, applies one transform and says at which node
    /// (`None`: `p` is structured).
    fn step(&mut self, p: usize) -> Result<Option<NodeId>, StructError> {
        let g = &mut self.g;
        let mut r = Regions::of(g, p);
        r.reduce();
        if r.done() {
            return Ok(None);
        }
        let mut rank = alloc::vec![0usize; g.nodes.len()];
        let mut order: Vec<NodeId> = (0..g.nodes.len()).collect();
        order.sort_by(|&a, &b| g.layout(a, b));
        for (i, &v) in order.iter().enumerate() {
            rank[v] = i;
        }
        let size = |x: usize| r.members[x].iter().map(|&v| g.size(v)).sum::<usize>();
        let key = |x: usize| r.members[x].first().map_or(0, |&v| rank[v]);
        let fix = stuck::fix(&r, &size, &key);
        let at = match fix {
            Fix::Forward { join } => {
                self.counts.forward_copies += transform::forward_copy(g, &r, join);
                r.members[join][0]
            }
            Fix::Backward { scc, header, entry } => {
                transform::backward_copy(g, &r, &scc, header, entry);
                self.counts.backward_copies += 1;
                r.members[entry][0]
            }
            Fix::Cut { scc, header } => {
                let head = r.members[header][0];
                if self.cut_heads.contains(&head) {
                    return Err(stuck_at(g, self.prog, head));
                }
                transform::cut(g, &r, &scc, header, self.counts.cuts + 1, self.prog, &mut self.scratch)
                    .map_err(|(v, message)| StructError { line: g.first_line(self.prog, v), message })?;
                self.cut_heads.push(head);
                self.counts.cuts += 1;
                head
            }
            Fix::None { at } => return Err(stuck_at(g, self.prog, r.members[at][0])),
        };
        Ok(Some(at))
    }

    /// Stops a transform that outgrew `growth_limit` (or ran too many steps), at node `at`.
    fn check_growth(&self, at: NodeId) -> Result<(), StructError> {
        // Laid out, a node may add two branches (its pop made a branch, its way on not next).
        let size: usize = (0..self.g.nodes.len()).map(|v| self.g.size(v) + 2).sum();
        let c = self.counts;
        let applied = c.forward_copies + c.backward_copies + c.cuts;
        let (before, limit) = (c.instructions_before, growth_limit(c.instructions_before as usize));
        if size <= limit && applied <= MAX_TRANSFORMS {
            return Ok(());
        }
        let line = self.g.first_line(self.prog, at);
        let message = format!(
            "STRUCT stopped at line {line}: removing the unstructured control flow took {applied} copies and cuts and would take about {size} instructions from {before}, past its limit of {limit}; every path through this code needs its own copy (thread frontiers, tf-stack, run it without any)"
        );
        Err(StructError { line, message })
    }
}

fn stuck_at(g: &Graph, prog: &Program, v: NodeId) -> StructError {
    let line = g.first_line(prog, v);
    StructError { line, message: format!("STRUCT could not restructure the control flow at line {line}: no transform made it structured") }
}

/// A structured program as it came, its blocks as the nodes.
fn unchanged(prog: &Program, counts: TransformCounts) -> Structured {
    let graph = build(prog);
    let nodes: Vec<StructNode> = graph
        .blocks
        .iter()
        .enumerate()
        .map(|(b, _)| {
            let role = NodeRole::Block { block: crate::cfg::BlockId(b as u32), copy: 0 };
            StructNode { name: node_name(role), role }
        })
        .collect();
    let node_of: Vec<u32> = graph.block_of.iter().map(|b| b.0).collect();
    let (listing, listing_lines) = emit::listing(prog, &node_of, &nodes);
    let origin = (0..prog.len() as u32).map(|pc| Some(Pc(pc))).collect();
    Structured { original: prog.clone(), program: prog.clone(), origin, node_of, nodes, counts, listing, listing_lines }
}
