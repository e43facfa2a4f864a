//! Which ready warp of a block issues next: GPGPU-Sim's two basic warp schedulers
//! (`gpgpu_scheduler lrr|gto` in its `gpgpusim.config`; `shader.cc`'s `lrr_scheduler` and
//! `gto_scheduler::order_warps`). Any order is a valid CUDA schedule: warps of a block agree
//! only at barriers, so a race-free kernel computes the same under each.

/// Which warp issues next.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "kebab-case"))]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum WarpScheduler {
    /// Greedy then oldest: the warp that issued last goes on while it can; then the oldest
    /// (lowest-numbered) ready warp. A warp runs until a barrier or its end.
    #[default]
    Gto,
    /// Loose round robin: one instruction per warp in turn, skipping warps that cannot issue.
    Lrr,
    /// Any ready warp, picked at random for each instruction (the same pseudo-random sequence
    /// in every run of a block): a check that a kernel's result does not depend on the order.
    Random,
}

impl WarpScheduler {
    pub const ALL: &'static [WarpScheduler] = &[WarpScheduler::Gto, WarpScheduler::Lrr, WarpScheduler::Random];

    pub fn name(self) -> &'static str {
        match self {
            WarpScheduler::Gto => "gto",
            WarpScheduler::Lrr => "lrr",
            WarpScheduler::Random => "random",
        }
    }

    /// The warp that issues next, of those `ready` says can, given the one that issued `last`;
    /// `random` draws from `rng` (xorshift64).
    pub fn pick(self, count: usize, last: Option<usize>, rng: &mut u64, ready: impl Fn(usize) -> bool) -> Option<usize> {
        match (self, last) {
            (WarpScheduler::Random, _) => {
                let n = (0..count).filter(|&w| ready(w)).count();
                if n == 0 {
                    return None;
                }
                *rng ^= *rng << 13;
                *rng ^= *rng >> 7;
                *rng ^= *rng << 17;
                (0..count).filter(|&w| ready(w)).nth((*rng % n as u64) as usize)
            }
            (WarpScheduler::Gto, Some(w)) if ready(w) => Some(w),
            (WarpScheduler::Gto, _) | (WarpScheduler::Lrr, None) => (0..count).find(|&w| ready(w)),
            (WarpScheduler::Lrr, Some(w)) => (1..=count).map(|k| (w + k) % count).find(|&w| ready(w)),
        }
    }

    /// Whether the warp picked may take steps in a row (the fast loop): under `gto` it keeps
    /// issuing until it cannot, under `lrr` it gives way after each instruction.
    pub fn runs_on(self) -> bool {
        self == WarpScheduler::Gto
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gto_keeps_the_last_warp_then_takes_the_oldest() {
        let ready = |w: usize| w != 1;
        let rng = &mut 1;
        assert_eq!(WarpScheduler::Gto.pick(4, Some(2), rng, ready), Some(2));
        assert_eq!(WarpScheduler::Gto.pick(4, Some(1), rng, ready), Some(0));
        assert_eq!(WarpScheduler::Gto.pick(4, None, rng, |w| w >= 3), Some(3));
        assert_eq!(WarpScheduler::Gto.pick(4, None, rng, |_| false), None);
    }

    #[test]
    fn lrr_takes_the_next_ready_warp_after_the_last() {
        let ready = |w: usize| w != 1;
        let rng = &mut 1;
        assert_eq!(WarpScheduler::Lrr.pick(4, Some(0), rng, ready), Some(2));
        assert_eq!(WarpScheduler::Lrr.pick(4, Some(3), rng, ready), Some(0));
        assert_eq!(WarpScheduler::Lrr.pick(4, Some(2), rng, |w| w == 2), Some(2));
        assert_eq!(WarpScheduler::Lrr.pick(4, None, rng, ready), Some(0));
    }

    #[test]
    fn random_picks_every_ready_warp_and_no_other() {
        let rng = &mut 0x9E37_79B9_7F4A_7C15;
        let mut seen = [0; 5];
        for _ in 0..1000 {
            seen[WarpScheduler::Random.pick(5, Some(0), rng, |w| w != 3).unwrap()] += 1;
        }
        assert!(seen[3] == 0 && [0, 1, 2, 4].iter().all(|&w| seen[w] > 150), "{seen:?}");
    }
}
