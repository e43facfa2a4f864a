//! The C examples: golden listings for every target (data files, refreshed with
//! `UPDATE_GOLDEN=1`), the paper's push counts from compiled code, and each example's final
//! memory checked against the same kernel written as plain Rust, for every target the kepler
//! model runs (kepler and plain code, with and without if-conversion).

use std::path::{Path, PathBuf};

use warpscope_core::compile::Target;
use warpscope_core::kernel::{parse_kernel_with, SourceOptions};
use warpscope_core::sim::{Sim, StopReason};
use warpscope_core::{launch, LaunchOptions};

fn examples() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples");
    let mut v: Vec<PathBuf> =
        std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).filter(|p| p.extension().is_some_and(|e| e == "cu")).collect();
    v.sort();
    v
}

const VARIANTS: &[(Target, bool, &str)] = &[
    (Target::Kepler, false, "kepler"),
    (Target::Volta, false, "volta"),
    (Target::Plain, false, "plain"),
    (Target::Kepler, true, "kepler-ifconv"),
];

#[test]
fn golden_listings() {
    let golden = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/compiled");
    let update = std::env::var_os("UPDATE_GOLDEN").is_some();
    let mut stale = Vec::new();
    for path in examples() {
        let text = std::fs::read_to_string(&path).unwrap();
        let stem = path.file_stem().unwrap().to_string_lossy().to_string();
        for &(target, if_convert, name) in VARIANTS {
            let (k, d) =
                parse_kernel_with(&text, &SourceOptions { target: Some(target), if_convert: Some(if_convert), ..SourceOptions::default() });
            assert!(d.iter().all(|d| !d.is_error()), "{stem} {name}: {d:?}");
            let listing = k.compiled.expect("a C kernel").listing;
            let file = golden.join(format!("{stem}.{name}.sass"));
            if update {
                std::fs::create_dir_all(&golden).unwrap();
                std::fs::write(&file, &listing).unwrap();
            } else if std::fs::read_to_string(&file).ok().as_deref() != Some(listing.as_str()) {
                stale.push(file.display().to_string());
            }
        }
    }
    assert!(stale.is_empty(), "listings differ from the golden files (UPDATE_GOLDEN=1 refreshes them):\n{}", stale.join("\n"));
}

fn example(name: &str) -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples").join(name)).unwrap()
}

fn run(text: &str, target: Target, if_convert: bool, params: &[(&str, i64)]) -> (Sim, StopReason) {
    let (k, d) = parse_kernel_with(text, &SourceOptions { target: Some(target), if_convert: Some(if_convert), ..SourceOptions::default() });
    assert!(d.iter().all(|d| !d.is_error()), "{d:?}");
    let opts = LaunchOptions {
        params: params.iter().map(|(n, v)| (n.to_string(), (*v).into())).collect(),
        step_limit: 200_000,
        ..LaunchOptions::default()
    };
    let mut sim = launch(&k, &opts).expect("launch");
    let stop = sim.run_to_end();
    (sim, stop)
}

fn buffer(sim: &Sim, name: &str) -> Vec<i32> {
    let mem = &sim.state().machine.memory;
    let k = mem.buffers.iter().position(|b| b.name == name).expect("buffer");
    mem.words[k].iter().map(|w| *w as i32).collect()
}

/// Runs the example for every variant the kepler model runs and compares buffer `out` (or the
/// named one) with what each lane computes in Rust.
fn check(file: &str, buf: &str, params: &[(&str, i64)], expect: impl Fn(&mut Vec<i32>)) {
    let text = example(file);
    for &(target, ifc) in &[(Target::Kepler, false), (Target::Kepler, true), (Target::Plain, false), (Target::Plain, true)] {
        let (sim, stop) = run(&text, target, ifc, params);
        assert_eq!(stop, StopReason::Exited, "{file} {target:?} if-convert {ifc}");
        let got = buffer(&sim, buf);
        let mut want = vec![0; got.len()];
        expect(&mut want);
        assert_eq!(got, want, "{file} {target:?} if-convert {ifc}");
    }
}

#[test]
fn compiled_loops_push_like_the_paper() {
    for n in 0..32i64 {
        let (s, _) = run(&example("single_loop.cu"), Target::Kepler, false, &[("n", n)]);
        assert_eq!(s.state().metrics.pushes, n as u64 + 1, "single loop n = {n}");
        assert_eq!(s.state().metrics.max_stack_depth, n as u64 + 1);
        let (s, _) = run(&example("double_loop.cu"), Target::Kepler, false, &[("n", n)]);
        assert_eq!(s.state().metrics.pushes, (n * (65 - n) / 2 + 33) as u64, "double loop n = {n}");
        assert_eq!(s.state().metrics.max_stack_depth, n as u64 + 2);
    }
}

#[test]
fn if_else_nested_three_way() {
    check("if_else.cu", "a", &[], |a| {
        for t in 0..32 {
            if t < 5 {
                a[t] = 1;
            } else {
                a[t + 6] = 5;
            }
        }
        a[6] = 99;
    });
    check("nested_if.cu", "out", &[], |o| {
        for t in 0..32i32 {
            let mut r;
            if t & 1 == 0 {
                r = 10;
                if t < 16 {
                    r += t;
                    o[t as usize] = r;
                } else {
                    r -= t;
                }
                r *= 2;
            } else {
                r = 1;
                o[t as usize] = r;
            }
            o[t as usize] += r;
        }
    });
    check("three_way_if_else.cu", "out", &[], |o| {
        for (t, o) in o.iter_mut().enumerate() {
            *o = if t < 8 {
                1
            } else if t < 20 {
                12
            } else {
                22
            };
        }
    });
}

#[test]
fn loops_switch_return_goto_call() {
    check("loop_break_continue.cu", "out", &[], |o| {
        for t in 0..32i32 {
            let mut s = 0;
            for i in 0..12 {
                if i == (t & 7) + 2 {
                    break;
                }
                if i & 1 == 1 {
                    continue;
                }
                s += i;
            }
            o[t as usize] = s;
        }
    });
    check("switch.cu", "out", &[], |o| {
        for (t, o) in o.iter_mut().enumerate() {
            *o = match t & 3 {
                0 => 100,
                1 => 230,
                2 => 30,
                _ => -1,
            };
        }
    });
    check("early_return.cu", "out", &[("n", 5)], |o| {
        for t in 0..32i32 {
            let a = t % 3;
            if a != 0 {
                o[t as usize] = (0..5).map(|i| a * i).sum();
            }
        }
    });
    check("goto_leaves_loop.cu", "out", &[("n", 4)], |o| {
        let a = |i: i32| (i * 7 + 3) % 11 - 1;
        for t in 0..32i32 {
            let mut s = 0;
            'outer: for i in 0..4 {
                for j in 0..4 {
                    let v = a((i * 4 + j) * 32 + t);
                    if v == 0 {
                        break 'outer;
                    }
                    s += v;
                }
                s ^= i;
            }
            o[t as usize] = s;
        }
    });
    check("divergent_call.cu", "out", &[("n", 3)], |o| {
        for t in 0..32i32 {
            let mut s = t % 4 - 1;
            if s > 0 {
                let x = s;
                let mut acc = 0i32;
                for i in 0..3 + x {
                    acc = acc.wrapping_mul(x).wrapping_add(i);
                }
                s = acc;
            }
            o[t as usize] = s;
        }
    });
}

#[test]
fn the_token_stack_cannot_run_the_spin_lock_or_a_divergent_barrier() {
    let (_, stop) = run(&example("spin_lock.cu"), Target::Kepler, false, &[]);
    let StopReason::Deadlock { message, .. } = &stop else { panic!("{stop:?}") };
    assert!(message.contains("repeats forever") && message.contains("lane 0 waits"), "{message}");
    let (_, stop) = run(&example("syncthreads_divergent.cu"), Target::Kepler, false, &[]);
    assert!(matches!(stop, StopReason::Deadlock { .. }), "{stop:?}");
}

#[test]
fn if_conversion_removes_short_branches() {
    let text = example("if_else.cu");
    let (k, _) =
        parse_kernel_with(&text, &SourceOptions { target: Some(Target::Kepler), if_convert: Some(true), ..SourceOptions::default() });
    let listing = k.compiled.unwrap().listing;
    assert!(!listing.contains("SSY") && !listing.contains("BRA"), "{listing}");
    assert!(listing.contains("@P0 ST.E") && listing.contains("@!P0 ST.E"), "{listing}");
    let (s, _) = run(&text, Target::Kepler, true, &[]);
    assert_eq!(s.state().metrics.divergent_branches, 0);
}
