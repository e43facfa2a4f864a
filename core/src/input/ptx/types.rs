//! PTX's fundamental types, as instruction suffixes and register declarations name them.

/// A PTX type (`.s32`, `.f64`, `.pred`...).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum T {
    S8,
    S16,
    S32,
    S64,
    U8,
    U16,
    U32,
    U64,
    B8,
    B16,
    B32,
    B64,
    F16,
    F32,
    F64,
    Pred,
}

impl T {
    pub fn from_name(s: &str) -> Option<T> {
        Some(match s {
            "s8" => T::S8,
            "s16" => T::S16,
            "s32" => T::S32,
            "s64" => T::S64,
            "u8" => T::U8,
            "u16" => T::U16,
            "u32" => T::U32,
            "u64" => T::U64,
            "b8" => T::B8,
            "b16" => T::B16,
            "b32" => T::B32,
            "b64" => T::B64,
            "f16" | "f16x2" | "bf16" | "bf16x2" => T::F16,
            "f32" => T::F32,
            "f64" => T::F64,
            "pred" => T::Pred,
            _ => return None,
        })
    }
    pub fn bits(self) -> u32 {
        match self {
            T::S8 | T::U8 | T::B8 => 8,
            T::S16 | T::U16 | T::B16 | T::F16 => 16,
            T::S32 | T::U32 | T::B32 | T::F32 => 32,
            T::S64 | T::U64 | T::B64 | T::F64 => 64,
            T::Pred => 1,
        }
    }
    pub fn wide(self) -> bool {
        self.bits() == 64
    }
    pub fn signed(self) -> bool {
        matches!(self, T::S8 | T::S16 | T::S32 | T::S64)
    }
    pub fn float(self) -> bool {
        matches!(self, T::F16 | T::F32 | T::F64)
    }
    /// Narrower than a register: held zero-extended in 32 bits.
    pub fn narrow(self) -> bool {
        self.bits() < 32 && self != T::Pred
    }
}

/// The register class a type's registers belong to.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Class {
    Pred,
    /// One 32-bit register (16-bit values too, zero-extended).
    W32,
    /// A register pair, low word first.
    W64,
}

impl Class {
    pub fn of(t: T) -> Class {
        match t {
            T::Pred => Class::Pred,
            t if t.wide() => Class::W64,
            _ => Class::W32,
        }
    }
    pub fn words(self) -> u32 {
        match self {
            Class::W64 => 2,
            _ => 1,
        }
    }
}

/// A function's register declarations: `.reg .b32 %r<14>` declares `%r0`..`%r13` without
/// spelling each name out (nvcc declares hundreds).
#[derive(Clone, Debug, Default)]
pub struct Decls {
    /// `%r<14>`: the prefix, the count and the type.
    ranges: alloc::vec::Vec<(alloc::string::String, u32, T)>,
    /// `.reg .b64 %SP;` and registers typed by their names.
    named: alloc::collections::BTreeMap<alloc::string::String, T>,
}

impl Decls {
    pub fn declare(&mut self, name: &str, count: Option<u32>, t: T) {
        match count {
            Some(n) => self.ranges.push((alloc::string::String::from(name), n, t)),
            None => {
                self.named.insert(alloc::string::String::from(name), t);
            }
        }
    }

    /// The declared type of register `name`.
    pub fn ty(&self, name: &str) -> Option<T> {
        if let Some(t) = self.named.get(name) {
            return Some(*t);
        }
        let digits = name.len() - name.trim_end_matches(|c: char| c.is_ascii_digit()).len();
        let (prefix, number) = name.split_at(name.len() - digits);
        // `%r012` is not `%r12`: a leading zero names no register of a range.
        if digits == 0 || (digits > 1 && number.starts_with('0')) {
            return None;
        }
        let k: u32 = number.parse().ok()?;
        self.ranges.iter().find(|(p, n, _)| p == prefix && k < *n).map(|x| x.2)
    }
}
