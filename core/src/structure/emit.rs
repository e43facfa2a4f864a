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
                CutPart::Leave => format!("cut{cut}.leave"),
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

/// One piece of output before targets are known.
struct Piece {
    instr: Instruction,
    origin: Option<Pc>,
    line: u32,
    continues: bool,
    /// The branch target, resolved once every node has its place.
    to: Option<Dest>,
    /// A branch after a conditional one: a block of its own, named `<node>.fall`.
    fall: bool,
}

fn bra(guard: Option<Guard>, uniform: bool, to: Dest, line: u32, origin: Option<Pc>) -> Piece {
    let instr = Instruction { guard, op: Op::Bra { target: Pc(0), uniform }, pop: false, text: String::new() };
    Piece { instr, origin, line, continues: false, to: Some(to), fall: false }
}

/// The branch a conditional transfer's other side needs when it is not laid out next.
fn fall_bra(to: Dest, line: u32) -> Piece {
    Piece { fall: true, ..bra(None, false, to, line, None) }
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
            (prog.line(Pc(last as u32)).unwrap_or(0), Some((last, &prog.instrs[last])))
        }
        Body::Made { instrs, line, .. } => {
            for i in instrs {
                out.push(Piece { instr: i.clone(), origin: None, line: *line, continues: false, to: None, fall: false });
            }
            (*line, None)
        }
    };
    let origin = last_instr.map(|(pc, _)| Pc(pc as u32));
    let guard = match (&node.body, last_instr) {
        (Body::Made { guard, .. }, _) => *guard,
        (_, Some((_, i))) => i.guard,
        _ => None,
    };
    let uniform = matches!(last_instr, Some((_, Instruction { op: Op::Bra { uniform: true, .. }, .. })));
    // The last instruction when it is not a transfer the term rewrites.
    let keep_last = |out: &mut Vec<Piece>| {
        if let Some((pc, i)) = last_instr {
            if i.pop && !i.op.is_control() {
                // `X.S`: the work stays, the pop becomes a branch.
                let mut p = original(prog, pc);
                p.instr.pop = false;
                out.push(p);
            } else if !matches!(i.op, Op::Bra { .. } | Op::Brk | Op::Cont | Op::Exit | Op::Ret | Op::Sync) && !i.pop {
                out.push(original(prog, pc));
            }
        }
    };
    match node.term {
        Term::Fall(d) => {
            if let Some((pc, _)) = last_instr {
                out.push(original(prog, pc));
            }
            if !is_next(d) {
                out.push(bra(None, false, d, line, None));
            }
        }
        Term::Jump(d) => {
            keep_last(&mut out);
            let g = if matches!(last_instr, Some((_, i)) if i.pop) { None } else { guard };
            out.push(bra(g, false, d, line, origin));
        }
        Term::Branch { taken, fall } => {
            keep_last(&mut out);
            out.push(bra(guard, uniform, taken, line, origin));
            if !is_next(fall) {
                out.push(fall_bra(fall, line));
            }
        }
        Term::Leave | Term::LeaveOr(_) => {
            match (&node.body, last_instr) {
                (Body::Made { leave: Some(i), .. }, _) => {
                    out.push(Piece { instr: i.clone(), origin: None, line, continues: false, to: None, fall: false })
                }
                (_, Some((pc, _))) => out.push(original(prog, pc)),
                _ => {}
            }
            if let Term::LeaveOr(d) = node.term {
                if !is_next(d) {
                    out.push(fall_bra(d, line));
                }
            }
        }
        Term::Call(d) => {
            if let Some((pc, _)) = last_instr {
                out.push(original(prog, pc));
            }
            if !is_next(d) {
                out.push(bra(None, false, d, line, None));
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
    order.sort_by(|a, b| g.nodes[*a].key.cmp(&g.nodes[*b].key));
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
    // Token and barrier targets name the original block's new place.
    let block_start = |orig: Pc| -> Pc {
        let b = g.nodes.iter().position(|n| matches!(n.body, Body::Block { start, end } if start <= orig && orig < end));
        Pc(b.map_or(end, |b| start[b]))
    };
    let nodes = names.len();
    for (i, pieces) in laid.iter().enumerate() {
        if pieces.iter().any(|p| p.fall) {
            let (name, role) = names[i].clone();
            names.push((format!("{name}.fall"), role));
        }
    }
    let mut out = Emitted {
        program: Program { formats: prog.formats.clone(), ..Program::default() },
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
                Some(d) => {
                    let (target, label) = match d {
                        Dest::Node(n) => (Pc(start[n]), node_name(g.nodes[n].role)),
                        Dest::End => (Pc(end), String::from("END")),
                    };
                    instr.op.set_target(target);
                    let u = if matches!(instr.op, Op::Bra { uniform: true, .. }) { ".U" } else { "" };
                    instr.text = format!("{}BRA{u} {label}", guard_text(instr.guard));
                }
                None if piece.origin.is_some() => {
                    if let Some(t) = instr.op.target() {
                        let moved = if matches!(instr.op, Op::Cal { .. }) { call_target(g, t, &start) } else { block_start(t) };
                        instr.op.set_target(moved);
                    }
                }
                None => {
                    if instr.text.is_empty() {
                        instr.text = format!("{:?}", instr.op);
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

/// Where a `CAL` to original `target` goes now: its procedure's entry (a cut may have put its
/// guard's start before it).
fn call_target(g: &Graph, target: Pc, start: &[u32]) -> Pc {
    for &entry in &g.procs {
        let head = match g.nodes[entry].term {
            Term::Fall(Dest::Node(h)) if matches!(g.nodes[entry].role, NodeRole::Cut { part: CutPart::Init, .. }) => h,
            _ => entry,
        };
        if matches!(g.nodes[head].body, Body::Block { start: s, .. } if s == target) {
            return Pc(start[entry]);
        }
    }
    Pc(start.first().copied().unwrap_or(0))
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
            let _ = writeln!(text, "{}:{:>w$}// {what}", n.name, "", w = 24usize.saturating_sub(n.name.len() + 1));
            line += 1;
        }
        let src = prog.lines.get(pc).copied().unwrap_or(0);
        let body = format!("        {};", instr.text);
        let _ = writeln!(text, "{body:<48}// line {src}");
        lines.push(line);
        line += 1;
    }
    (text, lines)
}
