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
    /// Bytes and halfwords (`char`, `unsigned char`, `short`, `unsigned short`): packed four or
    /// two to a word, little-endian, as CUDA lays them out.
    I8,
    U8,
    I16,
    U16,
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
            ElemType::I8 => "i8",
            ElemType::U8 => "u8",
            ElemType::I16 => "i16",
            ElemType::U16 => "u16",
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
            "i8" | "char" => ElemType::I8,
            "u8" => ElemType::U8,
            "i16" | "short" => ElemType::I16,
            "u16" => ElemType::U16,
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

    /// Bytes per element.
    pub fn bytes(self) -> u32 {
        match self {
            ElemType::I8 | ElemType::U8 => 1,
            ElemType::I16 | ElemType::U16 => 2,
            ElemType::I32 | ElemType::U32 | ElemType::F32 => 4,
            ElemType::I64 | ElemType::U64 | ElemType::F64 => 8,
        }
    }

    /// The 32-bit words `count` elements take (a byte or halfword type's last word may be part
    /// full).
    pub fn words_for(self, count: u64) -> u64 {
        (count * self.bytes() as u64).div_ceil(4)
    }

    /// Elements from their bits, in memory's words: a byte or halfword type packs them, a
    /// 64-bit type takes two words (low first).
    pub fn pack(self, bits: impl IntoIterator<Item = u64>) -> Vec<u32> {
        let mut words = Vec::new();
        match self.bytes() {
            8 => bits.into_iter().for_each(|b| words.extend([b as u32, (b >> 32) as u32])),
            4 => words.extend(bits.into_iter().map(|b| b as u32)),
            n => {
                let per = 4 / n as usize;
                let keep = if n == 1 { 0xff } else { 0xffff };
                for (i, b) in bits.into_iter().enumerate() {
                    if i % per == 0 {
                        words.push(0);
                    }
                    if let Some(w) = words.last_mut() {
                        *w |= (b as u32 & keep) << (8 * n as usize * (i % per));
                    }
                }
            }
        }
        words
    }

    /// Element `i` of `words` (missing words read 0). Memory holds raw bits: a float element
    /// is the float with those bits (how initialisers and `ST` store it); a byte or halfword is
    /// widened to 32 bits, signed or not as its type is.
    pub fn read_at(self, words: &[u32], i: u32) -> Elem {
        let at = |w: u64| words.get(w as usize).copied().unwrap_or(0);
        let byte = i as u64 * self.bytes() as u64;
        let lo = at(byte / 4) >> (8 * (byte % 4));
        let wide = || (at(byte / 4 + 1) as u64) << 32 | at(byte / 4) as u64;
        match self {
            ElemType::I8 => Elem::I32(lo as u8 as i8 as i32),
            ElemType::U8 => Elem::U32(lo & 0xff),
            ElemType::I16 => Elem::I32(lo as u16 as i16 as i32),
            ElemType::U16 => Elem::U32(lo & 0xffff),
            ElemType::I32 => Elem::I32(lo as i32),
            ElemType::U32 => Elem::U32(lo),
            ElemType::F32 => Elem::F32(f32::from_bits(lo)),
            ElemType::I64 => Elem::I64(wide() as i64),
            ElemType::U64 => Elem::U64(wide()),
            ElemType::F64 => Elem::F64(f64::from_bits(wide())),
        }
    }

    /// An element as the app shows it: its value, and a byte's character too (`byte_text`).
    pub fn shown(self, e: Elem) -> String {
        match e {
            Elem::I32(v) if self.bytes() == 1 => byte_text(v),
            Elem::U32(v) if self.bytes() == 1 => byte_text(v as i32),
            e => format!("{e}"),
        }
    }

    /// A 32-bit element from its word (a 64-bit type reads it as its low word).
    pub fn read(self, word: u32) -> Elem {
        self.read_at(&[word], 0)
    }
}

/// A byte's value with the character it is when that is printable (`112 'p'`), as a debugger
/// shows a `char`.
pub fn byte_text(v: i32) -> String {
    match u8::try_from(v) {
        Ok(c @ b' '..=b'~') => format!("{v} '{}'", c as char),
        _ => format!("{v}"),
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
    /// Where its length comes from: what to change when an access runs past it.
    pub sizing: Sizing,
    /// Byte address of element 0.
    pub base: u32,
    /// Length in 32-bit words (an element of a 64-bit type takes two; four bytes share one).
    pub len: u32,
    /// Length in elements.
    pub count: u32,
    /// A C array's dimensions after its first (`[16]` for `tile[16][16]`), so an element is
    /// named as the source writes it; empty for a one-dimensional buffer.
    pub shape: Vec<u32>,
}

impl Buffer {
    /// Length in elements.
    pub fn elements(&self) -> u32 {
        self.count
    }
    /// The bytes its elements take (a byte buffer's last word may hold fewer than four).
    pub fn size(&self) -> u32 {
        self.count * self.elem.bytes()
    }
    /// Element `i` of its words.
    pub fn value(&self, words: &[u32], i: u32) -> Elem {
        self.elem.read_at(words, i)
    }
    /// Every element of its words.
    pub fn values<'w>(&self, words: &'w [u32]) -> impl Iterator<Item = Elem> + 'w {
        let elem = self.elem;
        (0..self.count).map(move |i| elem.read_at(words, i))
    }
}

/// One element of memory: the buffer's position in `Memory::buffers` and the element's index.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Cell {
    pub buffer: u32,
    pub index: u32,
}

/// Where a buffer's length comes from, which says how to make it longer when an access runs
/// past it.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum Sizing {
    /// A `//@ buffer` line, or the buffer made for a pointer parameter without one.
    #[default]
    Given,
    /// Its declaration: `__shared__ float Bs[16][16]`, `__device__ int a[8]`, PTX's `.shared
    /// .b8 s[1024]`, a dump's resource usage.
    Declared,
    /// The launch's dynamic shared memory (`extern __shared__ float s[]`).
    Launch,
    /// Nothing said it: a SASS dump without the kernel's shared memory size.
    Assumed,
    /// A host program's allocation (`cudaMalloc`, `malloc`, `new[]`, a vector): its size is
    /// what `main()` asked for.
    Allocated,
}

/// Buffers start at this address, so a null or small address is never valid.
pub const FIRST_BASE: u32 = 0x1000;
/// Shared buffers start here, in a window to `SHARED_END` that global buffers skip (a kernel's
/// inputs stay below it; a host program's device memory may go past it).
pub const SHARED_BASE: u32 = 0x0100_0000;
pub const SHARED_END: u32 = 0x0200_0000;

/// The memory whose window byte address `addr` lies in: shared inside `SHARED_BASE..SHARED_END`,
/// global anywhere else.
pub fn window_of(addr: u32) -> Space {
    if (SHARED_BASE..SHARED_END).contains(&addr) {
        Space::Shared
    } else {
        Space::Global
    }
}
/// A host program's memory (`malloc`, `new`, its arrays) starts here, far from the device's
/// windows, so a host pointer passed to a kernel reaches no device buffer.
pub const HOST_BASE: u32 = 0x4000_0000;
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
    /// Per buffer, a bit per byte written: of a shared buffer, by the block's warps (a byte
    /// never written is one the launch's other warps would write); of a global buffer whose
    /// writes are tracked (`track_writes`: a host program's `cudaMalloc`), by host copies and
    /// launches (initcheck's view). Empty for other global buffers, whose inputs set every byte.
    written: Vec<Vec<u64>>,
    /// Where its first global buffer goes: 0 for the device's `FIRST_BASE`, `HOST_BASE` for a
    /// host program's memory.
    pub first_base: u32,
}

impl Memory {
    /// Adds a global buffer after the last one, with a guard segment between, and returns its
    /// base. Its elements are the words' (a byte or halfword type: every one the words hold).
    pub fn add(&mut self, name: &str, elem: ElemType, data: Vec<u32>) -> u32 {
        let count = data.len() as u32 * 4 / elem.bytes();
        self.add_elements(Space::Global, name, elem, count, data)
    }

    /// Adds a shared-memory buffer in the shared window, with the same alignment and guards.
    pub fn add_shared(&mut self, name: &str, elem: ElemType, data: Vec<u32>) -> u32 {
        let count = data.len() as u32 * 4 / elem.bytes();
        self.add_elements(Space::Shared, name, elem, count, data)
    }

    /// Adds a buffer of `count` elements held in `data` (`ElemType::pack`), in the window of
    /// `space`, and returns its base.
    pub fn add_elements(&mut self, space: Space, name: &str, elem: ElemType, count: u32, data: Vec<u32>) -> u32 {
        let first = match space {
            Space::Shared => SHARED_BASE,
            Space::Global | Space::Generic if self.first_base != 0 => self.first_base,
            Space::Global | Space::Generic => FIRST_BASE,
        };
        // After this memory's own buffers (one `add_at` put elsewhere is another's).
        let mut base = match self.buffers.iter().rfind(|b| b.space == space && b.base >= first) {
            Some(b) => (b.base + b.len * 4).div_ceil(SEGMENT) * SEGMENT + SEGMENT,
            None => first,
        };
        if space != Space::Shared && base < SHARED_END && base as u64 + 4 * data.len() as u64 > SHARED_BASE as u64 {
            base = SHARED_END;
        }
        self.add_at(base, space, name, elem, count, data)
    }

    /// Adds a buffer at `base` (a view of another memory's buffer, at its address: a host
    /// program's managed memory, in host memory and in device memory at once).
    pub fn add_at(&mut self, base: u32, space: Space, name: &str, elem: ElemType, count: u32, data: Vec<u32>) -> u32 {
        let buffer =
            Buffer { name: name.into(), elem, space, sizing: Sizing::Given, base, len: data.len() as u32, count, shape: Vec::new() };
        self.buffers.push(buffer);
        self.written.push(if space == Space::Shared { vec![0; (4 * data.len()).div_ceil(64)] } else { Vec::new() });
        self.words.push(data);
        base
    }

    /// Buffer `k`'s bytes count as unwritten until a host copy or a store writes them (device
    /// memory from `cudaMalloc`, which starts undefined on a GPU).
    pub fn track_writes(&mut self, k: usize) {
        self.written[k] = vec![0; (4 * self.words[k].len()).div_ceil(64)];
    }

    /// Whether every byte of `addr..addr + n` was written, as `written` tracks it (an address in
    /// no buffer, or in one not tracked, counts as written).
    pub fn bytes_written(&self, addr: u32, n: u32) -> bool {
        let Some((k, offset)) = self.span_of(addr, n) else { return true };
        let bits = &self.written[k];
        (offset..offset + n).all(|b| bits.get(b as usize / 64).is_none_or(|w| w & (1 << (b % 64)) != 0))
    }

    /// The element at byte address `addr`: of a buffer of 4-byte or 8-byte elements, at a word
    /// of one (both words of a 64-bit element are that element); of bytes or halfwords, at its
    /// first byte.
    pub fn cell_at(&self, addr: u32) -> Option<Cell> {
        let (k, b) = self.buffers.iter().enumerate().find(|(_, b)| b.base <= addr && addr - b.base < b.len * 4)?;
        let offset = addr - b.base;
        let bytes = b.elem.bytes();
        (offset.is_multiple_of(bytes.min(4)) && offset / bytes < b.count).then_some(Cell { buffer: k as u32, index: offset / bytes })
    }

    /// The element byte address `addr` falls in (a byte or halfword of a wider element is that
    /// element), within the buffer's elements.
    pub fn cell_containing(&self, addr: u32) -> Option<Cell> {
        let (k, b) = self.buffers.iter().enumerate().find(|(_, b)| b.base <= addr && addr - b.base < b.size())?;
        Some(Cell { buffer: k as u32, index: (addr - b.base) / b.elem.bytes() })
    }

    /// `cell_containing` by name: the buffer and the element's index.
    pub fn element_containing(&self, addr: u32) -> Option<(&str, u32)> {
        self.cell_containing(addr).map(|c| (self.buffers[c.buffer as usize].name.as_str(), c.index))
    }

    /// The element `addr` falls in as the source names it: `s[5]`, `tile[0][1]`.
    pub fn element_name(&self, addr: u32) -> Option<String> {
        let c = self.cell_containing(addr)?;
        let b = &self.buffers[c.buffer as usize];
        let mut index = c.index;
        let mut subscripts = Vec::with_capacity(b.shape.len() + 1);
        for &d in b.shape.iter().rev() {
            subscripts.push(index % d.max(1));
            index /= d.max(1);
        }
        subscripts.push(index);
        let mut out = b.name.clone();
        for i in subscripts.iter().rev() {
            out.push_str(&format!("[{i}]"));
        }
        Some(out)
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

    /// Why an access of `bytes` at `addr` is in no buffer, in a student's terms: misaligned, or
    /// past the end (before the start) of the buffer it was meant for, naming the element, the
    /// length and what to change. The buffer meant is `aimed` (the one the access's other lanes
    /// reach), else the nearest.
    pub fn miss_detail(&self, addr: u32, bytes: u32, aimed: Option<usize>) -> String {
        let align = bytes.min(4);
        if !addr.is_multiple_of(align) {
            return format!("not {align}-byte aligned");
        }
        let aimed = aimed.and_then(|k| self.buffers.get(k));
        let Some(b) = aimed.or_else(|| self.nearest(addr)) else {
            return String::from("outside every buffer");
        };
        // No lane of the access reached a buffer: which one the address was computed from is
        // not known here, so the message says it names the nearest (as compute-sanitizer does).
        let which = match (b.space, aimed.is_some()) {
            (Space::Shared, true) => "shared ",
            (Space::Shared, false) => "the nearest buffer, shared ",
            (_, true) => "",
            (_, false) => "the nearest buffer, ",
        };
        let size = b.elem.bytes();
        if addr < b.base {
            let element = (b.base - addr).div_ceil(size);
            return format!("{} bytes before the start of {which}`{}`: element -{element} (a negative index)", b.base - addr, b.name);
        }
        let fix = match b.sizing {
            Sizing::Given => format!("to make it larger, give it a line `//@ buffer {}: {}[N]`", b.name, b.elem.name()),
            Sizing::Declared => String::from("its declaration fixes that length: is the index off, or the launch's block larger than the array was written for?"),
            Sizing::Launch => format!(
                "an `extern __shared__` array's size is the launch's: `//@ launch ... shared=BYTES`, the host launch's third argument, or a line `//@ buffer {}: {}[N]` gives it",
                b.name,
                b.elem.name()
            ),
            Sizing::Allocated => String::from(
                "`main()` allocated that many: is a bound `<=` where `<` was meant, or the allocation too small for the launch?",
            ),
            Sizing::Assumed => format!(
                "the dump does not say how much shared memory the kernel declares, so {} bytes were taken: paste `cuobjdump -sass -res-usage` or nvdisasm's whole output, which say it, or write `//@ buffer {}: {}[N]`",
                b.size(),
                b.name,
                b.elem.name()
            ),
        };
        format!("past the end of {which}`{}`: element {}, and `{}` holds {} ({fix})", b.name, (addr - b.base) / size, b.name, b.count)
    }

    /// The buffer nearest `addr` in its memory: the one it is past the end of, or the one it
    /// is before the start of, whichever is closer.
    fn nearest(&self, addr: u32) -> Option<&Buffer> {
        let space = window_of(addr);
        let mine = self.buffers.iter().filter(|b| b.space == space);
        let below = mine.clone().filter(|b| b.base <= addr).max_by_key(|b| b.base);
        let above = mine.filter(|b| b.base > addr).min_by_key(|b| b.base);
        match (below, above) {
            (Some(b), Some(a)) if a.base - addr < addr.saturating_sub(b.base + b.size()) => Some(a),
            (Some(b), _) => Some(b),
            (None, a) => a,
        }
    }

    /// Where an access of `bytes` (a byte, a halfword or a word) at `addr` is for an instruction
    /// that reads `space`: the buffer and the word it lies in, or why not (misaligned, or past
    /// the buffer's last element though inside its last word: the padding of a byte or halfword
    /// buffer's last word belongs to no element).
    pub fn find_bytes(&self, space: Space, addr: u32, bytes: u32) -> Result<(usize, usize), Miss> {
        if !addr.is_multiple_of(bytes.min(4)) {
            return Err(Miss::Outside);
        }
        let (k, i) = self.find(space, addr & !3)?;
        let b = &self.buffers[k];
        if addr - b.base + bytes > b.size() {
            return Err(Miss::Outside);
        }
        Ok((k, i))
    }

    /// The word at `k`, `i` (a place `find_bytes` gave), and whether this warp
    /// wrote its bytes `from..from + n` or its input set them (false: a shared byte no lane of
    /// this warp has written yet).
    pub fn word_noting(&self, k: usize, i: usize, from: u32, n: u32) -> (u32, bool) {
        let first = 4 * i as u32 + from;
        let written = (first..first + n).all(|b| self.written[k].get(b as usize / 64).is_none_or(|bits| bits & (1 << (b % 64)) != 0));
        (self.words[k][i], written)
    }

    /// Writes the word at `k`, `i` (a place `find_bytes` gave), of which its bytes
    /// `from..from + n` are the store's.
    pub fn set_word(&mut self, k: usize, i: usize, value: u32, from: u32, n: u32) {
        self.words[k][i] = value;
        let first = 4 * i as u32 + from;
        for b in first..first + n {
            if let Some(bits) = self.written[k].get_mut(b as usize / 64) {
                *bits |= 1 << (b % 64);
            }
        }
    }

    /// The same buffers with no words (what a snapshot keeps besides them): `with_words` puts
    /// them back. Global buffers' written bits are dropped (they serve initcheck, which runs a
    /// launch whole, never from a snapshot; a large launch's would weigh on every checkpoint).
    pub fn without_words(&self) -> Memory {
        let written = self.written.iter().zip(&self.buffers).map(|(w, b)| if b.space == Space::Shared { w.clone() } else { Vec::new() });
        Memory {
            buffers: self.buffers.clone(),
            words: self.words.iter().map(|_| Vec::new()).collect(),
            written: written.collect(),
            first_base: self.first_base,
        }
    }

    /// `self` (from `without_words`) with each buffer's words.
    pub fn with_words(mut self, words: Vec<Vec<u32>>) -> Memory {
        self.words = words;
        self
    }

    /// Buffer `k` holds `words` again, none of its bytes written since: a new block's shared
    /// memory, as the inputs set it.
    pub fn restart(&mut self, k: usize, words: &[u32]) {
        self.words[k].copy_from_slice(words);
        self.written[k].fill(0);
    }

    /// The word at `addr`, in any space.
    pub fn load(&self, addr: u32) -> Option<u32> {
        self.locate(addr).map(|(k, i)| self.words[k][i])
    }

    pub fn store(&mut self, addr: u32, value: u32) -> Option<()> {
        let (k, i) = self.locate(addr)?;
        self.set_word(k, i, value, 0, 4);
        Some(())
    }

    /// The word at `addr` for an instruction that reads `space`, and whether this warp wrote it
    /// or its input set it (false: a shared word no lane of this warp has written yet).
    pub fn load_noting(&self, space: Space, addr: u32) -> Result<(u32, bool), Miss> {
        self.find_bytes(space, addr, 4).map(|(k, i)| self.word_noting(k, i, 0, 4))
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
        self.find_bytes(space, addr, 4).map(|(k, i)| self.words[k][i])
    }

    pub fn store_in(&mut self, space: Space, addr: u32, value: u32) -> Result<(), Miss> {
        let (k, i) = self.find_bytes(space, addr, 4)?;
        self.set_word(k, i, value, 0, 4);
        Ok(())
    }

    /// The buffer and element index an address falls in (for showing pointers).
    pub fn element_at(&self, addr: u32) -> Option<(&str, u32)> {
        self.cell_at(addr).map(|c| (self.buffers[c.buffer as usize].name.as_str(), c.index))
    }

    /// The buffer `n` bytes from `addr` lie in, wholly: its index and the byte offset.
    fn span_of(&self, addr: u32, n: u32) -> Option<(usize, u32)> {
        let (k, b) = self.buffers.iter().enumerate().find(|(_, b)| b.base <= addr && addr - b.base < b.len * 4)?;
        let offset = addr - b.base;
        (offset as u64 + n as u64 <= b.size() as u64).then_some((k, offset))
    }

    /// The `n` bytes from `addr`, if one buffer holds them all.
    pub fn read_bytes(&self, addr: u32, n: u32) -> Option<Vec<u8>> {
        let (k, offset) = self.span_of(addr, n)?;
        let words = &self.words[k];
        Some((offset..offset + n).map(|b| (words[b as usize / 4] >> (8 * (b % 4))) as u8).collect())
    }

    /// Writes `bytes` from `addr`, if one buffer holds them all.
    pub fn write_bytes(&mut self, addr: u32, bytes: &[u8]) -> Option<()> {
        let (k, offset) = self.span_of(addr, bytes.len() as u32)?;
        for (j, &byte) in bytes.iter().enumerate() {
            let b = offset as usize + j;
            let word = &mut self.words[k][b / 4];
            *word = (*word & !(0xff << (8 * (b % 4)))) | (byte as u32) << (8 * (b % 4));
            if let Some(bits) = self.written[k].get_mut(b / 64) {
                *bits |= 1 << (b % 64);
            }
        }
        Some(())
    }

    /// Takes buffer `k` away (a freed allocation); the others keep their addresses.
    pub fn remove(&mut self, k: usize) {
        self.buffers.remove(k);
        self.words.remove(k);
        self.written.remove(k);
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
    fn elements_are_named_as_the_source_declares_them() {
        let mut m = Memory::default();
        let flat = m.add("a", ElemType::F32, vec![0; 8]);
        let tile = m.add_shared("tile", ElemType::F32, vec![0; 4 * 5 * 2]);
        m.buffers[1].shape = vec![5, 2];
        assert_eq!(m.element_name(flat + 12).as_deref(), Some("a[3]"));
        assert_eq!(m.element_name(tile + 4 * (5 * 2 + 2 * 2 + 1)).as_deref(), Some("tile[1][2][1]"));
        assert_eq!(m.element_name(tile + 4 * 39 + 3).as_deref(), Some("tile[3][4][1]"), "a byte of the last element");
        assert_eq!(m.element_name(tile + 4 * 40), None);
    }

    #[test]
    fn tracked_bytes_are_unwritten_until_a_copy_or_store_writes_them() {
        let mut m = Memory::default();
        let base = m.add("d", ElemType::U8, vec![0; 4]);
        assert!(m.bytes_written(base, 16), "a buffer not tracked counts as written");
        m.track_writes(0);
        assert!(!m.bytes_written(base, 1));
        m.write_bytes(base + 2, &[7, 7]).unwrap();
        assert!(m.bytes_written(base + 2, 2) && !m.bytes_written(base + 1, 2));
        m.store(base + 8, 1).unwrap();
        assert!(m.bytes_written(base + 8, 4) && !m.bytes_written(base + 12, 1));
        assert!(m.without_words().bytes_written(base, 1), "a snapshot drops a global buffer's bits");
    }

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
        assert_eq!(
            [ElemType::U8, ElemType::I16, ElemType::F32, ElemType::F64].map(|t| (t.name(), t.bytes())),
            [("u8", 1), ("i16", 2), ("f32", 4), ("f64", 8)]
        );
        let shown =
            [Elem::I32(-3), Elem::F32(0.1), Elem::F32(2.0), Elem::F32(f32::NAN), Elem::F32(f32::NEG_INFINITY)].map(|e| e.to_string());
        assert_eq!(shown, ["-3", "0.1", "2", "NaN", "-inf"]);
    }

    #[test]
    fn bytes_and_halfwords_pack_four_and_two_to_a_word() {
        let bytes = ElemType::U8.pack([1, 2, 3, 0x1ff, 5]);
        assert_eq!(bytes, [0xff03_0201, 5], "little-endian, each value's low byte");
        let signed: Vec<Elem> = (0..3).map(|i| ElemType::I8.read_at(&ElemType::I8.pack([200, 127, (-1i64) as u64]), i)).collect();
        assert_eq!(signed, [Elem::I32(-56), Elem::I32(127), Elem::I32(-1)]);
        let halves = ElemType::U16.pack([0xbeef, 0x1234, 7]);
        assert_eq!(halves, [0x1234_beef, 7]);
        assert_eq!(ElemType::I16.read_at(&halves, 0), Elem::I32(0xbeef_u16 as i16 as i32));
        assert_eq!(ElemType::F64.pack([1.5f64.to_bits()]).len(), 2);
        assert_eq!([ElemType::U8.words_for(5), ElemType::I16.words_for(3), ElemType::U64.words_for(3)], [2, 2, 6]);
    }

    #[test]
    fn a_byte_buffer_ends_at_its_last_element_not_its_last_word() {
        let mut m = Memory::default();
        let b = m.add_elements(Space::Global, "text", ElemType::U8, 5, ElemType::U8.pack([10, 20, 30, 40, 50]));
        let buffer = &m.buffers[0];
        assert_eq!((buffer.elements(), buffer.len, buffer.size()), (5, 2, 5));
        assert_eq!(buffer.values(&m.words[0]).map(|e| e.to_string()).collect::<Vec<_>>(), ["10", "20", "30", "40", "50"]);
        assert_eq!(m.cell_at(b + 3), Some(Cell { buffer: 0, index: 3 }));
        assert_eq!(m.cell_at(b + 4), Some(Cell { buffer: 0, index: 4 }));
        assert_eq!(m.cell_at(b + 5), None, "in the last word, past the last element");
        assert_eq!(m.find_bytes(Space::Global, b + 4, 1), Ok((0, 1)));
        assert_eq!(m.find_bytes(Space::Global, b + 5, 1), Err(Miss::Outside));
        assert_eq!(m.find_bytes(Space::Global, b + 4, 2), Err(Miss::Outside), "a halfword reaching past the end");
        assert!(
            m.miss_detail(b + 5, 1, Some(0)).starts_with("past the end of `text`: element 5, and `text` holds 5"),
            "{}",
            m.miss_detail(b + 5, 1, Some(0))
        );
        assert!(m.miss_detail(b + 5, 1, None).starts_with("past the end of the nearest buffer, `text`: element 5"));
        assert_eq!(m.miss_detail(b + 5, 2, None), "not 2-byte aligned");
        // A whole word reaching past the last element is outside too; the byte it starts at is
        // the element it falls in.
        assert_eq!(m.load_in(Space::Global, b + 4), Err(Miss::Outside));
        assert_eq!(m.load_in(Space::Global, b), Ok(40 << 24 | 30 << 16 | 20 << 8 | 10));
        assert_eq!(m.cell_containing(b + 4), Some(Cell { buffer: 0, index: 4 }));
        // An element of a word-sized buffer is found from any of its words, as before.
        let w = m.add("w", ElemType::I64, vec![1, 0, 2, 0]);
        assert_eq!(m.cell_at(w + 12), Some(Cell { buffer: 1, index: 1 }));
        assert_eq!(m.cell_at(w + 2), None);
        assert_eq!(m.cell_containing(w + 13), Some(Cell { buffer: 1, index: 1 }), "a byte of a wide element is that element");
    }
}
