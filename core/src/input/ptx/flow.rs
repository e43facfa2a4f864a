//! A PTX function's basic blocks, its registers' lifetimes, their assignment to the machine's
//! registers, and the compiler IR built from them (which `reconverge` and `emit` take from
//! there, as for C).
//!
//! PTX has as many virtual registers as it likes; the machine has R0-R254 and P0-P6. Registers
//! whose values are never needed at once share one (liveness on the CFG; a lane's registers
//! are its own, so divergence does not change the answer). A destination never shares with a
//! source of the same instruction, so the multi-instruction expansions in `lower` may write
//! their destination before they finish reading.

use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::ToString;
use alloc::vec::Vec;

use super::lower::{Env, Lower, PS, SCRATCH};
use super::syntax::{Function, Instr, Operand as P, Stmt};
use super::types::{Class, Decls};
use crate::analysis::{back_edges, compute_dominators};
use crate::cfg::BlockId;
use crate::compile::ins::{Ins, Opcode, Operand};
use crate::compile::ir::{Func, Term};
use crate::compile::reconverge::natural_loop;
use crate::diag::{Diagnostic, Span};

/// How a block ends.
#[derive(Clone, PartialEq, Debug)]
enum End<'f> {
    /// Into the next block.
    Fall,
    Jump(&'f str),
    /// `@p bra L` (`uniform` for `bra.uni`).
    Branch {
        guard: (&'f str, bool),
        to: &'f str,
        uniform: bool,
    },
    /// `brx.idx %r, table`: one of the table's labels by index.
    Indexed {
        index: &'f str,
        targets: &'f [&'f str],
    },
    Leave,
}

pub struct Block<'f> {
    label: Option<&'f str>,
    instrs: Vec<&'f Instr<'f>>,
    end: End<'f>,
    end_line: u32,
}

/// The blocks of `f`, in order.
pub fn blocks<'f>(f: &'f Function<'f>, diags: &mut Vec<Diagnostic>) -> Vec<Block<'f>> {
    let mut out: Vec<Block<'f>> = Vec::new();
    let mut cur = Block { label: None, instrs: Vec::new(), end: End::Fall, end_line: f.span.line };
    let close = |out: &mut Vec<Block<'f>>, cur: &mut Block<'f>, next_label: Option<&'f str>| {
        let b = core::mem::replace(cur, Block { label: next_label, instrs: Vec::new(), end: End::Fall, end_line: 0 });
        out.push(b);
    };
    for s in &f.body {
        match s {
            Stmt::Label(l, _) => {
                if cur.label.is_some() || !cur.instrs.is_empty() {
                    close(&mut out, &mut cur, Some(*l));
                } else {
                    cur.label = Some(*l);
                }
            }
            Stmt::Instr(i) => {
                let end = match i.opcode() {
                    "bra" => {
                        let to = match i.operands.first() {
                            Some(P::Name(n)) => *n,
                            _ => {
                                diags.push(Diagnostic::error(i.span, "`bra` needs a label"));
                                continue;
                            }
                        };
                        Some(match &i.guard {
                            Some(g) => End::Branch { guard: *g, to, uniform: i.has("uni") },
                            None => End::Jump(to),
                        })
                    }
                    "brx" => {
                        let (Some(P::Reg(index)), Some(P::Name(table))) = (i.operands.first(), i.operands.get(1)) else {
                            diags.push(Diagnostic::error(i.span, "`brx.idx` needs an index register and a `.branchtargets` table"));
                            continue;
                        };
                        if i.guard.is_some() {
                            diags.push(Diagnostic::error(i.span, "a guarded `brx.idx` is outside what warpscope runs"));
                            continue;
                        }
                        match f.tables.iter().find(|(n, _)| n == table) {
                            Some((_, targets)) => Some(End::Indexed { index, targets }),
                            None => {
                                diags.push(Diagnostic::error(i.span, format!("no `.branchtargets` table named `{table}`")));
                                continue;
                            }
                        }
                    }
                    "ret" | "exit" if i.guard.is_none() => Some(End::Leave),
                    _ => None,
                };
                match end {
                    Some(e) => {
                        cur.end = e;
                        cur.end_line = i.span.line;
                        close(&mut out, &mut cur, None);
                    }
                    None => cur.instrs.push(i),
                }
            }
        }
    }
    if cur.label.is_some() || !cur.instrs.is_empty() || out.is_empty() {
        cur.end = End::Leave;
        cur.end_line = f.end_line;
        out.push(cur);
    } else if let Some(last) = out.last_mut() {
        if last.end == End::Fall {
            last.end = End::Leave;
        }
    }
    out
}

/// Instructions that write no register: every operand is read.
fn writes_nothing(i: &Instr) -> bool {
    matches!(
        i.opcode(),
        "st" | "red"
            | "bar"
            | "barrier"
            | "bra"
            | "brx"
            | "call"
            | "ret"
            | "exit"
            | "trap"
            | "membar"
            | "fence"
            | "nanosleep"
            | "prefetch"
            | "prefetchu"
            | "pmevent"
    )
}

/// The registers `i` writes and reads, by name.
fn defs_uses<'a>(i: &Instr<'a>) -> (Vec<&'a str>, Vec<&'a str>) {
    let mut defs = Vec::new();
    let mut uses = Vec::new();
    if let Some((g, _)) = i.guard {
        uses.push(g);
    }
    for (k, o) in i.operands.iter().enumerate() {
        let into = if k == 0 && !writes_nothing(i) { &mut defs } else { &mut uses };
        match *o {
            P::Reg(n) | P::NotReg(n) => into.push(n),
            P::Pair(a, b) => {
                into.push(a);
                into.push(b);
            }
            P::Vector(ref v) => into.extend(v.iter().copied()),
            P::Addr { base, .. } => uses.push(base),
            _ => {}
        }
    }
    (defs, uses)
}

/// A function ready to lower: its registers and the physical register of each.
pub struct Assigned<'f> {
    /// The predicates this function and the functions it calls write (a bit each): a caller's
    /// predicate live across a call to it must be another.
    pub clobbers: u8,
    pub regs: BTreeMap<&'f str, (Class, u8)>,
    /// One past the highest general register used.
    pub high: u32,
}

/// Assigns machine registers to `f`'s virtual ones, general registers from `base`. Each
/// function has general registers of its own, but the predicates are shared: `clobbers` gives,
/// for each function `f` calls (assigned before it), the predicates a call to it may change.
pub fn assign<'f>(
    f: &Function<'f>,
    bl: &[Block<'f>],
    decls: &Decls,
    base: u32,
    clobbers: &BTreeMap<&str, u8>,
    diags: &mut Vec<Diagnostic>,
) -> Assigned<'f> {
    // Registers of this function, numbered in order of first appearance.
    let mut index: BTreeMap<&'f str, usize> = BTreeMap::new();
    let mut names: Vec<&'f str> = Vec::new();
    let mut class: Vec<Class> = Vec::new();
    let mut first_span: Vec<Span> = Vec::new();
    // Per block: each instruction's defs, uses and guard, then the terminator's uses.
    struct Step {
        defs: Vec<usize>,
        uses: Vec<usize>,
        guarded: bool,
        /// A call: the predicates the callee may change.
        clobbers: u8,
    }
    let mut steps: Vec<Vec<Step>> = Vec::with_capacity(bl.len());
    for b in bl {
        let mut v = Vec::with_capacity(b.instrs.len() + 1);
        let mut number = |n: &'f str, span: Span| -> Option<usize> {
            if let Some(&k) = index.get(n) {
                return Some(k);
            }
            let t = decls.ty(n)?;
            index.insert(n, names.len());
            names.push(n);
            class.push(Class::of(t));
            first_span.push(span);
            Some(names.len() - 1)
        };
        for i in &b.instrs {
            let (d, u) = defs_uses(i);
            let defs = d.into_iter().filter_map(|x| number(x, i.span)).collect();
            let uses = u.into_iter().filter_map(|x| number(x, i.span)).collect();
            let called = (i.opcode() == "call")
                .then(|| i.operands.iter().find_map(|o| if let P::Name(n) = o { clobbers.get(n) } else { None }))
                .flatten();
            v.push(Step { defs, uses, guarded: i.guard.is_some(), clobbers: called.copied().unwrap_or(0) });
        }
        let at = Span::new(b.end_line, 1, 1);
        let end_uses: Vec<usize> = match &b.end {
            End::Branch { guard, .. } => number(guard.0, at).into_iter().collect(),
            End::Indexed { index: ix, .. } => number(ix, at).into_iter().collect(),
            _ => Vec::new(),
        };
        v.push(Step { defs: Vec::new(), uses: end_uses, guarded: false, clobbers: 0 });
        steps.push(v);
    }
    let n = names.len();
    let words = n.div_ceil(64).max(1);
    // Block successors, by label.
    let by_label: BTreeMap<&str, usize> = bl.iter().enumerate().filter_map(|(k, b)| b.label.map(|l| (l, k))).collect();
    let succs: Vec<Vec<usize>> = bl
        .iter()
        .enumerate()
        .map(|(k, b)| {
            let next = if k + 1 < bl.len() { alloc::vec![k + 1] } else { Vec::new() };
            match &b.end {
                End::Fall => next,
                End::Jump(l) => by_label.get(l).copied().into_iter().collect(),
                End::Branch { to, .. } => by_label.get(to).copied().into_iter().chain(next).collect(),
                End::Indexed { targets, .. } => targets.iter().filter_map(|t| by_label.get(t).copied()).collect(),
                End::Leave => Vec::new(),
            }
        })
        .collect();
    let set = |s: &mut [u64], k: usize| s[k / 64] |= 1 << (k % 64);
    let clear = |s: &mut [u64], k: usize| s[k / 64] &= !(1 << (k % 64));
    let transfer = |live: &mut Vec<u64>, st: &Step| {
        if !st.guarded {
            for &d in &st.defs {
                clear(live, d);
            }
        }
        for &u in &st.uses {
            set(live, u);
        }
    };
    let live_out = |b: usize, live_in: &[Vec<u64>]| {
        let mut live = alloc::vec![0u64; words];
        for &s in &succs[b] {
            for w in 0..words {
                live[w] |= live_in[s][w];
            }
        }
        live
    };
    // Live-in per block, iterated to a fixed point.
    let mut live_in: Vec<Vec<u64>> = alloc::vec![alloc::vec![0u64; words]; bl.len()];
    let mut changed = true;
    while changed {
        changed = false;
        for b in (0..bl.len()).rev() {
            let mut live = live_out(b, &live_in);
            for st in steps[b].iter().rev() {
                transfer(&mut live, st);
            }
            if live != live_in[b] {
                live_in[b] = live;
                changed = true;
            }
        }
    }
    // Interference, as a bit matrix: a destination against everything live after it and its
    // own sources and destinations. Registers of the other class are skipped when assigning.
    let mut adj: Vec<u64> = alloc::vec![0u64; n * words];
    // Predicates live across a call may not be any the callee changes.
    let mut forbidden: Vec<u8> = alloc::vec![0u8; n];
    let link = |adj: &mut Vec<u64>, a: usize, b: usize| {
        if a != b {
            adj[a * words + b / 64] |= 1 << (b % 64);
            adj[b * words + a / 64] |= 1 << (a % 64);
        }
    };
    for (b, block_steps) in steps.iter().enumerate() {
        let mut live = live_out(b, &live_in);
        for st in block_steps.iter().rev() {
            if st.clobbers != 0 {
                for x in bits(&live) {
                    forbidden[x] |= st.clobbers;
                }
            }
            for &d in &st.defs {
                for x in bits(&live) {
                    link(&mut adj, d, x);
                }
                for &x in st.uses.iter().chain(&st.defs) {
                    link(&mut adj, d, x);
                }
            }
            transfer(&mut live, st);
        }
    }
    // Values live into the function's first block (uninitialised reads) all live at once.
    let entry_live: Vec<usize> = bits(&live_in[0]).collect();
    for &a in &entry_live {
        for &b in &entry_live {
            link(&mut adj, a, b);
        }
    }
    // Greedy assignment in order of first appearance.
    let mut at: Vec<Option<u8>> = alloc::vec![None; n];
    let mut high = base;
    let mut out = BTreeMap::new();
    let mut reported = false;
    for v in 0..n {
        let size = class[v].words();
        let pred = class[v] == Class::Pred;
        let taken: Vec<(u32, u32)> = bits(&adj[v * words..(v + 1) * words])
            .filter(|&x| (class[x] == Class::Pred) == pred)
            .filter_map(|x| at[x].map(|k| (k as u32, class[x].words())))
            .collect();
        let found = if pred {
            (0..PS as u32).find(|&p| !taken.iter().any(|&(k, _)| k == p) && forbidden[v] & (1 << p) == 0)
        } else {
            (base..SCRATCH).find(|&r| r + size <= SCRATCH && !taken.iter().any(|&(k, w)| r < k + w && k < r + size))
        };
        match found {
            Some(k) => {
                at[v] = Some(k as u8);
                if !pred {
                    high = high.max(k + size);
                }
                out.insert(names[v], (class[v], k as u8));
            }
            None if !reported => {
                reported = true;
                let what = if pred {
                    format!("more than {PS} predicates live at once (the machine has P0-P6; P6 is kept for carries)")
                } else {
                    format!("more values live at once than the {} registers left for `{}`", SCRATCH.saturating_sub(base), f.name)
                };
                diags.push(Diagnostic::error(first_span[v], format!("`{}` needs {what}", f.name)));
            }
            None => {}
        }
    }
    let own = at.iter().zip(&class).filter(|(_, c)| **c == Class::Pred).filter_map(|(k, _)| *k).fold(0u8, |m, p| m | 1 << p);
    let called = steps.iter().flatten().fold(0u8, |m, st| m | st.clobbers);
    Assigned { regs: out, high, clobbers: own | called }
}

fn bits(s: &[u64]) -> impl Iterator<Item = usize> + '_ {
    s.iter().enumerate().flat_map(|(w, &x)| (0..64).filter(move |b| x & (1 << b) != 0).map(move |b| w * 64 + b))
}

/// The function as compiler IR: an entry block with the function's label, then its blocks,
/// each instruction lowered with `env`'s registers.
pub fn build(f: &Function, bl: &[Block<'_>], label: &str, env: &Env<'_>, yields: bool, diags: &mut Vec<Diagnostic>) -> Func {
    let mut func = Func { name: f.name.to_string(), ..Func::default() };
    let entry = func.new_block(label.to_string());
    func.order.push(entry);
    let ids: Vec<_> = bl
        .iter()
        .enumerate()
        .map(|(k, b)| {
            let name = match &b.label {
                Some(l) => l.to_string(),
                None => format!("{label}_{k}"),
            };
            let id = func.new_block(name);
            func.order.push(id);
            id
        })
        .collect();
    let by_label: BTreeMap<&str, usize> = bl.iter().enumerate().filter_map(|(k, b)| b.label.map(|l| (l, k))).collect();
    func.block_mut(entry).term = Term::Jump(ids[0]);
    func.block_mut(entry).term_line = f.span.line;
    let pred_of = |name: &str| -> Option<u8> {
        match env.regs.get(name) {
            Some(&(Class::Pred, p)) => Some(p),
            _ => None,
        }
    };
    let leave = if env.entry { Term::Exit } else { Term::Ret };
    for (k, b) in bl.iter().enumerate() {
        let mut lower = Lower::new(env);
        for i in &b.instrs {
            let guard = match &i.guard {
                Some((g, neg)) => match pred_of(g) {
                    Some(p) => Some((p, *neg)),
                    None => {
                        diags.push(Diagnostic::error(i.span, format!("the guard `{g}` is not a declared predicate")));
                        continue;
                    }
                },
                None => None,
            };
            if let Err(msg) = lower.instr(i, guard) {
                diags.push(Diagnostic::error(i.span, msg));
            }
        }
        let id = ids[k];
        if yields && heads_spin_loop(bl, k) {
            let line = b.instrs.first().map_or(b.end_line, |i| i.span.line);
            lower.out.insert(0, Ins::new(Opcode::Yield).at_line(line));
        }
        func.block_mut(id).instrs = lower.out;
        func.block_mut(id).term_line = b.end_line;
        let next = ids.get(k + 1).copied();
        let target = |l: &str, diags: &mut Vec<Diagnostic>| match by_label.get(l) {
            Some(&t) => Some(ids[t]),
            None => {
                diags.push(Diagnostic::error(Span::new(b.end_line, 1, 1), format!("no label `{l}` in `{}`", f.name)));
                None
            }
        };
        let term = match &b.end {
            End::Fall => next.map_or(leave, Term::Jump),
            End::Leave => leave,
            End::Jump(l) => target(l, diags).map_or(leave, Term::Jump),
            End::Branch { guard, to, uniform } => {
                let Some(taken) = target(to, diags) else { continue };
                let Some(pred) = pred_of(guard.0) else {
                    diags.push(Diagnostic::error(
                        Span::new(b.end_line, 1, 1),
                        format!("the guard `{}` is not a declared predicate", guard.0),
                    ));
                    continue;
                };
                func.block_mut(id).uniform = *uniform;
                match next {
                    Some(fall) => Term::Branch { pred, neg: guard.1, taken, fall },
                    None => {
                        // A branch at the very end: lanes that do not take it leave.
                        let out = func.new_block(format!("{label}_end"));
                        func.order.push(out);
                        func.block_mut(out).term = leave;
                        Term::Branch { pred, neg: guard.1, taken, fall: out }
                    }
                }
            }
            End::Indexed { index, targets } => {
                indexed(&mut func, id, index, targets, &by_label, &ids, env, b.end_line, diags);
                continue;
            }
        };
        func.block_mut(id).term = term;
    }
    func
}

/// Lays the blocks out in reverse post order from the entry, as the thread-frontier compiler
/// orders them (a block's place is its priority there): nvcc may put a block after the join it
/// leads to, or a loop's body before its test, which would make lanes wait below others. The
/// search leaves a loop last, so a loop's blocks come before the blocks after it. Blocks no path
/// reaches keep their places at the end.
pub fn lay_out_in_reverse_post_order(func: &mut Func) {
    let Some(&entry) = func.order.first() else { return };
    let cfg = func.cfg(false);
    let dom = compute_dominators(&cfg);
    let loops: Vec<alloc::collections::BTreeSet<BlockId>> = back_edges(&cfg)
        .into_iter()
        .filter(|(from, header)| dom.dominates(*header, *from))
        .map(|(from, header)| natural_loop(&cfg, from, header))
        .collect();
    // A successor in fewer of `b`'s loops leaves one: search it first, so it is finished first
    // and comes after the loop's blocks.
    let ordered_succs = |b: BlockId| {
        let mut succs = func.succs(b);
        let inside = |s: &BlockId| loops.iter().filter(|l| l.contains(&b) && l.contains(s)).count();
        succs.sort_by_key(inside);
        succs
    };
    let mut seen = alloc::vec![false; func.blocks.len()];
    let mut post = Vec::with_capacity(func.order.len());
    // Iterative depth-first search: (block, its successors, the next to visit).
    let mut stack = alloc::vec![(entry, ordered_succs(entry), 0usize)];
    seen[entry.index()] = true;
    while let Some((b, succs, k)) = stack.pop() {
        match succs.get(k) {
            Some(&s) => {
                stack.push((b, succs.clone(), k + 1));
                if !seen[s.index()] {
                    seen[s.index()] = true;
                    stack.push((s, ordered_succs(s), 0));
                }
            }
            None => post.push(b),
        }
    }
    post.reverse();
    post.extend(func.order.iter().copied().filter(|b| !seen[b.index()]));
    func.order = post;
}

/// True when block `h` heads a loop that waits on memory: its back edge is taken on a value an
/// atomic or a volatile load in the loop read (a spin lock). On Volta such a loop yields each
/// time round, as the C compiler makes it (and ptxas for sm_70 and later), so the lane it waits
/// for can run under independent thread scheduling. A loop that only does atomics on its way
/// round is not one: yielding there would let the barriers stop waiting for its lanes.
fn heads_spin_loop(bl: &[Block<'_>], h: usize) -> bool {
    let Some(label) = &bl[h].label else { return false };
    let back = |b: &Block<'_>| match &b.end {
        End::Branch { to, .. } => to == label,
        _ => false,
    };
    let Some(latch) = (h..bl.len()).rev().find(|&k| back(&bl[k])) else { return false };
    let End::Branch { guard, .. } = &bl[latch].end else { return false };
    // The registers the back edge's predicate is computed from, followed back through the loop.
    let body: Vec<&Instr> = bl[h..=latch].iter().flat_map(|b| b.instrs.iter().copied()).collect();
    let mut wanted: Vec<&str> = alloc::vec![guard.0];
    for _ in 0..3 {
        for i in body.iter().rev() {
            let (defs, uses) = defs_uses(i);
            if !defs.iter().any(|d| wanted.contains(d)) {
                continue;
            }
            if matches!(i.opcode(), "atom") || (i.opcode() == "ld" && i.has("volatile")) {
                return true;
            }
            for u in uses {
                if !wanted.contains(&u) {
                    wanted.push(u);
                }
            }
        }
    }
    false
}

/// `brx.idx` as a chain of compares, one block per target: the models branch two ways.
#[allow(clippy::too_many_arguments)]
fn indexed(
    func: &mut Func,
    from: crate::cfg::BlockId,
    index: &str,
    targets: &[&str],
    by_label: &BTreeMap<&str, usize>,
    ids: &[crate::cfg::BlockId],
    env: &Env<'_>,
    line: u32,
    diags: &mut Vec<Diagnostic>,
) {
    let Some(&(Class::W32, reg)) = env.regs.get(index) else {
        diags.push(Diagnostic::error(Span::new(line, 1, 1), format!("`{index}` is not a 32-bit register")));
        return;
    };
    let mut blocks: Vec<crate::cfg::BlockId> = Vec::new();
    for t in targets {
        match by_label.get(t) {
            Some(&k) => blocks.push(ids[k]),
            None => {
                diags.push(Diagnostic::error(Span::new(line, 1, 1), format!("no label `{t}` for `brx.idx`")));
                return;
            }
        }
    }
    let Some((&last, rest)) = blocks.split_last() else { return };
    let mut cur = from;
    let at = func.order.iter().position(|b| *b == from).map_or(func.order.len(), |k| k + 1);
    for (k, &t) in rest.iter().enumerate() {
        let test = Ins::new(Opcode::Isetp)
            .with_mods(&["EQ", "U32", "AND"])
            .dst(Operand::Pred(PS))
            .dst(Operand::PredTrue)
            .src(Operand::r(reg))
            .src(Operand::Int(k as u32))
            .src(Operand::PredTrue)
            .at_line(line);
        func.block_mut(cur).instrs.push(test);
        let next = func.new_block(format!("{}_brx{}", func.block(from).label, k + 1));
        func.order.insert(at + k, next);
        func.block_mut(cur).term = Term::Branch { pred: PS, neg: false, taken: t, fall: next };
        func.block_mut(cur).term_line = line;
        cur = next;
    }
    func.block_mut(cur).term = Term::Jump(last);
    func.block_mut(cur).term_line = line;
}
