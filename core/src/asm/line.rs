//! Splits one listing line into its parts: line number, address comment, labels, guard,
//! mnemonic and operands, keeping byte offsets for diagnostics.
//!
//! Accepts the papers' listings as printed: `1 /*0060*/ ISETP.LT.AND P0, PT, R5, 0x1, PT;`,
//! `• • •` elisions, trailing `//` comments and `/* 0x... */` encodings, `{ }` dual-issue braces.

use alloc::vec::Vec;

/// A slice of the line with its byte offset.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Piece<'a> {
    pub text: &'a str,
    pub start: usize,
}

impl<'a> Piece<'a> {
    fn new(line: &'a str, start: usize, end: usize) -> Piece<'a> {
        Piece { text: &line[start..end], start }
    }
}

#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct LineParts<'a> {
    pub address: Option<(u32, Piece<'a>)>,
    pub labels: Vec<Piece<'a>>,
    pub guard: Option<Piece<'a>>,
    pub mnemonic: Option<Piece<'a>>,
    pub operands: Vec<Piece<'a>>,
}

/// A problem found while splitting: byte range in the line and message.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct LineError {
    pub start: usize,
    pub len: usize,
    pub message: &'static str,
}

pub fn is_label_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '.' || c == '$'
}

/// Start and end byte offsets.
type ByteRange = (usize, usize);

/// Replaces comments by spaces (keeping offsets) and returns the first block comment's
/// byte range if it holds only a hex number (the `/*00e0*/` address).
fn blank_comments(line: &str) -> Result<(Vec<u8>, Vec<ByteRange>), LineError> {
    let bytes = line.as_bytes();
    let mut code = bytes.to_vec();
    let mut blocks = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        // A string (`PRINTF "..."`): its contents become `_`, so no comma, `;`, `//` or space
        // inside it splits the line; pieces are cut from the line itself.
        if bytes[i] == b'"' {
            let mut j = i + 1;
            while j < bytes.len() && bytes[j] != b'"' {
                j += if bytes[j] == b'\\' { 2 } else { 1 };
            }
            if j >= bytes.len() {
                return Err(LineError { start: i, len: bytes.len() - i, message: "unterminated string: close it with `\"`" });
            }
            code[i + 1..j].iter_mut().for_each(|b| *b = b'_');
            i = j + 1;
            continue;
        }
        if bytes[i] == b'/' && bytes.get(i + 1) == Some(&b'/') {
            code[i..].iter_mut().for_each(|b| *b = b' ');
            break;
        }
        if bytes[i] == b'/' && bytes.get(i + 1) == Some(&b'*') {
            let Some(rel) = line[i + 2..].find("*/") else {
                return Err(LineError { start: i, len: 2, message: "unterminated `/*` comment" });
            };
            let end = i + 2 + rel + 2;
            blocks.push((i, end));
            code[i..end].iter_mut().for_each(|b| *b = b' ');
            i = end;
            continue;
        }
        i += 1;
    }
    Ok((code, blocks))
}

fn parse_hex(s: &str) -> Option<u32> {
    let s = s.trim();
    let s = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")).unwrap_or(s);
    if s.is_empty() || s.len() > 8 || !s.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    u32::from_str_radix(s, 16).ok()
}

fn skip_ws(code: &[u8], mut i: usize) -> usize {
    while i < code.len() && (code[i] as char).is_ascii_whitespace() {
        i += 1;
    }
    i
}

/// True for lines that stand for elided code in a printed listing (`...`, `…`, `• • •`).
fn is_elision(rest: &str) -> bool {
    let t = rest.trim();
    !t.is_empty()
        && (t.chars().all(|c| c == '.') && t.len() >= 3 || t.chars().all(|c| c == '…' || c == '•' || c == '·' || c.is_whitespace()))
}

pub fn split_line(line: &str) -> Result<LineParts<'_>, LineError> {
    let (code_bytes, blocks) = blank_comments(line)?;
    // Comment blanking only replaces whole ASCII ranges, so `code` stays valid UTF-8 where it is code.
    let code = core::str::from_utf8(&code_bytes).unwrap_or("");
    let mut parts = LineParts::default();
    let raw = line.as_bytes();
    let mut i = skip_ws(raw, 0);

    // Optional line number: a run of digits followed by white space or the end.
    let digits = raw[i..].iter().take_while(|b| b.is_ascii_digit()).count();
    if digits > 0 {
        let after = i + digits;
        if after == raw.len() || (raw[after] as char).is_ascii_whitespace() {
            i = skip_ws(raw, after);
        }
    }
    // Optional address comment, standing before any code.
    if let Some(&(s, e)) = blocks.iter().find(|(s, _)| *s == i) {
        let inner = &line[s + 2..e - 2];
        if let Some(addr) = parse_hex(inner) {
            parts.address = Some((addr, Piece::new(line, s, e)));
            i = skip_ws(&code_bytes, e);
        }
    }
    let rest = &code[i..];
    if rest.trim().is_empty() || is_elision(&line[i..]) {
        return Ok(parts);
    }
    // Labels: `name:` (several may stand before one instruction).
    loop {
        let n = code[i..].chars().take_while(|c| is_label_char(*c)).count();
        if n > 0 && code_bytes.get(i + n) == Some(&b':') {
            parts.labels.push(Piece::new(line, i, i + n));
            i = skip_ws(&code_bytes, i + n + 1);
        } else {
            break;
        }
    }
    // The instruction, up to an optional `;`, without dual-issue braces.
    let mut end = code.len();
    if let Some(semi) = code[i..].find(';') {
        let after = i + semi + 1;
        if !code[after..].trim().trim_start_matches('}').trim().is_empty() {
            let start = skip_ws(&code_bytes, after);
            return Err(LineError {
                start,
                len: code[start..].trim_end().len(),
                message: "one instruction per line: unexpected text after `;`",
            });
        }
        end = i + semi;
    }
    let mut body_start = i;
    let mut body_end = end;
    while body_end > body_start && (code_bytes[body_end - 1] as char).is_ascii_whitespace() {
        body_end -= 1;
    }
    if code_bytes.get(body_start) == Some(&b'{') {
        body_start = skip_ws(&code_bytes, body_start + 1);
    }
    if body_end > body_start && code_bytes[body_end - 1] == b'}' {
        body_end -= 1;
        while body_end > body_start && (code_bytes[body_end - 1] as char).is_ascii_whitespace() {
            body_end -= 1;
        }
    }
    if body_start >= body_end {
        return Ok(parts);
    }
    let mut j = body_start;
    if code_bytes[j] == b'@' {
        let n = code[j..body_end].find(|c: char| c.is_ascii_whitespace()).unwrap_or(body_end - j);
        parts.guard = Some(Piece::new(line, j, j + n));
        j = skip_ws(&code_bytes, j + n);
        if j >= body_end {
            return Err(LineError {
                start: parts.guard.map_or(j, |g| g.start),
                len: n,
                message: "a guard must be followed by an instruction",
            });
        }
    }
    let n = code[j..body_end].find(|c: char| c.is_ascii_whitespace()).unwrap_or(body_end - j);
    parts.mnemonic = Some(Piece::new(line, j, j + n));
    j = skip_ws(&code_bytes, j + n);
    if j < body_end {
        parts.operands = split_operands(line, &code_bytes, j, body_end)?;
    }
    Ok(parts)
}

/// Splits `a, [b + c], d` at commas outside brackets.
fn split_operands<'a>(line: &'a str, code: &[u8], start: usize, end: usize) -> Result<Vec<Piece<'a>>, LineError> {
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut from = start;
    let push = |from: usize, to: usize, out: &mut Vec<Piece<'a>>| -> Result<(), LineError> {
        let mut s = from;
        let mut e = to;
        while s < e && (code[s] as char).is_ascii_whitespace() {
            s += 1;
        }
        while e > s && (code[e - 1] as char).is_ascii_whitespace() {
            e -= 1;
        }
        if s == e {
            return Err(LineError { start: from.min(line.len().saturating_sub(1)), len: 1, message: "empty operand" });
        }
        out.push(Piece::new(line, s, e));
        Ok(())
    };
    for (k, &c) in code.iter().enumerate().take(end).skip(start) {
        match c {
            b'[' | b'(' => depth += 1,
            b']' | b')' => depth -= 1,
            b',' if depth == 0 => {
                push(from, k, &mut out)?;
                from = k + 1;
            }
            _ => {}
        }
    }
    push(from, end, &mut out)?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paper_line_with_number_and_address() {
        let p = split_line("1\t/*0060*/\tISETP.LT.AND P0, PT, R5, 0x1, PT;").unwrap();
        assert_eq!(p.address.map(|a| a.0), Some(0x60));
        assert_eq!(p.mnemonic.unwrap().text, "ISETP.LT.AND");
        let ops: Vec<&str> = p.operands.iter().map(|o| o.text).collect();
        assert_eq!(ops, ["P0", "PT", "R5", "0x1", "PT"]);
    }

    #[test]
    fn guard_labels_comments_and_braces() {
        let p = split_line("L1: .L_2: { @!P0 BRA.U `(.L_4) ; } /* 0x000fea0003800000 */ // jump").unwrap();
        assert_eq!(p.labels.len(), 2);
        assert_eq!(p.guard.unwrap().text, "@!P0");
        assert_eq!(p.operands[0].text, "`(.L_4)");
    }

    #[test]
    fn elision_and_blank() {
        assert_eq!(split_line("2\t\t• • •").unwrap(), LineParts::default());
        assert_eq!(split_line("   ...").unwrap(), LineParts::default());
        assert_eq!(split_line("// only a comment").unwrap(), LineParts::default());
    }

    #[test]
    fn memory_operand_keeps_commas_inside_brackets() {
        let p = split_line("ST.E.64 [R8+0x4], R4;").unwrap();
        assert_eq!(p.operands[0].text, "[R8+0x4]");
    }

    #[test]
    fn strings_hide_commas_semicolons_and_comments() {
        let line = r#"@P0 PRINTF "a, b; // \"c\"\n", R8, R9; // note"#;
        let p = split_line(line).unwrap();
        assert_eq!(p.mnemonic.unwrap().text, "PRINTF");
        let ops: Vec<&str> = p.operands.iter().map(|o| o.text).collect();
        assert_eq!(ops, [r#""a, b; // \"c\"\n""#, "R8", "R9"]);
        assert_eq!(split_line(r#"PRINTF "open, R1"#).unwrap_err().start, 7);
    }

    #[test]
    fn errors_are_located() {
        let e = split_line("NOP; NOP;").unwrap_err();
        assert_eq!(e.start, 5);
        assert!(split_line("/* open").is_err());
    }
}
