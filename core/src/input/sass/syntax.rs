//! The text of a SASS dump, as `cuobjdump -sass`, `nvdisasm` (with or without `-c`, `-hex`,
//! `-g`) and Compiler Explorer's SASS pane print it: functions, their labels, and each
//! instruction's address, guard, mnemonic and operands, with its line in the text and the CUDA
//! line `-g` gives it. Everything else (headers, directives, data sections, encodings, `NOP`
//! padding after the last instruction) is passed over.

use alloc::vec::Vec;

use crate::diag::{Diagnostic, Span};

/// One instruction as the dump prints it.
#[derive(Clone, PartialEq, Debug)]
pub struct Instr<'a> {
    /// Its address (`/*0080*/`), or its place times 16 when the text gives none.
    pub addr: u32,
    /// `@P0`, `@!UP1`: the predicate's name and whether it is negated.
    pub guard: Option<(&'a str, bool)>,
    /// `ISETP.GE.AND`: the opcode with its modifiers.
    pub mnemonic: &'a str,
    /// Each operand's text, split at top-level commas.
    pub operands: Vec<&'a str>,
    /// Where it stands in the text (the whole instruction).
    pub span: Span,
    /// The CUDA line `nvdisasm -g` names above it (`//## File "k.cu", line 7`), or 0.
    pub cuda_line: u32,
}

impl Instr<'_> {
    pub fn opcode(&self) -> &str {
        self.mnemonic.split('.').next().unwrap_or("")
    }
}

/// One function of the dump.
#[derive(Clone, PartialEq, Debug, Default)]
pub struct Function<'a> {
    /// As the dump names it (mangled: `_Z6vecAddPKfS0_Pfi`).
    pub name: &'a str,
    pub span: Span,
    pub instrs: Vec<Instr<'a>>,
    /// Labels (`.L_x_3`) and the index of the instruction each stands before.
    pub labels: Vec<(&'a str, usize)>,
    /// The CUDA file `-g` names, if any.
    pub cuda_file: Option<&'a str>,
}

/// A dump: its architecture (`sm_90`) and functions, in order.
#[derive(Clone, PartialEq, Debug, Default)]
pub struct Dump<'a> {
    pub arch: Option<&'a str>,
    pub functions: Vec<Function<'a>>,
    /// nvdisasm's whole-cubin output only: constant bank 4, the addresses of what the code
    /// calls or reads by name (`/*0008*/ .dword $str`): each offset and its symbol.
    pub bank4: Vec<(u32, &'a str)>,
    /// nvdisasm's whole-cubin output only: the initialised globals (`.nv.global.init`, where
    /// `printf`'s format strings are), each symbol and its bytes.
    pub data: Vec<(&'a str, Vec<u8>)>,
    /// nvdisasm's whole-cubin output only: each function's constant bank 2
    /// (`.nv.constant2.<function>`: ptxas's own constants and jump tables), its bytes.
    pub bank2: Vec<(&'a str, Vec<u8>)>,
    /// Each function's static shared memory in bytes, from the shared window's start (the 1 KiB
    /// sm_90 and later reserve included): nvdisasm's `.nv.shared.<function>` section (`.zero N`)
    /// or `cuobjdump -res-usage`'s `SHARED:N`.
    pub shared: Vec<(&'a str, u32)>,
}

/// Whether `text` looks like a SASS dump (and not warpscope's own listing dialect, which never
/// has these): a `Function :` or `code for sm_` header, an nvdisasm `.text.` section, a
/// constant-bank or uniform-register operand, or an instruction encoding.
pub fn looks_like_sass(text: &str) -> bool {
    text.lines().take(4000).any(|l| {
        let t = l.trim_start();
        // A comment (a C file's, which may quote SASS) says nothing, but nvdisasm's section
        // header.
        if t.starts_with("//") && !t.starts_with("//---------------------") {
            return false;
        }
        t.starts_with("Function :")
            || t.starts_with("code for sm_")
            || t.starts_with(".text.")
            || t.starts_with("//--------------------- .text.")
            || t.contains("c[0x0][")
            || t.contains("desc[UR")
            || t.contains("/* 0x")
    })
}

/// The places a `//##` line names, innermost first: `File "F", line N` and each `inlined at "G",
/// line M` after it.
fn cuda_frames(rest: &str) -> Vec<(&str, u32)> {
    rest.split(" inlined at ")
        .filter_map(|part| {
            let (file, at) = part.split_once(", line ")?;
            let line = at.split(|c: char| !c.is_ascii_digit()).next().and_then(|n| n.parse().ok())?;
            Some((file.trim().trim_start_matches("File").trim().trim_matches('"'), line))
        })
        .collect()
}

/// Reads the dump; what it cannot place is a located diagnostic.
pub fn parse<'a>(text: &'a str, diags: &mut Vec<Diagnostic>) -> Dump<'a> {
    let mut dump = Dump::default();
    let mut cur: Option<Function<'a>> = None;
    let mut cuda_line = 0u32;
    let mut loc_read = false;
    // nvdisasm prints data sections (`.nv.info`, constants) as directives: only `.text` holds
    // code; two data sections are read (`data_line`).
    let mut in_code = true;
    let mut section = "";
    // `cuobjdump -res-usage`'s function, whose figures the next line gives.
    let mut usage_of: Option<&'a str> = None;
    let mut in_fatbin_header = false;
    for (k, raw) in text.lines().enumerate() {
        let line_no = k as u32 + 1;
        let line = raw.trim();
        if line.is_empty() || line.starts_with("//@") {
            continue;
        }
        if resource_usage(&mut dump, &mut usage_of, line) {
            continue;
        }
        if let Some(rest) = line.strip_prefix("//##") {
            // `//## File "/tmp/k.cu", line 7`, or with `-gi` `File "x.hpp", line 202 inlined at
            // "/tmp/k.cu", line 13`: the kernel's file is the outermost of its first line, and an
            // instruction's CUDA line is its line in that file (0: a header's code, under `-g`).
            // `-gi` follows an inlined line with its call's (`line 12 inlined at ..., line 22`,
            // then `line 22`): the first before an instruction counts, as PTX's `.loc` does.
            if loc_read {
                continue;
            }
            loc_read = true;
            let frames = cuda_frames(rest);
            cuda_line = match cur.as_mut() {
                Some(f) => {
                    if let Some(&(outer, _)) = frames.last() {
                        f.cuda_file.get_or_insert(outer);
                    }
                    frames.iter().find(|(file, _)| Some(*file) == f.cuda_file).map_or(0, |x| x.1)
                }
                None => frames.first().map_or(0, |x| x.1),
            };
            continue;
        }
        if let Some(header) = line.strip_prefix("//---------------------") {
            let name = header.trim().trim_end_matches('-').trim();
            in_code = name.starts_with(".text.");
            section = name;
            if let Some(name) = name.strip_prefix(".text.") {
                start(&mut dump, &mut cur, name.trim(), line_no, raw);
            }
            continue;
        }
        if line.starts_with("//") || is_encoding(line) {
            continue;
        }
        // cuobjdump's header of each fatbin entry (`Fatbin ptx code:`, then `arch = sm_90`,
        // `compressed`, ...): the function before it has ended, and no code follows until the
        // next `Function :`.
        if line.starts_with("Fatbin ") && line.ends_with(" code:") {
            if let Some(f) = cur.take() {
                dump.functions.push(f);
            }
            in_fatbin_header = true;
            continue;
        }
        if in_fatbin_header && !line.starts_with("Function :") && !line.starts_with("code for ") {
            continue;
        }
        in_fatbin_header = false;
        if let Some(name) = line.strip_prefix("Function :") {
            start(&mut dump, &mut cur, name.trim(), line_no, raw);
            in_code = true;
            continue;
        }
        if let Some(arch) = line.strip_prefix("code for ").or_else(|| line.strip_prefix(".target")) {
            let arch = arch.trim();
            if arch.starts_with("sm_") {
                dump.arch.get_or_insert(arch);
            }
            continue;
        }
        if line.starts_with('.') && !line.ends_with(':') {
            // A directive: `.section .text.k`, `.headerflags`, `.align`, `.byte`...
            // `.section NAME, ...` (not `.sectioninfo` or `.sectionflags`).
            if let Some(rest) = line.strip_prefix(".section").filter(|r| r.starts_with(char::is_whitespace)) {
                let name = rest.trim().split(',').next().unwrap_or("").trim();
                in_code = name.starts_with(".text.");
                section = name;
            } else if let (Some(function), Some(n)) = (section.strip_prefix(".nv.shared."), line.strip_prefix(".zero")) {
                if let Ok(bytes) = n.trim().parse() {
                    dump.shared.push((function, bytes));
                }
            }
            continue;
        }
        if !in_code {
            data_line(&mut dump, section, line);
            continue;
        }
        if !in_code || line.starts_with("....") || line.starts_with("===") || line.contains(" = ") {
            continue;
        }
        if let Some(label) = line.strip_suffix(':') {
            let label = label.trim();
            if let Some(name) = label.strip_prefix(".text.") {
                // nvdisasm's section label: the function itself when no section line named it.
                if cur.as_ref().is_none_or(|f| f.name != name) {
                    start(&mut dump, &mut cur, name, line_no, raw);
                }
            } else if cur.as_ref().is_some_and(|f| f.name == label) {
                // The function's own symbol label.
            } else if let Some(f) = cur.as_mut() {
                if f.labels.iter().any(|(l, _)| *l == label) {
                    let span = Span::new(line_no, 1, raw.chars().count().max(1) as u32);
                    diags.push(Diagnostic::error(span, alloc::format!("label `{label}` stands twice in `{}`", f.name)));
                    continue;
                }
                f.labels.push((label, f.instrs.len()));
            } else if !label.starts_with(".L") {
                start(&mut dump, &mut cur, label, line_no, raw);
            }
            continue;
        }
        let Some(f) = cur.as_mut() else {
            // Compiler Explorer's pane may start with the code: one unnamed function.
            start(&mut dump, &mut cur, "", line_no, raw);
            let f = cur.as_mut().expect("just started");
            read_instr(f, line, raw, line_no, cuda_line, diags);
            loc_read = false;
            continue;
        };
        read_instr(f, line, raw, line_no, cuda_line, diags);
        loc_read = false;
    }
    if let Some(f) = cur.take() {
        dump.functions.push(f);
    }
    for f in &mut dump.functions {
        trim_padding(f);
    }
    dump
}

/// A line of a data section nvdisasm prints: a `.dword SYMBOL` of constant bank 4 at its
/// offset, or a symbol's label (`$str:`) and `.byte` lines in `.nv.global.init`.
fn data_line<'a>(dump: &mut Dump<'a>, section: &'a str, line: &'a str) {
    let (offset, rest) = match line.strip_prefix("/*").and_then(|r| r.split_once("*/")) {
        Some((off, rest)) => (u32::from_str_radix(off.trim(), 16).ok(), rest.trim()),
        None => (None, line),
    };
    if section == ".nv.constant4" {
        if let (Some(off), Some(sym)) = (offset, rest.strip_prefix(".dword")) {
            dump.bank4.push((off, sym.trim()));
        }
    } else if let Some(function) = section.strip_prefix(".nv.constant2.") {
        let (Some(off), Some(bytes)) = (offset, rest.strip_prefix(".byte")) else { return };
        let Ok(off) = usize::try_from(off) else { return };
        if dump.bank2.last().is_none_or(|(f, _)| *f != function) {
            dump.bank2.push((function, Vec::new()));
        }
        let Some((_, data)) = dump.bank2.last_mut() else { return };
        // Bank 2 is at most 64 KiB.
        let bytes = byte_list(bytes);
        if off + bytes.len() <= 0x1_0000 {
            if data.len() < off {
                data.resize(off, 0);
            }
            data.truncate(off);
            data.extend(bytes);
        }
    } else if section == ".nv.global.init" {
        if let Some(label) = line.strip_suffix(':').filter(|l| !l.starts_with('.')) {
            dump.data.push((label.trim(), Vec::new()));
        } else if let (Some(bytes), Some((_, data))) = (rest.strip_prefix(".byte"), dump.data.last_mut()) {
            data.extend(byte_list(bytes));
        }
    }
}

/// `cuobjdump -res-usage`'s lines (`Resource usage:`, `Common:`, `GLOBAL:0`, `Function NAME:`
/// and its `REG:12 STACK:0 SHARED:9472 ...`): whether `line` is one, keeping the shared bytes.
fn resource_usage<'a>(dump: &mut Dump<'a>, usage_of: &mut Option<&'a str>, line: &'a str) -> bool {
    if matches!(line, "Resource usage:" | "Common:") || line.starts_with("GLOBAL:") {
        return true;
    }
    if let Some(name) = line.strip_prefix("Function ").and_then(|r| r.strip_suffix(':')).filter(|n| !n.contains(' ')) {
        *usage_of = Some(name);
        return true;
    }
    if !line.starts_with("REG:") {
        return false;
    }
    let shared = line.split_whitespace().find_map(|w| w.strip_prefix("SHARED:")).and_then(|n| n.parse().ok());
    if let (Some(name), Some(bytes)) = (usage_of.take(), shared) {
        dump.shared.push((name, bytes));
    }
    true
}

/// The bytes of a `.byte 0x74, 0x68, ...` line.
fn byte_list(bytes: &str) -> Vec<u8> {
    bytes.split(',').filter_map(|b| u8::from_str_radix(b.trim().trim_start_matches("0x"), 16).ok()).collect()
}

fn start<'a>(dump: &mut Dump<'a>, cur: &mut Option<Function<'a>>, name: &'a str, line_no: u32, raw: &str) {
    if let Some(f) = cur.take() {
        dump.functions.push(f);
    }
    let span = Span::new(line_no, 1, raw.chars().count().max(1) as u32);
    *cur = Some(Function { name, span, ..Function::default() });
}

/// A line that is only an encoding comment: `/* 0x000fe20000000800 */`.
fn is_encoding(line: &str) -> bool {
    line.starts_with("/* 0x") && line.ends_with("*/") && line.len() < 40
}

fn read_instr<'a>(f: &mut Function<'a>, line: &'a str, raw: &'a str, line_no: u32, cuda_line: u32, diags: &mut Vec<Diagnostic>) {
    let mut rest = line;
    // `/*0080*/`: the address.
    let mut addr = None;
    if let Some(r) = rest.strip_prefix("/*") {
        if let Some((a, after)) = r.split_once("*/") {
            addr = u32::from_str_radix(a.trim(), 16).ok();
            rest = after.trim_start();
        }
    }
    // The instruction ends at `;`; an encoding comment may follow.
    let body = match rest.find(';') {
        Some(k) => &rest[..k],
        None => rest.split("/*").next().unwrap_or(rest),
    }
    .trim();
    if body.is_empty() {
        return;
    }
    // The instruction's own place on the line (past the address), in characters.
    let at = body.as_ptr() as usize - raw.as_ptr() as usize;
    let col = raw[..at].chars().count() as u32 + 1;
    let span = Span::new(line_no, col, body.chars().count().max(1) as u32);
    let (guard, body) = match body.strip_prefix('@') {
        Some(g) => {
            let (p, after) = g.split_once(char::is_whitespace).unwrap_or((g, ""));
            let (name, negated) = match p.strip_prefix('!') {
                Some(n) => (n, true),
                None => (p, false),
            };
            (Some((name, negated)), after.trim_start())
        }
        None => (None, body),
    };
    let (mnemonic, ops) = body.split_once(char::is_whitespace).unwrap_or((body, ""));
    if mnemonic.is_empty() || !mnemonic.starts_with(|c: char| c.is_ascii_uppercase()) {
        diags.push(Diagnostic::error(span, alloc::format!("`{body}` is not a SASS instruction")));
        return;
    }
    let last = f.instrs.last().map(|i| i.addr);
    let addr = addr.unwrap_or_else(|| last.map_or(0, |a| a.saturating_add(16)));
    if last.is_some_and(|l| addr <= l) || addr > u32::MAX - 64 {
        diags.push(Diagnostic::error(
            span,
            alloc::format!("address {addr:#06x} does not follow the one before it: a dump's addresses rise"),
        ));
        return;
    }
    f.instrs.push(Instr { addr, guard, mnemonic, operands: split_operands(ops), span, cuda_line });
}

/// Splits at commas outside brackets and parentheses.
pub fn split_operands(s: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut from = 0;
    for (k, c) in s.char_indices() {
        match c {
            '[' | '(' | '{' => depth += 1,
            ']' | ')' | '}' => depth -= 1,
            ',' if depth == 0 => {
                out.push(s[from..k].trim());
                from = k + 1;
            }
            _ => {}
        }
    }
    let last = s[from..].trim();
    if !last.is_empty() {
        out.push(last);
    }
    out
}

/// The `BRA` to itself and the `NOP`s ptxas pads a function with after its last `EXIT`: never
/// reached, and left out so the graph ends where the code does.
fn trim_padding(f: &mut Function) {
    let labelled = |k: usize| f.labels.iter().any(|&(_, at)| at == k);
    while let Some(last) = f.instrs.last() {
        let k = f.instrs.len() - 1;
        let self_branch = last.opcode() == "BRA"
            && last.guard.is_none()
            && last.operands.first().is_some_and(|t| {
                let t = t.trim_start_matches("0x");
                u32::from_str_radix(t, 16).ok() == Some(last.addr)
            });
        if (last.opcode() == "NOP" || self_branch) && !labelled(k) {
            f.instrs.pop();
        } else {
            break;
        }
    }
    // A label on the self-branch (nvdisasm names it `.L_x_5`) is dropped with it.
    let n = f.instrs.len();
    f.labels.retain(|&(_, at)| at <= n);
}

#[cfg(test)]
mod tests {
    use super::*;

    const CUOBJDUMP: &str = "
	code for sm_90
	.target	sm_90

		Function : _Z6vecAddPKfS0_Pfi
	.headerflags	@\"EF_CUDA_SM90 EF_CUDA_VIRTUAL_SM(EF_CUDA_SM90)\"
        /*0000*/                   LDC R1, c[0x0][0x28] ;              /* 0x00000a00ff017b82 */
                                                                       /* 0x000fe20000000800 */
        /*0070*/               @P0 EXIT ;                              /* 0x000000000000094d */
                                                                       /* 0x000fea0003800000 */
        /*00d0*/                   LDG.E R3, desc[UR4][R2.64] ;        /* 0x0000000402037981 */
                                                                       /* 0x000ee2000c1e1900 */
        /*0130*/                   EXIT ;                              /* 0x000000000000794d */
                                                                       /* 0x000fea0003800000 */
        /*0140*/                   BRA 0x140;                          /* 0xfffffffc00fc7947 */
                                                                       /* 0x000fc00000000000 */
        /*0150*/                   NOP;                                /* 0x0000000000007918 */
		..........
";

    #[test]
    fn cuobjdump_text_reads_as_one_function_without_its_padding() {
        let mut d = Vec::new();
        let dump = parse(CUOBJDUMP, &mut d);
        assert!(d.is_empty(), "{d:?}");
        assert_eq!(dump.arch, Some("sm_90"));
        assert_eq!(dump.functions.len(), 1);
        let f = &dump.functions[0];
        assert_eq!(f.name, "_Z6vecAddPKfS0_Pfi");
        let ops: Vec<(u32, &str)> = f.instrs.iter().map(|i| (i.addr, i.mnemonic)).collect();
        assert_eq!(ops, [(0, "LDC"), (0x70, "EXIT"), (0xd0, "LDG.E"), (0x130, "EXIT")]);
        assert_eq!(f.instrs[1].guard, Some(("P0", false)));
        assert_eq!(f.instrs[2].operands, ["R3", "desc[UR4][R2.64]"]);
        assert!(looks_like_sass(CUOBJDUMP));
    }

    #[test]
    fn a_header_line_counts_where_it_was_inlined_or_not_at_all() {
        let text = "\t.text._Z1kPi:\n_Z1kPi:\n\t//## File \"/tmp/k.cu\", line 12\n        /*0000*/                   LDC R1, c[0x0][0x28] ;\n\t//## File \"/inc/atomic.hpp\", line 202 inlined at \"/tmp/k.cu\", line 13\n\t//## File \"/tmp/k.cu\", line 14\n        /*0010*/                   NOP ;\n\t//## File \"/inc/atomic.hpp\", line 202\n        /*0020*/                   EXIT ;\n";
        let mut diags = Vec::new();
        let dump = parse(text, &mut diags);
        assert!(diags.is_empty(), "{diags:?}");
        let f = &dump.functions[0];
        assert_eq!(f.cuda_file, Some("/tmp/k.cu"));
        assert_eq!(f.instrs.iter().map(|i| i.cuda_line).collect::<Vec<_>>(), [12, 13, 0]);
    }

    #[test]
    fn nvdisasm_with_line_info_names_cuda_lines_and_labels() {
        let text = "\t.target\tsm_90\n\n//--------------------- .text._Z7collatzPKjPi     --------------------------\n\t.section\t.text._Z7collatzPKjPi,\"ax\",@progbits\n_Z7collatzPKjPi:\n.text._Z7collatzPKjPi:\n\t//## File \"/tmp/collatz_steps.cu\", line 5\n        /*0000*/                   LDC R1, c[0x0][0x28] ;\n.L_x_2:\n\t//## File \"/tmp/collatz_steps.cu\", line 11\n        /*00e0*/              @!P0 BRA `(.L_x_2) ;\n";
        let mut d = Vec::new();
        let dump = parse(text, &mut d);
        assert!(d.is_empty(), "{d:?}");
        let f = &dump.functions[0];
        assert_eq!(f.name, "_Z7collatzPKjPi");
        assert_eq!(f.cuda_file, Some("/tmp/collatz_steps.cu"));
        assert_eq!(f.labels, [(".L_x_2", 1)]);
        assert_eq!((f.instrs[0].cuda_line, f.instrs[1].cuda_line), (5, 11));
        assert_eq!(f.instrs[1].guard, Some(("P0", true)));
        assert_eq!(f.instrs[1].operands, ["`(.L_x_2)"]);
    }

    #[test]
    fn nvdisasm_of_the_whole_cubin_gives_bank_4_and_the_format_strings() {
        let text = "//--------------------- .nv.constant4             --------------------------\n\t.section\t.nv.constant4,\"a\",@progbits\n.nv.constant4:\n        /*0000*/ \t.dword\tvprintf\n        /*0008*/ \t.dword\t$str\n\
            //--------------------- .text._Z1kv --------------------------\n\t.section\t.text._Z1kv,\"ax\",@progbits\n\t.sectioninfo\t@\"SHI_REGISTERS=26\"\n_Z1kv:\n        /*0000*/                   EXIT ;\n\
            //--------------------- .nv.global.init           --------------------------\n\t.section\t.nv.global.init,\"aw\",@progbits\n$str:\n        /*0000*/ \t.byte\t0x68, 0x69\n        /*0002*/ \t.byte\t0x0a, 0x00\n";
        let mut d = Vec::new();
        let dump = parse(text, &mut d);
        assert!(d.is_empty(), "{d:?}");
        assert_eq!(dump.bank4, [(0, "vprintf"), (8, "$str")]);
        assert_eq!(dump.data, [("$str", b"hi\n\0".to_vec())]);
        // `.sectioninfo` (sm_75) names no section: the code is still code.
        assert_eq!(dump.functions[0].instrs.len(), 1);
    }

    #[test]
    fn the_papers_listings_are_not_sass() {
        assert!(!looks_like_sass("1\t/*0060*/\tISETP.LT.AND P0, PT, R5, 0x1, PT;\n3\t/*00e0*/\tSSY 0x128;\n"));
    }

    #[test]
    fn operands_split_outside_brackets() {
        assert_eq!(split_operands("R2, P0, desc[UR4][R2.64+0x4], c[0x0][0x210]"), ["R2", "P0", "desc[UR4][R2.64+0x4]", "c[0x0][0x210]"]);
    }
}
