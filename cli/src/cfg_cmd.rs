//! `warpscope cfg`: blocks, edges, immediate post-dominators (reconvergence points) and
//! reverse-post-order priorities.

use std::path::Path;
use std::process::ExitCode;

use serde_json::{json, Value};
use warpscope_core::analysis::{cfg_facts, BlockFacts, PostDom};
use warpscope_core::isa::Pc;

use crate::load::read_kernel;

fn post_dom_name(p: Option<PostDom>) -> String {
    match p {
        Some(PostDom::Block(b)) => b.to_string(),
        Some(PostDom::Exit) => "exit".into(),
        None => "none".into(),
    }
}

pub fn cfg(path: &Path, as_json: bool) -> Result<ExitCode, String> {
    let (_, kernel) = read_kernel(path, &Default::default())?;
    let cuda = crate::cuda_lines::CudaLines::of(path, &kernel);
    let prog = &kernel.program;
    let facts = cfg_facts(prog);
    let addr = |pc: Pc| format!("{:#06x}", prog.addr(pc));
    let last = |b: &BlockFacts| Pc(b.end.0 - 1);
    if as_json {
        let blocks: Vec<Value> = facts
            .blocks
            .iter()
            .map(|b| {
                json!({
                    "id": b.id.to_string(),
                    "start": addr(b.start),
                    "end": addr(last(b)),
                    "instructions": (b.start.0..b.end.0).map(|pc| json!({"addr": addr(Pc(pc)), "line": prog.line(Pc(pc)), "text": prog.instrs[pc as usize].text})).collect::<Vec<_>>(),
                    "priority": b.priority,
                    "idom": b.idom.map(|d| d.to_string()),
                    "ipdom": post_dom_name(b.ipdom),
                    "branch": b.divergent_branch,
                    "cuda_lines": cuda.as_ref().and_then(|c| c.range(b.start, b.end)).map(|(lo, hi)| json!([lo, hi])),
                })
            })
            .collect();
        let edges: Vec<Value> = facts
            .edges
            .iter()
            .map(|e| json!({"from": e.from.to_string(), "to": e.to.to_string(), "kind": e.kind.name(), "back": e.back}))
            .collect();
        let exits: Vec<String> = facts.exits.iter().map(|b| b.to_string()).collect();
        out!("{}", serde_json::to_string_pretty(&json!({"blocks": blocks, "edges": edges, "exits": exits})).unwrap_or_default());
        return Ok(ExitCode::SUCCESS);
    }
    for b in &facts.blocks {
        let p = b.priority.map_or("unreachable".to_string(), |p| format!("priority {p}"));
        let idom = b.idom.map_or("-".into(), |d| d.to_string());
        // PTX with line information: the CUDA lines the block came from.
        let lines = match cuda.as_ref().and_then(|c| c.range(b.start, b.end)) {
            Some((lo, hi)) if lo == hi => format!(", cuda line {lo}"),
            Some((lo, hi)) => format!(", cuda lines {lo}-{hi}"),
            None => String::new(),
        };
        out!("{}  {}..{}  {p}, idom {idom}, ipdom {}{lines}", b.id, addr(b.start), addr(last(b)), post_dom_name(b.ipdom));
        for pc in b.start.0..b.end.0 {
            out!("    {}  {}", addr(Pc(pc)), prog.instrs[pc as usize].text);
        }
    }
    out!("\nedges");
    for e in &facts.edges {
        let back = if e.back { ", back edge" } else { "" };
        out!("    {} -> {}  ({}{back})", e.from, e.to, e.kind.name());
    }
    let exits: Vec<String> = facts.exits.iter().map(|b| b.to_string()).collect();
    out!("    exits: {}", exits.join(", "));
    out!("\nreconvergence points (immediate post-dominator of each branch)");
    for b in facts.blocks.iter().filter(|b| b.divergent_branch) {
        let at = match b.ipdom {
            Some(PostDom::Block(t)) => format!("{t} at {}", addr(facts.blocks[t.index()].start)),
            other => post_dom_name(other),
        };
        out!("    branch at {} ({}) reconverges at {at}", addr(last(b)), b.id);
    }
    Ok(ExitCode::SUCCESS)
}
