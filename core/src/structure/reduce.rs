//! Structured or not: a procedure's graph is collapsed region by region with the five patterns
//! of structured code (Zhang and D'Hollander's, as Wu et al. use them):
//!
//! - sequence: `a` goes only to `b`, and only `a` comes to `b`;
//! - if-then: `a` branches to `b` and `c`, and `b` (entered only from `a`) goes on to `c`;
//! - if-then-else: `a` branches to `b` and `c`, each entered only from `a`, both going on to the
//!   same place (or nowhere);
//! - while: `a` branches to `b` and `c`, and `b` (entered only from `a`) goes back to `a`;
//! - self loop: a region that goes back to itself and leaves by at most one edge.
//!
//! The virtual exit (leaving the kernel) is a node like any other that nothing collapses into,
//! so an early `return` is a join as PDOM's post-dominators see it. A loop leaves by one edge:
//! a `break` is unstructured here, as it is in the paper (NVIDIA's `BRK` handles it in
//! hardware). The program is structured when one region is left.

use alloc::vec;
use alloc::vec::Vec;

use super::graph::{Graph, NodeId};

/// The region graph of one procedure: each live region a set of nodes (its entry first).
#[derive(Clone, PartialEq, Eq, Debug)]
pub(crate) struct Regions {
    pub members: Vec<Vec<NodeId>>,
    pub succ: Vec<Vec<usize>>,
    pub pred: Vec<Vec<usize>>,
    pub alive: Vec<bool>,
    pub entry: usize,
    /// The virtual exit.
    pub exit: usize,
}

impl Regions {
    /// One region per node of procedure `p`, plus the exit.
    pub fn of(g: &Graph, p: usize) -> Regions {
        let nodes = g.proc_nodes(p);
        let n = nodes.len();
        let mut index = vec![usize::MAX; g.nodes.len()];
        for (i, &v) in nodes.iter().enumerate() {
            index[v] = i;
        }
        let mut r = Regions {
            members: nodes.iter().map(|&v| vec![v]).chain([Vec::new()]).collect(),
            succ: vec![Vec::new(); n + 1],
            pred: vec![Vec::new(); n + 1],
            alive: vec![true; n + 1],
            entry: index[g.procs[p]],
            exit: n,
        };
        for (i, &v) in nodes.iter().enumerate() {
            for w in g.succ_nodes(v) {
                r.link(i, index[w]);
            }
            if g.exits(v) {
                r.link(i, n);
            }
        }
        r
    }

    fn link(&mut self, a: usize, b: usize) {
        if !self.succ[a].contains(&b) {
            self.succ[a].push(b);
            self.pred[b].push(a);
        }
    }

    fn set_succ(&mut self, a: usize, to: Vec<usize>) {
        for s in core::mem::take(&mut self.succ[a]) {
            self.pred[s].retain(|&p| p != a);
        }
        for s in to {
            self.link(a, s);
        }
    }

    /// Folds `b` into `a` (the caller sets `a`'s successors).
    fn absorb(&mut self, a: usize, b: usize) {
        for s in core::mem::take(&mut self.succ[b]) {
            self.pred[s].retain(|&p| p != b);
        }
        for p in core::mem::take(&mut self.pred[b]) {
            self.succ[p].retain(|&s| s != b);
        }
        let moved = core::mem::take(&mut self.members[b]);
        self.members[a].extend(moved);
        self.alive[b] = false;
    }

    /// `b` can be folded into its only predecessor `a`.
    fn part_of(&self, a: usize, b: usize) -> bool {
        b != self.exit && b != self.entry && b != a && self.pred[b] == [a]
    }

    fn self_loop(&mut self, a: usize) -> bool {
        if !self.succ[a].contains(&a) {
            return false;
        }
        let out: Vec<usize> = self.succ[a].iter().copied().filter(|&s| s != a).collect();
        if out.len() > 1 {
            return false;
        }
        self.set_succ(a, out);
        true
    }

    fn sequence(&mut self, a: usize) -> bool {
        let [b] = self.succ[a][..] else { return false };
        if !self.part_of(a, b) {
            return false;
        }
        let next: Vec<usize> = self.succ[b].iter().map(|&s| if s == b { a } else { s }).collect();
        self.absorb(a, b);
        self.set_succ(a, next);
        true
    }

    fn branch(&mut self, a: usize) -> bool {
        let [s0, s1] = self.succ[a][..] else { return false };
        if s0 == a || s1 == a {
            return false;
        }
        for (b, c) in [(s0, s1), (s1, s0)] {
            if !self.part_of(a, b) {
                continue;
            }
            let then = self.succ[b].iter().all(|&s| s == c);
            let body = self.succ[b] == [a];
            if then || body {
                self.absorb(a, b);
                self.set_succ(a, if then { vec![c] } else { vec![a, c] });
                return true;
            }
        }
        if self.part_of(a, s0) && self.part_of(a, s1) {
            let mut join: Vec<usize> = self.succ[s0].clone();
            for &s in &self.succ[s1] {
                if !join.contains(&s) {
                    join.push(s);
                }
            }
            if join.len() <= 1 && !join.contains(&s0) && !join.contains(&s1) {
                self.absorb(a, s0);
                self.absorb(a, s1);
                self.set_succ(a, join);
                return true;
            }
        }
        false
    }

    /// Applies the patterns until none applies.
    pub fn reduce(&mut self) {
        loop {
            let mut changed = false;
            for a in 0..self.members.len() {
                if !self.alive[a] || a == self.exit {
                    continue;
                }
                while self.self_loop(a) || self.sequence(a) || self.branch(a) {
                    changed = true;
                }
            }
            if !changed {
                return;
            }
        }
    }

    /// One region is left besides the exit.
    pub fn done(&self) -> bool {
        (0..self.members.len()).filter(|&r| self.alive[r] && r != self.exit).count() <= 1
    }

    pub fn live(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.members.len()).filter(|&r| self.alive[r])
    }
}

/// Whether every procedure of `g` is structured.
pub(crate) fn structured(g: &Graph) -> bool {
    (0..g.procs.len()).all(|p| {
        let mut r = Regions::of(g, p);
        r.reduce();
        r.done()
    })
}
