//! Lays the node graph out as an ordinary program again: nodes in key order (the kernel's entry
//! first), each block's instructions as they were, its last transfer aimed at the node's new
//! successors, and a `BRA` where a node's way on is not laid out next. Pops, `BRK` and `CONT`
//! become the `BRA` the branch-only models read them as (copies break the token pairing), and
//! `SSY`/`PBK`/`PCNT` a `NOP`: the output is branch-only code.

use alloc::format;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;
use core::fmt::Write;

use super::graph::{Body, CutPart, Dest, Graph, NodeId, NodeRole, Term};
use crate::isa::{Guard, Instruction, Op, Pc};
use crate::program::Program;

/// The laid-out program and, per instruction, where it came from.
pub(crate) struct Emitted {
    pub program: Program,
    /// Per pc: the original instruction it runs (`None`: written by the transform).
    pub origin: Vec<Option<Pc>>,
    /// Per pc: the node it belongs to (an index into `names`).
    pub node_of: Vec<u32>,
    pub names: Vec<(String, NodeRole)>,
}

/// A node's name: `BB3`, its copies `BB3'`, `BB3''`, `BB3'''`, `BB3'4`...; the cut's pieces
/// `cut1.init`, `cut1.exit2`, `cut1.test`, `cut1.to2`, `cut1.leave`.
pub fn node_name(role: NodeRole) -> String {
    match role {
        NodeRole::Block { block, copy } => format!("{block}{}", primes(copy)),
        NodeRole::Cut { cut, part, copy } => {
            let base = match part {
                CutPart::Init => format!("cut{cut}.init"),
                CutPart::Set(k) => format!("cut{cut}.exit{k}"),
                CutPart::Test => format!("cut{cut}.test"),
                CutPart::Dispatch(k) => format!("cut{cut}.to{k}"),
                CutPart::Leave(k) => format!("cut{cut}.leave{k}"),
            };
            format!("{base}{}", primes(copy))
        }
    }
}

/// `'`, `''`, `'''`, then `'4`, `'5`...
fn primes(copy: u32) -> String {
    match copy {
        0..=3 => "'".repeat(copy as usize),
        n => format!("'{n}"),
    }
}

fn guard_text(g: Option<Guard>) -> String {
    match g {
        Some(g) => format!("@{}{} ", if g.negated { "!" } else { "" }, g.pred),
        None => String::new(),
    }
}

/// Where a rewritten transfer goes, resolved once every node has its place.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum To {
    /// A `BRA` to a node or the end.
    Branch(Dest),
    /// A `CAL` to a procedure's entry (`None`: past the end).
    Call(Option<usize>),
}

/// One piece of output before targets are known.
struct Piece {
    instr: Instruction,
    origin: Option<Pc>,
    line: u32,
    continues: bool,
    to: Option<To>,
    /// A branch after a conditional one: a block of its own, named `<node>.fall`.
    fall: bool,
}

fn bra(guard: Option<Guard>, uniform: bool, to: Dest, line: u32) -> Piece {
    let instr = Instruction { guard, op: Op::Bra { target: Pc(0), uniform }, pop: false, text: String::new() };
    Piece { instr, origin: None, line, continues: false, to: Some(To::Branch(to)), fall: false }
}

/// The branch that replaces the original transfer at `pc`: it counts as that instruction did
/// (a part of a real SASS sequence issues nothing of its own).
fn transfer(prog: &Program, pc: Pc, guard: Option<Guard>, uniform: bool, to: Dest, line: u32) -> Piece {
    Piece { origin: Some(pc), continues: prog.continues(pc), ..bra(guard, uniform, to, line) }
}

/// The branch a conditional transfer's other side needs when it is not laid out next.
fn fall_bra(to: Dest, line: u32) -> Piece {
    Piece { fall: true, ..bra(None, false, to, line) }
}

/// `IADD.S R1, R1, 1` without its pop: `IADD R1, R1, 1`.
fn without_pop(text: &str) -> String {
    let (op, rest) = text.split_once(' ').unwrap_or((text, ""));
    let op = op.strip_suffix(".S").unwrap_or(op);
    if rest.is_empty() {
        String::from(op)
    } else {
        format!("{op} {rest}")
    }
}

/// The pieces of node `v`, given the node laid out after it.
fn pieces(g: &Graph, prog: &Program, v: NodeId, next: Option<NodeId>) -> Vec<Piece> {
    let node = &g.nodes[v];
    let mut out = Vec::new();
    let is_next = |d: Dest| matches!(d, Dest::Node(n) if Some(n) == next) || (d == Dest::End && next.is_none());
    let (line, last_instr) = match &node.body {
        Body::Block { start, end } => {
            let last = end.index() - 1;
            for pc in start.index()..last {
                out.push(original(prog, pc));
            }
            (prog.line(Pc(last as u32)).unwrap_or(0), Some((Pc(last as u32), &prog.instrs[last])))
        }
        Body::Made { instrs, line, .. } => {
            for i in instrs {
                out.push(Piece { instr: i.clone(), origin: None, line: *line, continues: false, to: None, fall: false });
            }
            (*line, None)
        }
    };
    let guard = match (&node.body, last_instr) {
        (Body::Made { guard, .. }, _) => *guard,
        (_, Some((_, i))) => i.guard,
        _ => None,
    };
    let uniform = matches!(last_instr, Some((_, Instruction { op: Op::Bra { uniform: true, .. }, .. })));
    // `X.S`: the work stays, the pop becomes the branch after it (an added one: X counts).
    let work_with_pop = last_instr.filter(|(_, i)| i.pop && !i.op.is_control() && matches!(node.term, Term::Jump(_)));
    if let Some((pc, _)) = work_with_pop {
        let mut p = original(prog, pc.index());
        p.instr.pop = false;
        p.instr.text = without_pop(&p.instr.text);
        out.push(p);
    }
    let fall_on = |out: &mut Vec<Piece>, d: Dest| {
        if !is_next(d) {
            out.push(fall_bra(d, line));
        }
    };
    match (node.term, last_instr) {
        (Term::Fall(d), last) => {
            if let Some((pc, _)) = last {
                out.push(original(prog, pc.index()));
            }
            if !is_next(d) {
                out.push(bra(None, false, d, line));
            }
        }
        (Term::Jump(d), Some(_)) if work_with_pop.is_some() => {
            if !is_next(d) {
                out.push(bra(None, false, d, line));
            }
        }
        (Term::Jump(d), Some((pc, i))) => {
            let g = if i.pop { None } else { guard };
            out.push(transfer(prog, pc, g, false, d, line));
        }
        (Term::Jump(d), None) => out.push(bra(guard, false, d, line)),
        (Term::Branch { taken, fall }, Some((pc, _))) => {
            out.push(transfer(prog, pc, guard, uniform, taken, line));
            fall_on(&mut out, fall);
        }
        (Term::Branch { taken, fall }, None) => {
            out.push(bra(guard, uniform, taken, line));
            fall_on(&mut out, fall);
        }
        (Term::Leave | Term::LeaveOr(_) | Term::Fault(_), last) => {
            match (&node.body, last) {
                (Body::Made { leave: Some(i), .. }, _) => {
                    out.push(Piece { instr: i.clone(), origin: None, line, continues: false, to: None, fall: false })
                }
                (_, Some((pc, _))) => out.push(original(prog, pc.index())),
                _ => {}
            }
            if let Term::LeaveOr(d) | Term::Fault(Some(d)) = node.term {
                fall_on(&mut out, d);
            }
        }
        (Term::Call { ret, callee }, last) => {
            if let Some((pc, _)) = last {
                out.push(Piece { to: Some(To::Call(callee)), ..original(prog, pc.index()) });
            }
            // `RET` comes back to the instruction after the `CAL`: a branch there goes on.
            if !is_next(ret) {
                out.push(bra(None, false, ret, line));
            }
        }
    }
    out
}

fn original(prog: &Program, pc: usize) -> Piece {
    let mut instr = prog.instrs[pc].clone();
    // The pops became branches: a token left on the static stack would give the pops that had
    // nowhere to go a target they never had.
    if matches!(instr.op, Op::Ssy { .. } | Op::Pbk { .. } | Op::Pcnt { .. }) {
        instr = Instruction { guard: None, op: Op::Nop, pop: instr.pop, text: format!("NOP (was {})", instr.text) };
    }
    Piece {
        instr,
        origin: Some(Pc(pc as u32)),
        line: prog.lines.get(pc).copied().unwrap_or(0),
        continues: prog.continues(Pc(pc as u32)),
        to: None,
        fall: false,
    }
}

/// The graph as a program.
pub(crate) fn emit(g: &Graph, prog: &Program) -> Emitted {
    let mut order: Vec<NodeId> = (0..g.nodes.len()).collect();
    order.sort_by(|&a, &b| g.layout(a, b));
    // The kernel's entry runs first.
    if let Some(&entry) = g.procs.first() {
        if let Some(i) = order.iter().position(|&v| v == entry) {
            let v = order.remove(i);
            order.insert(0, v);
        }
    }
    let laid: Vec<Vec<Piece>> = order.iter().enumerate().map(|(i, &v)| pieces(g, prog, v, order.get(i + 1).copied())).collect();
    let mut start = vec![0u32; g.nodes.len()];
    let mut pc = 0u32;
    for (i, &v) in order.iter().enumerate() {
        start[v] = pc;
        pc += laid[i].len() as u32;
    }
    let end = pc;
    let mut names: Vec<(String, NodeRole)> = order.iter().map(|&v| (node_name(g.nodes[v].role), g.nodes[v].role)).collect();
    // Node `b` is original block `b`, and the blocks are in address order.
    let blocks = &g.nodes[..g.copies.len()];
    let block_start = |orig: Pc| -> Pc {
        let b = blocks.partition_point(|n| matches!(n.body, Body::Block { end, .. } if end <= orig));
        Pc(if b < blocks.len() { start[b] } else { end })
    };
    let nodes = names.len();
    for (i, pieces) in laid.iter().enumerate() {
        if pieces.iter().any(|p| p.fall) {
            let (name, role) = names[i].clone();
            names.push((format!("{name}.fall"), role));
        }
    }
    let mut out = Emitted {
        program: Program { formats: prog.formats.clone(), calls: prog.calls.clone(), ..Program::default() },
        origin: Vec::new(),
        node_of: Vec::new(),
        names,
    };
    let mut next_fall = nodes;
    let mut continues = Vec::new();
    for (i, &v) in order.iter().enumerate() {
        out.program.labels.push((out.names[i].0.clone(), Pc(start[v])));
        for piece in &laid[i] {
            let node = if piece.fall {
                next_fall += 1;
                let n = out.program.instrs.len() as u32;
                out.program.labels.push((out.names[next_fall - 1].0.clone(), Pc(n)));
                next_fall - 1
            } else {
                i
            };
            let mut instr = piece.instr.clone();
            match piece.to {
                Some(To::Branch(d)) => {
                    let (target, label) = match d {
                        Dest::Node(n) => (Pc(start[n]), node_name(g.nodes[n].role)),
                        Dest::End => (Pc(end), String::from("END")),
                    };
                    instr.op.set_target(target);
                    let u = if matches!(instr.op, Op::Bra { uniform: true, .. }) { ".U" } else { "" };
                    instr.text = format!("{}BRA{u} {label}", guard_text(instr.guard));
                }
                Some(To::Call(callee)) => {
                    let (target, label) = match callee.and_then(|p| g.procs.get(p)) {
                        Some(&n) => (Pc(start[n]), node_name(g.nodes[n].role)),
                        None => (Pc(end), String::from("END")),
                    };
                    instr.op.set_target(target);
                    instr.text = format!("{}CAL {label}", guard_text(instr.guard));
                }
                // Barrier targets name the original block's new place.
                None => {
                    if let Some(t) = instr.op.target() {
                        instr.op.set_target(block_start(t));
                    }
                }
            }
            let n = out.program.instrs.len() as u32;
            out.program.instrs.push(instr);
            out.program.addrs.push(n * 8);
            out.program.lines.push(piece.line);
            continues.push(piece.continues);
            out.origin.push(piece.origin);
            out.node_of.push(node as u32);
        }
    }
    if continues.iter().any(|&c| c) {
        out.program.continues = continues;
    }
    out
}

/// The listing of a program laid out in nodes: each node's name as a label, its instructions,
/// and each instruction's source line as a comment. Returns the text and each pc's line in it.
pub(crate) fn listing(prog: &Program, node_of: &[u32], nodes: &[super::StructNode]) -> (String, Vec<u32>) {
    let mut text = String::new();
    let mut lines = Vec::with_capacity(prog.len());
    let mut line = 1u32;
    let mut node = u32::MAX;
    for (pc, instr) in prog.instrs.iter().enumerate() {
        if node_of.get(pc).is_some_and(|&n| n != node) {
            node = node_of[pc];
            let n = &nodes[node as usize];
            let what = match n.role {
                NodeRole::Block { block, copy: 0 } => format!("{block}"),
                NodeRole::Block { block, .. } => format!("copy of {block}"),
                NodeRole::Cut { .. } => String::from("written by the cut"),
            };
            let _ = writeln!(text, "{}:  // {what}", n.name);
            line += 1;
        }
        let src = prog.lines.get(pc).copied().unwrap_or(0);
        // No padding: the generated-code panel is narrow, and a padded comment wraps there.
        let _ = writeln!(text, "        {};  // line {src}", instr.text);
        lines.push(line);
        line += 1;
    }
    (text, lines)
}
