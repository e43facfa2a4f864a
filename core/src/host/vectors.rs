//! `std::vector<T>` as host code uses it: each vector an allocation in host memory holding its
//! elements (the variable holds its address), its length kept here. A vector that outgrows
//! its allocation moves to one twice as large, as libstdc++'s does; new elements are zero.

use alloc::format;

use super::calls::{arg, Host};
use crate::isa::Reg;
use crate::machine::{ElemType, Machine};

impl Host<'_> {
    /// A `vector_*` call (`named`: the variable's name and element type, for a new vector);
    /// its result (the elements' address, or a length).
    pub(super) fn vector(&mut self, call: &str, named: &str, line: u32, base: Reg, m: &mut Machine) -> u32 {
        let slot = |m: &Machine, k: u8| arg(m, base, k);
        let mut parts = named.split(' ');
        let (var, elem) = (parts.next().filter(|v| !v.is_empty()), parts.next().and_then(ElemType::from_name));
        let made = |host: &mut Self, n: u32, bytes: u32, m: &mut Machine| {
            let p = host.new_vector(n, bytes, line, m);
            if let (Some(b), Some(var)) = (m.memory.buffers.iter_mut().find(|b| b.base == p), var) {
                b.name = alloc::string::String::from(var);
                if let Some(e) = elem.filter(|e| e.bytes() == bytes) {
                    b.elem = e;
                }
            }
            p
        };
        match call {
            "vector_new" => made(self, slot(m, 1), slot(m, 2), m),
            "vector_copy" => {
                let (from, bytes) = (slot(m, 1), slot(m, 2));
                let n = self.length(from, bytes, m);
                let p = made(self, n, bytes, m);
                if let Some(data) = m.memory.read_bytes(from, n * bytes) {
                    m.memory.write_bytes(p, &data);
                }
                p
            }
            "vector_fill" => {
                let (n, bytes) = (slot(m, 1), slot(m, 2));
                let value = (slot(m, 4) as u64) << 32 | slot(m, 3) as u64;
                let p = made(self, n, bytes, m);
                let one = &value.to_le_bytes()[..bytes.min(8) as usize];
                let data: alloc::vec::Vec<u8> = (0..n).flat_map(|_| one.iter().copied()).collect();
                m.memory.write_bytes(p, &data);
                p
            }
            "vector_size" => self.length(slot(m, 1), slot(m, 2), m),
            "vector_back" => {
                let (p, bytes) = (slot(m, 1), slot(m, 2));
                p + self.length(p, bytes, m).saturating_sub(1) * bytes
            }
            "vector_push" => {
                let (p, bytes) = (slot(m, 1), slot(m, 2));
                let n = self.length(p, bytes, m);
                self.resize(p, n + 1, bytes, line, m)
            }
            "vector_pop" => {
                let (p, bytes) = (slot(m, 1), slot(m, 2));
                let n = self.length(p, bytes, m);
                self.resize(p, n.saturating_sub(1), bytes, line, m)
            }
            _ => self.resize(slot(m, 1), slot(m, 2), slot(m, 3), line, m),
        }
    }

    /// A vector of `n` zeroed elements of `bytes` each (room for one at least, so it has an
    /// address).
    fn new_vector(&mut self, n: u32, bytes: u32, line: u32, m: &mut Machine) -> u32 {
        let elem = match bytes {
            1 => ElemType::U8,
            2 => ElemType::U16,
            8 => ElemType::U64,
            _ => ElemType::U32,
        };
        let room = n.max(1).saturating_mul(bytes);
        let p = self.allocate_host(&format!("vector (line {line})"), elem, room, line, m);
        if p != 0 {
            self.vectors.insert(p, n);
        }
        p
    }

    /// Its length: a vector's own, or (for a pointer that is no vector) its allocation's.
    fn length(&self, p: u32, bytes: u32, m: &Machine) -> u32 {
        match self.vectors.get(&p) {
            Some(&n) => n,
            None => room(p, bytes, m),
        }
    }

    /// The vector at `p` made `n` long: in place while its allocation holds that many, else
    /// moved to one twice as large. Its elements' address.
    fn resize(&mut self, p: u32, n: u32, bytes: u32, line: u32, m: &mut Machine) -> u32 {
        let old = self.length(p, bytes, m);
        let room = room(p, bytes, m);
        if n <= room {
            if n > old {
                m.memory.write_bytes(p + old * bytes, &alloc::vec![0; ((n - old) * bytes) as usize]);
            }
            self.vectors.insert(p, n);
            return p;
        }
        let q = self.new_vector(n.max(room.saturating_mul(2)), bytes, line, m);
        if q == 0 {
            return p;
        }
        if let Some(data) = m.memory.read_bytes(p, old * bytes) {
            m.memory.write_bytes(q, &data);
        }
        self.vectors.insert(q, n);
        self.vectors.remove(&p);
        // The moved vector keeps its variable's name and element type.
        if let Some(k) = m.memory.buffers.iter().position(|b| b.base == p) {
            let (name, elem) = (m.memory.buffers[k].name.clone(), m.memory.buffers[k].elem);
            m.memory.remove(k);
            if let Some(b) = m.memory.buffers.iter_mut().find(|b| b.base == q) {
                (b.name, b.elem) = (name, elem);
            }
        }
        q
    }
}

/// The elements of `bytes` each that the allocation at `p` holds.
fn room(p: u32, bytes: u32, m: &Machine) -> u32 {
    m.memory.buffers.iter().find(|b| b.base == p).map_or(0, |b| b.size() / bytes.max(1))
}
