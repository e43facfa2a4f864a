//! Register names: general registers, predicates, special registers, convergence barriers.

use core::fmt;

/// A general register `R0`..`R254`, or `RZ` (reads zero, writes are dropped).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Reg(pub u8);

impl Reg {
    pub const RZ: Reg = Reg(255);
    pub fn is_zero(self) -> bool {
        self == Reg::RZ
    }
}

impl fmt::Display for Reg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_zero() {
            f.write_str("RZ")
        } else {
            write!(f, "R{}", self.0)
        }
    }
}

/// A predicate register `P0`..`P6`, `PT` (always true, writes are dropped), or one of SASS's
/// uniform predicates `UP0`..`UP6` (8 to 14: a kernel may use all of both).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Pred(pub u8);

impl Pred {
    pub const PT: Pred = Pred(7);
    /// The general predicates `P0`..`P6`.
    pub const COUNT: usize = 7;
    /// The predicate file: `P0`..`P6`, `PT`'s slot and `UP0`..`UP6`.
    pub const FILE: usize = 15;
    /// The uniform predicates' first slot: `UPk` is `Pred(UNIFORM + k)`.
    pub const UNIFORM: u8 = 8;
    pub fn is_true(self) -> bool {
        self == Pred::PT
    }
    /// `UPk`, for `k` below 7.
    pub fn uniform(k: u8) -> Option<Pred> {
        (k < 7).then_some(Pred(Pred::UNIFORM + k))
    }
}

impl fmt::Display for Pred {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0.checked_sub(Pred::UNIFORM) {
            _ if self.is_true() => f.write_str("PT"),
            Some(k) => write!(f, "UP{k}"),
            None => write!(f, "P{}", self.0),
        }
    }
}

/// A predicate source operand, possibly negated (`!P1`, `!PT`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct PredSrc {
    pub pred: Pred,
    pub negated: bool,
}

impl PredSrc {
    pub const TRUE: PredSrc = PredSrc { pred: Pred::PT, negated: false };
}

/// One of a launch's three dimensions.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Axis {
    X,
    Y,
    Z,
}

impl Axis {
    pub const ALL: [Axis; 3] = [Axis::X, Axis::Y, Axis::Z];
    pub fn index(self) -> usize {
        self as usize
    }
    pub fn name(self) -> &'static str {
        ["X", "Y", "Z"][self.index()]
    }
}

/// Special registers readable with `S2R` / `CS2R`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum SpecialReg {
    /// `SR_TID.X/Y/Z`: the lane's thread index in its block (from the launch: the lane's linear
    /// thread id split by the block's dimensions, x fastest).
    Tid(Axis),
    /// `SR_NTID.X/Y/Z`: the block's dimensions.
    Ntid(Axis),
    /// `SR_CTAID.X/Y/Z`: the block's index in the grid.
    Ctaid(Axis),
    /// `SR_NCTAID.X/Y/Z`: the grid's dimensions.
    Nctaid(Axis),
    LaneId,
    /// `SR_LTMASK`, `SR_LEMASK`, `SR_GTMASK`, `SR_GEMASK`, `SR_EQMASK` (PTX `%lanemask_lt`...):
    /// the lanes below, at or below, above, at or above, or at the lane's own place in its
    /// 32-lane half, as a 32-bit mask.
    LaneMaskLt,
    LaneMaskLe,
    LaneMaskGt,
    LaneMaskGe,
    LaneMaskEq,
    /// `SR_WARPID`: warpscope's stand-in for PTX `%warpid` (on hardware, the warp's slot on its
    /// SM, which may change): the running warp's number in its block, its first thread over the
    /// warp width (`//@ launch`'s warp).
    WarpId,
    ClockLo,
    ClockHi,
    /// `SRZ`: zero, for `CS2R Rd, SRZ`.
    Srz,
}

/// A convergence barrier register `B0`..`B15` (Volta and later).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Barrier(pub u8);

impl Barrier {
    pub const COUNT: usize = 16;
}
