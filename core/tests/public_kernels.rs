//! Issue 46's corpus: kernels as public sources write them (CUDA samples' vectorAdd, reduction
//! and simpleCooperativeGroups, GPU Gems 3's n-body, Rodinia's BFS; `examples/grid/`, each
//! naming its origin on line 1), launched as their host programs launch them. Each whole
//! launch's buffers equal values computed here (`grid.rs` holds the C, nvcc's PTX and its SASS
//! to what the H100 computed; Rodinia's BFS, whose graph is an array of `struct Node`, among
//! them).

mod support;

use support::grid::{example, params};
use warpscope_core::block::WarpScheduler;
use warpscope_core::grid::LaunchRun;
use warpscope_core::machine::Elem;
use warpscope_core::model::ModelKind;
use warpscope_core::sim::StopReason;

/// The whole launch of `text` under volta; it must exit.
fn launch(text: &str) -> LaunchRun {
    let run = support::grid::launch(text, ModelKind::Volta, WarpScheduler::Gto);
    assert_eq!(run.end.reason, StopReason::Exited, "{:?}", run.end);
    run
}

/// Every parameter buffer of `file` after the whole launch of its C, by name. (`grid.rs` holds
/// the C, nvcc's PTX and its SASS to what the H100 computed.)
fn buffers(file: &str) -> Vec<(String, Vec<Elem>)> {
    let run = launch(&example(file));
    let mut out = Vec::new();
    for name in params(&example(file)) {
        if let Some((b, w)) = run.memory.buffer(&name) {
            out.push((name.clone(), b.values(w).collect()));
        }
    }
    out
}

fn find<'a>(bufs: &'a [(String, Vec<Elem>)], name: &str) -> &'a [Elem] {
    &bufs.iter().find(|(n, _)| n == name).unwrap_or_else(|| panic!("no buffer {name}")).1
}

fn f32s(e: &[Elem]) -> Vec<f32> {
    e.iter().map(|e| if let Elem::F32(v) = e { *v } else { panic!("{e:?}") }).collect()
}

fn i32s(e: &[Elem]) -> Vec<i64> {
    e.iter()
        .map(|e| match e {
            Elem::I32(v) => *v as i64,
            Elem::U32(v) => *v as i64,
            _ => panic!("{e:?}"),
        })
        .collect()
}

#[test]
fn cuda_samples_vector_add_fills_every_element_of_its_196_blocks() {
    let b = buffers("sample_vector_add.cu");
    let want: Vec<f32> = (0..50000).map(|i| (i % 97) as f32 * 0.25 + (i % 89) as f32 * 0.5).collect();
    assert_eq!(f32s(find(&b, "C")), want);
}

#[test]
fn cuda_samples_reduction_sums_each_blocks_512_elements() {
    let b = buffers("sample_reduction.cu");
    let want: Vec<i64> = (0..32).map(|blk| (blk * 512..(blk + 1) * 512).map(|i| i % 7 - 3).sum()).collect();
    assert_eq!(i32s(find(&b, "g_odata")), want);
}

#[test]
fn cuda_samples_simple_cooperative_groups_sums_the_block_and_each_tile() {
    let b = buffers("sample_simple_cg.cu");
    assert_eq!(i32s(find(&b, "blockSums")), (0..64).map(|t| if t == 0 { 2016 } else { -1 }).collect::<Vec<_>>());
    assert_eq!(i32s(find(&b, "tileSums")), (0..64).map(|t| if t % 16 == 0 { 120 } else { -1 }).collect::<Vec<_>>());
}

/// The accelerations against the same sums in `f64`: float rounding and nvcc's fused
/// multiply-adds (the same on every path) keep them within a few parts in 10^5.
#[test]
fn gpu_gems_nbody_accelerations_are_the_all_pairs_sums() {
    let b = buffers("gems_nbody.cu");
    let x: Vec<f64> = f32s(find(&b, "globalX")).into_iter().map(f64::from).collect();
    let a = f32s(find(&b, "globalA"));
    for i in 0..512 {
        let mut acc = [0.0f64; 3];
        for j in 0..512 {
            let r = [x[4 * j] - x[4 * i], x[4 * j + 1] - x[4 * i + 1], x[4 * j + 2] - x[4 * i + 2]];
            let d2 = r[0] * r[0] + r[1] * r[1] + r[2] * r[2] + 0.01f32 as f64;
            let s = x[4 * j + 3] / (d2 * d2 * d2).sqrt();
            (0..3).for_each(|k| acc[k] += r[k] * s);
        }
        for k in 0..3 {
            let err = (a[4 * i + k] as f64 - acc[k]).abs();
            assert!(err <= 1e-4 * acc[k].abs().max(1.0), "body {i}, axis {k}: {} against {}", a[4 * i + k], acc[k]);
        }
        assert_eq!(a[4 * i + 3], 0.0);
    }
}

/// One BFS level, its nodes an array of `struct Node`: every frontier node's unvisited
/// neighbours get the next cost and the updating mask, and the frontier clears.
#[test]
fn rodinia_bfs_visits_the_frontiers_neighbours() {
    let b = buffers("rodinia_bfs.cu");
    let (n, frontier) = (1000usize, |i: usize| i.is_multiple_of(9));
    let visited = |i: usize| i.is_multiple_of(9) || i % 4 == 1;
    let mut cost: Vec<i64> = (0..n).map(|i| if frontier(i) { 2 } else { -1 }).collect();
    let mut updating = vec![0i64; n];
    for tid in (0..n).filter(|&i| frontier(i)) {
        let (start, count) = ((tid * 3) as i64, 1 + (tid % 3) as i64);
        for e in start..start + count {
            let id = ((e / 3 + 1 + (e % 3) * 97) % 1000) as usize;
            if !visited(id) {
                cost[id] = 3;
                updating[id] = 1;
            }
        }
    }
    assert_eq!(i32s(find(&b, "g_cost")), cost);
    assert_eq!(i32s(find(&b, "g_updating_graph_mask")), updating);
    assert_eq!(i32s(find(&b, "g_graph_mask")), vec![0; n]);
}
