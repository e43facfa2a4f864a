//! The message of a member-mask fault: a `_sync` instruction (`SHFL`/`VOTE`/`MATCH` with a mask,
//! `WARPSYNC`) whose mask names lanes that are not executing it, each located where it is.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use crate::isa::Pc;
use crate::machine::{LaneList, LaneMask, MemberFault};
use crate::model::Reconvergence;
use crate::program::Program;

use super::WarpState;

fn place(program: &Program, pc: Pc) -> String {
    match program.line(pc) {
        Some(line) => format!("{:#06x} (line {line})", program.addr(pc)),
        None => format!("{:#06x}", program.addr(pc)),
    }
}

fn verb(lanes: LaneMask, one: &'static str, many: &'static str) -> &'static str {
    if lanes.count() == 1 {
        one
    } else {
        many
    }
}

/// "`SHFL.DOWN` at 0x0040 (line 12): its mask 0xffffffff names lanes 16-31, which are not here:
/// lanes 16-31 wait at 0x0070 (line 15); lane 3 exited". `st` is the state after the failed
/// step, in which the missing lanes (which did not run) are where they were.
pub fn message(program: &Program, pc: Pc, f: &MemberFault, st: &WarpState) -> String {
    let text = program.get(pc).map_or("", |i| i.text.as_str());
    let mnemonic = text.split_whitespace().find(|w| !w.starts_with('@')).unwrap_or(text);
    let missing = LaneList(f.missing);
    let mut parts: Vec<String> = Vec::new();
    if !f.guarded_off.is_empty() {
        let off = f.guarded_off;
        parts.push(format!("{} {} {} here with the guard false", LaneList(off).word(), LaneList(off), verb(off, "is", "are")));
    }
    let rest = f.missing.without(f.guarded_off);
    let exited = rest & st.machine.exited;
    let mut at: Vec<(Pc, LaneMask)> = Vec::new();
    let mut nowhere = LaneMask::EMPTY;
    for l in rest.without(exited).iter() {
        match st.model.lane_pc(program, l) {
            Some(p) => match at.iter_mut().find(|(q, _)| *q == p) {
                Some(g) => g.1 = g.1.with(l),
                None => at.push((p, LaneMask::lane(l))),
            },
            None => nowhere = nowhere.with(l),
        }
    }
    at.sort_by_key(|(p, _)| p.0);
    for (p, lanes) in at {
        parts.push(format!("{} {} {} at {}", LaneList(lanes).word(), LaneList(lanes), verb(lanes, "waits", "wait"), place(program, p)));
    }
    if !nowhere.is_empty() {
        parts.push(format!("{} {} {} not running", LaneList(nowhere).word(), LaneList(nowhere), verb(nowhere, "is", "are")));
    }
    if !exited.is_empty() {
        parts.push(format!("{} {} exited", LaneList(exited).word(), LaneList(exited)));
    }
    format!(
        "`{mnemonic}` at {}: its mask {:#010x} names {} {missing}, which {} not here: {}",
        place(program, pc),
        f.mask,
        missing.word(),
        verb(f.missing, "is", "are"),
        parts.join("; ")
    )
}
