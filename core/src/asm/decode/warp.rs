//! The warp-wide instructions: `SHFL`, `VOTE` and `MATCH`, each with an optional member mask
//! last.

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

/// `REDUX.SUM|MIN|MAX|AND|OR|XOR[.S32|.U32] d, a`: `MIN`/`MAX` unsigned unless `.S32`.
pub(super) fn redux(mods: &mut Mods, a: &Args) -> Result<Op, DecodeError> {
    let signed = mods.take("S32");
    mods.take("U32");
    let op = match mods.take_any(&["SUM", "MIN", "MAX", "AND", "OR", "XOR"]) {
        Some("SUM") => ReduxOp::Sum,
        Some("MIN") => ReduxOp::Min { signed },
        Some("MAX") => ReduxOp::Max { signed },
        Some("AND") => ReduxOp::And,
        Some("OR") => ReduxOp::Or,
        Some(_) => ReduxOp::Xor,
        None => return err(At::Mnemonic, "`REDUX` needs .SUM, .MIN, .MAX, .AND, .OR or .XOR"),
    };
    a.count(&[2])?;
    Ok(Op::Redux { op, dst: a.reg(0)?, src: a.reg(1)? })
}

/// `MATCH.ANY[.U32|.U64] d, a [, mask]` / `MATCH.ALL[.U32|.U64] Pd, d, a [, mask]`; `.U64`
/// compares the register pair `a`.
pub(super) fn match_(mods: &mut Mods, a: &Args) -> Result<Op, DecodeError> {
    let mode = match mods.take_any(&["ANY", "ALL"]) {
        Some("ANY") => MatchMode::Any,
        Some(_) => MatchMode::All,
        None => return err(At::Mnemonic, "`MATCH` needs .ANY or .ALL"),
    };
    let wide = mods.take_any(&["U32", "U64"]) == Some("U64");
    // `.ALL` starts with its predicate.
    let at = usize::from(mode == MatchMode::All);
    if at == 1 && !a.is_pred(0) {
        let at = if a.ops.is_empty() { At::Mnemonic } else { At::Operand(0) };
        return err(at, "`MATCH.ALL` starts with its predicate: `MATCH.ALL Pd, d, a [, mask]`");
    }
    a.count(&[2 + at, 3 + at])?;
    let pred = if at == 1 { a.pred(0)? } else { Pred::PT };
    Ok(Op::Match { mode, pred, dst: a.reg(at)?, src: a.src_int(at + 1)?, wide, mask: a.mask(at + 2)? })
}
