//! What a recorded `SHFL` step exchanged, for the lanes view: which lane each lane read (PTX
//! `shfl.sync`'s source lane, from the state before the step), and one sentence saying it.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::{advance, Sim};
use crate::isa::{Op, Pc, ShflMode, Src};
use crate::machine::{shfl_source, LaneList, LaneMask, Machine};
use crate::model::Reconvergence;

/// One shuffle step: for each lane that ran it, the lane whose value it got.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Exchange {
    pub step: u64,
    pub pc: Pc,
    /// Per lane: `Some(source)` for a lane that ran the shuffle (its own number when its source
    /// was out of range or did not run it, as `shfl.sync` defines), `None` otherwise.
    pub sources: Vec<Option<u32>>,
    /// The lanes whose source was out of range or not there: they kept their own value.
    pub kept: LaneMask,
    /// `step 12: SHFL.DOWN: lanes 0-15 got the value of the lane 16 above; lanes 16-31 kept their own`.
    pub text: String,
}

fn read(m: &Machine, lane: u32, s: Src) -> u32 {
    match s {
        Src::Imm(v) => v,
        Src::Reg { reg, .. } => m.reg(lane, reg),
    }
}

impl Sim {
    /// The exchange of step `t` if it issued a `SHFL`; `None` otherwise (or for a step past the
    /// recorded run). Replays from a checkpoint on a copy of the state, like `step_access`.
    pub fn step_exchange(&self, t: u64) -> Option<Exchange> {
        let before = t.checked_sub(1)?;
        let record = self.timeline.record_at(before as usize)?;
        let Op::Shfl { mode, b, c, .. } = self.program.get(Pc(record.pc))?.op else { return None };
        let mut st = self.timeline.checkpoint_before(before).clone();
        while st.metrics.steps < before {
            advance(&self.program, &self.plain, &self.config, &mut st)?;
        }
        let pc = st.model.pc()?;
        let instr = self.program.get(pc)?;
        let m = st.machine.clone();
        let (issued, _) = advance(&self.program, &self.plain, &self.config, &mut st)?;
        if issued.pc != pc {
            return None;
        }
        let ran = m.guard_mask(instr.guard, issued.mask);
        let mut sources = alloc::vec![None; m.width as usize];
        let mut kept = LaneMask::EMPTY;
        for l in ran.iter() {
            let (src, in_range) = shfl_source(mode, l, read(&m, l, b), read(&m, l, c));
            // Lanes of a wider warp shuffle within their own 32.
            let src = (l & !31) | src;
            let there = in_range && ran.contains(src);
            sources[l as usize] = Some(if there { src } else { l });
            if !there {
                kept |= LaneMask::lane(l);
            }
        }
        let text = describe(t, &instr.text, mode, &sources, kept);
        Some(Exchange { step: t, pc, sources, kept, text })
    }
}

/// The sentence: the lanes grouped by how far (or which lane) they read, then those that kept.
fn describe(step: u64, text: &str, mode: ShflMode, sources: &[Option<u32>], kept: LaneMask) -> String {
    let opcode = text.split_whitespace().find(|w| !w.starts_with('@')).unwrap_or("SHFL");
    // Group lanes by their offset (up/down), xor mask (butterfly) or source lane (index).
    let mut groups: Vec<(i64, LaneMask)> = Vec::new();
    for (l, s) in sources.iter().enumerate() {
        let Some(s) = *s else { continue };
        if kept.contains(l as u32) {
            continue;
        }
        let key = match mode {
            ShflMode::Up | ShflMode::Down => s as i64 - l as i64,
            ShflMode::Bfly => (s ^ l as u32) as i64,
            ShflMode::Idx => s as i64,
        };
        match groups.iter_mut().find(|g| g.0 == key) {
            Some(g) => g.1 |= LaneMask::lane(l as u32),
            None => groups.push((key, LaneMask::lane(l as u32))),
        }
    }
    let mut parts: Vec<String> = groups
        .iter()
        .take(4)
        .map(|(key, lanes)| {
            let whose = match mode {
                ShflMode::Down | ShflMode::Up if *key > 0 => format!("the lane {key} above"),
                ShflMode::Down | ShflMode::Up => format!("the lane {} below", -key),
                ShflMode::Bfly => format!("lane ^ {key}"),
                ShflMode::Idx => format!("lane {key}"),
            };
            format!("{} got the value of {whose}", plural(*lanes))
        })
        .collect();
    if groups.len() > 4 {
        parts.push(format!("{} more groups", groups.len() - 4));
    }
    if !kept.is_empty() {
        parts.push(format!("{} kept their own (source out of range or not running)", plural(kept)));
    }
    format!("step {step}: {opcode}: {}", parts.join("; "))
}

fn plural(lanes: LaneMask) -> String {
    if lanes.count() == 1 {
        format!("lane {}", LaneList(lanes))
    } else {
        format!("lanes {}", LaneList(lanes))
    }
}

#[cfg(test)]
mod tests {
    use crate::kernel::parse_kernel;
    use crate::{launch, LaunchOptions};
    use alloc::format;

    #[test]
    fn a_shuffle_down_names_each_lanes_source() {
        let text = "__global__ void k(int* a) {\n  int v = threadIdx.x * 10;\n  if (threadIdx.x < 8) v = __shfl_down_sync(0xff, v, 2);\n  a[threadIdx.x] = v;\n}\n";
        let (k, d) = parse_kernel(text);
        assert!(d.iter().all(|d| !d.is_error()), "{d:?}");
        let mut sim = launch(&k, &LaunchOptions::default()).unwrap();
        sim.run_to_end();
        let ex = (1..=sim.steps()).find_map(|t| sim.step_exchange(t)).expect("a shuffle step");
        for l in 0..8 {
            assert_eq!(ex.sources[l], Some(if l < 6 { l as u32 + 2 } else { l as u32 }), "lane {l}");
        }
        assert!(ex.sources[8..].iter().all(Option::is_none));
        assert_eq!(ex.text, format!("step {}: SHFL.DOWN: lanes 0-5 got the value of the lane 2 above; lanes 6-7 kept their own (source out of range or not running)", ex.step));
        let a = &sim.state().machine.memory.buffer("a").unwrap().1;
        assert_eq!(a[..8], [20, 30, 40, 50, 60, 70, 60, 70]);
    }
}
