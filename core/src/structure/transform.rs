//! The three transforms on the node graph, each given the regions a stuck reduction left:
//! forward copy (a join copied for each of its predecessors but one), backward copy (a loop
//! entered in several places copied for each extra entry) and cut (a loop left by several edges
//! gets a guard register, one exit, and a dispatch after it).

use alloc::format;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;

use super::graph::{Body, CutPart, Dest, Graph, NodeId, NodeRole, Term};
use super::reduce::Regions;
use crate::asm::assemble;
use crate::isa::{Guard, Instruction, Op, Pred, Reg};
use crate::program::Program;

/// Copies region `join` for each of its predecessor regions but the first laid out. Returns the
/// copies made.
pub(crate) fn forward_copy(g: &mut Graph, r: &Regions, join: usize) -> u32 {
    let mut preds = r.pred[join].clone();
    preds.sort_by(|&a, &b| g.layout(r.members[a][0], r.members[b][0]));
    let target = r.members[join][0];
    let mut made = 0;
    for &p in preds.iter().skip(1) {
        let Some(behind) = g.last_laid_out(r.members[p].iter().copied()) else { continue };
        let copies = g.copy_nodes(&r.members[join], behind);
        for &v in &r.members[p] {
            g.nodes[v].term.redirect(Dest::Node(target), Dest::Node(copies[0]));
        }
        made += 1;
    }
    made
}

/// Copies the part of loop `scc` that `entry` reaches without passing `header`, and sends the
/// edges entering the loop at `entry` from outside to the copy.
pub(crate) fn backward_copy(g: &mut Graph, r: &Regions, scc: &[usize], header: usize, entry: usize) {
    let mut part = vec![entry];
    let mut i = 0;
    while i < part.len() {
        for &s in &r.succ[part[i]] {
            if s != header && scc.contains(&s) && !part.contains(&s) {
                part.push(s);
            }
        }
        i += 1;
    }
    let set: Vec<NodeId> = part.iter().flat_map(|&p| r.members[p].iter().copied()).collect();
    let target = r.members[entry][0];
    let outside: Vec<usize> = r.pred[entry].iter().copied().filter(|p| !scc.contains(p)).collect();
    let Some(behind) = g.last_laid_out(outside.iter().flat_map(|&p| r.members[p].iter().copied())) else {
        return;
    };
    let copies = g.copy_nodes(&set, behind);
    let copy_of_entry = copies[set.iter().position(|&v| v == target).unwrap_or(0)];
    for &p in &outside {
        for &v in &r.members[p] {
            g.nodes[v].term.redirect(Dest::Node(target), Dest::Node(copy_of_entry));
        }
    }
}

/// The registers and the predicate the cuts may use: ones the program never names.
pub(crate) struct Scratch {
    used: Vec<bool>,
    pub pred: Option<Pred>,
}

impl Scratch {
    /// What `prog` leaves free, besides the registers in `keep` (a kernel's `//@ reg` inputs).
    pub fn of(prog: &Program, keep: &[Reg]) -> Scratch {
        let mut used = vec![false; 256];
        let mut preds = [false; Pred::COUNT];
        for r in keep {
            used.iter_mut().skip(r.0 as usize).take(2).for_each(|u| *u = true);
        }
        for i in &prog.instrs {
            // `PRINTF` reads its arguments' registers after the one it names.
            if let Op::Printf { base, words, .. } | Op::Host { base, words, .. } = i.op {
                used.iter_mut().skip(base.0 as usize).take(words as usize).for_each(|u| *u = true);
            }
            // Every register field of an operation prints as `Reg(n)` and every predicate as
            // `Pred(n)`: reading the decoded form misses no field, whatever the opcode; a field
            // that names the first of several registers is covered by the next three.
            let text = format!("{:?} {:?}", i.op, i.guard);
            for (name, wide) in [("Reg(", 4usize), ("Pred(", 1)] {
                for (pos, _) in text.match_indices(name) {
                    let digits: &str = text[pos + name.len()..].split(|c: char| !c.is_ascii_digit()).next().unwrap_or("");
                    let Ok(n) = digits.parse::<usize>() else { continue };
                    if name == "Pred(" {
                        if n < Pred::COUNT {
                            preds[n] = true;
                        }
                    } else {
                        // A pair or a vector starting here takes the registers after it too.
                        used.iter_mut().take((n + wide).min(256)).skip(n).for_each(|u| *u = true);
                    }
                }
            }
        }
        used[255] = true;
        let pred = (0..Pred::COUNT).rev().find(|&p| !preds[p]).map(|p| Pred(p as u8));
        Scratch { used, pred }
    }

    /// A register nothing uses yet, taken.
    fn take(&mut self) -> Option<Reg> {
        let r = (0..255).find(|&r| !self.used[r])?;
        self.used[r] = true;
        Some(Reg(r as u8))
    }
}

/// One instruction from its listing text: texts this module writes, which assemble (a failure
/// is an error, never a missing instruction).
fn instr(text: &str) -> Result<Instruction, String> {
    let (p, d) = assemble(text);
    match (p.instrs.into_iter().next(), d.is_empty()) {
        (Some(i), true) => Ok(i),
        _ => Err(format!("internal error: STRUCT's cut wrote `{text}`, which does not assemble")),
    }
}

/// A target of the dispatch after a cut loop.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Out {
    To(Dest),
    /// Leaving the procedure the way the exiting instruction did (`EXIT` or `RET`).
    Leave(bool),
}

/// Cuts loop `scc` (entered at `header`), the `n`-th cut: a guard register, 0 on entry, set to `k` on the edge
/// to the loop's `k`-th exit target; every exit and back edge goes to one test, which goes round
/// again on 0 and otherwise leaves to the dispatch. Returns `Err` with a message when no
/// register or predicate is free.
pub(crate) fn cut(
    g: &mut Graph,
    r: &Regions,
    scc: &[usize],
    header: usize,
    n: u32,
    prog: &Program,
    scratch: &mut Scratch,
) -> Result<(), (NodeId, alloc::string::String)> {
    let members: Vec<NodeId> = scc.iter().flat_map(|&s| r.members[s].iter().copied()).collect();
    let head = r.members[header][0];
    let line = g.first_line(prog, head);
    let (Some(guard_reg), Some(pred)) = (scratch.take(), scratch.pred) else {
        let why = "STRUCT's cut needs a register and a predicate the kernel never uses, and this kernel uses them all";
        return Err((head, format!("{why} (the loop at line {line})")));
    };
    let role = |part| NodeRole::Cut { cut: n, part, copy: 0 };
    let last = g.last_laid_out(members.iter().copied()).unwrap_or(head);
    let inside = |d: Dest| matches!(d, Dest::Node(v) if members.contains(&v));

    // Every edge that leaves the loop, by node: (node, which target it is).
    let mut exits: Vec<(NodeId, Out)> = Vec::new();
    for &u in &members {
        let leaves_by_ret = match &g.nodes[u].body {
            Body::Block { end, .. } => prog.get(crate::isa::Pc(end.0 - 1)).is_some_and(|i| i.op == Op::Ret),
            Body::Made { leave, .. } => leave.as_ref().is_some_and(|i| i.op == Op::Ret),
        };
        for d in g.nodes[u].term.dests() {
            match d {
                Some(d) if inside(d) => {}
                Some(d) => exits.push((u, Out::To(d))),
                None => exits.push((u, Out::Leave(leaves_by_ret))),
            }
        }
    }
    exits.dedup();
    let mut targets: Vec<Out> = Vec::new();
    for (_, t) in &exits {
        if !targets.contains(t) {
            targets.push(*t);
        }
    }
    let reg = format!("{guard_reg}");
    let made = |instrs: Vec<Instruction>, guard: Option<Guard>, leave: Option<Instruction>| Body::Made { instrs, guard, leave, line };
    // Every instruction the cut writes, before the graph changes.
    let fail = |why: String| (head, why);
    let sets: Vec<Instruction> =
        (0..=targets.len()).map(|k| instr(&format!("MOV {reg}, {k:#x}"))).collect::<Result<_, _>>().map_err(fail)?;
    let tests: Vec<Instruction> = (0..targets.len())
        .map(|k| instr(&format!("ISETP.EQ.AND {pred}, PT, {reg}, {k:#x}, PT")))
        .collect::<Result<_, _>>()
        .map_err(fail)?;
    let (exit, ret) = (instr("EXIT").map_err(fail)?, instr("RET").map_err(fail)?);
    let set = |k: usize| alloc::vec![sets[k].clone()];
    let test = |k: usize| alloc::vec![tests[k].clone()];
    let on = Some(Guard { pred, negated: false });
    let placeholder = Term::Fall(Dest::End);

    // Laid out by key: each exit's guard setting behind its node, then after the loop
    // the test, the dispatch and the leaving instructions.
    let set_nodes: Vec<NodeId> = exits
        .iter()
        .enumerate()
        .map(|(j, &(u, t))| {
            let k = targets.iter().position(|x| *x == t).unwrap_or(0) + 1;
            g.add_made(made(set(k), None, None), placeholder, role(CutPart::Set(j as u32 + 1)), u, false)
        })
        .collect();
    let test_node = g.add_made(made(test(0), on, None), placeholder, role(CutPart::Test), last, false);
    let dispatch: Vec<NodeId> = (1..targets.len())
        .map(|k| g.add_made(made(test(k), on, None), placeholder, role(CutPart::Dispatch(k as u32)), last, false))
        .collect();
    let dest_of: Vec<Dest> = targets
        .iter()
        .enumerate()
        .map(|(k, t)| match *t {
            Out::To(d) => d,
            Out::Leave(by_ret) => {
                let leave = Some(if by_ret { ret.clone() } else { exit.clone() });
                Dest::Node(g.add_made(made(Vec::new(), None, leave), Term::Leave, role(CutPart::Leave(k as u32 + 1)), last, false))
            }
        })
        .collect();
    // The dispatch: guard k goes to target k; the last target takes what is left.
    let after_loop = dispatch.first().map_or(dest_of.last().copied().unwrap_or(Dest::End), |&d| Dest::Node(d));
    g.nodes[test_node].term = Term::Branch { taken: Dest::Node(head), fall: after_loop };
    for (i, &v) in dispatch.iter().enumerate() {
        let fall = dispatch.get(i + 1).map_or(dest_of[i + 1], |&d| Dest::Node(d));
        g.nodes[v].term = Term::Branch { taken: dest_of[i], fall };
    }
    // Back edges go to the test; each exit edge sets the guard first.
    for &u in &members {
        g.nodes[u].term.redirect(Dest::Node(head), Dest::Node(test_node));
    }
    for (&(u, t), &s) in exits.iter().zip(&set_nodes) {
        g.nodes[s].term = Term::Fall(Dest::Node(test_node));
        let term = &mut g.nodes[u].term;
        match (t, *term) {
            (Out::Leave(_), Term::Leave) => *term = Term::Jump(Dest::Node(s)),
            (Out::Leave(_), Term::LeaveOr(fall)) => *term = Term::Branch { taken: Dest::Node(s), fall },
            (Out::To(d), _) => term.redirect(d, Dest::Node(s)),
            _ => {}
        }
    }
    // Entering the loop starts the guard at 0.
    let init = g.add_made(made(set(0), None, None), Term::Fall(Dest::Node(head)), role(CutPart::Init), head, true);
    let proc_ = g.proc_of[head];
    for v in 0..g.nodes.len() {
        if v != init && v != test_node && !members.contains(&v) && g.proc_of[v] == proc_ {
            g.nodes[v].term.redirect(Dest::Node(head), Dest::Node(init));
        }
    }
    if let Some(p) = g.procs.iter_mut().find(|p| **p == head) {
        *p = init;
    }
    Ok(())
}
