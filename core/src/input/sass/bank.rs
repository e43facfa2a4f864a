//! The constant bank `c[0x0][...]` as each architecture lays it out: the launch's dimensions,
//! the local-memory stack top, the global-memory descriptor and the kernel's parameters. The
//! offsets are read off nvcc 13.5's SASS of kernels that read each value (`blockDim.x` ...
//! `gridDim.z`, a parameter of each type); NVIDIA documents none of them.

/// Where each value lives in bank 0.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Bank {
    /// `blockDim.x`; `.y` and `.z` follow, a word each.
    pub ntid: u32,
    /// `gridDim.x`; `.y` and `.z` follow.
    pub nctaid: u32,
    /// The top of the thread's local-memory stack (`R1` is loaded from it first).
    pub stack: u32,
    /// The 64-bit base of the local window in generic addresses (`printf` adds it to R1 for
    /// `vprintf`'s argument buffer).
    pub local_window: u32,
    /// The 64-bit memory descriptor `desc[UR4]` operands name (sm_80 and later).
    pub desc: u32,
    /// The first parameter; each is aligned to its size.
    pub params: u32,
    /// Where the kernel's shared memory starts in the shared window (`LDS`/`STS` addresses):
    /// sm_90 and later keep the first KiB for themselves, and nvcc's code adds 0x400 (after
    /// `SR_CgaCtaId`, the block's place in its cluster, shifted by 24).
    pub shared: u32,
}

/// The layout for `sm_XY`, or `None` for an architecture this does not know.
pub fn bank(arch: &str) -> Option<Bank> {
    let n: u32 = arch.strip_prefix("sm_")?.trim_end_matches(|c: char| c.is_ascii_alphabetic()).parse().ok()?;
    Some(match n {
        70..=89 => Bank { ntid: 0x0, nctaid: 0xc, stack: 0x28, local_window: 0x20, desc: 0x118, params: 0x160, shared: 0 },
        90..=99 => Bank { ntid: 0x0, nctaid: 0xc, stack: 0x28, local_window: 0x20, desc: 0x208, params: 0x210, shared: 0x400 },
        100..=129 => Bank { ntid: 0x360, nctaid: 0x370, stack: 0x37c, local_window: 0x2f8, desc: 0x358, params: 0x380, shared: 0x400 },
        _ => return None,
    })
}

/// The value a word of the bank below the parameters holds.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Word {
    /// A launch dimension, read as the special register names it (`SR_NTID.X`).
    Special(&'static str),
    /// The stack top: warpscope's local memory is not addressed through it, so 0.
    Stack,
    /// The memory descriptor: warpscope's addresses need none, so 0.
    Descriptor,
    /// The local window's base: warpscope's local memory is the buffer `local`, addressed as
    /// global memory is, so 0.
    LocalWindow,
    /// The parameter area, at this byte offset from its start.
    Param(u32),
}

/// The launch size a `Word::Special` names: whether it is the grid's (else the block's), and
/// its axis (x 0, y 1, z 2).
pub fn launch_size(name: &str) -> (bool, usize) {
    let axis = match name.as_bytes().last() {
        Some(b'X') => 0,
        Some(b'Y') => 1,
        _ => 2,
    };
    (name.starts_with("SR_NCTAID"), axis)
}

impl Bank {
    /// What the word at byte `offset` holds, or `None` when nothing known lives there.
    pub fn word(&self, offset: u32) -> Option<Word> {
        const NTID: [&str; 3] = ["SR_NTID.X", "SR_NTID.Y", "SR_NTID.Z"];
        const NCTAID: [&str; 3] = ["SR_NCTAID.X", "SR_NCTAID.Y", "SR_NCTAID.Z"];
        let within = |base: u32| offset.checked_sub(base).filter(|d| d % 4 == 0 && *d < 12).map(|d| (d / 4) as usize);
        if let Some(k) = within(self.ntid) {
            return Some(Word::Special(NTID[k]));
        }
        if let Some(k) = within(self.nctaid) {
            return Some(Word::Special(NCTAID[k]));
        }
        if offset == self.stack {
            return Some(Word::Stack);
        }
        if offset == self.desc || offset == self.desc + 4 {
            return Some(Word::Descriptor);
        }
        if offset == self.local_window || offset == self.local_window + 4 {
            return Some(Word::LocalWindow);
        }
        offset.checked_sub(self.params).filter(|d| d % 4 == 0 && *d < 0x1000).map(Word::Param)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_architecture_places_the_launch_and_the_parameters() {
        let hopper = bank("sm_90").unwrap();
        assert_eq!(hopper.word(0x0), Some(Word::Special("SR_NTID.X")));
        assert_eq!(hopper.word(0x14), Some(Word::Special("SR_NCTAID.Z")));
        assert_eq!(hopper.word(0x218), Some(Word::Param(8)));
        assert_eq!(bank("sm_75").unwrap().word(0x178), Some(Word::Param(0x18)));
        let blackwell = bank("sm_120").unwrap();
        assert_eq!(blackwell.word(0x364), Some(Word::Special("SR_NTID.Y")));
        assert_eq!(blackwell.word(0x37c), Some(Word::Stack));
        assert_eq!(blackwell.word(0x380), Some(Word::Param(0)));
        assert_eq!(bank("sm_60"), None);
    }
}
