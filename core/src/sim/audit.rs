//! Invariants every model keeps at every step, checked by the property tests and the fuzzers
//! (not by `step`: they cost a scan of the lanes).

use alloc::format;
use alloc::string::String;

use super::{Status, WarpState};
use crate::machine::LaneMask;
use crate::model::Reconvergence;
use crate::program::Program;

/// Every lane of the warp is exactly one of: issuing (active), waiting (live, with a pc to
/// resume at) or exited (no pc); issuing lanes are live; exited lanes stay exited.
/// `exited_before` is the exited set of the previous step.
pub fn lanes_conserved(program: &Program, st: &WarpState, exited_before: LaneMask) -> Result<(), String> {
    let m = &st.machine;
    let all = m.all_lanes();
    if m.exited.without(all) != LaneMask::EMPTY {
        return Err(format!("lanes outside the warp exited: {:#x}", m.exited.without(all).0));
    }
    if exited_before.without(m.exited) != LaneMask::EMPTY {
        return Err(format!("exited lanes came back: {:#x}", exited_before.without(m.exited).0));
    }
    let live = m.live_lanes();
    let running = st.status == Status::Running && !st.model.finished();
    let issuing = if running { st.model.issuing(program) } else { LaneMask::EMPTY };
    if issuing.without(live) != LaneMask::EMPTY {
        return Err(format!("lanes that are not live issue: {:#x}", issuing.without(live).0));
    }
    for lane in all.iter() {
        let pc = st.model.lane_pc(program, lane);
        match (m.exited.contains(lane), pc) {
            (true, Some(pc)) => return Err(format!("exited lane {lane} still has pc {}", pc.0)),
            (false, None) if running => return Err(format!("live lane {lane} is nowhere: neither issuing nor waiting")),
            (false, Some(pc)) if pc.index() > program.len() => return Err(format!("lane {lane} waits at pc {}, past the code", pc.0)),
            _ => {}
        }
    }
    Ok(())
}
