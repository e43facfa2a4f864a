//! Real SASS to the machine's instructions. Most instructions are the machine's own (the
//! listing dialect was modelled on SASS) once their operands are placed: uniform registers are
//! general registers of their own, constant-bank words are registers the launch fills, and
//! `desc[UR4][R2.64]` is the address `[R2]`. The rest become short sequences (`LEA` with its
//! carry, `LDC` as moves, `VIADDMNMX` as an add then a min or max), each shown under the
//! instruction it comes from.

use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;

use super::bank::{Bank, Word};
use super::bank3::{self, ConstVar};
use super::syntax::{Function, Instr};
use crate::asm::{parse_operand, Operand};
use crate::diag::Span;
use crate::isa::{Pred, Reg};
use crate::machine::SHARED_BASE;

/// The function's own registers stay below this; above it live the scratch registers, the
/// uniform registers and the constant words.
pub const OWN_LIMIT: u8 = 156;
const SCRATCH: [u8; 4] = [156, 157, 158, 159];
const UNIFORM_BASE: u8 = 160;
const UNIFORM_COUNT: u8 = 63;
pub const CONST_BASE: u8 = 224;
pub const CONST_COUNT: usize = 31;

pub type Result<T> = core::result::Result<T, String>;

/// One machine instruction: its mnemonic and operands, as `asm::Builder` takes them.
pub type Emitted = (String, Vec<Operand>);

/// Where the constant words and the predicates went.
pub struct Places {
    /// Each constant-bank word read (by byte offset) and its register.
    pub consts: BTreeMap<u32, u8>,
    pub bank: Bank,
    /// A predicate the function leaves alone, for combining two: one of `P0`-`P6`, else a
    /// uniform predicate's slot (each lane's value is its own here, as in every slot).
    pub spare_pred: Option<Pred>,
    /// The function's constant bank 2, when the dump prints it (nvdisasm of the whole cubin).
    pub bank2: Vec<u8>,
    /// Bank 3's `__constant__` variables, when the function reads the bank.
    pub bank3: Vec<ConstVar>,
}

impl Places {
    /// Gives each constant word `f` reads a register, with the parameter area whole from its
    /// start to `param_bytes` (so a pointer's two words are neighbours); `used` are the machine
    /// predicates `f` holds, `P0`-`P6` then `UP0`-`UP6` (`check_own_registers`).
    /// An error comes with where it is: the instruction that reads a constant warpscope lacks,
    /// or the function.
    pub fn new(f: &Function, bank: Bank, param_bytes: u32, used: [bool; 14]) -> core::result::Result<Places, (Span, String)> {
        let mut words: Vec<u32> = (0..param_bytes.div_ceil(4)).map(|w| bank.params + 4 * w).collect();
        for i in &f.instrs {
            for o in &i.operands {
                if jump_table_slot(o).is_some() || bank2_offset(o).is_some() {
                    continue;
                }
                if let Some(off) = const_offset(o) {
                    let off = off.map_err(|e| (i.span, e))?;
                    // A byte or halfword read (`LDC.U8`) is of the word it lies in.
                    words.push(off & !3);
                    // A 64-bit read, or a pointer-sized parameter: both words; a 128-bit read: four.
                    if i.mnemonic.contains(".128") {
                        words.extend((1..4).map(|k| off.saturating_add(4 * k)));
                    } else if i.mnemonic.contains(".64") || i.mnemonic.contains(".WIDE") || off % 8 == 0 {
                        words.push(off.saturating_add(4));
                    }
                }
            }
        }
        words.sort_unstable();
        words.dedup();
        // Only words something lives at (a neighbour taken for a 64-bit read may hold nothing).
        words.retain(|&w| bank.word(w).is_some());
        if words.len() > CONST_COUNT {
            return Err((f.span, format!("the kernel reads {} words of its constant bank; warpscope holds {CONST_COUNT}", words.len())));
        }
        let consts = words.iter().enumerate().map(|(k, &w)| (w, CONST_BASE + k as u8)).collect();
        let spare_uniform = || (0..7u8).rev().find(|&k| !used[7 + k as usize]).and_then(Pred::uniform);
        let spare_pred = (0..7u8).rev().find(|&p| !used[p as usize]).map(Pred).or_else(spare_uniform);
        Ok(Places { consts, bank, spare_pred, bank2: Vec::new(), bank3: Vec::new() })
    }

    /// The value each constant word below the parameters holds, as a header expression: the
    /// launch's dimensions (`blockDim.x` is `W` when no `//@ launch` line sets it), 0 for the
    /// stack top and the descriptor.
    pub fn launch_words(&self, launch: Option<[[u32; 3]; 2]>, local_frame: Option<u32>) -> Vec<(u8, String)> {
        let mut out = Vec::new();
        for (&off, &r) in &self.consts {
            let text = match self.bank.word(off) {
                Some(Word::Special(name)) => {
                    let (grid, axis) = super::bank::launch_size(name);
                    match launch {
                        Some([g, b]) => format!("{}", if grid { g[axis] } else { b[axis] }),
                        None if !grid && axis == 0 => String::from("W"),
                        None => String::from("1"),
                    }
                }
                // Each lane's stack top: the end of its part of `local`.
                Some(Word::Stack) => match local_frame {
                    Some(bytes) => format!("{LOCAL_BUFFER} + (t + 1) * {bytes}"),
                    None => String::from("0"),
                },
                Some(Word::Descriptor | Word::LocalWindow) => String::from("0"),
                _ => continue,
            };
            out.push((r, text));
        }
        out
    }
}

/// The buffer that holds every lane's local memory, side by side.
pub const LOCAL_BUFFER: &str = "local";

/// The bytes of local memory each lane gets: the frames the function and its subroutines take
/// off the stack pointer (`VIADD R1, R1, 0xffffffc0`) together, rounded up to 16, or `None` when
/// it uses no local memory. A function that moves R1 otherwise gets what its `[R1+off]`
/// accesses reach; one that recurses gets `RECURSION_FRAME`.
pub fn local_frame(f: &Function) -> Option<u32> {
    if !f.instrs.iter().any(|i| matches!(i.opcode(), "LDL" | "STL")) {
        return None;
    }
    // Each subroutine's frame (`IADD3 R1, R1, -0x28`) once: a chain of calls takes them all.
    let mut bytes = 0u32;
    let mut reach = 16u32;
    for i in &f.instrs {
        let ops = &i.operands;
        if ops.first() == Some(&"R1") && ops.get(1) == Some(&"R1") && matches!(i.opcode(), "VIADD" | "IADD3" | "IADD32I") {
            if let Some(Ok(Operand::Int { value, .. })) = ops.get(2).map(|o| parse_operand(o)) {
                let v = value as i32;
                if v < 0 {
                    bytes = bytes.saturating_add(v.unsigned_abs());
                }
            }
        }
        for o in ops {
            if let Some(off) = o.strip_prefix("[R1+").and_then(|r| r.strip_suffix(']')).and_then(|h| h.strip_prefix("0x")) {
                if let Ok(off) = u32::from_str_radix(off, 16) {
                    reach = reach.max(off.saturating_add(16));
                }
            }
        }
    }
    // Recursion takes as many frames as it goes deep, which no dump says: a stack of its own size.
    if recursive(f) {
        bytes = bytes.max(RECURSION_FRAME);
    }
    Some(bytes.max(reach).min(u32::MAX - 15).div_ceil(16) * 16)
}

/// Each lane's local memory when the kernel recurses (ptxas: "stack size cannot be statically
/// determined").
pub const RECURSION_FRAME: u32 = 2048;

/// Whether a subroutine calls itself, directly or not: the subroutines are the `CALL.REL`
/// targets, each running to the next (ptxas lays them after the kernel).
pub fn recursive(f: &Function) -> bool {
    let label_addr = |l: &str| f.labels.iter().find(|(n, _)| *n == l).and_then(|&(_, k)| f.instrs.get(k)).map(|i| i.addr);
    let calls: Vec<(u32, u32)> = f
        .instrs
        .iter()
        .filter(|i| i.opcode() == "CALL" && i.mnemonic.contains(".REL"))
        .filter_map(|i| {
            let t = i.operands.first()?.trim();
            let to = match t.strip_prefix("0x") {
                Some(h) => u32::from_str_radix(h, 16).ok()?,
                None => label_addr(t.trim_start_matches("`(").trim_end_matches(')'))?,
            };
            Some((i.addr, to))
        })
        .collect();
    let mut entries: Vec<u32> = calls.iter().map(|c| c.1).collect();
    entries.sort_unstable();
    entries.dedup();
    // The subroutine an address lies in (`None`: the kernel's own code, before the first).
    let owner = |a: u32| entries.iter().rposition(|&e| e <= a);
    // Depth-first from each subroutine: meeting one still on the path is a cycle.
    fn cycle(at: usize, calls: &[(usize, usize)], state: &mut [u8]) -> bool {
        state[at] = 1;
        for &(from, to) in calls {
            if from == at && (state[to] == 1 || (state[to] == 0 && cycle(to, calls, state))) {
                return true;
            }
        }
        state[at] = 2;
        false
    }
    let edges: Vec<(usize, usize)> =
        calls.iter().filter_map(|&(a, to)| Some((owner(a)?, entries.iter().position(|&e| e == to)?))).collect();
    let mut state = vec![0u8; entries.len()];
    (0..entries.len()).any(|k| state[k] == 0 && cycle(k, &edges, &mut state))
}

/// The most local memory a lane gets (a frame past it is refused: 32 lanes of it must fit).
pub const MAX_LOCAL_FRAME: u32 = 16 * 1024;

/// The byte offset of a `c[0x0][X]` operand (`None` when it is none).
fn const_offset(text: &str) -> Option<Result<u32>> {
    let inner = text.trim_start_matches('-').strip_prefix("c[")?;
    let (bank, rest) = inner.split_once("][")?;
    let off = rest.strip_suffix(']')?.trim();
    if bank.trim() == "0x4" {
        // Bank 4: the addresses of what the code names (`bank4_operand`).
        return None;
    }
    if bank.trim() == "0x3" {
        // Bank 3: the `__constant__` variables, read from their buffers (`bank3`).
        return None;
    }
    if bank.trim() != "0x0" {
        return Some(Err(format!(
            "`{text}`: constant bank {bank} holds what warpscope does not (only bank 0x0, the launch and the parameters)"
        )));
    }
    if off == "RZ" {
        return Some(Ok(0));
    }
    Some(
        off.strip_prefix("0x")
            .and_then(|h| u32::from_str_radix(h, 16).ok())
            .ok_or_else(|| format!("`{text}`: a constant read at a register's offset is outside what warpscope runs")),
    )
}

/// Whether an instruction's sources are 64-bit: a double's arithmetic, or a conversion from a
/// 64-bit type (its last type, `F2F.F32.F64`).
fn wide_source(op: &str, mods: &[&str]) -> bool {
    match op {
        "DADD" | "DMUL" | "DFMA" | "DSETP" | "DMNMX" => true,
        "F2F" | "F2I" | "I2F" => {
            mods.iter().rev().find(|m| m.len() == 3 && matches!(m.as_bytes()[0], b'F' | b'S' | b'U')).is_some_and(|m| m.ends_with("64"))
        }
        _ => false,
    }
}

/// `c[0x4][0x10]`, `c[0x4][R0]`: constant bank 4 holds the addresses of what the code calls or
/// reads by name (`vprintf`, `printf`'s format strings). warpscope's `PRINTF` takes the format
/// from the dump's data instead (`printf_format`), so these addresses read 0.
fn bank4_operand(text: &str) -> bool {
    text.trim().trim_start_matches('-').starts_with("c[0x4][")
}

/// `c[0x2][R2+0x54]`: a slot of a jump table ptxas keeps in constant bank 2 (its register and
/// the table's offset).
fn jump_table_slot(text: &str) -> Option<(&str, &str)> {
    let inner = text.trim().strip_prefix("c[0x2][")?.strip_suffix(']')?;
    inner.starts_with('R').then(|| inner.split_once('+').unwrap_or((inner, "0")))
}

/// `c[0x2][0x8]`: a word of ptxas's own constants in bank 2, by its byte offset.
fn bank2_offset(text: &str) -> Option<u32> {
    let inner = text.trim().strip_prefix("c[0x2][0x")?.strip_suffix(']')?;
    u32::from_str_radix(inner, 16).ok()
}

/// Why a bank-2 constant has no value: the dump does not print the bank.
fn bank2_missing(what: &str) -> String {
    format!(
        "`{what}` reads constant bank 2, where ptxas keeps constants of its own, which `cuobjdump -sass` and `nvdisasm -c` do not print: paste the output of `nvdisasm` on the whole cubin (it prints the bank)"
    )
}

/// The targets nvdisasm names after a `BRX`/`JMX` (`(*"BRANCH_TARGETS .L_x_20,.L_x_4"*)`), in
/// the order of the table's slots.
fn branch_targets(operand: &str) -> Option<Vec<&str>> {
    let list = operand.split_once("BRANCH_TARGETS")?.1;
    let list = list.split('"').next()?;
    Some(list.split(',').map(str::trim).filter(|t| !t.is_empty()).collect())
}

/// The most targets a `BRX` runs as a chain of compares (each SASS instruction has 16 addresses
/// for its translation).
const MAX_BRX_TARGETS: usize = 8;

/// The high register of the pair `r` starts (`RZ`'s is `RZ`).
fn pair_hi(r: Reg) -> u8 {
    if r.is_zero() {
        Reg::RZ.0
    } else {
        r.0.saturating_add(1)
    }
}

fn reg(r: u8) -> Operand {
    Operand::Reg { reg: Reg(r), negated: false, inverted: false }
}
fn int(v: i64) -> Operand {
    Operand::Int { value: v, hex: true }
}

/// Translates one function's instructions; `out` receives each instruction's machine form.
pub struct Lower<'p> {
    pub places: &'p Places,
    /// Addresses something branches to by number (`BRA 0x140`): a label `.A140` is placed there.
    pub addr_targets: Vec<u32>,
    /// Whether the function has a `BRX`/`JMX` (whose table slots `LDC` reads from bank 2).
    pub jump_tables: bool,
    /// Each `vprintf` call's format by the call's address, or why it has none (`printf_formats`).
    pub printf_formats: BTreeMap<u32, Result<String>>,
}

impl Lower<'_> {
    /// The word of bank 2 at byte `off`, when the dump printed the bank.
    fn bank2_word(&self, off: u32) -> Option<i64> {
        let at = usize::try_from(off).ok()?;
        let b = self.places.bank2.get(at..at.checked_add(4)?)?;
        Some(u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as i64)
    }

    /// A `__constant__` word (`wide`: a double's pair) as an operand: loaded into scratch first.
    fn bank3_operand(&self, text: &str, wide: bool, pre: &mut Vec<Emitted>) -> Result<Operand> {
        let Some((index, off, negated)) = bank3::operand(text) else { return Err(format!("`{text}` is not a bank-3 read")) };
        let s = if wide { SCRATCH[0] } else { SCRATCH[pre.len() % 2] };
        let at = self.bank3_address(text, index, off, pre)?;
        pre.push((String::from(if wide { "LDG.E.64" } else { "LDG.E" }), vec![reg(s), at]));
        Ok(Operand::Reg { reg: Reg(s), negated, inverted: false })
    }

    /// The address of a bank-3 read (`c[0x3][0x8]`, `c[0x3][R25+0x4]`): the variable's base
    /// register, plus the index register (added in a scratch register) and the offset within it.
    fn bank3_address(&self, text: &str, index: Option<&str>, off: u32, pre: &mut Vec<Emitted>) -> Result<Operand> {
        let v = bank3::var_at(&self.places.bank3, text, off, index.is_some())?;
        let within = (off - v.offset) as i64;
        let base = match index {
            None => Reg(v.reg),
            Some(r) => {
                let Ok(Operand::Reg { reg: x, negated: false, inverted: false }) = self.operand(r, pre) else {
                    return Err(format!("`{text}`: `{r}` is not a register"));
                };
                let s = SCRATCH[3];
                pre.push((String::from("IADD3"), vec![reg(s), reg(x.0), reg(v.reg), reg(Reg::RZ.0)]));
                Reg(s)
            }
        };
        Ok(Operand::Mem { base, offset: within })
    }

    /// The register a constant word is in.
    fn const_reg(&self, text: &str) -> Result<u8> {
        let off = const_offset(text).expect("a constant operand")?;
        match self.places.bank.word(off) {
            Some(_) => self.places.consts.get(&off).copied().ok_or_else(|| format!("`{text}`: no register holds it")),
            None => Err(format!("`{text}`: nothing warpscope knows lives at this offset of the constant bank")),
        }
    }

    /// One operand in the machine's terms; `pre` receives instructions it needs first (an
    /// address of two registers is added up in a scratch register).
    fn operand(&self, text: &str, pre: &mut Vec<Emitted>) -> Result<Operand> {
        // `.reuse` is an operand-cache hint: it means nothing to the result.
        let owned;
        let t = if text.contains(".reuse") {
            owned = text.replace(".reuse", "");
            owned.trim()
        } else {
            text.trim()
        };
        if bank4_operand(t) {
            return Ok(int(0));
        }
        if bank3::operand(t).is_some() {
            return self.bank3_operand(t, false, pre);
        }
        if let Some(off) = bank2_offset(t) {
            return self.bank2_word(off).map(int).ok_or_else(|| bank2_missing(t));
        }
        if const_offset(t).is_some() {
            let negated = t.starts_with('-');
            return Ok(Operand::Reg { reg: Reg(self.const_reg(t)?), negated, inverted: false });
        }
        if let Some(rest) = t.strip_prefix("desc[") {
            // `desc[UR4][R2.64+0x4]`: the descriptor says how to reach memory; the address is the rest.
            let at = rest.find("][").ok_or_else(|| format!("`{t}` is not an address"))?;
            return self.address(&rest[at + 1..], pre);
        }
        if t.starts_with('[') {
            return self.address(t, pre);
        }
        if let Some(inner) = t.strip_prefix("-|").or_else(|| t.strip_prefix('|')).and_then(|x| x.strip_suffix('|')) {
            // `|R3|` (a float's absolute value; `-|R3|` its negation): the sign bit cleared in a
            // scratch register, each such operand its own.
            let x = self.operand(inner, pre)?;
            let s = SCRATCH[pre.len() % 2];
            pre.push((String::from("LOP3.LUT"), vec![reg(s), x, int(0x7fff_ffff), reg(Reg::RZ.0), int(0xc0)]));
            return Ok(Operand::Reg { reg: Reg(s), negated: t.starts_with('-'), inverted: false });
        }
        let (sign, body) = match t.as_bytes().first() {
            Some(b'-') => ("-", &t[1..]),
            Some(b'~') => ("~", &t[1..]),
            Some(b'!') => ("!", &t[1..]),
            _ => ("", t),
        };
        if let Some(n) = body.strip_prefix("UR") {
            let r = uniform(n).ok_or_else(|| format!("`{t}` is not a uniform register"))?;
            return Ok(Operand::Reg { reg: r, negated: sign == "-", inverted: sign == "~" });
        }
        if let Some(n) = body.strip_prefix("UP") {
            let p = uniform_pred(n).ok_or_else(|| format!("`{t}` is not a uniform predicate"))?;
            return Ok(Operand::Pred { pred: p, negated: sign == "!" });
        }
        if body.contains("@lo(") || body.contains("@hi(") {
            // `32@lo((kernel + .L_x_0@srel))`: a return address for `CALL.ABS`, which the
            // model keeps itself.
            return Ok(int(0));
        }
        match body {
            "SRZ" => return Ok(reg(Reg::RZ.0)),
            // Read as zero by the `S2R` form above.
            "SR_CgaCtaId" => return Ok(reg(Reg::RZ.0)),
            "+INF" | "INF" => return Ok(Operand::Float(if sign == "-" { f64::NEG_INFINITY } else { f64::INFINITY })),
            "+QNAN" | "QNAN" => return Ok(int(if sign == "-" { 0xffc0_0000 } else { 0x7fc0_0000 })),
            _ => {}
        }
        if body.contains(".H0") || body.contains(".H1") || body.contains(".B1") || body.contains(".B2") || body.contains(".B3") {
            return Err(format!("`{t}`: a half or byte of a register is outside what warpscope runs"));
        }
        parse_operand(t).map_err(|e| format!("`{t}`: {e}"))
    }

    /// `[R2.64+0x4]`, `[UR4+0x10]`, `[R3+UR4]`.
    fn address(&self, t: &str, pre: &mut Vec<Emitted>) -> Result<Operand> {
        let inner = t.trim().strip_prefix('[').and_then(|s| s.strip_suffix(']')).ok_or_else(|| format!("`{t}` is not an address"))?;
        let inner = inner.replace(".64", "").replace(".U32", "");
        let mut regs: Vec<Reg> = Vec::new();
        let mut offset: i64 = 0;
        for part in inner.split('+') {
            let mut part = part.trim();
            if part.is_empty() {
                continue;
            }
            // `[R6.X4]` (sm_75's shared accesses): the register times 4 (or 8, 16).
            if let Some((r, scale)) = part.split_once(".X") {
                let shift = match scale {
                    "4" => 2,
                    "8" => 3,
                    "16" => 4,
                    _ => return Err(format!("`{t}`: a scale of {scale}")),
                };
                let Ok(Operand::Reg { reg: x, .. }) = parse_operand(r) else { return Err(format!("`{t}`: `{r}` is not a register")) };
                let s = SCRATCH[2];
                pre.push((String::from("SHL"), vec![reg(s), reg(x.0), int(shift)]));
                regs.push(Reg(s));
                continue;
            }
            part = part.trim();
            if let Some(n) = part.strip_prefix("UR") {
                regs.push(uniform(n).ok_or_else(|| format!("`{t}`: `{part}` is not a register"))?);
            } else if part == "RZ" || part.starts_with('R') {
                match parse_operand(part) {
                    Ok(Operand::Reg { reg, negated: false, inverted: false }) => regs.push(reg),
                    _ => return Err(format!("`{t}`: `{part}` is not a register")),
                }
            } else {
                let v = match parse_operand(part) {
                    Ok(Operand::Int { value, .. }) => value,
                    _ => return Err(format!("`{t}`: `{part}` is not an offset")),
                };
                offset += v;
            }
        }
        regs.retain(|r| !r.is_zero());
        let base = match regs[..] {
            [] => Reg::RZ,
            [r] => r,
            [a, b] => {
                let s = SCRATCH[3];
                pre.push((String::from("IADD3"), vec![reg(s), reg(a.0), reg(b.0), reg(Reg::RZ.0)]));
                Reg(s)
            }
            _ => return Err(format!("`{t}`: an address of three registers")),
        };
        Ok(Operand::Mem { base, offset })
    }

    /// A code target: a label as the dump writes it, or an address (`0x140`), which gets a label.
    fn target(&mut self, text: &str) -> Result<Operand> {
        let t = text.trim();
        if let Some(h) = t.strip_prefix("0x") {
            let a = u32::from_str_radix(h, 16).map_err(|_| format!("`{t}` is not an address"))?;
            self.addr_targets.push(a);
            return Ok(Operand::Label(addr_label(a)));
        }
        parse_operand(t).map_err(|e| format!("`{t}`: {e}"))
    }

    /// The machine's instructions for `i`.
    pub fn instr(&mut self, i: &Instr) -> Result<Vec<Emitted>> {
        let mut pre = Vec::new();
        let op = i.opcode();
        let mods: Vec<&str> = i.mnemonic.split('.').skip(1).collect();
        // Uniform-datapath forms run on the machine's registers (which hold the same value in
        // every lane): the instruction without its `U`.
        // (sm_100 and later have uniform float and conversion forms too: `UFMUL`, `UI2FP`...)
        let base = match op {
            "S2UR" => "S2R",
            "LDCU" => "LDC",
            "R2UR" => "MOV",
            "VOTEU" => "VOTE",
            _ if op.len() > 2 && op.starts_with('U') && op.as_bytes()[1].is_ascii_uppercase() => &op[1..],
            _ => op,
        };
        // sm_100's `BSSY.RECONVERGENT`/`BSYNC.RECONVERGENT` and sm_120's `.RELIABLE` are the
        // barriers of earlier parts (what else they tell the hardware is not public).
        let mods: Vec<&str> =
            mods.into_iter().filter(|m| !(matches!(*m, "RECONVERGENT" | "RELIABLE") && matches!(op, "BSSY" | "BSYNC" | "BREAK"))).collect();
        let has = |m: &str| mods.contains(&m);
        let rest_mods = if mods.is_empty() { String::new() } else { format!(".{}", mods.join(".")) };
        if base == "RET" {
            // `RET.REL.NODEC R4 0x0`: the return address is the model's to keep.
            return Ok(vec![(String::from("RET"), Vec::new())]);
        }
        // `LDC.U8 R0, c[0x0][0x219]`: a byte or halfword of a parameter's word (a `uchar4`
        // passed by value), its bits of the word's register.
        let narrow = ["U8", "S8", "U16", "S16"].into_iter().find(|w| has(w));
        let bank0 = (base == "LDC").then(|| i.operands.get(1).filter(|o| o.starts_with("c[0x0][")).and_then(|o| const_offset(o))).flatten();
        if let (Some(width), Some(Ok(off))) = (narrow, bank0) {
            let mut pre = Vec::new();
            let d = self.destination(i, &mut pre)?;
            let word =
                self.places.consts.get(&(off & !3)).copied().ok_or_else(|| format!("`{}`: no register holds its word", i.operands[1]))?;
            let (bits, signed) = (if width.ends_with('8') { 8 } else { 16 }, width.starts_with('S'));
            let bfe = if signed { "BFE.S32" } else { "BFE.U32" };
            pre.push((String::from(bfe), vec![reg(d.0), reg(word), int(8 * (off % 4) as i64), int(bits)]));
            return Ok(pre);
        }
        if let Some(off) = (base == "LDC").then(|| i.operands.get(1).and_then(|o| bank2_offset(o))).flatten() {
            // `ULDC.64 UR4, c[0x2][0x0]`: ptxas's own constant, a move of each word.
            let mut pre = Vec::new();
            let d = self.destination(i, &mut pre)?;
            let words = if has("128") {
                4
            } else if has("64") {
                2
            } else {
                1
            };
            for k in 0..words {
                let w = off.checked_add(4 * k).and_then(|o| self.bank2_word(o)).ok_or_else(|| bank2_missing(i.mnemonic))?;
                pre.push((String::from("MOV"), vec![reg(d.0.saturating_add(k as u8)), int(w)]));
            }
            return Ok(pre);
        }
        if let Some((index, off, _)) = (base == "LDC").then(|| i.operands.get(1).and_then(|o| bank3::operand(o))).flatten() {
            // `LDC R0, c[0x3][R25]`, `ULDC.64 UR4, c[0x3][0x0]`: a load from the variable.
            let mut pre = Vec::new();
            let d = self.destination(i, &mut pre)?;
            let at = self.bank3_address(i.operands[1].trim(), index, off, &mut pre)?;
            // The width as `LDC` gives it (`LDC.U8` of a `__constant__ char`), else a word.
            let width = ["128", "64", "U8", "S8", "U16", "S16"].into_iter().find(|w| has(w)).map_or(String::new(), |w| format!(".{w}"));
            pre.push((format!("LDG.E{width}"), vec![reg(d.0), at]));
            return Ok(pre);
        }
        if let Some(slot) = (base == "LDC").then(|| i.operands.get(1).and_then(|o| jump_table_slot(o))).flatten() {
            return self.jump_table_slot(i, slot);
        }
        if matches!(base, "BRX" | "JMX") {
            return self.indirect_branch(i);
        }
        if matches!(op, "P2R" | "R2P") {
            return self.predicates_and_register(i, &mods);
        }
        if base == "LEPC" || (base == "LDC" && i.operands.get(1).is_some_and(|o| bank4_operand(o))) {
            // The return address `CALL.ABS` takes (the model keeps its own), an address from
            // bank 4: 0, in each register written.
            let mut pre = Vec::new();
            let d = self.destination(i, &mut pre)?;
            pre.push((String::from("MOV"), vec![reg(d.0), reg(Reg::RZ.0)]));
            if has("64") {
                pre.push((String::from("MOV"), vec![reg(pair_hi(d)), reg(Reg::RZ.0)]));
            }
            return Ok(pre);
        }
        if base == "CALL" && has("ABS") && !i.operands.first().is_some_and(|o| o.starts_with('`')) {
            // A call through a register: in nvcc's code, `printf`'s call of `vprintf` with the
            // format in R4:R5 and the arguments' buffer at R6.
            return match self.printf_formats.get(&i.addr) {
                Some(Ok(format)) => {
                    Ok(vec![(String::from("PRINTF"), vec![Operand::Str(format.clone()), Operand::Mem { base: Reg(6), offset: 0 }])])
                }
                Some(Err(why)) => Err(why.clone()),
                None => Err(format!("`{}` calls through a register (a function pointer): not run yet", i.mnemonic)),
            };
        }
        let control = matches!(base, "BRA" | "BSSY" | "CALL" | "JMP");
        // `I2F.U8 R5, R2.B1` (sm_75): a byte (`.B1`-`.B3`) or the high half (`.H1`) of the
        // source converted; its bit offset, and the register read whole.
        let mut part_at = 0;
        let mut ops = Vec::with_capacity(i.operands.len());
        for (k, o) in i.operands.iter().enumerate() {
            let is_target = control && (k + 1 == i.operands.len());
            let o = match (base, k, o.trim().rsplit_once('.')) {
                ("I2F", 1, Some((whole, sel @ ("B0" | "B1" | "B2" | "B3" | "H0" | "H1")))) => {
                    part_at = if sel.starts_with('H') { 16 } else { 8 } * (sel.as_bytes()[1] - b'0') as i64;
                    whole
                }
                _ => *o,
            };
            ops.push(if is_target {
                self.target(o)?
            } else if bank3::operand(o).is_some() && wide_source(op, &mods) {
                self.bank3_operand(o, true, &mut pre)?
            } else {
                self.operand(o, &mut pre)?
            });
        }
        let part_bits = if has("U16") || has("S16") { 16 } else { 8 };
        let narrow = base == "I2F" && ["U16", "S16", "U8", "S8"].iter().any(|t| has(t));
        if part_at > 0 && (!narrow || part_at + part_bits > 32) {
            return Err(format!("`{}`: this part of a register, converted at this width, is outside what warpscope runs", i.mnemonic));
        }
        let m = |s: &str| String::from(s);
        if matches!(base, "LDS" | "STS" | "ATOMS") {
            // The shared window's addresses, moved to where the machine keeps shared memory.
            let shift = SHARED_BASE as i64 - self.places.bank.shared as i64;
            for o in &mut ops {
                if let Operand::Mem { offset, .. } = o {
                    *offset += shift;
                }
            }
        }
        let out: Vec<Emitted> = match base {
            "S2R" if i.operands.get(1).is_some_and(|o| o.trim() == "SR_CgaCtaId") => {
                // The block's place in its cluster: one block runs, alone in its cluster.
                vec![(m("MOV"), vec![ops.first().cloned().unwrap_or(reg(Reg::RZ.0)), reg(Reg::RZ.0)])]
            }
            "LDC" => {
                let Some(Operand::Reg { reg: d, .. }) = ops.first().cloned() else { return Err(m("`LDC` needs a destination register")) };
                let Some(Operand::Reg { reg: s, .. }) = ops.get(1).cloned() else { return Err(m("`LDC` reads a constant")) };
                if has("128") {
                    // Four words (sm_100's `LDCU.128 UR8, c[0x0][0x380]`): a move each.
                    let off =
                        i.operands.get(1).and_then(|o| const_offset(o)).transpose()?.ok_or_else(|| m("`LDC.128` reads a constant"))?;
                    let mut v = Vec::new();
                    for k in 0..4u32 {
                        let word = self.places.consts.get(&off.saturating_add(4 * k)).copied().unwrap_or(Reg::RZ.0);
                        v.push((m("MOV"), vec![reg(d.0.saturating_add(k as u8)), reg(word)]));
                    }
                    v
                } else if has("64") {
                    // One instruction, as on the GPU: 0 * 0 plus the pair.
                    vec![(m("IMAD.WIDE.U32"), vec![reg(d.0), reg(Reg::RZ.0), reg(Reg::RZ.0), reg(s.0)])]
                } else {
                    vec![(m("MOV"), vec![reg(d.0), reg(s.0)])]
                }
            }
            "CS2R" if matches!(ops.get(1), Some(Operand::Reg { reg, .. }) if reg.is_zero()) => {
                // `CS2R R4, SRZ`: a register pair set to zero.
                let Some(Operand::Reg { reg: d, .. }) = ops.first().cloned() else { return Err(m("`CS2R` needs a register")) };
                let mut v = vec![(m("MOV"), vec![reg(d.0), reg(Reg::RZ.0)])];
                if has("64") || !has("32") {
                    v.push((m("MOV"), vec![reg(pair_hi(d)), reg(Reg::RZ.0)]));
                }
                v
            }
            "VIADD" => {
                let mut o = ops.clone();
                o.push(reg(Reg::RZ.0));
                vec![(m("IADD3"), o)]
            }
            "VIMNMX" if has("U16x2") || has("S16x2") => packed_min_max(has("S16x2"), &ops)?,
            "VIMNMX" | "VIADDMNMX" if ["U16", "S16", "U8", "S8"].iter().any(|t| has(t)) => {
                return Err(format!("`{}` (min or max of narrow values) is not run yet", i.mnemonic))
            }
            "VIADDMNMX" | "VIMNMX" => {
                // `VIADDMNMX d, a, b, c, P`: min (P true) or max of a + b and c.
                let unsigned = if has("U32") { ".U32" } else { "" };
                if base == "VIMNMX" {
                    vec![(format!("IMNMX{unsigned}"), ops.clone())]
                } else {
                    if ops.len() != 5 {
                        return Err(m("`VIADDMNMX` takes d, a, b, c, P"));
                    }
                    let s = SCRATCH[0];
                    vec![
                        (m("IADD3"), vec![reg(s), ops[1].clone(), ops[2].clone(), reg(Reg::RZ.0)]),
                        (format!("IMNMX{unsigned}"), vec![ops[0].clone(), reg(s), ops[3].clone(), ops[4].clone()]),
                    ]
                }
            }
            "HFMA2" if is_zero_times_zero(&ops) => {
                // `HFMA2.MMA R5, -RZ, RZ, 1.875, 0`: -0 * 0 + (hi, lo) halves, ptxas's way to
                // load a 32-bit constant.
                let hi = half_bits(&ops[3]).ok_or_else(|| m("`HFMA2`: a half-precision constant"))?;
                let lo = half_bits(&ops[4]).ok_or_else(|| m("`HFMA2`: a half-precision constant"))?;
                vec![(m("MOV"), vec![ops[0].clone(), int(((hi as i64) << 16) | lo as i64)])]
            }
            "I2FP" => vec![(format!("I2F{rest_mods}"), ops.clone())],
            "I2F" if ["U16", "S16", "U8", "S8"].iter().any(|t| has(t)) => {
                // A halfword or byte source (`I2F.U16 R4, R4`, ptxas's conversion of a value it
                // knows is small): the low bits widened to 32 in a scratch register, then
                // converted as a 32-bit integer.
                let [d, a] = &ops[..] else { return Err(m("`I2F` takes d, a")) };
                let bits = if has("U16") || has("S16") { 16 } else { 8 };
                let signed = has("S16") || has("S8");
                let rest: Vec<&str> = mods.iter().copied().filter(|x| !["U16", "S16", "U8", "S8"].contains(x)).collect();
                let s = SCRATCH[0];
                // Up to the top from where the part starts, then back down to the bottom.
                let mut v = vec![(m("SHF.L.U32"), vec![reg(s), a.clone(), int(32 - bits - part_at), reg(Reg::RZ.0)])];
                let shift = if signed { "SHF.R.S32.HI" } else { "SHF.R.U32.HI" };
                v.push((m(shift), vec![reg(s), reg(Reg::RZ.0), int(32 - bits), reg(s)]));
                let ty = if signed { "S32" } else { "U32" };
                let rest = if rest.is_empty() { String::new() } else { format!(".{}", rest.join(".")) };
                v.push((format!("I2F.{ty}{rest}"), vec![d.clone(), reg(s)]));
                v
            }
            "FMUL" if ["D2", "D4", "D8", "M2", "M4", "M8"].iter().any(|x| has(x)) => {
                // `FMUL.D4 d, a, b`: the product scaled by 1/4 (`.M4`: by 4), a power of two.
                let scale = ["D2", "D4", "D8", "M2", "M4", "M8"].into_iter().find(|x| has(x)).expect("one scale");
                let factor: f64 = match scale {
                    "D2" => 0.5,
                    "D4" => 0.25,
                    "D8" => 0.125,
                    "M2" => 2.0,
                    "M4" => 4.0,
                    _ => 8.0,
                };
                let rest: Vec<&str> = mods.iter().copied().filter(|x| *x != scale).collect();
                let rest = if rest.is_empty() { String::new() } else { format!(".{}", rest.join(".")) };
                let [d, ..] = &ops[..] else { return Err(m("`FMUL` takes d, a, b")) };
                vec![(format!("FMUL{rest}"), ops.clone()), (format!("FMUL{rest}"), vec![d.clone(), d.clone(), Operand::Float(factor)])]
            }
            "VIMNMX3" => {
                // `VIMNMX3 d, a, b, c, P`: the min (P true) or max of three.
                let [d, a, b, c, p] = &ops[..] else { return Err(m("`VIMNMX3` takes d, a, b, c, P")) };
                let unsigned = if has("U32") { ".U32" } else { "" };
                let s = SCRATCH[0];
                vec![
                    (format!("IMNMX{unsigned}"), vec![reg(s), a.clone(), b.clone(), p.clone()]),
                    (format!("IMNMX{unsigned}"), vec![d.clone(), reg(s), c.clone(), p.clone()]),
                ]
            }
            "EXIT" | "BREAK" if matches!(ops.first(), Some(Operand::Pred { .. })) => {
                // `@!P0 EXIT P1`, `@P0 BREAK P1, B0`: where the guard and the predicate both hold.
                let rest = ops[1..].to_vec();
                self.with_predicate(i, &format!("{base}{rest_mods}"), &ops[0], rest)?
            }
            "SHF" if has("W") => {
                // `.W`: the shift amount wraps at 32 (without it, it is clamped).
                let rest: Vec<&str> = mods.iter().copied().filter(|x| *x != "W").collect();
                let mut o = ops.clone();
                let mut v = Vec::new();
                match o.get(2).cloned() {
                    Some(Operand::Int { value, .. }) => o[2] = int(value & 31),
                    Some(amount @ Operand::Reg { .. }) => {
                        v.push((m("LOP3.LUT"), vec![reg(SCRATCH[1]), amount, int(31), reg(Reg::RZ.0), int(0xc0)]));
                        o[2] = reg(SCRATCH[1]);
                    }
                    _ => return Err(m("`SHF` takes d, lo, shift, hi")),
                }
                v.push((format!("SHF.{}", rest.join(".")), o));
                v
            }
            "IMAD" if (has("WIDE") || has("HI")) && matches!(ops.get(1), Some(Operand::Pred { .. })) => self.imad_carry(&mods, &ops)?,
            "IADD" | "IADD3" | "MOV" | "SEL" if has("64") => wide_forms(base, &ops)?,
            "IADD" if matches!(ops.get(1), Some(Operand::Pred { .. })) => {
                // sm_120's `IADD d, P, a, b`: the sum and its carry out.
                let mut o = ops.clone();
                o.push(reg(Reg::RZ.0));
                vec![(m("IADD3"), o)]
            }
            "IADD3" if !has("X") && ops.len() == 6 && matches!(ops[2], Operand::Pred { pred, .. } if !pred.is_true()) => {
                // `IADD3 d, P0, P1, a, b, c`: a sum of three with two carries out (the `IADD3.X`
                // after it adds both): a + b with its carry in P0, then + c with its carry in P1.
                let s = SCRATCH[0];
                let rz = || reg(Reg::RZ.0);
                vec![
                    (m("IADD3"), vec![reg(s), ops[1].clone(), ops[3].clone(), ops[4].clone(), rz()]),
                    (m("IADD3"), vec![ops[0].clone(), ops[2].clone(), reg(s), ops[5].clone(), rz()]),
                ]
            }
            "IADD3" if has("X") && ops.len() == 6 && !matches!(ops[1], Operand::Pred { .. }) && ops[5] != pred_not_true() => {
                // `IADD3.X d, a, b, c, P2, P1`: two carries in (the high word of a sum of three
                // 64-bit values): added one after the other.
                let rz = || reg(Reg::RZ.0);
                vec![
                    (m("IADD3.X"), vec![ops[0].clone(), ops[1].clone(), ops[2].clone(), ops[3].clone(), ops[4].clone(), pred_not_true()]),
                    (m("IADD3.X"), vec![ops[0].clone(), ops[0].clone(), rz(), rz(), ops[5].clone(), pred_not_true()]),
                ]
            }
            "IMAD" if has("HI") && matches!(ops.get(3), Some(Operand::Reg { reg, .. }) if !reg.is_zero()) => {
                // `IMAD.HI d, a, b, Rc`: the high word of a * b plus the 64-bit Rc+1:Rc (ptxas's
                // division refines a quotient q as q + hi(q * t) with `IMAD.HI q, q, t, Rz`, Rz
                // zeroed beside q): the wide product in a scratch pair, then its high word.
                let sign = if has("U32") { ".U32" } else { "" };
                let [s0, s1] = [SCRATCH[0], SCRATCH[1]];
                vec![
                    (format!("IMAD.WIDE{sign}"), vec![reg(s0), ops[1].clone(), ops[2].clone(), ops[3].clone()]),
                    (m("MOV"), vec![ops[0].clone(), reg(s1)]),
                ]
            }
            "ATOMS" | "ATOMG" | "ATOM" | "RED" | "REDG" if has("POPC") && has("INC") => {
                // `ATOMS.POPC.INC.32 RZ, [a]`: ptxas's `atomicAdd(p, 1)` whose result is unused;
                // each lane adds one to its own address.
                let addr =
                    ops.iter().find(|o| matches!(o, Operand::Mem { .. })).cloned().ok_or_else(|| m("`.POPC.INC` needs an address"))?;
                if !matches!(ops.first(), Some(Operand::Reg { reg, .. }) if reg.is_zero()) && !base.starts_with("RED") {
                    return Err(format!("`{}` with a result is not run yet", i.mnemonic));
                }
                let name = if base == "ATOMS" { "ATOMS" } else { "ATOMG" };
                vec![(format!("{name}.ADD"), vec![reg(Reg::RZ.0), addr, int(1)])]
            }
            "LOP3" if ops.len() == 7 => {
                // `LOP3.LUT P0, R6, a, b, c, lut, !PT`: the result, and P0 = (result != 0).
                let d = match &ops[1] {
                    Operand::Reg { reg: r, .. } if !r.is_zero() => r.0,
                    _ => SCRATCH[0],
                };
                vec![
                    (
                        format!("LOP3{rest_mods}"),
                        vec![reg(d), ops[2].clone(), ops[3].clone(), ops[4].clone(), ops[5].clone(), ops[6].clone()],
                    ),
                    nonzero(ops[0].clone(), d),
                ]
            }
            "IABS" => {
                // |a| = max(a, -a), signed.
                let [d, a] = &ops[..] else { return Err(m("`IABS` takes d, a")) };
                let s = SCRATCH[0];
                vec![
                    (m("IADD3"), vec![reg(s), reg(Reg::RZ.0), negate(a.clone())?, reg(Reg::RZ.0)]),
                    (m("IMNMX"), vec![d.clone(), a.clone(), reg(s), Operand::Pred { pred: Pred::PT, negated: true }]),
                ]
            }
            "LDS" | "STS" if has("U") => {
                let rest: Vec<&str> = mods.iter().copied().filter(|x| *x != "U").collect();
                let rest = if rest.is_empty() { String::new() } else { format!(".{}", rest.join(".")) };
                vec![(format!("{base}{rest}"), ops.clone())]
            }
            "FSEL" => {
                // A float select: a decimal immediate is a float (`FSEL R3, R3, 1, !P1` picks
                // 1.0) and `-R9` flips the sign bit (in a scratch register), where the
                // machine's integer `SEL` would negate the bits as an integer.
                let mut v = Vec::new();
                let mut o = Vec::with_capacity(ops.len());
                for (k, x) in ops.iter().enumerate() {
                    o.push(match *x {
                        Operand::Int { value, hex: false } => Operand::Float(value as f64),
                        Operand::Reg { reg: r, negated: true, inverted: false } if k > 0 => {
                            // Clear of the scratch registers a `|R|` operand took (R156, R157).
                            let s = SCRATCH[1 + k.min(2)];
                            v.push((m("LOP3.LUT"), vec![reg(s), reg(r.0), int(0x8000_0000), reg(Reg::RZ.0), int(0x3c)]));
                            reg(s)
                        }
                        ref other => other.clone(),
                    });
                }
                v.push((m("SEL"), o));
                v
            }
            "LEA" => self.lea(&mods, &ops)?,
            "RED" | "REDG" => {
                // An atomic without its result.
                let mut o = vec![reg(Reg::RZ.0)];
                o.extend(ops.iter().cloned());
                let name = if base == "REDG" { "ATOMG" } else { "ATOM" };
                vec![(format!("{name}{rest_mods}"), o)]
            }
            "MEMBAR" | "ERRBAR" | "CGAERRBAR" | "CCTL" | "DEPBAR" | "FENCE" | "NANOSLEEP" => vec![(m("NOP"), Vec::new())],
            "MOV" if ops.len() == 3 => vec![(m("MOV"), ops[..2].to_vec())],
            // Every thread of the block, barrier 0.
            "BAR" if has("SYNCALL") => vec![(m("BAR.SYNC"), Vec::new())],
            "BRA" if ops.len() == 2 && !has("DIV") => {
                // `@P0 BRA P1, L`: taken where the guard and P1 both hold.
                self.with_predicate(i, &format!("BRA{rest_mods}"), &ops[0], vec![ops[1].clone()])?
            }
            "IMAD" if has("X") => {
                // `IMAD.X d, a, b, c, P`: a * b + c plus the carry in P (the high word of a
                // 64-bit sum).
                let [d, a, b, c, p] = &ops[..] else { return Err(m("`IMAD.X` takes d, a, b, c, P")) };
                let zero = |o: &Operand| matches!(o, Operand::Reg { reg, .. } if reg.is_zero());
                let mut v = Vec::new();
                let product = if zero(a) || zero(b) {
                    reg(Reg::RZ.0)
                } else {
                    v.push((m("IMAD"), vec![reg(SCRATCH[0]), a.clone(), b.clone(), reg(Reg::RZ.0)]));
                    reg(SCRATCH[0])
                };
                v.push((m("IADD3.X"), vec![d.clone(), product, c.clone(), reg(Reg::RZ.0), p.clone(), pred_not_true()]));
                v
            }
            // sm_75's `BRA.CONV fast` and `BRA.DIV slow` (no mask): the running lanes' ballot
            // against all 32.
            "BRA" if (has("CONV") || has("DIV")) && ops.len() == 1 => self.ballot_branch(has("CONV"), &ops[0])?,
            "ISETP" | "UISETP" if has("EX") => self.isetp_ex(&mods, &ops)?,
            "MUFU" if has("RCP64H") => {
                // The high word of 1 / x, x the double whose high word is a (low word 0): a
                // double division, exact where the hardware's seed is an approximation that
                // ptxas's Newton steps then refine.
                let [d, a] = &ops[..] else { return Err(m("`MUFU.RCP64H` takes d, a")) };
                // A literal is a double (`3` is 3.0): its high word.
                let a = match *a {
                    Operand::Int { value, hex: false } => int(((value as f64).to_bits() >> 32) as i64),
                    Operand::Float(f) => int((f.to_bits() >> 32) as i64),
                    ref other => other.clone(),
                };
                let a = &a;
                let [s0, s1] = [SCRATCH[0], SCRATCH[1]];
                vec![
                    (m("MOV"), vec![reg(s0), reg(Reg::RZ.0)]),
                    (m("MOV"), vec![reg(s1), a.clone()]),
                    (m("DDIV"), vec![reg(s0), Operand::Float(1.0), reg(s0)]),
                    (m("MOV"), vec![d.clone(), reg(s1)]),
                ]
            }
            "BRA" if has("DIV") => {
                // `BRA.DIV m, slow`: ptxas's check before a warp primitive that the lanes of m
                // run together, with a slow path that gathers them (`WARPSYNC.COLLECTIVE`).
                // How the hardware decides is not public; warpscope gathers the lanes of m as
                // the slow path would and runs the fast path (docs/sass.md).
                let mask = ops.first().cloned().ok_or_else(|| m("`BRA.DIV` takes a mask and a target"))?;
                vec![(m("WARPSYNC"), vec![mask])]
            }
            "WARPSYNC" if has("COLLECTIVE") => {
                let mask = ops.first().cloned().ok_or_else(|| m("`WARPSYNC.COLLECTIVE` takes a mask and a target"))?;
                vec![(m("WARPSYNC"), vec![mask])]
            }
            "ENDCOLLECTIVE" => vec![(m("NOP"), Vec::new())],
            "VOTE" if ops.len() == 2 => {
                // `VOTE.ANY P1, P1`: the predicate alone, no ballot register.
                let mut o = vec![reg(Reg::RZ.0)];
                o.extend(ops.iter().cloned());
                vec![(format!("VOTE{rest_mods}"), o)]
            }
            "REDUX" => {
                // The combining op printed only when not `.AND`.
                let name = if ["SUM", "MIN", "MAX", "OR", "XOR", "AND"].iter().any(|x| has(x)) {
                    format!("REDUX{rest_mods}")
                } else {
                    format!("REDUX.AND{rest_mods}")
                };
                vec![(name, ops.clone())]
            }
            // A subroutine in the same function (nvcc's division and math slow paths): the
            // machine's call, whose return address the model keeps.
            "CALL" if has("REL") || has("ABS") => vec![(m("CAL"), ops.clone())],
            "CALL" | "BRA" if has("CONV") || base == "CALL" => {
                return Err(format!("`{}` is not run yet (real SASS support is being built: issue 19)", i.mnemonic))
            }
            // Local memory: each lane's part of the buffer `local`, which the stack top in R1
            // points into (`launch_words`).
            "STL" | "LDL" => vec![(format!("{}G{rest_mods}", &base[..2]), ops.clone())],
            _ => vec![(format!("{base}{rest_mods}"), ops)],
        };
        pre.extend(out);
        Ok(pre)
    }

    /// `P2R d, PR, a, mask` puts predicates in a register: bit i + 8b of `d` is P_i for each bit
    /// i of `mask`, the other bits are `a`'s (b: the byte `.B1`-`.B3` names, else 0); ptxas keeps
    /// predicates across a call this way. `R2P PR, a, mask` is the way back: P_i = bit i + 8b of
    /// `a` for each bit i of `mask`. Both as the yuzu and Mesa decompilers read them; a bit past
    /// P6 (PT) is left alone.
    fn predicates_and_register(&self, i: &Instr, mods: &[&str]) -> Result<Vec<Emitted>> {
        if i.guard.is_some() {
            return Err(format!("`{}` with a guard is not run yet", i.mnemonic));
        }
        let byte = match mods.iter().find(|m| matches!(**m, "B1" | "B2" | "B3")) {
            Some(b) => b[1..].parse::<u32>().unwrap_or(0),
            None => 0,
        };
        let op = i.opcode();
        let (src, mask) = match &i.operands[..] {
            [_, pr, a, mask] if op == "P2R" && pr.trim() == "PR" => (a, mask),
            [pr, a, mask] if op == "R2P" && pr.trim() == "PR" => (a, mask),
            _ => return Err(format!("`{}` takes {}", i.mnemonic, if op == "P2R" { "d, PR, a, mask" } else { "PR, a, mask" })),
        };
        let mut pre = Vec::new();
        let mask = match self.operand(mask, &mut pre)? {
            Operand::Int { value, .. } if (0..=0xff).contains(&value) => value as u32,
            _ => return Err(format!("`{}`: the mask `{}` is not run yet (an immediate byte is)", i.mnemonic, mask.trim())),
        };
        let a = self.operand(src, &mut pre)?;
        let preds: Vec<(Pred, u32)> =
            (0..Pred::COUNT as u32).filter(|k| mask >> k & 1 == 1).map(|k| (Pred(k as u8), 1u32 << (k + 8 * byte))).collect();
        let s = SCRATCH[0];
        let lop = String::from("LOP3.LUT");
        if op == "P2R" {
            let d = self.destination(i, &mut pre)?;
            // a & ~(mask << 8b), then each predicate's bit or-ed in under that predicate.
            pre.push((lop.clone(), vec![reg(s), a, int(!(mask << (8 * byte)) as i64), reg(Reg::RZ.0), int(0xc0)]));
            for (p, bit) in preds {
                pre.push((format!("@{p} LOP3.LUT"), vec![reg(s), reg(s), int(bit as i64), reg(Reg::RZ.0), int(0xfc)]));
            }
            pre.push((String::from("MOV"), vec![reg(d.0), reg(s)]));
        } else {
            for (p, bit) in preds {
                pre.push((lop.clone(), vec![reg(s), a.clone(), int(bit as i64), reg(Reg::RZ.0), int(0xc0)]));
                pre.push(nonzero(Operand::Pred { pred: p, negated: false }, s));
            }
        }
        Ok(pre)
    }

    /// `@P0 OP P1, rest` (`BRA`, `EXIT`, `BREAK`): `OP rest` where the guard and P1 both hold.
    /// With a guard, the two are combined into a predicate the kernel leaves free. A mnemonic
    /// written with its own guard (`@P5 BRA`, `@PT PSETP`) replaces the instruction's.
    fn with_predicate(&self, i: &Instr, op: &str, pred: &Operand, rest: Vec<Operand>) -> Result<Vec<Emitted>> {
        let Operand::Pred { pred: p, negated } = *pred else { return Err(format!("`{op}`'s first operand is a predicate")) };
        let not = if negated { "!" } else { "" };
        let Some((g, gneg)) = i.guard else { return Ok(vec![(format!("@{not}{p} {op}"), rest)]) };
        let spare = self.spare(&format!("`{op}` with a predicate"))?;
        let g = guard_operand(g, gneg)?;
        Ok(vec![
            (String::from("@PT PSETP.AND"), vec![Operand::Pred { pred: spare, negated: false }, g, pred.clone()]),
            (format!("@{spare} {op}"), rest),
        ])
    }

    /// The predicate the kernel leaves free, which `what` needs to combine two in.
    fn spare(&self, what: &str) -> Result<Pred> {
        self.places
            .spare_pred
            .ok_or_else(|| format!("{what} needs a predicate the kernel leaves free, and it uses all seven and the seven uniform ones"))
    }

    /// The register an instruction writes first (`LDC R6, ...`); `pre` receives what its
    /// operand needs.
    fn destination(&self, i: &Instr, pre: &mut Vec<Emitted>) -> Result<Reg> {
        match i.operands.first().map(|o| self.operand(o, pre)).transpose()? {
            Some(Operand::Reg { reg, .. }) => Ok(reg),
            _ => Err(format!("`{}` needs a destination register", i.mnemonic)),
        }
    }

    /// sm_75's `BRA.CONV fast` (`converged`: to the target when the warp is whole, else on to
    /// the slow path's call) and `BRA.DIV slow` (to the target when it is not): the running
    /// lanes' ballot against all 32. A warp narrower than 32 always takes the slow path, which
    /// computes the same (docs/sass.md).
    fn ballot_branch(&self, converged: bool, target: &Operand) -> Result<Vec<Emitted>> {
        let spare = self.spare(if converged { "`BRA.CONV`" } else { "`BRA.DIV`" })?;
        let s = SCRATCH[0];
        let pt = Operand::Pred { pred: Pred::PT, negated: false };
        let cmp = if converged { "ISETP.EQ.U32.AND" } else { "ISETP.NE.U32.AND" };
        Ok(vec![
            (String::from("VOTE.ANY"), vec![reg(s), pt.clone(), pt.clone()]),
            (String::from(cmp), vec![Operand::Pred { pred: spare, negated: false }, pt.clone(), reg(s), int(0xffff_ffff), pt]),
            (format!("@{spare} BRA"), vec![target.clone()]),
        ])
    }

    /// `LDC R6, c[0x2][R2+0x54]`: a jump table's slot, whose contents (code addresses) a dump
    /// does not print. The slot's index (R2 / 4: ptxas scales a zero-based case index by 4)
    /// stands in for it; the `BRX` that reads it picks its target by index from the targets
    /// nvdisasm names (`indirect_branch`).
    fn jump_table_slot(&self, i: &Instr, (r, _table): (&str, &str)) -> Result<Vec<Emitted>> {
        if !self.jump_tables {
            return Err(format!(
                "`{}` reads constant bank 2 at a register's offset: not run yet (warpscope reads that only as a jump table's slot before a `BRX` whose targets nvdisasm names)",
                i.mnemonic
            ));
        }
        let mut pre = Vec::new();
        let d = self.destination(i, &mut pre)?;
        let index = self.operand(r, &mut pre)?;
        pre.push((String::from("SHF.R.U32.HI"), vec![reg(d.0), reg(Reg::RZ.0), int(2), index]));
        Ok(pre)
    }

    /// `BRX R6 -0x150 (*"BRANCH_TARGETS .L_x_20,.L_x_21,.L_x_4"*)`: to the target the register's
    /// slot holds, run as a chain of compares against each slot's index (the models branch two
    /// ways); the last target takes every other index, as ptxas clamps the index to it.
    fn indirect_branch(&self, i: &Instr) -> Result<Vec<Emitted>> {
        let m = |s: &str| String::from(s);
        let op = i.operands.first().copied().unwrap_or("");
        let Some(targets) = branch_targets(op) else {
            return Err(format!(
                "`{}`'s targets are in constant bank 2, which `cuobjdump -sass` does not print: paste `nvdisasm -c` output of the cubin, which names them (BRANCH_TARGETS)",
                i.mnemonic
            ));
        };
        if i.guard.is_some() {
            return Err(format!("a guarded `{}` is not run yet", i.mnemonic));
        }
        if targets.is_empty() || targets.len() > MAX_BRX_TARGETS {
            return Err(format!("`{}` with {} targets: warpscope runs jump tables of 1 to {MAX_BRX_TARGETS}", i.mnemonic, targets.len()));
        }
        let mut pre = Vec::new();
        let index = self.operand(op.split_whitespace().next().unwrap_or(""), &mut pre)?;
        let spare = self.spare("`BRX`")?;
        let pt = || Operand::Pred { pred: Pred::PT, negated: false };
        let (last, rest) = targets.split_last().expect("at least one target");
        for (k, t) in rest.iter().enumerate() {
            let target = parse_operand(t).map_err(|e| format!("`{t}`: {e}"))?;
            pre.push((
                m("ISETP.EQ.U32.AND"),
                vec![Operand::Pred { pred: spare, negated: false }, pt(), index.clone(), int(k as i64), pt()],
            ));
            pre.push((format!("@{spare} BRA"), vec![target]));
        }
        pre.push((m("BRA"), vec![parse_operand(last).map_err(|e| format!("`{last}`: {e}"))?]));
        Ok(pre)
    }

    /// `IMAD.WIDE d, P, a, b, c` and `IMAD.HI d, P, a, b, c`: the 64-bit sum a * b + (c+1:c),
    /// whose carry out of bit 63 goes to P; `.WIDE` keeps the pair, `.HI` its high word (ptxas's
    /// 64-bit multiply-high and division are chains of these). The product in a scratch pair,
    /// then the pair added word by word with the carry.
    fn imad_carry(&self, mods: &[&str], ops: &[Operand]) -> Result<Vec<Emitted>> {
        let m = |s: &str| String::from(s);
        let [d, p, a, b, c] = ops else { return Err(m("`IMAD` with a carry out takes d, P, a, b, c")) };
        let c_hi = match *c {
            Operand::Reg { reg: r, negated: false, inverted: false } if r.is_zero() => reg(Reg::RZ.0),
            Operand::Reg { reg: r, negated: false, inverted: false } => reg(pair_hi(r)),
            _ => return Err(m("`IMAD` with a carry out adds a register pair")),
        };
        let Operand::Reg { reg: dst, .. } = *d else { return Err(m("`IMAD` writes a register")) };
        let sign = if mods.contains(&"U32") { ".U32" } else { "" };
        let [s0, s1] = [SCRATCH[0], SCRATCH[1]];
        let rz = || reg(Reg::RZ.0);
        let wide = mods.contains(&"WIDE");
        let hi = if wide { reg(pair_hi(dst)) } else { d.clone() };
        let mut v = vec![
            (format!("IMAD.WIDE{sign}"), vec![reg(s0), a.clone(), b.clone(), rz()]),
            (m("IADD3"), vec![reg(s0), p.clone(), reg(s0), c.clone(), rz()]),
            (m("IADD3.X"), vec![hi, p.clone(), reg(s1), c_hi, rz(), p.clone(), pred_not_true()]),
        ];
        if wide {
            v.push((m("MOV"), vec![d.clone(), reg(s0)]));
        }
        Ok(v)
    }

    /// `ISETP.cmp.sign.op.EX Pd, Pe, a, b, Pc, Plow`: the high words' comparison of a 64-bit
    /// one whose low words gave Plow: strictly ordered high words decide, equal ones defer to
    /// Plow (`EQ`: both equal; `NE`: either differs), then `op` with Pc. Built in Pd itself
    /// (each step reads what it needs before it writes).
    fn isetp_ex(&self, mods: &[&str], ops: &[Operand]) -> Result<Vec<Emitted>> {
        let m = |s: &str| String::from(s);
        let [pd, pe, a, b, pc, plow] = ops else { return Err(m("`ISETP.EX` takes Pd, Pe, a, b, Pc, Plow")) };
        let is_true = |o: &Operand| matches!(o, Operand::Pred { pred, negated: false } if pred.is_true());
        if !is_true(pe) {
            return Err(m("`ISETP.EX` with a second result is not run yet"));
        }
        let Operand::Pred { pred: d, .. } = *pd else { return Err(m("`ISETP.EX` writes a predicate")) };
        if matches!(*pc, Operand::Pred { pred, .. } if pred == d && !pred.is_true()) {
            return Err(m("`ISETP.EX` combining with its own destination is not run yet"));
        }
        let sign = if mods.contains(&"U32") { ".U32" } else { "" };
        let pt = || Operand::Pred { pred: Pred::PT, negated: false };
        let cmp = ["LT", "LE", "GT", "GE", "EQ", "NE"]
            .into_iter()
            .find(|c| mods.contains(c))
            .ok_or_else(|| m("`ISETP.EX` needs its comparison"))?;
        let op = ["AND", "OR", "XOR"].into_iter().find(|o| mods.contains(o)).unwrap_or("AND");
        let mut v = match cmp {
            "EQ" => vec![(format!("ISETP.EQ{sign}.AND"), vec![pd.clone(), pt(), a.clone(), b.clone(), plow.clone()])],
            "NE" => vec![(format!("ISETP.NE{sign}.OR"), vec![pd.clone(), pt(), a.clone(), b.clone(), plow.clone()])],
            _ => {
                let strict = if cmp.starts_with('L') { "LT" } else { "GT" };
                vec![
                    (format!("ISETP.EQ{sign}.AND"), vec![pd.clone(), pt(), a.clone(), b.clone(), plow.clone()]),
                    (format!("ISETP.{strict}{sign}.OR"), vec![pd.clone(), pt(), a.clone(), b.clone(), pd.clone()]),
                ]
            }
        };
        if !(op == "AND" && is_true(pc)) {
            v.push((format!("PSETP.{op}"), vec![pd.clone(), pd.clone(), pc.clone()]));
        }
        Ok(v)
    }

    /// `LEA d, [P,] a, b, s` = (a << s) + b with the carry out in P; `LEA.HI[.X] d, a, b, c, s[, P]`
    /// = b + the high word of (c:a) << s (plus the carry in P with `.X`); `.SX32` takes c as
    /// a's sign.
    fn lea(&self, mods: &[&str], ops: &[Operand]) -> Result<Vec<Emitted>> {
        let m = |s: &str| String::from(s);
        let rz = || reg(Reg::RZ.0);
        let [s0, s1] = [SCRATCH[0], SCRATCH[1]];
        if !mods.contains(&"HI") {
            let (d, carry, a, b, sh) = match ops {
                [d, p @ Operand::Pred { .. }, a, b, s] => (d, Some(p), a, b, s),
                [d, a, b, s] => (d, None, a, b, s),
                _ => return Err(m("`LEA` takes d, [P,] a, b, shift")),
            };
            let mut v = vec![(m("SHF.L.U32"), vec![reg(s0), a.clone(), sh.clone(), rz()])];
            let mut add = vec![d.clone()];
            add.extend(carry.cloned());
            add.extend([reg(s0), b.clone(), rz()]);
            v.push((m("IADD3"), add));
            return Ok(v);
        }
        let x = mods.contains(&"X");
        let sx = mods.contains(&"SX32");
        let (d, a, b, c, sh, carry) = match (ops, sx, x) {
            ([d, a, b, s, p], true, true) => (d, a, b, None, s, Some(p)),
            ([d, a, b, s], true, false) => (d, a, b, None, s, None),
            ([d, a, b, c, s, p], false, true) => (d, a, b, Some(c), s, Some(p)),
            ([d, a, b, c, s], false, false) => (d, a, b, Some(c), s, None),
            _ => return Err(m("`LEA.HI` takes d, a, b, [c,] shift[, P]")),
        };
        let mut v = Vec::new();
        let hi = match c {
            Some(c) => c.clone(),
            None => {
                v.push((m("SHF.R.S32.HI"), vec![reg(s1), rz(), int(0x1f), a.clone()]));
                reg(s1)
            }
        };
        v.push((m("SHF.L.U64.HI"), vec![reg(s0), a.clone(), sh.clone(), hi]));
        match carry {
            Some(p) => v.push((m("IADD3.X"), vec![d.clone(), reg(s0), b.clone(), rz(), p.clone(), pred_not_true()])),
            None => v.push((m("IADD3"), vec![d.clone(), reg(s0), b.clone(), rz()])),
        }
        Ok(v)
    }
}

/// `VIMNMX.U16x2 d, a, b, P` (`.S16x2`): the min (P true) or max of each 16-bit half on its
/// own, through the scratch registers: the low halves, then the high, then the two joined.
fn packed_min_max(signed: bool, ops: &[Operand]) -> Result<Vec<Emitted>> {
    let m = |s: &str| String::from(s);
    let [d, a, b, p] = ops else { return Err(m("`VIMNMX.U16x2` takes d, a, b, P")) };
    let [s0, s1, s2, s3] = SCRATCH;
    let rz = || reg(Reg::RZ.0);
    let (cmp, right) = if signed { ("IMNMX", "SHF.R.S32.HI") } else { ("IMNMX.U32", "SHF.R.U32.HI") };
    let mut v = Vec::new();
    // Each low half at 32 bits (sign-extended for .S16x2), then the min or max.
    for (s, x) in [(s2, a), (s3, b)] {
        v.push((m("SHF.L.U32"), vec![reg(s), x.clone(), int(16), rz()]));
        v.push((m(right), vec![reg(s), rz(), int(16), reg(s)]));
    }
    v.push((m(cmp), vec![reg(s0), reg(s2), reg(s3), p.clone()]));
    for (s, x) in [(s2, a), (s3, b)] {
        v.push((m(right), vec![reg(s), rz(), int(16), x.clone()]));
    }
    v.push((m(cmp), vec![reg(s1), reg(s2), reg(s3), p.clone()]));
    v.push((m("LOP3.LUT"), vec![reg(s0), reg(s0), int(0xffff), rz(), int(0xc0)]));
    v.push((m("SHF.L.U32"), vec![reg(s1), reg(s1), int(16), rz()]));
    v.push((m("LOP3.LUT"), vec![d.clone(), reg(s0), reg(s1), rz(), int(0xfc)]));
    Ok(v)
}

/// A 64-bit operand as its two words: a register pair, or an immediate (sign-extended as written).
fn words64(o: &Operand) -> Result<(Operand, Operand)> {
    match *o {
        Operand::Reg { reg: r, negated: false, inverted: false } => Ok((reg(r.0), reg(pair_hi(r)))),
        Operand::Int { value, .. } => Ok((int(value as u32 as i64), int((value >> 32) as u32 as i64))),
        _ => Err(String::from("a 64-bit operand that is a register pair or a number")),
    }
}

/// sm_100 and later's 64-bit forms: `IADD.64 d, a, b`, `IADD3.64 d, PT, PT, a, b, c`, `MOV.64
/// d, a`, `SEL.64 d, a, b, P` on register pairs, through the scratch registers so a destination
/// may overlap a source. An add is `IMAD.WIDE.U32 s, a.lo, 1, b` (b plus a's low word, the carry
/// in s's high word) and then a's high word added to it.
fn wide_forms(base: &str, ops: &[Operand]) -> Result<Vec<Emitted>> {
    let m = |s: &str| String::from(s);
    let [s0, s1, s2, s3] = SCRATCH;
    let rz = || reg(Reg::RZ.0);
    let Some(Operand::Reg { reg: d, .. }) = ops.first() else { return Err(format!("`{base}.64` writes a register pair")) };
    let (d_lo, d_hi) = (reg(d.0), reg(pair_hi(*d)));
    let mut v = Vec::new();
    // a + b into s0:s1 (b an immediate: in s2:s3 first).
    let add = |v: &mut Vec<Emitted>, a: &Operand, b: &Operand| -> Result<()> {
        let (a_lo, a_hi) = words64(a)?;
        let b = match b {
            Operand::Int { .. } => {
                let (lo, hi) = words64(b)?;
                v.push((m("MOV"), vec![reg(s2), lo]));
                v.push((m("MOV"), vec![reg(s3), hi]));
                reg(s2)
            }
            other => other.clone(),
        };
        v.push((m("IMAD.WIDE.U32"), vec![reg(s0), a_lo, int(1), b]));
        v.push((m("IADD3"), vec![reg(s1), reg(s1), a_hi, rz()]));
        Ok(())
    };
    match (base, ops) {
        ("IADD", [_, a, b]) => add(&mut v, a, b)?,
        ("IADD3", [_, p, q, a, b, c]) if [p, q].iter().all(|x| matches!(x, Operand::Pred { pred, negated: false } if pred.is_true())) => {
            add(&mut v, a, b)?;
            if !matches!(c, Operand::Reg { reg, .. } if reg.is_zero()) {
                // (a + b) + c: s0:s1 moved to s2:s3, then c added as above.
                v.push((m("MOV"), vec![reg(s2), reg(s0)]));
                v.push((m("MOV"), vec![reg(s3), reg(s1)]));
                if matches!(c, Operand::Int { .. }) {
                    return Err(m("`IADD3.64` of three with an immediate is not run yet"));
                }
                add(&mut v, &reg(s2), c)?;
            }
        }
        ("MOV", [_, a]) => {
            let (lo, hi) = words64(a)?;
            v.push((m("MOV"), vec![reg(s0), lo]));
            v.push((m("MOV"), vec![reg(s1), hi]));
        }
        ("SEL", [_, a, b, p]) => {
            let ((a_lo, a_hi), (b_lo, b_hi)) = (words64(a)?, words64(b)?);
            v.push((m("SEL"), vec![reg(s0), a_lo, b_lo, p.clone()]));
            v.push((m("SEL"), vec![reg(s1), a_hi, b_hi, p.clone()]));
        }
        _ => return Err(format!("`{base}.64` with these operands is not run yet")),
    }
    v.push((m("MOV"), vec![d_lo, reg(s0)]));
    v.push((m("MOV"), vec![d_hi, reg(s1)]));
    Ok(v)
}

fn negate(o: Operand) -> Result<Operand> {
    match o {
        Operand::Reg { reg, negated, inverted: false } => Ok(Operand::Reg { reg, negated: !negated, inverted: false }),
        Operand::Int { value, .. } => Ok(int(-value)),
        _ => Err(String::from("a register or a number to negate")),
    }
}

/// A guard's predicate as an operand (`P0`, `!UP1`).
fn guard_operand(name: &str, negated: bool) -> Result<Operand> {
    guard_pred(name).map(|pred| Operand::Pred { pred, negated }).ok_or_else(|| format!("`@{name}` is not a predicate"))
}

/// A guard's predicate by name (`P0`, `PT`, `UP1`, `UPT`: the machine has slots for both kinds).
pub fn guard_pred(name: &str) -> Option<Pred> {
    match parse_operand(name) {
        Ok(Operand::Pred { pred, negated: false }) => Some(pred),
        _ => None,
    }
}

/// `p` = (register `r` != 0): how a predicate takes a logic result (`LOP3.LUT P0, ...`, `R2P`).
fn nonzero(p: Operand, r: u8) -> Emitted {
    let pt = Operand::Pred { pred: Pred::PT, negated: false };
    (String::from("ISETP.NE.U32.AND"), vec![p, pt.clone(), reg(r), reg(Reg::RZ.0), pt])
}

fn pred_not_true() -> Operand {
    Operand::Pred { pred: Pred::PT, negated: true }
}

/// The label an address target gets (`@` begins no label a dump prints).
pub fn addr_label(a: u32) -> String {
    format!("@{a:#06x}")
}

/// `UR5` (given `5`) as the machine's register; `URZ` reads zero.
fn uniform(n: &str) -> Option<Reg> {
    if n == "Z" {
        return Some(Reg::RZ);
    }
    let k: u8 = n.parse().ok()?;
    (k < UNIFORM_COUNT).then_some(Reg(UNIFORM_BASE + k))
}

/// `UPk` (given `k`) as the machine's predicate of it; `UPT` is `PT`.
pub fn uniform_pred(n: &str) -> Option<Pred> {
    guard_pred(&format!("UP{n}"))
}

fn is_zero_times_zero(ops: &[Operand]) -> bool {
    let zero = |o: &Operand| matches!(o, Operand::Reg { reg, .. } if reg.is_zero());
    ops.len() == 5 && zero(&ops[1]) && zero(&ops[2])
}

/// A half-precision literal's bits (`1.875`, `0`, `-0.5`, `+INF`).
fn half_bits(o: &Operand) -> Option<u16> {
    let x = match *o {
        Operand::Int { value, hex: false } => value as f64,
        Operand::Int { value, hex: true } => return u16::try_from(value).ok(),
        Operand::Float(f) => f,
        _ => return None,
    };
    Some(f32_to_half(x as f32))
}

/// Rounds to nearest even, as a constant ptxas printed in decimal is exact anyway.
fn f32_to_half(x: f32) -> u16 {
    let b = x.to_bits();
    let sign = ((b >> 16) & 0x8000) as u16;
    let exp = ((b >> 23) & 0xff) as i32;
    let man = b & 0x7f_ffff;
    if exp == 0xff {
        return sign | 0x7c00 | if man != 0 { 0x200 } else { 0 };
    }
    let e = exp - 127 + 15;
    if e >= 0x1f {
        return sign | 0x7c00;
    }
    if e <= 0 {
        if e < -10 {
            return sign;
        }
        // A subnormal half: units of 2^-24.
        let shift = (14 - e) as u32;
        let full = man | 0x80_0000;
        let (m, rest, half) = (full >> shift, full & ((1 << shift) - 1), 1 << (shift - 1));
        let m = if rest > half || (rest == half && m & 1 == 1) { m + 1 } else { m };
        return sign | m as u16;
    }
    let h = (sign as u32) | ((e as u32) << 10) | (man >> 13);
    let rest = man & 0x1fff;
    (if rest > 0x1000 || (rest == 0x1000 && h & 1 == 1) { h + 1 } else { h }) as u16
}

/// Checks the registers `f` uses itself stay clear of warpscope's own; the predicates `P0`-`P6`
/// it uses (its uniform ones have slots of their own).
pub fn check_own_registers(f: &Function) -> core::result::Result<[bool; 14], (usize, String)> {
    // P0-P6, then UP0-UP6.
    let mut preds_used = [false; 14];
    for (k, i) in f.instrs.iter().enumerate() {
        let guard = i.guard.map(|g| g.0);
        for o in i.operands.iter().copied().chain(guard) {
            for word in o.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')) {
                if let Some(n) = word.strip_prefix('R').and_then(|n| n.parse::<u32>().ok()) {
                    if n + 1 >= OWN_LIMIT as u32 {
                        return Err((
                            k,
                            format!(
                                "`{o}`: warpscope runs kernels of registers R0-R{} (it keeps the rest for uniform registers and constants)",
                                OWN_LIMIT - 2
                            ),
                        ));
                    }
                } else if let Some(n) = word.strip_prefix('P').and_then(|n| n.parse::<usize>().ok()) {
                    preds_used[n.min(6)] = true;
                } else if let Some(n) = word.strip_prefix("UP").and_then(|n| n.parse::<usize>().ok()) {
                    preds_used[7 + n.min(6)] = true;
                }
            }
        }
    }
    Ok(preds_used)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn halves_as_ptxas_prints_them() {
        assert_eq!(f32_to_half(1.875), 0x3f80);
        assert_eq!(f32_to_half(0.0), 0);
        assert_eq!(f32_to_half(-2.0), 0xc000);
        assert_eq!(f32_to_half(f32::INFINITY), 0x7c00);
        // sm_80's `HFMA2.MMA R7, -RZ, RZ, 0, 2.384185791015625e-07` loads 4.
        assert_eq!(f32_to_half(2.384_185_8e-7), 4);
    }

    #[test]
    fn a_register_name_gets_its_place() {
        assert_eq!(uniform("4"), Some(Reg(164)));
        assert_eq!(uniform("Z"), Some(Reg::RZ));
        assert_eq!(uniform_pred("0"), Pred::uniform(0));
        assert_eq!(uniform_pred("T"), Some(Pred::PT));
        assert_eq!(uniform_pred("7"), None);
        assert_eq!(const_offset("c[0x0][0x210]").map(|r| r.unwrap()), Some(0x210));
        assert_eq!(const_offset("c[0x0][RZ]").map(|r| r.unwrap()), Some(0));
        assert!(const_offset("c[0x3][0x0]").is_none(), "bank 3 is read from the header's variables (`bank3`)");
        assert!(const_offset("c[0x1][0x0]").unwrap().is_err());
    }
}
