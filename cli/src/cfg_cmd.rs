//! `warpscope cfg`: blocks, edges, immediate post-dominators (reconvergence points) and
//! reverse-post-order priorities.

use std::path::Path;
use std::process::ExitCode;

use serde_json::{json, Value};
use warpscope_core::analysis::{cfg_facts, BlockFacts, PostDom};
use warpscope_core::cfg::BlockId;
use warpscope_core::isa::Pc;
use warpscope_core::kernel::SourceOptions;
use warpscope_core::model::ModelKind;
use warpscope_core::session::Named;

use crate::load::read_kernel;

fn post_dom_name(p: Option<PostDom>, name: &dyn Fn(BlockId) -> String) -> String {
    match p {
        Some(PostDom::Block(b)) => name(b),
        Some(PostDom::Exit) => "exit".into(),
        None => "none".into(),
    }
}

pub fn cfg(path: &Path, as_json: bool, model: Option<&str>) -> Result<ExitCode, String> {
    let model = model.map(ModelKind::choose).transpose().map_err(|m| format!("--model: {m}"))?;
    let opts = SourceOptions {
        target: model.map(ModelKind::compile_target),
        frontiers: model.map(ModelKind::uses_frontiers),
        structural: model.map(|m| m == ModelKind::Struct),
        ..SourceOptions::default()
    };
    let (_, kernel) = read_kernel(path, &opts)?;
    let cuda = crate::cuda_lines::CudaLines::of(path, &kernel);
    let prog = &kernel.program;
    let facts = cfg_facts(prog);
    // STRUCT names each block after the original it is or copies.
    let origins = kernel.structured.as_ref().map(|s| s.blocks(&facts.graph));
    let names: Vec<String> = match &origins {
        Some(o) => o.iter().map(|b| b.name.clone()).collect(),
        None => facts.blocks.iter().map(|b| b.id.to_string()).collect(),
    };
    let name = |b: BlockId| names.get(b.index()).cloned().unwrap_or_else(|| b.to_string());
    let addr = |pc: Pc| format!("{:#06x}", prog.addr(pc));
    let last = |b: &BlockFacts| Pc(b.end.0 - 1);
    if as_json {
        let blocks: Vec<Value> = facts
            .blocks
            .iter()
            .map(|b| {
                json!({
                    "id": b.id.to_string(),
                    "name": name(b.id),
                    "start": addr(b.start),
                    "end": addr(last(b)),
                    "instructions": (b.start.0..b.end.0).map(|pc| json!({"addr": addr(Pc(pc)), "line": prog.line(Pc(pc)), "text": prog.instrs[pc as usize].text})).collect::<Vec<_>>(),
                    "priority": b.priority,
                    "idom": b.idom.map(name),
                    "ipdom": post_dom_name(b.ipdom, &name),
                    "branch": b.divergent_branch,
                    "cuda_lines": cuda.as_ref().and_then(|c| c.range(b.start, b.end)).map(|(lo, hi)| json!([lo, hi])),
                })
            })
            .collect();
        let edges: Vec<Value> =
            facts.edges.iter().map(|e| json!({"from": name(e.from), "to": name(e.to), "kind": e.kind.name(), "back": e.back})).collect();
        let exits: Vec<String> = facts.exits.iter().map(|&b| name(b)).collect();
        let transforms = kernel.structured.as_ref().map(|s| {
            let c = s.counts;
            json!({"forward_copies": c.forward_copies, "backward_copies": c.backward_copies, "cuts": c.cuts, "instructions_before": c.instructions_before, "instructions_after": c.instructions_after})
        });
        out!(
            "{}",
            serde_json::to_string_pretty(&json!({"blocks": blocks, "edges": edges, "exits": exits, "transforms": transforms}))
                .unwrap_or_default()
        );
        return Ok(ExitCode::SUCCESS);
    }
    for b in &facts.blocks {
        let p = b.priority.map_or("unreachable".to_string(), |p| format!("priority {p}"));
        let idom = b.idom.map_or("-".into(), name);
        // PTX with line information: the CUDA lines the block came from.
        let lines = match cuda.as_ref().and_then(|c| c.range(b.start, b.end)) {
            Some((lo, hi)) if lo == hi => format!(", cuda line {lo}"),
            Some((lo, hi)) => format!(", cuda lines {lo}-{hi}"),
            None => String::new(),
        };
        let copy = match origins.as_ref().and_then(|o| o.get(b.id.index())) {
            Some(o) if o.copy > 0 => format!(" (copy of {})", o.original.map_or(String::new(), |b| b.to_string())),
            Some(o) if o.original.is_none() => " (written by the cut)".to_string(),
            _ => String::new(),
        };
        out!(
            "{}{copy}  {}..{}  {p}, idom {idom}, ipdom {}{lines}",
            name(b.id),
            addr(b.start),
            addr(last(b)),
            post_dom_name(b.ipdom, &name)
        );
        for pc in b.start.0..b.end.0 {
            out!("    {}  {}", addr(Pc(pc)), prog.instrs[pc as usize].text);
        }
    }
    out!("\nedges");
    for e in &facts.edges {
        let back = if e.back { ", back edge" } else { "" };
        out!("    {} -> {}  ({}{back})", name(e.from), name(e.to), e.kind.name());
    }
    let exits: Vec<String> = facts.exits.iter().map(|&b| name(b)).collect();
    out!("    exits: {}", exits.join(", "));
    out!("\nreconvergence points (immediate post-dominator of each branch)");
    for b in facts.blocks.iter().filter(|b| b.divergent_branch) {
        let at = match b.ipdom {
            Some(PostDom::Block(t)) => format!("{} at {}", name(t), addr(facts.blocks[t.index()].start)),
            other => post_dom_name(other, &name),
        };
        out!("    branch at {} ({}) reconverges at {at}", addr(last(b)), name(b.id));
    }
    if let Some(s) = &kernel.structured {
        let c = s.counts;
        out!(
            "\nSTRUCT: {} forward copies, {} backward copies, {} cuts; {} -> {} instructions ({:+.1}% static)",
            c.forward_copies,
            c.backward_copies,
            c.cuts,
            c.instructions_before,
            c.instructions_after,
            100.0 * c.static_expansion()
        );
    }
    Ok(ExitCode::SUCCESS)
}
