//! The timing model's parameters: cycles by name, read from the data file the calibration
//! writes (`core/data/h100_timing.txt`, made by `scripts/calibrate-h100.sh` from the H100
//! microbenchmarks in `calibration/h100/`), where each line says how its number was measured.

use alloc::format;
use alloc::string::String;

macro_rules! params {
    ($($id:ident = $name:literal: $doc:literal,)*) => {
        /// One parameter of the timing model.
        #[derive(Clone, Copy, PartialEq, Eq, Debug)]
        #[repr(u8)]
        pub enum P { $(#[doc = $doc] $id,)* }

        impl P {
            pub const ALL: &'static [P] = &[$(P::$id,)*];
            pub fn name(self) -> &'static str {
                match self { $(P::$id => $name,)* }
            }
            pub fn doc(self) -> &'static str {
                match self { $(P::$id => $doc,)* }
            }
            pub fn from_name(name: &str) -> Option<P> {
                P::ALL.iter().copied().find(|p| p.name() == name)
            }
        }
    };
}

params! {
    LatFp32 = "latency.fp32": "FADD, FMUL, FFMA, FSETP, FMNMX, HFMA2, I2FP: issue to result",
    LatInt = "latency.int": "IADD3, LOP3, SHF, ISETP, SEL, MOV, PRMT and the other integer ALU operations",
    LatImad = "latency.imad": "IMAD, IMUL, IMAD.WIDE, IMAD.MOV",
    LatMufu = "latency.mufu": "MUFU (EX2, RCP, RSQ, ...)",
    LatConversion = "latency.conversion": "F2I, I2F, F2F and FRND",
    LatBitcount = "latency.bitcount": "POPC, FLO, BREV",
    LatFp64 = "latency.fp64": "DADD, DMUL, DFMA, DSETP",
    LatShared = "latency.shared": "LDS: a load from shared memory",
    LatL2 = "latency.l2": "LDG of a 128-byte line in L2 (the host wrote it, or the kernel touched it)",
    LatDram = "latency.dram": "LDG of a line not in L2",
    LatConstant = "latency.constant": "LDC: a constant-bank load",
    LatSpecial = "latency.special": "S2R: a special register (the clock too)",
    LatWarp = "latency.warp": "SHFL, REDUX, MATCH",
    LatVote = "latency.vote": "VOTE",
    LatClock = "latency.clock": "CS2R of the clock: issue to result",
    ResolveTaken = "branch.resolve_taken": "a BRA's predicate: its writer's issue to the issue of the target, when it jumps",
    ResolveNotTaken = "branch.resolve_not_taken": "a BRA's predicate: its writer's issue to the issue of the next instruction, when it falls through",
    IntervalFp32 = "interval.fp32": "cycles the FP32 pipe is busy per warp instruction",
    IntervalInt = "interval.int": "cycles the integer pipe is busy per warp instruction",
    IntervalImad = "interval.imad": "cycles the IMAD pipe is busy per warp instruction",
    IntervalMufu = "interval.mufu": "cycles the MUFU pipe (also conversions, bit counts) is busy",
    IntervalFp64 = "interval.fp64": "cycles the FP64 pipe is busy per warp instruction",
    IntervalMemory = "interval.memory": "cycles the load/store pipe is busy per warp instruction",
    IntervalClock = "interval.clock": "cycles from a clock read (CS2R) to the next one",
    BranchTaken = "branch.taken": "a BRA that jumps (all its lanes, or the side of a split that runs first): its issue to the target's",
    BranchNotTaken = "branch.not_taken": "a BRA that falls through: its issue to the next",
    BranchInFlight = "branch.in_flight": "results still in flight: a branch is resolved, and a BSYNC issues, this many cycles after the last is written",
    BranchInterval = "branch.interval": "the fewest cycles between two branches (the branch unit's issue interval)",
    LineEnd = "fetch.line_end": "a jump to the last instruction of a 128-byte line: the target's issue to the next instruction's (the next line arrives)",
    Switch = "switch": "a group that blocks (BSYNC, EXIT) to the next group's issue",
    SwitchToBarrier = "switch.to_barrier": "more, when the next group waits at the BSYNC (lanes that skipped an if's body): it issues its own",
    Bsync = "bsync": "a BSYNC every lane reaches together: its issue to the next",
    Bssy = "bssy": "BSSY: its issue to the next",
    Barrier = "barrier": "BAR.SYNC with one warp: its issue to the next",
    BarrierToBssy = "barrier.to_bssy": "a BAR.SYNC or WARPSYNC to the next BSSY's issue, at the least (the convergence barriers are still busy with it)",
}

pub const COUNT: usize = P::ALL.len();

/// A value for every parameter, in cycles.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Params {
    values: [u16; COUNT],
}

/// The data file, as the calibration wrote it.
pub const H100_FILE: &str = include_str!("../../../data/h100_timing.txt");

impl Params {
    pub const ZERO: Params = Params { values: [0; COUNT] };

    pub fn get(&self, p: P) -> u64 {
        self.values[p as usize] as u64
    }
    pub fn set(&mut self, p: P, v: u16) {
        self.values[p as usize] = v;
    }

    /// The H100's parameters, from the data file built in.
    pub fn h100() -> Params {
        // The file is checked by a test, so a bad line can only come from editing it by hand.
        Params::parse(H100_FILE).unwrap_or(Params::ZERO)
    }

    /// Reads `name value  # how it was measured` lines; every parameter must be given once.
    pub fn parse(text: &str) -> Result<Params, String> {
        let mut out = Params::ZERO;
        let mut seen = [false; COUNT];
        for (i, line) in text.lines().enumerate() {
            let body = line.split('#').next().unwrap_or("").trim();
            if body.is_empty() {
                continue;
            }
            let mut words = body.split_whitespace();
            let (Some(name), Some(value), None) = (words.next(), words.next(), words.next()) else {
                return Err(format!("line {}: expected `name cycles  # how it was measured`, found `{body}`", i + 1));
            };
            let p = P::from_name(name).ok_or_else(|| format!("line {}: unknown parameter `{name}`", i + 1))?;
            let v = value.parse::<u16>().map_err(|_| format!("line {}: `{value}` is not a whole number of cycles", i + 1))?;
            if core::mem::replace(&mut seen[p as usize], true) {
                return Err(format!("line {}: `{name}` is given twice", i + 1));
            }
            out.set(p, v);
        }
        match P::ALL.iter().find(|p| !seen[**p as usize]) {
            Some(p) => Err(format!("the parameter `{}` is missing", p.name())),
            None => Ok(out),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_built_in_file_gives_every_parameter() {
        let p = Params::parse(H100_FILE).expect("the data file parses");
        assert_eq!(p, Params::h100());
        assert!(p.get(P::LatFp32) > 0);
    }

    #[test]
    fn bad_lines_say_where_and_why() {
        assert!(Params::parse("latency.fp32 x").unwrap_err().contains("line 1"));
        assert!(Params::parse("nonsense 4").unwrap_err().contains("unknown parameter `nonsense`"));
        assert!(Params::parse("latency.fp32 4").unwrap_err().contains("missing"));
    }
}
