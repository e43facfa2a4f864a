//! The graph the structural transform rewrites: the program's basic blocks as nodes that can
//! be copied and redirected, and the nodes the cut makes.
//!
//! Each node keeps where it came from (an original block, or code the transform wrote) and how
//! control leaves it (`Term`), so `emit` can lay the graph out again as an ordinary program.
//! Leaving the kernel (`EXIT`, `RET`, running past the end) is one virtual exit for the
//! reduction, as post-dominators see it.

use alloc::vec;
use alloc::vec::Vec;

use crate::cfg::build::{build, unwind_targets};
use crate::cfg::BlockId;
use crate::isa::{Instruction, Op, Pc};
use crate::program::Program;

pub(crate) type NodeId = usize;

/// Where control goes.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Dest {
    Node(NodeId),
    /// Past the last instruction (a fall off the end, or a branch there).
    End,
}

/// How control leaves a node.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Term {
    /// No transfer at the end: control runs on.
    Fall(Dest),
    /// An unconditional transfer by the last instruction.
    Jump(Dest),
    /// A guarded transfer by the last instruction: `taken` for the lanes whose guard holds.
    Branch { taken: Dest, fall: Dest },
    /// Leaves the kernel or the subroutine (`EXIT`, `RET`).
    Leave,
    /// A guarded `EXIT`/`RET`: the other lanes go on.
    LeaveOr(Dest),
    /// A pop, `BRK` or `CONT` with no token to go to: it faults where it runs (guarded `BRK` and
    /// `CONT`: for the lanes whose guard holds, the others going on to `Some(dest)`).
    Fault(Option<Dest>),
    /// `CAL`: the callee (procedure `callee`, `None`: past the end) runs as one instruction,
    /// then control goes on at `ret`.
    Call { ret: Dest, callee: Option<usize> },
}

impl Term {
    /// The places control can go, in the order the instruction names them; `None` is the exit.
    pub fn dests(&self) -> Vec<Option<Dest>> {
        match *self {
            Term::Fall(d) | Term::Jump(d) | Term::Call { ret: d, .. } | Term::Fault(Some(d)) => vec![Some(d)],
            Term::Branch { taken, fall } => vec![Some(taken), Some(fall)],
            Term::Leave => vec![None],
            Term::LeaveOr(d) => vec![None, Some(d)],
            Term::Fault(None) => Vec::new(),
        }
    }
    /// Sends every edge to `from` (a node or the end) to `to` instead.
    pub fn redirect(&mut self, from: Dest, to: Dest) {
        let fix = |d: &mut Dest| {
            if *d == from {
                *d = to;
            }
        };
        match self {
            Term::Fall(d) | Term::Jump(d) | Term::Call { ret: d, .. } | Term::LeaveOr(d) | Term::Fault(Some(d)) => fix(d),
            Term::Branch { taken, fall } => {
                fix(taken);
                fix(fall);
            }
            Term::Leave | Term::Fault(None) => {}
        }
    }
}

/// What a node runs.
#[derive(Clone, PartialEq, Debug)]
pub(crate) enum Body {
    /// Instructions `start..end` of the original program.
    Block { start: Pc, end: Pc },
    /// Code the cut wrote: its instructions (no transfer), the guard of its branch, the
    /// instruction that leaves (`EXIT`/`RET`) for a `Leave`, and the source line they count at.
    Made { instrs: Vec<Instruction>, guard: Option<crate::isa::Guard>, leave: Option<Instruction>, line: u32 },
}

/// What a node is, for names and views.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum NodeRole {
    /// Original block `block`; `copy` 0 is the block itself, 1 its first copy (`BB3'`).
    Block { block: BlockId, copy: u32 },
    /// The cut of loop `cut` (1-based): `part` says which piece; `copy` as for blocks (a later
    /// forward copy may copy cut code too).
    Cut { cut: u32, part: CutPart, copy: u32 },
}

/// The pieces of a cut (Zhang and D'Hollander): a guard register says why the loop ends.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum CutPart {
    /// Before the loop: the guard starts at 0.
    Init,
    /// On exit edge `n` (1-based): the guard names the exit's target.
    Set(u32),
    /// The loop's one latch: guard 0 goes round again, any other value leaves.
    Test,
    /// After the loop: guard `n` goes to its target.
    Dispatch(u32),
    /// Leaves the kernel (or subroutine) for the exit target `n` that did.
    Leave(u32),
}

#[derive(Clone, PartialEq, Debug)]
pub(crate) struct Node {
    pub body: Body,
    pub term: Term,
    pub role: NodeRole,
    /// Where it is laid out: lexicographic order of these keys (a copy sorts after the node it
    /// was placed behind).
    pub key: Vec<i64>,
}

/// The program's blocks as nodes (node `i` is block `BBi`), and its procedures: the kernel and
/// each `CAL` target, each with its entry node.
#[derive(Clone, PartialEq, Debug)]
pub(crate) struct Graph {
    pub nodes: Vec<Node>,
    pub procs: Vec<NodeId>,
    /// Per node: the procedure it belongs to (`None`: unreachable).
    pub proc_of: Vec<Option<usize>>,
    /// Per original block, how many copies were made (names `BB3'`, `BB3''`).
    pub copies: Vec<u32>,
    /// The same for each piece of cut code.
    made_copies: Vec<((u32, CutPart), u32)>,
    next_seq: i64,
}

/// Why a program cannot be restructured, at a source line.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct StructError {
    pub line: u32,
    pub message: alloc::string::String,
}

impl Graph {
    pub fn of(prog: &Program) -> Result<Graph, StructError> {
        let pcfg = build(prog);
        let unwind = unwind_targets(prog);
        let n = prog.len();
        let dest = |pc: usize| if pc >= n { Dest::End } else { Dest::Node(pcfg.block_of[pc].index()) };
        let mut nodes = Vec::with_capacity(pcfg.blocks.len());
        let mut callees = Vec::new();
        for (b, r) in pcfg.blocks.iter().enumerate() {
            let last = r.end.index() - 1;
            let i = &prog.instrs[last];
            let guarded = i.guard.is_some();
            let jump = |t: Dest| if guarded { Term::Branch { taken: t, fall: dest(last + 1) } } else { Term::Jump(t) };
            let term = if i.pop {
                unwind[last].map_or(Term::Fault(None), |t| Term::Jump(dest(t.index())))
            } else {
                match i.op {
                    Op::Bra { target, .. } => jump(dest(target.index())),
                    Op::Brk | Op::Cont => match unwind[last] {
                        Some(t) => jump(dest(t.index())),
                        None => Term::Fault(guarded.then(|| dest(last + 1))),
                    },
                    Op::Exit | Op::Ret if guarded => Term::LeaveOr(dest(last + 1)),
                    Op::Exit | Op::Ret => Term::Leave,
                    Op::Cal { target } => {
                        callees.push(target);
                        // The callee's procedure is numbered below, once every target is known.
                        Term::Call { ret: dest(last + 1), callee: Some(target.index()) }
                    }
                    _ => Term::Fall(dest(r.end.index())),
                }
            };
            let role = NodeRole::Block { block: BlockId(b as u32), copy: 0 };
            nodes.push(Node { body: Body::Block { start: r.start, end: r.end }, term, role, key: vec![0, 2 * r.start.0 as i64] });
        }
        callees.sort();
        callees.dedup();
        let mut procs = Vec::new();
        if !nodes.is_empty() {
            procs.push(0);
        }
        for t in callees {
            if let Some(b) = pcfg.block_of.get(t.index()) {
                if !procs.contains(&b.index()) {
                    procs.push(b.index());
                }
            }
        }
        // A `CAL`'s callee by procedure (`None`: a call past the end).
        for node in &mut nodes {
            if let Term::Call { callee, .. } = &mut node.term {
                let block = callee.and_then(|pc| pcfg.block_of.get(pc)).map(|b| b.index());
                *callee = block.and_then(|b| procs.iter().position(|&p| p == b));
            }
        }
        let copies = vec![0; nodes.len()];
        let mut g = Graph { nodes, procs, proc_of: Vec::new(), copies, made_copies: Vec::new(), next_seq: 0 };
        g.assign_procs(prog)?;
        for (i, p) in g.proc_of.clone().iter().enumerate() {
            g.nodes[i].key[0] = p.unwrap_or(0) as i64;
        }
        Ok(g)
    }

    /// Which procedure each node belongs to; code reached from two without a call is refused
    /// (each function is structured on its own, as a compiler structures it).
    fn assign_procs(&mut self, prog: &Program) -> Result<(), StructError> {
        let mut proc_of: Vec<Option<usize>> = vec![None; self.nodes.len()];
        for (p, &entry) in self.procs.iter().enumerate() {
            let mut work = vec![entry];
            while let Some(v) = work.pop() {
                match proc_of[v] {
                    Some(q) if q == p => continue,
                    Some(q) => {
                        let line = self.first_line(prog, v);
                        let (a, b) = (self.proc_name(prog, q), self.proc_name(prog, p));
                        let message = alloc::format!(
                            "the code at line {line} is reached from {a} and from {b} without a call; STRUCT restructures each function on its own"
                        );
                        return Err(StructError { line, message });
                    }
                    None => proc_of[v] = Some(p),
                }
                work.extend(self.succ_nodes(v));
            }
        }
        self.proc_of = proc_of;
        Ok(())
    }

    fn proc_name(&self, prog: &Program, p: usize) -> alloc::string::String {
        if p == 0 {
            "the kernel".into()
        } else {
            alloc::format!("the subroutine at line {}", self.first_line(prog, self.procs[p]))
        }
    }

    /// The source line of a node's first instruction.
    pub fn first_line(&self, prog: &Program, v: NodeId) -> u32 {
        match &self.nodes[v].body {
            Body::Block { start, .. } => prog.line(*start).unwrap_or(0),
            Body::Made { line, .. } => *line,
        }
    }

    /// Instructions a node holds (without the branches layout may add).
    pub fn size(&self, v: NodeId) -> usize {
        match &self.nodes[v].body {
            Body::Block { start, end } => end.index() - start.index(),
            Body::Made { instrs, .. } => instrs.len() + 1,
        }
    }

    /// The nodes control can reach from `v` in one step, within its procedure.
    pub fn succ_nodes(&self, v: NodeId) -> Vec<NodeId> {
        self.nodes[v]
            .term
            .dests()
            .into_iter()
            .filter_map(|d| match d {
                Some(Dest::Node(n)) => Some(n),
                _ => None,
            })
            .collect()
    }

    /// Whether `v` can leave its procedure in one step (the virtual exit is a successor).
    pub fn exits(&self, v: NodeId) -> bool {
        self.nodes[v].term.dests().iter().any(|d| !matches!(d, Some(Dest::Node(_))))
    }

    /// Which of two nodes is laid out first.
    pub fn layout(&self, a: NodeId, b: NodeId) -> core::cmp::Ordering {
        self.nodes[a].key.cmp(&self.nodes[b].key)
    }

    /// The node of `nodes` laid out last.
    pub fn last_laid_out(&self, nodes: impl IntoIterator<Item = NodeId>) -> Option<NodeId> {
        nodes.into_iter().max_by(|&a, &b| self.layout(a, b))
    }

    /// The nodes of procedure `p`, reachable from its entry, in layout order.
    pub fn proc_nodes(&self, p: usize) -> Vec<NodeId> {
        let mut seen = vec![false; self.nodes.len()];
        let mut out = Vec::new();
        let mut work = vec![self.procs[p]];
        while let Some(v) = work.pop() {
            if core::mem::replace(&mut seen[v], true) {
                continue;
            }
            out.push(v);
            work.extend(self.succ_nodes(v));
        }
        out.sort_by(|&a, &b| self.layout(a, b));
        out
    }

    fn seq(&mut self) -> i64 {
        self.next_seq += 1;
        self.next_seq
    }

    /// Copies `set` (edges between its nodes go to the copies), laid out after node `after`.
    /// Returns the copy of each node of `set`, in order.
    pub fn copy_nodes(&mut self, set: &[NodeId], after: NodeId) -> Vec<NodeId> {
        let base = self.nodes.len();
        let seq = self.seq();
        let mut prefix = self.nodes[after].key.clone();
        prefix.extend([1, seq]);
        for &v in set {
            let mut node = self.nodes[v].clone();
            match &mut node.role {
                NodeRole::Block { block, copy } => {
                    self.copies[block.index()] += 1;
                    *copy = self.copies[block.index()];
                }
                NodeRole::Cut { cut, part, copy } => {
                    let id = (*cut, *part);
                    let n = match self.made_copies.iter_mut().find(|(k, _)| *k == id) {
                        Some((_, n)) => n,
                        None => {
                            self.made_copies.push((id, 0));
                            &mut self.made_copies.last_mut().expect("just pushed").1
                        }
                    };
                    *n += 1;
                    *copy = *n;
                }
            }
            let mut key = prefix.clone();
            key.extend_from_slice(&self.nodes[v].key);
            node.key = key;
            self.nodes.push(node);
            self.proc_of.push(self.proc_of[v]);
        }
        for i in 0..set.len() {
            for (j, &w) in set.iter().enumerate() {
                self.nodes[base + i].term.redirect(Dest::Node(w), Dest::Node(base + j));
            }
        }
        (base..base + set.len()).collect()
    }

    /// Adds a node the cut wrote, laid out just before (`before`) or after `near`.
    pub fn add_made(&mut self, body: Body, term: Term, role: NodeRole, near: NodeId, before: bool) -> NodeId {
        let seq = self.seq();
        let mut key = self.nodes[near].key.clone();
        if before {
            if let Some(last) = key.last_mut() {
                *last -= 1;
            }
            key.push(seq);
        } else {
            key.extend([2, seq]);
        }
        self.nodes.push(Node { body, term, role, key });
        self.proc_of.push(self.proc_of[near]);
        self.nodes.len() - 1
    }
}
