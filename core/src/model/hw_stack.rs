//! The hardware reconvergence stack of Fermi to Pascal: a small on-chip part that spills its
//! lowest entries to memory in chunks when a push overflows, and fills them back in chunks
//! when a pop needs them (Bialas & Strzelecki, Section IV: 16 entries, chunks of 4).

use alloc::vec::Vec;

use crate::isa::Pc;
use crate::machine::LaneMask;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum TokenKind {
    /// Pushed by `SSY`: where the whole region reconverges.
    Sync,
    /// Pushed by a divergent `BRA`: the lanes that did not take it, and where they resume.
    Div,
    /// Pushed by `PBK`: where lanes that `BRK` resume.
    Break,
    /// Pushed by `PCNT`: where lanes that `CONT` resume.
    Cont,
    /// Pushed by `CAL`: where lanes that `RET` resume.
    Call,
}

impl TokenKind {
    pub fn name(self) -> &'static str {
        match self {
            TokenKind::Sync => "SYNC",
            TokenKind::Div => "DIV",
            TokenKind::Break => "BRK",
            TokenKind::Cont => "CONT",
            TokenKind::Call => "CALL",
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Token {
    pub kind: TokenKind,
    pub mask: LaneMask,
    pub pc: Pc,
}

/// On-chip capacity and spill chunk, in entries, and the hard limit on the whole stack.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct StackConfig {
    pub capacity: u32,
    pub chunk: u32,
    /// The deepest any model's stack may grow (on chip plus spilled) before the run faults: a
    /// listing that pushes in a loop would otherwise grow it, and every checkpoint, forever.
    #[cfg_attr(feature = "serde", serde(default = "default_limit"))]
    pub limit: u32,
}

/// The default hard limit: far beyond any compiled kernel's nesting.
pub const DEFAULT_STACK_LIMIT: u32 = 1024;

#[cfg(feature = "serde")]
fn default_limit() -> u32 {
    DEFAULT_STACK_LIMIT
}

impl Default for StackConfig {
    fn default() -> Self {
        StackConfig { capacity: 16, chunk: 4, limit: DEFAULT_STACK_LIMIT }
    }
}

impl StackConfig {
    /// Keeps the configuration usable: capacity at least 1, chunk between 1 and capacity.
    pub fn sanitized(self) -> StackConfig {
        let capacity = self.capacity.max(1);
        StackConfig { capacity, chunk: self.chunk.clamp(1, capacity), limit: self.limit.max(1) }
    }
}

#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct HwStack {
    /// Bottom first. The lowest `spilled` entries live in memory.
    tokens: Vec<Token>,
    spilled: usize,
}

impl HwStack {
    pub fn depth(&self) -> usize {
        self.tokens.len()
    }
    pub fn is_empty(&self) -> bool {
        self.tokens.is_empty()
    }
    pub fn tokens(&self) -> &[Token] {
        &self.tokens
    }
    /// How many of the bottom entries are in memory.
    pub fn spilled(&self) -> usize {
        self.spilled
    }
    pub fn on_chip(&self) -> usize {
        self.tokens.len() - self.spilled
    }

    /// Pushes a token; returns how many chunks were spilled to make room (0 or 1).
    pub fn push(&mut self, t: Token, cfg: StackConfig) -> u32 {
        let mut spills = 0;
        if self.on_chip() >= cfg.capacity as usize {
            self.spilled += (cfg.chunk as usize).min(self.on_chip());
            spills = 1;
        }
        self.tokens.push(t);
        spills
    }

    /// Pops the top token; returns it and how many chunks were filled back first (0 or 1).
    pub fn pop(&mut self, cfg: StackConfig) -> Option<(Token, u32)> {
        let mut fills = 0;
        if self.on_chip() == 0 && self.spilled > 0 {
            self.spilled -= (cfg.chunk as usize).min(self.spilled);
            fills = 1;
        }
        self.tokens.pop().map(|t| (t, fills))
    }

    /// Index of the topmost token of `kind`.
    pub fn find_top(&self, kind: TokenKind) -> Option<usize> {
        self.tokens.iter().rposition(|t| t.kind == kind)
    }

    /// Removes `lanes` from every token at index `from` and above.
    pub fn remove_lanes_from(&mut self, from: usize, lanes: LaneMask) {
        for t in self.tokens.iter_mut().skip(from) {
            t.mask = t.mask.without(lanes);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tok(i: u32) -> Token {
        Token { kind: TokenKind::Div, mask: LaneMask::lane(i), pc: Pc(i) }
    }

    #[test]
    fn spills_lowest_chunk_and_fills_back() {
        let cfg = StackConfig::default();
        let mut s = HwStack::default();
        let spills: u32 = (0..17).map(|i| s.push(tok(i), cfg)).sum();
        assert_eq!((spills, s.depth(), s.spilled(), s.on_chip()), (1, 17, 4, 13));
        let spills: u32 = (17..21).map(|i| s.push(tok(i), cfg)).sum();
        assert_eq!((spills, s.on_chip()), (1, 13));
        let mut fills = 0;
        let mut order = alloc::vec::Vec::new();
        while let Some((t, f)) = s.pop(cfg) {
            fills += f;
            order.push(t.pc.0);
        }
        assert_eq!(fills, 2);
        assert_eq!(order, (0..21).rev().collect::<alloc::vec::Vec<_>>());
    }
}
