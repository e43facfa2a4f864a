//! Each lane's pc, for the models that keep one (tf-sandy, volta, mimd), kept as groups: the
//! live lanes partitioned by pc, one mask per distinct pc. Lanes of a warp move together
//! almost always, so the questions the models ask every step (which lanes are at this pc, how
//! many distinct pcs there are) and the usual move (a group goes on to its next pc) cost a walk
//! over a few groups, not over 32 lanes.

use alloc::vec::Vec;

use crate::isa::Pc;
use crate::machine::LaneMask;

#[derive(Clone, Debug)]
pub struct LanePcs {
    /// Distinct pcs, each with its (non-empty, disjoint) lanes; together the live lanes. In the
    /// order they formed: equality ignores the order.
    groups: Vec<(Pc, LaneMask)>,
    live: LaneMask,
    /// The program's length: pcs at or past it are past the end.
    len: usize,
}

impl PartialEq for LanePcs {
    fn eq(&self, o: &LanePcs) -> bool {
        let sorted = |g: &[(Pc, LaneMask)]| {
            let mut v = g.to_vec();
            v.sort_by_key(|&(p, _)| p.0);
            v
        };
        self.live == o.live && self.len == o.len && self.groups.len() == o.groups.len() && sorted(&self.groups) == sorted(&o.groups)
    }
}
impl Eq for LanePcs {}

impl LanePcs {
    /// `live` lanes all at pc 0, in a program of `len` instructions.
    pub fn new(len: usize, live: LaneMask) -> LanePcs {
        let groups = if live.is_empty() { Vec::new() } else { alloc::vec![(Pc(0), live)] };
        LanePcs { groups, live, len }
    }

    /// The lanes that have not exited.
    #[inline]
    pub fn live(&self) -> LaneMask {
        self.live
    }

    /// A live lane's pc (`None` for a lane that exited).
    pub fn lane(&self, lane: u32) -> Option<Pc> {
        self.groups.iter().find(|g| g.1.contains(lane)).map(|g| g.0)
    }
    /// A live lane's pc (for a lane that exited, the end of the program).
    pub fn get(&self, lane: u32) -> Pc {
        self.lane(lane).unwrap_or(Pc(self.len as u32))
    }

    /// The live lanes of `among` whose pc is `pc`.
    #[inline]
    pub fn at(&self, pc: Pc, among: LaneMask) -> LaneMask {
        self.groups.iter().find(|g| g.0 == pc).map_or(LaneMask::EMPTY, |g| g.1 & among)
    }

    /// How many distinct pcs the live lanes are at.
    #[inline]
    pub fn distinct(&self) -> usize {
        self.groups.len()
    }

    /// The live lanes whose pc is at or past the end of the program.
    #[inline]
    pub fn past_end(&self) -> LaneMask {
        self.groups.iter().filter(|g| g.0.index() >= self.len).fold(LaneMask::EMPTY, |a, g| a | g.1)
    }

    /// Moves `lanes` (live lanes, all at `from`) to `to`.
    #[inline]
    pub fn move_group(&mut self, lanes: LaneMask, from: Pc, to: Pc) {
        if lanes.is_empty() || from == to {
            return;
        }
        let Some(i) = self.groups.iter().position(|g| g.0 == from) else {
            debug_assert!(false, "no lanes at {from:?}");
            return;
        };
        debug_assert!(lanes.is_subset(self.groups[i].1), "{lanes:?} are not all at {from:?}");
        let rest = self.groups[i].1.without(lanes);
        match self.groups.iter().position(|g| g.0 == to) {
            Some(j) => {
                self.groups[j].1 |= lanes;
                if rest.is_empty() {
                    self.groups.swap_remove(i);
                } else {
                    self.groups[i].1 = rest;
                }
            }
            // The whole group moves on: its pc changes, nothing else (the usual step).
            None if rest.is_empty() => self.groups[i].0 = to,
            None => {
                self.groups[i].1 = rest;
                self.groups.push((to, lanes));
            }
        }
    }

    /// Moves each live lane of `lanes` to the instruction after its own.
    pub fn advance(&mut self, lanes: LaneMask) {
        let lanes = lanes & self.live;
        // Group by group, from a copy: a group moved on may land where another one is.
        let before = self.groups.clone();
        for (pc, group) in before {
            self.move_group(group & lanes, pc, pc.next());
        }
    }

    /// Takes lanes that exited out of the live set.
    pub fn retire(&mut self, exited: LaneMask) {
        for g in self.groups.iter_mut() {
            g.1 = g.1.without(exited);
        }
        self.groups.retain(|g| !g.1.is_empty());
        self.live = self.live.without(exited);
    }

    /// The lowest pc of the lanes of `among`.
    pub fn lowest(&self, among: LaneMask) -> Option<Pc> {
        self.groups.iter().filter(|g| !(g.1 & among).is_empty()).map(|g| g.0).min_by_key(|p| p.0)
    }

    /// True when some live lane of `among` is at `pc` or after it.
    #[inline]
    pub fn any_from(&self, pc: Pc, among: LaneMask) -> bool {
        self.groups.iter().any(|g| g.0 .0 >= pc.0 && !(g.1 & among).is_empty())
    }

    /// The distinct pcs of the lanes of `among`, highest first (the bottom of a stack view first).
    pub fn distinct_of(&self, among: LaneMask) -> Vec<Pc> {
        let mut v: Vec<Pc> = self.groups.iter().filter(|g| !(g.1 & among).is_empty()).map(|g| g.0).collect();
        v.sort_by_key(|p| core::cmp::Reverse(p.0));
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;
    use proptest::prelude::*;

    /// The reference: a plain array of pcs.
    fn naive_at(pcs: &[u32], live: LaneMask, pc: u32) -> LaneMask {
        live.iter().filter(|&l| pcs[l as usize] == pc).fold(LaneMask::EMPTY, |a, l| a.with(l))
    }

    proptest! {
        /// Any sequence of moves and exits answers as a plain per-lane array does.
        #[test]
        fn answers_as_a_plain_array(width in 1u32..=64, ops in proptest::collection::vec((0u8..4, any::<u64>(), 0u32..12), 0..60)) {
            let len = 10usize;
            let all = LaneMask::full(width);
            let mut fast = LanePcs::new(len, all);
            let mut pcs = vec![0u32; width as usize];
            let mut live = all;
            for (kind, bits, to) in ops {
                let lanes = LaneMask(bits) & live;
                match kind {
                    0 => {
                        // A group: the lanes of `lanes` at the pc of its lowest lane.
                        if let Some(first) = lanes.iter().next() {
                            let from = pcs[first as usize];
                            let group = naive_at(&pcs, lanes, from);
                            fast.move_group(group, Pc(from), Pc(to));
                            for l in group.iter() { pcs[l as usize] = to; }
                        }
                    }
                    1 => {
                        // Lane by lane, wherever each is.
                        for l in lanes.iter() {
                            fast.move_group(LaneMask::lane(l), Pc(pcs[l as usize]), Pc(to));
                            pcs[l as usize] = to;
                        }
                    }
                    2 => {
                        fast.advance(lanes);
                        for l in lanes.iter() { pcs[l as usize] += 1; }
                    }
                    _ => {
                        fast.retire(lanes);
                        live = live.without(lanes);
                    }
                }
                prop_assert_eq!(fast.live(), live);
                for l in live.iter() {
                    prop_assert_eq!(fast.get(l), Pc(pcs[l as usize]));
                }
                for pc in 0..14 {
                    prop_assert_eq!(fast.at(Pc(pc), live), naive_at(&pcs, live, pc));
                    prop_assert_eq!(fast.at(Pc(pc), LaneMask(bits)), naive_at(&pcs, live & LaneMask(bits), pc));
                }
                let mut distinct: Vec<u32> = live.iter().map(|l| pcs[l as usize]).collect();
                distinct.sort();
                distinct.dedup();
                prop_assert_eq!(fast.distinct(), distinct.len());
                for pc in 0..14 {
                    prop_assert_eq!(fast.any_from(Pc(pc), LaneMask(bits)), (live & LaneMask(bits)).iter().any(|l| pcs[l as usize] >= pc));
                }
                let past = live.iter().filter(|&l| pcs[l as usize] as usize >= len).fold(LaneMask::EMPTY, |a, l| a.with(l));
                prop_assert_eq!(fast.past_end(), past);
            }
        }
    }
}
