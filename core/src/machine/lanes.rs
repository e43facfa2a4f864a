//! Lane masks: one bit per lane of a warp of up to 64 lanes.

use core::fmt;
use core::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, Not};

pub const MAX_WARP: u32 = 64;

/// A set of lanes. Bit `i` is lane `i`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct LaneMask(pub u64);

impl LaneMask {
    pub const EMPTY: LaneMask = LaneMask(0);

    /// All lanes of a warp of width `w` (1..=64).
    pub fn full(w: u32) -> LaneMask {
        if w >= 64 {
            LaneMask(u64::MAX)
        } else {
            LaneMask((1u64 << w) - 1)
        }
    }
    pub fn lane(i: u32) -> LaneMask {
        LaneMask(1u64 << i)
    }
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }
    pub fn count(self) -> u32 {
        self.0.count_ones()
    }
    pub fn contains(self, lane: u32) -> bool {
        lane < 64 && self.0 >> lane & 1 == 1
    }
    pub fn with(self, lane: u32) -> LaneMask {
        LaneMask(self.0 | 1u64 << lane)
    }
    pub fn without(self, other: LaneMask) -> LaneMask {
        LaneMask(self.0 & !other.0)
    }
    /// True when every lane of `self` is in `other`.
    pub fn is_subset(self, other: LaneMask) -> bool {
        self.0 & !other.0 == 0
    }
    /// The lanes in increasing order.
    pub fn iter(self) -> impl Iterator<Item = u32> {
        let mut bits = self.0;
        core::iter::from_fn(move || {
            if bits == 0 {
                return None;
            }
            let i = bits.trailing_zeros();
            bits &= bits - 1;
            Some(i)
        })
    }
    /// `w` binary digits, lane `w-1` first, so the text reads like the hex value (`0x80000000`
    /// is lane 31 alone).
    pub fn bits(self, w: u32) -> Bits {
        Bits { mask: self, width: w }
    }
    /// Hex with enough digits for the warp width, like the papers' `0x7FFFFFFF`.
    pub fn hex(self, w: u32) -> Hex {
        Hex { mask: self, width: w }
    }
}

impl fmt::Debug for LaneMask {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "LaneMask({:#x})", self.0)
    }
}

pub struct Bits {
    mask: LaneMask,
    width: u32,
}

impl fmt::Display for Bits {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for lane in (0..self.width).rev() {
            f.write_str(if self.mask.contains(lane) { "1" } else { "0" })?;
        }
        Ok(())
    }
}

pub struct Hex {
    mask: LaneMask,
    width: u32,
}

impl fmt::Display for Hex {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let digits = self.width.div_ceil(4).max(1) as usize;
        write!(f, "0x{:0digits$X}", self.mask.0)
    }
}

impl BitAnd for LaneMask {
    type Output = LaneMask;
    fn bitand(self, rhs: LaneMask) -> LaneMask {
        LaneMask(self.0 & rhs.0)
    }
}
impl BitOr for LaneMask {
    type Output = LaneMask;
    fn bitor(self, rhs: LaneMask) -> LaneMask {
        LaneMask(self.0 | rhs.0)
    }
}
impl BitAndAssign for LaneMask {
    fn bitand_assign(&mut self, rhs: LaneMask) {
        self.0 &= rhs.0;
    }
}
impl BitOrAssign for LaneMask {
    fn bitor_assign(&mut self, rhs: LaneMask) {
        self.0 |= rhs.0;
    }
}
impl Not for LaneMask {
    type Output = LaneMask;
    fn not(self) -> LaneMask {
        LaneMask(!self.0)
    }
}

/// Lanes as ranges, `0-15, 17, 20-31`, for messages.
pub struct LaneList(pub LaneMask);

impl LaneList {
    /// "lane" or "lanes", to put before the list.
    pub fn word(&self) -> &'static str {
        if self.0.count() == 1 {
            "lane"
        } else {
            "lanes"
        }
    }
}

impl fmt::Display for LaneList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.is_empty() {
            return f.write_str("none");
        }
        write_ranges(f, self.0.iter())
    }
}

/// Numbers in increasing order as ranges, `0-15, 17, 20-31`: lanes, or a block's threads.
pub fn write_ranges(f: &mut impl fmt::Write, numbers: impl Iterator<Item = u32>) -> fmt::Result {
    let mut first = true;
    let mut numbers = numbers.peekable();
    while let Some(start) = numbers.next() {
        let mut end = start;
        while numbers.peek() == Some(&(end + 1)) {
            end = numbers.next().unwrap_or(end);
        }
        if !first {
            f.write_str(", ")?;
        }
        first = false;
        if start == end {
            write!(f, "{start}")?;
        } else {
            write!(f, "{start}-{end}")?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::format;

    #[test]
    fn display_matches_hex_reading() {
        let m = LaneMask::lane(31);
        assert_eq!(format!("{}", m.hex(32)), "0x80000000");
        assert_eq!(format!("{}", LaneMask::full(32).without(m).bits(32)), "01111111111111111111111111111111");
        assert_eq!(LaneMask::full(64).count(), 64);
        assert_eq!(LaneMask(0b1010).iter().collect::<alloc::vec::Vec<_>>(), [1, 3]);
    }
}
