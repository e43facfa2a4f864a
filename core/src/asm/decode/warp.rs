//! The warp-wide instructions: `SHFL` and `VOTE`, each with an optional member mask last.

use super::{err, Args, At, DecodeError, Mods};
use crate::isa::*;

/// `SHFL.IDX|UP|DOWN|BFLY Pd, d, a, b, c [, mask]`.
pub(super) fn shfl(mods: &mut Mods, a: &Args) -> Result<Op, DecodeError> {
    let mode = match mods.take_any(&["IDX", "UP", "DOWN", "BFLY"]) {
        Some("IDX") => ShflMode::Idx,
        Some("UP") => ShflMode::Up,
        Some("DOWN") => ShflMode::Down,
        Some(_) => ShflMode::Bfly,
        None => return err(At::Mnemonic, "`SHFL` needs .IDX, .UP, .DOWN or .BFLY"),
    };
    a.count(&[5, 6])?;
    Ok(Op::Shfl { mode, pred: a.pred(0)?, dst: a.reg(1)?, a: a.src_int(2)?, b: a.src_int(3)?, c: a.src_int(4)?, mask: a.mask(5)? })
}

/// `VOTE.ALL|ANY|EQ d, Pd, [!]p [, mask]`.
pub(super) fn vote(mods: &mut Mods, a: &Args) -> Result<Op, DecodeError> {
    let mode = match mods.take_any(&["ALL", "ANY", "EQ"]) {
        Some("ALL") => VoteMode::All,
        Some("ANY") => VoteMode::Any,
        Some(_) => VoteMode::Eq,
        None => return err(At::Mnemonic, "`VOTE` needs .ALL, .ANY or .EQ"),
    };
    a.count(&[3, 4])?;
    Ok(Op::Vote { mode, dst: a.reg(0)?, pred: a.pred(1)?, src: a.pred_src(2)?, mask: a.mask(3)? })
}
