//! Memory: named buffers of 32-bit words at 128-byte-aligned byte addresses, global buffers from
//! `FIRST_BASE` and shared ones in their own window from `SHARED_BASE`, so a stray global pointer
//! never lands in shared memory. Any access outside a buffer, not 4-byte aligned, or in the other
//! space than the instruction's, is a fault, not a panic.

use alloc::format;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;

pub use crate::isa::Space;

/// The element type of a buffer, which decides how its initialiser's values are stored.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum ElemType {
    I32,
    U32,
    F32,
    /// 64-bit elements (`long long`, `size_t`, `double`): two words each, low word first.
    I64,
    U64,
    F64,
}

impl ElemType {
    /// The name a `//@ buffer` header and messages use.
    pub fn name(self) -> &'static str {
        match self {
            ElemType::I32 => "i32",
            ElemType::U32 => "u32",
            ElemType::F32 => "f32",
            ElemType::I64 => "i64",
            ElemType::U64 => "u64",
            ElemType::F64 => "f64",
        }
    }

    /// The type a header names (`i32`, or its C spelling `int`).
    pub fn from_name(name: &str) -> Option<ElemType> {
        Some(match name {
            "i32" | "int" => ElemType::I32,
            "u32" | "unsigned" => ElemType::U32,
            "f32" | "float" => ElemType::F32,
            "i64" | "long" => ElemType::I64,
            "u64" | "size_t" => ElemType::U64,
            "f64" | "double" => ElemType::F64,
            _ => return None,
        })
    }

    pub fn is_float(self) -> bool {
        matches!(self, ElemType::F32 | ElemType::F64)
    }

    /// 32-bit words per element.
    pub fn words(self) -> u32 {
        match self {
            ElemType::I32 | ElemType::U32 | ElemType::F32 => 1,
            ElemType::I64 | ElemType::U64 | ElemType::F64 => 2,
        }
    }

    /// An element from its words (low word first): memory holds raw bits, and a float element
    /// is the float with those bits (how initialisers and `ST` store it). Missing words read 0.
    pub fn read_words(self, words: &[u32]) -> Elem {
        let lo = words.first().copied().unwrap_or(0);
        let wide = (words.get(1).copied().unwrap_or(0) as u64) << 32 | lo as u64;
        match self {
            ElemType::I32 => Elem::I32(lo as i32),
            ElemType::U32 => Elem::U32(lo),
            ElemType::F32 => Elem::F32(f32::from_bits(lo)),
            ElemType::I64 => Elem::I64(wide as i64),
            ElemType::U64 => Elem::U64(wide),
            ElemType::F64 => Elem::F64(f64::from_bits(wide)),
        }
    }

    /// A 32-bit element from its word (a 64-bit type reads it as its low word).
    pub fn read(self, word: u32) -> Elem {
        self.read_words(&[word])
    }

    /// Every element of a buffer's words.
    pub fn elements(self, words: &[u32]) -> impl Iterator<Item = Elem> + '_ {
        words.chunks(self.words() as usize).map(move |c| self.read_words(c))
    }
}

/// One buffer element, typed. `Display` writes a float with the fewest digits that read back as
/// the same f32 (`0.1`, `2`, `NaN`, `-inf`), a text scripts can parse.
#[derive(Clone, Copy, PartialEq, Debug)]
pub enum Elem {
    I32(i32),
    U32(u32),
    F32(f32),
    I64(i64),
    U64(u64),
    F64(f64),
}

impl core::fmt::Display for Elem {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Elem::I32(v) => write!(f, "{v}"),
            Elem::U32(v) => write!(f, "{v}"),
            Elem::F32(v) => write!(f, "{v}"),
            Elem::I64(v) => write!(f, "{v}"),
            Elem::U64(v) => write!(f, "{v}"),
            Elem::F64(v) => write!(f, "{v}"),
        }
    }
}

#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Buffer {
    pub name: String,
    pub elem: ElemType,
    pub space: Space,
    /// Byte address of element 0.
    pub base: u32,
    /// Length in 32-bit words (an element of a 64-bit type takes two).
    pub len: u32,
}

impl Buffer {
    /// Length in elements.
    pub fn elements(&self) -> u32 {
        self.len / self.elem.words()
    }
}

/// One element of memory: the buffer's position in `Memory::buffers` and the element's index.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Cell {
    pub buffer: u32,
    pub index: u32,
}

/// Buffers start at this address, so a null or small address is never valid.
pub const FIRST_BASE: u32 = 0x1000;
/// Shared buffers start here (global buffers are bounded well below it: 4 Mi elements together).
pub const SHARED_BASE: u32 = 0x0100_0000;
/// Alignment and guard gap between buffers: one memory segment.
pub const SEGMENT: u32 = 128;

/// Why an access found no word.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Miss {
    /// Outside every buffer, or not 4-byte aligned.
    Outside,
    /// In a buffer of this other space.
    OtherSpace(Space),
}

#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct Memory {
    pub buffers: Vec<Buffer>,
    /// One vector per buffer, in the order of `buffers`.
    pub words: Vec<Vec<u32>>,
    /// Per buffer, a bit per word this warp has written; empty for a global buffer, whose inputs
    /// set every word. A shared word never written is one the launch's other warps would write.
    written: Vec<Vec<u64>>,
}

impl Memory {
    /// Adds a global buffer after the last one, with a guard segment between, and returns its base.
    pub fn add(&mut self, name: &str, elem: ElemType, data: Vec<u32>) -> u32 {
        self.add_in(Space::Global, name, elem, data)
    }

    /// Adds a shared-memory buffer in the shared window, with the same alignment and guards.
    pub fn add_shared(&mut self, name: &str, elem: ElemType, data: Vec<u32>) -> u32 {
        self.add_in(Space::Shared, name, elem, data)
    }

    fn add_in(&mut self, space: Space, name: &str, elem: ElemType, data: Vec<u32>) -> u32 {
        let first = match space {
            Space::Shared => SHARED_BASE,
            Space::Global | Space::Generic => FIRST_BASE,
        };
        let base = match self.buffers.iter().rfind(|b| b.space == space) {
            Some(b) => (b.base + b.len * 4).div_ceil(SEGMENT) * SEGMENT + SEGMENT,
            None => first,
        };
        self.buffers.push(Buffer { name: name.into(), elem, space, base, len: data.len() as u32 });
        self.written.push(if space == Space::Shared { vec![0; data.len().div_ceil(64)] } else { Vec::new() });
        self.words.push(data);
        base
    }

    /// The element at byte address `addr`, if it is the start of one.
    pub fn cell_at(&self, addr: u32) -> Option<Cell> {
        // An element of a 64-bit buffer spans two words: both are that element.
        self.locate(addr).map(|(k, i)| Cell { buffer: k as u32, index: i as u32 / self.buffers[k].elem.words() })
    }

    fn locate(&self, addr: u32) -> Option<(usize, usize)> {
        if !addr.is_multiple_of(4) {
            return None;
        }
        self.buffers.iter().enumerate().find_map(|(k, b)| {
            let end = b.base as u64 + b.len as u64 * 4;
            ((addr as u64) >= b.base as u64 && (addr as u64) < end).then(|| (k, ((addr - b.base) / 4) as usize))
        })
    }

    /// Why `addr` is in no buffer, in a student's terms: past the end of the buffer before it
    /// (naming the element and the length, and how to make it larger), or misaligned.
    pub fn miss_detail(&self, addr: u32) -> String {
        if !addr.is_multiple_of(4) {
            return String::from("not 4-byte aligned");
        }
        let before = self.buffers.iter().filter(|b| b.base <= addr).max_by_key(|b| b.base);
        match before {
            Some(b) if b.space == Space::Global => format!(
                "past the end of `{}`: element {}, and `{}` holds {} (to make it larger, give it a line `//@ buffer {}: {}[N]`)",
                b.name,
                (addr - b.base) / 4,
                b.name,
                b.len,
                b.name,
                b.elem.name()
            ),
            Some(b) => format!("past the end of shared `{}`: element {}, and `{}` holds {}", b.name, (addr - b.base) / 4, b.name, b.len),
            None => String::from("outside every buffer"),
        }
    }

    /// The word at `addr`, in any space.
    pub fn load(&self, addr: u32) -> Option<u32> {
        self.locate(addr).map(|(k, i)| self.words[k][i])
    }

    pub fn store(&mut self, addr: u32, value: u32) -> Option<()> {
        let (k, i) = self.locate(addr)?;
        self.words[k][i] = value;
        self.mark_written(k, i);
        Some(())
    }

    fn mark_written(&mut self, k: usize, i: usize) {
        if let Some(bits) = self.written[k].get_mut(i / 64) {
            *bits |= 1 << (i % 64);
        }
    }

    /// The word at `addr` for an instruction that reads `space`, and whether this warp wrote it
    /// or its input set it (false: a shared word no lane of this warp has written yet).
    pub fn load_noting(&self, space: Space, addr: u32) -> Result<(u32, bool), Miss> {
        let (k, i) = self.find(space, addr)?;
        let written = self.written[k].get(i / 64).is_none_or(|bits| bits & (1 << (i % 64)) != 0);
        Ok((self.words[k][i], written))
    }

    /// Where `addr` is for an instruction that reads `space`: the buffer and word, or why not.
    pub fn find(&self, space: Space, addr: u32) -> Result<(usize, usize), Miss> {
        let (k, i) = self.locate(addr).ok_or(Miss::Outside)?;
        match self.buffers[k].space {
            s if s == space || space == Space::Generic => Ok((k, i)),
            s => Err(Miss::OtherSpace(s)),
        }
    }

    /// The word at `addr` for an instruction that reads `space`.
    pub fn load_in(&self, space: Space, addr: u32) -> Result<u32, Miss> {
        self.find(space, addr).map(|(k, i)| self.words[k][i])
    }

    pub fn store_in(&mut self, space: Space, addr: u32, value: u32) -> Result<(), Miss> {
        let (k, i) = self.find(space, addr)?;
        self.words[k][i] = value;
        self.mark_written(k, i);
        Ok(())
    }

    /// The buffer and element index an address falls in (for showing pointers).
    pub fn element_at(&self, addr: u32) -> Option<(&str, u32)> {
        self.cell_at(addr).map(|c| (self.buffers[c.buffer as usize].name.as_str(), c.index))
    }

    pub fn buffer(&self, name: &str) -> Option<(&Buffer, &[u32])> {
        let k = self.buffers.iter().position(|b| b.name == name)?;
        Some((&self.buffers[k], &self.words[k]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;
    use alloc::vec;

    #[test]
    fn buffers_are_aligned_and_bounded() {
        let mut m = Memory::default();
        let a = m.add("a", ElemType::I32, vec![1, 2, 3]);
        let b = m.add("b", ElemType::F32, vec![0; 40]);
        assert_eq!(a, FIRST_BASE);
        assert_eq!(b % SEGMENT, 0);
        assert!(b >= a + 12 + SEGMENT);
        assert_eq!(m.load(a + 8), Some(3));
        assert_eq!(m.load(a + 12), None);
        assert_eq!(m.load(a + 2), None);
        assert_eq!(m.store(b + 4, 7), Some(()));
        assert_eq!(m.buffer("b").unwrap().1[1], 7);
    }

    #[test]
    fn shared_buffers_have_their_own_window() {
        let mut m = Memory::default();
        let g = m.add("g", ElemType::I32, vec![1, 2]);
        let s = m.add_shared("s", ElemType::U32, vec![7; 3]);
        let t = m.add_shared("t", ElemType::U32, vec![8]);
        let h = m.add("h", ElemType::I32, vec![3]);
        assert_eq!((g, s), (FIRST_BASE, SHARED_BASE));
        assert_eq!(t, SHARED_BASE + 2 * SEGMENT, "aligned, with a guard segment");
        assert_eq!(h, FIRST_BASE + 2 * SEGMENT, "globals go on after the last global");
        assert_eq!(m.load_in(Space::Shared, s + 8), Ok(7));
        assert_eq!(m.load_in(Space::Global, s), Err(Miss::OtherSpace(Space::Shared)));
        assert_eq!(m.store_in(Space::Shared, g, 0), Err(Miss::OtherSpace(Space::Global)));
        assert_eq!(m.load_in(Space::Shared, s + 12), Err(Miss::Outside));
        assert_eq!(m.store_in(Space::Global, h, 9), Ok(()));
        assert_eq!(m.buffer("h").unwrap().1, [9]);
    }

    #[test]
    fn words_read_as_their_element_type() {
        let word = (-3i32) as u32;
        assert_eq!(ElemType::I32.read(word), Elem::I32(-3));
        assert_eq!(ElemType::U32.read(word), Elem::U32(4_294_967_293));
        assert_eq!(ElemType::F32.read(1.5f32.to_bits()), Elem::F32(1.5));
        assert_eq!([ElemType::I32, ElemType::U32, ElemType::F32].map(|t| (t.name(), t.words())), [("i32", 1), ("u32", 1), ("f32", 1)]);
        let shown =
            [Elem::I32(-3), Elem::F32(0.1), Elem::F32(2.0), Elem::F32(f32::NAN), Elem::F32(f32::NEG_INFINITY)].map(|e| e.to_string());
        assert_eq!(shown, ["-3", "0.1", "2", "NaN", "-inf"]);
    }
}
