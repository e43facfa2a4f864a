//! Which kind of group each `thread_group` parameter is passed, and one copy of a function per
//! kind where its calls pass several.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::{arguments, closing, ident, param_position, punct, Kind, Rewriter};
use crate::compile::lex::{Tok, Token};
use crate::diag::Span;

/// A function copied once per kind of group its `thread_group` parameter is passed.
struct Specialised {
    /// Its definition's tokens, from the start of its declaration to its closing brace.
    start: usize,
    end: usize,
    name: String,
    /// The parameter's position.
    at: usize,
    kinds: Vec<Kind>,
}

impl Rewriter {
    /// What every call passes for each `thread_group` parameter: the groups the file declares,
    /// then each call's argument at that position (several kinds: `several`).
    pub(super) fn passed_groups(&mut self, toks: &[Token]) {
        let mut wanted: Vec<(String, usize, Span)> = Vec::new();
        for k in 0..toks.len() {
            let Some((kind, after)) = self.group_type(toks, k) else { continue };
            let Some(name) = ident(toks.get(after)).map(String::from) else { continue };
            if punct(toks.get(after + 1), "=") {
                let end = (after + 2..toks.len()).find(|&j| punct(toks.get(j), ";")).unwrap_or(toks.len());
                if let Some(made) = self.made_by(&toks[after + 2..end], toks[k].span).or(kind) {
                    self.vars.insert(name, made);
                }
            } else if kind.is_none() {
                if let Some((f, at)) = param_position(toks, k) {
                    wanted.push((f, at, toks[k].span));
                }
            }
        }
        for (f, at, span) in wanted {
            let mut kinds: Vec<Kind> = Vec::new();
            for k in 0..toks.len() {
                if ident(toks.get(k)) != Some(f.as_str()) || !punct(toks.get(k + 1), "(") {
                    continue;
                }
                let Some(close) = closing(toks, k + 1) else { continue };
                // The definition itself (its body follows) is no call.
                if punct(toks.get(close), "{") {
                    continue;
                }
                let kind = self.argument_kind(toks, k, at, span);
                if let Some(kind) = kind.filter(|k| !kinds.contains(k)) {
                    kinds.push(kind);
                }
            }
            match kinds[..] {
                [kind] => {
                    self.params.insert((f, at), kind);
                }
                [] => {}
                _ => {
                    self.several.insert((f, at), kinds);
                }
            }
        }
    }

    /// The kind of group the call at `call` (the function's name) passes at position `at`.
    fn argument_kind(&mut self, toks: &[Token], call: usize, at: usize, span: Span) -> Option<Kind> {
        let close = closing(toks, call + 1)?;
        let args = arguments(toks, call + 1, close);
        let a = args.get(at)?;
        match ident(a.first())? {
            "this_thread_block" => Some(Kind::Block),
            "coalesced_threads" => Some(Kind::Coalesced),
            "tiled_partition" => self.made_by(a, span),
            w if a.len() == 1 => self.vars.get(w).copied(),
            _ => None,
        }
    }

    /// The tokens with each function in `several` defined once per kind its calls pass
    /// (`reduce_sum<thread_block>`, `reduce_sum<thread_block_tile<32>>`, names no source can
    /// spell), each call naming the one for its argument's kind.
    pub(super) fn specialised(&mut self, toks: Vec<Token>) -> Vec<Token> {
        if self.several.is_empty() {
            return toks;
        }
        let several = core::mem::take(&mut self.several);
        let name_of = |f: &str, kind: Kind| format!("{f}<{}>", kind.type_name());
        let mut copies: Vec<Specialised> = Vec::new();
        for ((f, at), kinds) in &several {
            let Some(d) = (0..toks.len()).find(|&d| {
                ident(toks.get(d)) == Some(f.as_str())
                    && punct(toks.get(d + 1), "(")
                    && closing(&toks, d + 1).is_some_and(|c| punct(toks.get(c), "{"))
            }) else {
                continue;
            };
            let start = (0..d).rev().find(|&j| punct(toks.get(j), ";") || punct(toks.get(j), "}")).map_or(0, |j| j + 1);
            let Some(open) = (d..toks.len()).find(|&j| punct(toks.get(j), "{")) else { continue };
            let Some(past) = closing(&toks, open) else { continue };
            copies.push(Specialised { start, end: past - 1, name: f.clone(), at: *at, kinds: kinds.clone() });
        }
        let mut out = Vec::with_capacity(toks.len() * 2);
        let mut k = 0;
        while k < toks.len() {
            if let Some(c) = copies.iter().find(|c| c.start == k) {
                for &kind in &c.kinds {
                    for (j, t) in toks[k..=c.end].iter().enumerate() {
                        let named = ident(Some(t)) == Some(c.name.as_str()) && punct(toks.get(k + j + 1), "(");
                        out.push(if named { Token { tok: Tok::Ident(name_of(&c.name, kind)), span: t.span } } else { t.clone() });
                    }
                }
                k = c.end + 1;
                continue;
            }
            // A call: the copy for its argument's kind.
            let call = copies.iter().find(|c| ident(toks.get(k)) == Some(c.name.as_str()) && punct(toks.get(k + 1), "("));
            if let Some(c) = call {
                if let Some(kind) = self.argument_kind(&toks, k, c.at, toks[k].span) {
                    out.push(Token { tok: Tok::Ident(name_of(&c.name, kind)), span: toks[k].span });
                    k += 1;
                    continue;
                }
            }
            out.push(toks[k].clone());
            k += 1;
        }
        out
    }
}
