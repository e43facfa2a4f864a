//! `warpscope cfg`: blocks, edges, immediate post-dominators (reconvergence points) and
//! reverse-post-order priorities.

use std::path::Path;
use std::process::ExitCode;

use serde_json::{json, Value};
use warpscope_core::analysis::{back_edges, compute_dominators, compute_post_dominators, rpo_priorities, PostDom};
use warpscope_core::cfg::{build, BlockId, EdgeKind};
use warpscope_core::isa::{Op, Pc};

use crate::load::read_kernel;

fn post_dom_name(p: Option<PostDom>) -> String {
    match p {
        Some(PostDom::Block(b)) => b.to_string(),
        Some(PostDom::Exit) => "exit".into(),
        None => "none".into(),
    }
}

fn kind_name(k: EdgeKind) -> &'static str {
    match k {
        EdgeKind::Taken => "taken",
        EdgeKind::FallThrough => "fall-through",
        EdgeKind::Sync => "sync",
    }
}

pub fn cfg(path: &Path, as_json: bool) -> Result<ExitCode, String> {
    let (_, kernel) = read_kernel(path)?;
    let prog = &kernel.program;
    let g = build(prog);
    let doms = compute_dominators(&g.cfg);
    let pdoms = compute_post_dominators(&g.cfg);
    let prio = rpo_priorities(&g.cfg);
    let backs = back_edges(&g.cfg);
    let addr = |pc: Pc| format!("{:#06x}", prog.addr(pc));
    // A block ends in a branch when its last instruction is a guarded BRA: a possible divergence.
    let branch_of = |b: usize| {
        let last = Pc(g.blocks[b].end.0 - 1);
        matches!(prog.instrs[last.index()].op, Op::Bra { .. }) && prog.instrs[last.index()].guard.is_some()
    };
    if as_json {
        let blocks: Vec<Value> = g
            .blocks
            .iter()
            .enumerate()
            .map(|(b, r)| {
                let id = BlockId(b as u32);
                json!({
                    "id": id.to_string(),
                    "start": addr(r.start),
                    "end": addr(Pc(r.end.0 - 1)),
                    "instructions": (r.start.0..r.end.0).map(|pc| json!({"addr": addr(Pc(pc)), "line": prog.line(Pc(pc)), "text": prog.instrs[pc as usize].text})).collect::<Vec<_>>(),
                    "priority": prio[b],
                    "idom": doms.idom(id).map(|d| d.to_string()),
                    "ipdom": post_dom_name(pdoms.ipdom(id)),
                    "branch": branch_of(b),
                })
            })
            .collect();
        let edges: Vec<Value> = g
            .cfg
            .edges()
            .iter()
            .map(|e| json!({"from": e.from.to_string(), "to": e.to.to_string(), "kind": kind_name(e.kind), "back": backs.contains(&(e.from, e.to))}))
            .collect();
        let exits: Vec<String> = g.cfg.exits().iter().map(|b| b.to_string()).collect();
        println!("{}", serde_json::to_string_pretty(&json!({"blocks": blocks, "edges": edges, "exits": exits})).unwrap_or_default());
        return Ok(ExitCode::SUCCESS);
    }
    for (b, r) in g.blocks.iter().enumerate() {
        let id = BlockId(b as u32);
        let p = prio[b].map_or("unreachable".to_string(), |p| format!("priority {p}"));
        println!(
            "{id}  {}..{}  {p}, idom {}, ipdom {}",
            addr(r.start),
            addr(Pc(r.end.0 - 1)),
            doms.idom(id).map_or("-".into(), |d| d.to_string()),
            post_dom_name(pdoms.ipdom(id))
        );
        for pc in r.start.0..r.end.0 {
            println!("    {}  {}", addr(Pc(pc)), prog.instrs[pc as usize].text);
        }
    }
    println!("\nedges");
    for e in g.cfg.edges() {
        let back = if backs.contains(&(e.from, e.to)) { ", back edge" } else { "" };
        println!("    {} -> {}  ({}{back})", e.from, e.to, kind_name(e.kind));
    }
    let exits: Vec<String> = g.cfg.exits().iter().map(|b| b.to_string()).collect();
    println!("    exits: {}", exits.join(", "));
    println!("\nreconvergence points (immediate post-dominator of each branch)");
    for b in (0..g.blocks.len()).filter(|b| branch_of(*b)) {
        let id = BlockId(b as u32);
        let at = match pdoms.ipdom(id) {
            Some(PostDom::Block(t)) => format!("{t} at {}", addr(g.blocks[t.index()].start)),
            other => post_dom_name(other),
        };
        println!("    branch at {} ({id}) reconverges at {at}", addr(Pc(g.blocks[b].end.0 - 1)));
    }
    Ok(ExitCode::SUCCESS)
}
