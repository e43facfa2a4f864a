//! The `_sync` instructions under every model and path order: full-warp shuffles and votes after
//! the warp reconverges compute what a simple per-lane reference says; a shuffle or `WARPSYNC`
//! whose member mask names lanes on the other side of a branch, or lanes that exited, stops the
//! run with a fault that says where each missing lane is.

use warpscope_core::kernel::parse_kernel;
use warpscope_core::model::{GroupOrder, ModelKind, PathOrder};
use warpscope_core::sim::{Sim, StopReason};
use warpscope_core::{launch, LaunchOptions};

const HEAD: &str = "//@ warp 8\n//@ buffer out: i32[24] = 0\n//@ reg R0 = t\n//@ reg R9 = out\n";

/// Every model with every order it reads: path orders for the stacks, schedules for Volta.
fn runs() -> Vec<(ModelKind, LaunchOptions)> {
    let mut out = Vec::new();
    for &model in ModelKind::ALL {
        if model == ModelKind::Volta {
            for &schedule in GroupOrder::ALL {
                out.push((model, LaunchOptions { model: Some(model), group_order: schedule, ..LaunchOptions::default() }));
            }
        } else {
            for &path_order in PathOrder::ALL {
                out.push((model, LaunchOptions { model: Some(model), path_order, ..LaunchOptions::default() }));
            }
        }
    }
    out
}

/// The if/else of `then` and `other`, reconverging before `after`: with SSY/SYNC for the token
/// stacks (the other models read them as edges), with BSSY/BSYNC for Volta.
fn if_else(model: ModelKind, cond: &str, then: &str, other: &str, after: &str) -> String {
    let (open, close, join) =
        if model == ModelKind::Volta { ("BSSY B0, JOIN", "BRA JOIN", "BSYNC B0;\n") } else { ("SSY JOIN", "SYNC", "") };
    format!("{HEAD}{cond}\n{open};\n@P0 BRA THEN;\n{other}\n{close};\nTHEN:\n{then}\n{close};\nJOIN:\n{join}{after}\nEXIT;\n")
}

fn run(text: &str, opts: &LaunchOptions) -> (Sim, StopReason) {
    let (k, d) = parse_kernel(text);
    assert!(d.is_empty(), "{d:?}\n{text}");
    let mut sim = launch(&k, opts).unwrap();
    let r = sim.run_to_end();
    (sim, r)
}

const FULL_WARP: &str = "SHFL.DOWN P1, R2, R1, 0x1, 0x1f, 0xffffffff;\nSHFL.IDX PT, R3, R1, 0x2, 0x1f, 0xff;\n\
    ISETP.GT.AND P2, PT, R1, 0x5, PT;\nVOTE.ANY R4, P3, P2, 0xff;\nISCADD R5, R0, R9, 0x2;\nSTG [R5], R2;\nSTG [R5+0x20], R3;\nSTG [R5+0x40], R4;";

/// What the full-warp listing leaves in `out`, lane by lane.
fn full_warp_reference() -> Vec<u32> {
    let r1: Vec<u32> = (0..8).map(|l| if l < 3 { 3 * l } else { l + 100 }).collect();
    let ballot = (0..8).filter(|&l| r1[l] > 5).fold(0, |a, l| a | 1 << l);
    // Lane 7's source, lane 8, is past the warp: it keeps its own value.
    let down = (0..8).map(|l| r1[(l + 1).min(7)]);
    down.chain((0..8).map(|_| r1[2])).chain((0..8).map(|_| ballot)).collect()
}

#[test]
fn full_warp_shuffles_and_votes_after_reconvergence_work_everywhere() {
    let want = full_warp_reference();
    for (model, opts) in runs() {
        let text = if_else(model, "ISETP.LT.AND P0, PT, R0, 0x3, PT;", "IMUL R1, R0, 0x3;", "IADD R1, R0, 0x64;", FULL_WARP);
        let (sim, r) = run(&text, &opts);
        assert_eq!(r, StopReason::Exited, "{model:?} {opts:?}");
        assert_eq!(sim.state().machine.memory.words[0], want, "{model:?} {:?} {:?}", opts.path_order, opts.group_order);
    }
}

#[test]
fn warpsync_before_a_shuffle_gathers_lanes_on_volta_and_mimd_and_passes_at_the_ipdom_elsewhere() {
    // No reconvergence instructions: each side jumps to WARPSYNC, which Volta and MIMD wait at and
    // the branch-only models reach together (it is the branch's ipdom); token stacks need SSY.
    let text = format!(
        "{HEAD}ISETP.LT.AND P0, PT, R0, 0x3, PT;\n@P0 BRA THEN;\nIADD R1, R0, 0x64;\nBRA JOIN;\nTHEN: IMUL R1, R0, 0x3;\nJOIN: WARPSYNC 0xff;\n{FULL_WARP}\nEXIT;\n"
    );
    let want = full_warp_reference();
    for (model, opts) in runs().into_iter().filter(|(m, _)| *m != ModelKind::Kepler && *m != ModelKind::PdomSsy) {
        let (sim, r) = run(&text, &opts);
        assert_eq!(r, StopReason::Exited, "{model:?}");
        assert_eq!(sim.state().machine.memory.words[0], want, "{model:?} {:?} {:?}", opts.path_order, opts.group_order);
    }
}

/// The address in "wait at 0x0018 (line 9)" and its line.
fn waits_at(message: &str) -> (u32, u32) {
    let rest = &message[message.find("wait at 0x").unwrap_or_else(|| panic!("{message}")) + 10..];
    let addr = u32::from_str_radix(&rest[..4], 16).unwrap();
    let line = rest[rest.find("(line ").unwrap() + 6..].split(')').next().unwrap().parse().unwrap();
    (addr, line)
}

#[test]
fn a_shuffle_naming_the_other_side_of_a_branch_is_a_fault_saying_where_it_waits() {
    let shfl = "SHFL.DOWN PT, R2, R1, 0x1, 0x1f, 0xff;";
    for (model, opts) in runs() {
        let text = if_else(
            model,
            "ISETP.LT.AND P0, PT, R0, 0x4, PT;",
            &format!("IADD R1, R0, 0x2;\n{shfl}"),
            &format!("IADD R1, R0, 0x1;\n{shfl}"),
            "",
        );
        let (sim, r) = run(&text, &opts);
        let what = format!("{model:?} {:?} {:?}", opts.path_order, opts.group_order);
        let StopReason::Fault { pc, message, .. } = r else { panic!("{what}: {r:?}") };
        let p = sim.program();
        // Pcs: 0 ISETP, 1 SSY, 2 BRA, 3-5 the other side, 6-8 THEN.
        let (here, there, others) = match pc.0 {
            4 => ("0-3", 6..=8, "4-7"),
            7 => ("4-7", 3..=5, "0-3"),
            _ => panic!("{what}: fault at pc {}: {message}", pc.0),
        };
        let line = p.line(pc).unwrap();
        let start = format!(
            "`SHFL.DOWN` at {:#06x} (line {line}): its mask 0x000000ff names lanes {here}, which are not here: lanes {here} wait at ",
            p.addr(pc)
        );
        assert!(message.starts_with(&start), "{what}: {message}\nwanted {start}");
        let (addr, wait_line) = waits_at(&message);
        let wait_pc = (0..p.len() as u32).map(warpscope_core::isa::Pc).find(|&q| p.addr(q) == addr).unwrap();
        assert!(there.contains(&wait_pc.0), "{what}: lanes {here} wait at pc {} outside their side ({others} run here)", wait_pc.0);
        assert_eq!(p.line(wait_pc), Some(wait_line), "{what}");
    }
}

#[test]
fn the_kepler_message_reads_like_this() {
    let text = if_else(
        ModelKind::Kepler,
        "ISETP.LT.AND P0, PT, R0, 0x4, PT;",
        "IADD R1, R0, 0x2;\nSHFL.DOWN PT, R2, R1, 0x1, 0x1f, 0xff;",
        "IADD R1, R0, 0x1;",
        "",
    );
    let (_, r) = run(&text, &LaunchOptions::default());
    let StopReason::Fault { message, .. } = r else { panic!("{r:?}") };
    // The taken side runs first; the others wait on the DIV token at the fall-through.
    assert_eq!(
        message,
        "`SHFL.DOWN` at 0x0030 (line 12): its mask 0x000000ff names lanes 4-7, which are not here: lanes 4-7 wait at 0x0018 (line 8)"
    );
}

#[test]
fn a_ballot_naming_exited_lanes_is_a_fault_under_every_model() {
    let text = format!("{HEAD}ISETP.GE.AND P0, PT, R0, 0x6, PT;\n@P0 EXIT;\nVOTE.ANY R1, PT, PT, 0xff;\nEXIT;\n");
    for (model, opts) in runs() {
        let (_, r) = run(&text, &opts);
        let want = "`VOTE.ANY` at 0x0010 (line 7): its mask 0x000000ff names lanes 6-7, which are not here: lanes 6-7 exited";
        assert_eq!(r, StopReason::Fault { pc: warpscope_core::isa::Pc(2), message: want.into(), access: None }, "{model:?}");
    }
    // `__activemask()` has no mask to check: it reads the lanes still here.
    let text = format!("{HEAD}ISETP.GE.AND P0, PT, R0, 0x6, PT;\n@P0 EXIT;\nVOTE.ANY R1, PT, PT;\nSTG [R9], R1;\nEXIT;\n");
    for (model, opts) in runs().into_iter().filter(|(m, _)| *m != ModelKind::Mimd) {
        let (sim, r) = run(&text, &opts);
        assert_eq!((r, sim.state().machine.memory.words[0][0]), (StopReason::Exited, 0x3f), "{model:?}");
    }
}

#[test]
fn warpsync_inside_a_branch_is_the_check_everywhere_but_volta_which_waits() {
    for (model, opts) in runs() {
        let text = if_else(model, "ISETP.LT.AND P0, PT, R0, 0x4, PT;", "WARPSYNC 0xff;", "IADD R1, R0, 0x1;", "");
        let (_, r) = run(&text, &opts);
        match (model, r) {
            // Volta waits for the mask's live lanes, which wait at the branch's BSYNC for these.
            (ModelKind::Volta, StopReason::Deadlock { message, .. }) => {
                assert!(
                    message.contains("lanes 0-3 wait at `WARPSYNC 0xff`") && message.contains("lanes 4-7 wait at `BSYNC B0`"),
                    "{message}"
                )
            }
            (_, StopReason::Fault { message, .. }) => {
                assert!(message.starts_with("`WARPSYNC` at 0x0028 (line 11): its mask 0x000000ff names lanes 4-7"), "{model:?}: {message}")
            }
            (_, r) => panic!("{model:?}: {r:?}"),
        }
    }
}
