//! What host code prints and the strings it holds: `printf` (and `fprintf`, `puts`, `cout`,
//! all one call) formatted when it runs, its `%s` strings read from host memory then; string
//! values (literals, `cudaGetErrorString`'s) kept once each in host memory.

use alloc::string::String;
use alloc::vec::Vec;

use super::calls::Host;
use crate::isa::Reg;
use crate::machine::{ElemType, Machine};
use crate::printf::{ArgKind, Format};

/// The longest string `%s` reads (a missing terminator stops here, not at the end of memory).
const MAX_STRING: u32 = 1 << 16;

impl Host<'_> {
    /// `printf` with format `text`, its arguments' words in the registers after `base`; the
    /// bytes printed.
    pub(super) fn print(&mut self, text: &str, stderr: bool, line: u32, base: Reg, words: u8, m: &mut Machine) -> u32 {
        let format = Format::new(text, Vec::new());
        let mut next = 1u8;
        let mut take = |m: &Machine| {
            let w = if next < words { super::calls::arg(m, base, next) } else { 0 };
            next = next.saturating_add(1);
            w
        };
        let (mut args, mut strings) = (Vec::new(), Vec::new());
        for spec in format.specs() {
            match spec.kind() {
                ArgKind::Str => {
                    let p = take(m);
                    strings.push(self.c_string(p, line, m));
                }
                ArgKind::Word => args.push(take(m)),
                ArgKind::Pair => {
                    args.push(take(m));
                    args.push(take(m));
                }
            }
        }
        let out = Format { strings, ..format }.render(&args);
        if stderr {
            self.stderr.push_str(&out);
        } else {
            self.stdout.push_str(&out);
        }
        out.len() as u32
    }

    /// The text at host address `p`, up to its zero byte (`(null)` for 0, as glibc prints it).
    fn c_string(&mut self, p: u32, line: u32, m: &Machine) -> String {
        if p == 0 {
            return String::from("(null)");
        }
        let mut bytes = Vec::new();
        for k in 0..MAX_STRING {
            match m.memory.read_bytes(p.wrapping_add(k), 1).map(|b| b[0]) {
                Some(0) => return String::from_utf8_lossy(&bytes).into_owned(),
                Some(b) => bytes.push(b),
                None => break,
            }
        }
        self.tell_once(
            "string",
            line,
            "`%s` read a string with no terminating zero inside its allocation: it printed what the allocation holds",
        );
        String::from_utf8_lossy(&bytes).into_owned()
    }

    /// The address of `text`'s copy in host memory (one per text, as a compiler keeps one
    /// copy of each literal).
    pub(super) fn string(&mut self, text: &str, m: &mut Machine) -> u32 {
        if let Some(&p) = self.strings.get(text) {
            return p;
        }
        let bytes: Vec<u8> = text.bytes().chain([0]).collect();
        let name: String = alloc::format!("\"{}\"", text.chars().take(24).collect::<String>());
        let p = self.allocate_host(&name, ElemType::U8, bytes.len() as u32, 0, m);
        m.memory.write_bytes(p, &bytes);
        self.strings.insert(String::from(text), p);
        p
    }
}
