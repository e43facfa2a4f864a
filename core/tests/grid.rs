//! Whole launches: kernels whose warps share data through shared memory and barriers, every
//! block and warp run, against values computed here over the whole launch, under every model
//! and both warp schedulers.

use std::path::{Path, PathBuf};

use warpscope_core::block::WarpScheduler;
use warpscope_core::grid::{run_launch, LaunchRun};
use warpscope_core::kernel::{parse_kernel_with, SourceOptions};
use warpscope_core::model::ModelKind;
use warpscope_core::sim::StopReason;
use warpscope_core::machine::Elem;
use warpscope_core::LaunchOptions;

fn example(name: &str) -> String {
    let dir: PathBuf = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/grid");
    std::fs::read_to_string(dir.join(name)).unwrap()
}

fn launch(text: &str, model: ModelKind, scheduler: WarpScheduler) -> LaunchRun {
    let (k, d) = parse_kernel_with(text, &SourceOptions { target: Some(model.compile_target()), ..SourceOptions::default() });
    assert!(d.iter().all(|d| !d.is_error()), "{model:?}: {d:?}");
    run_launch(&k, &LaunchOptions { model: Some(model), ..LaunchOptions::default() }, scheduler).unwrap()
}

/// A buffer's words as the type its elements are (`i32`, `u32`, or `f32` holding whole numbers).
fn words(run: &LaunchRun, name: &str) -> Vec<i64> {
    let (b, w) = run.memory.buffer(name).unwrap_or_else(|| panic!("no buffer {name}"));
    b.values(w)
        .map(|e| match e {
            Elem::I32(v) => v as i64,
            Elem::U32(v) => v as i64,
            Elem::F32(v) => {
                assert_eq!(v.fract(), 0.0, "{name}: {v}");
                v as i64
            }
            other => panic!("{name}: {other:?}"),
        })
        .collect()
}

/// Runs `file` under every model and scheduler and checks `buffer` against `want`.
fn check_everywhere(file: &str, buffer: &str, want: &[i64]) {
    let text = example(file);
    for &model in ModelKind::ALL {
        for &scheduler in WarpScheduler::ALL {
            let run = launch(&text, model, scheduler);
            assert_eq!(run.end.reason, StopReason::Exited, "{file} {model:?} {scheduler:?}: {:?}", run.end);
            let got = words(&run, buffer);
            assert!(got == want, "{file} {model:?} {scheduler:?}: {buffer} = {got:?}, want {want:?}");
        }
    }
}

#[test]
fn reductions_sum_every_block() {
    let input: Vec<i64> = (0..1024).map(|i| i % 7 + 1).collect();
    let want: Vec<i64> = input.chunks(256).map(|c| c.iter().sum()).collect();
    check_everywhere("reduce_shared.cu", "g_odata", &want);
    check_everywhere("reduce_interleaved.cu", "g_odata", &want);
}

#[test]
fn dot_product_partial_sums_per_block() {
    // Thread t of the launch (1024 of them) sums elements t, t + 1024, ...; block b adds its 256.
    let thread = |t: i64| (0..4).map(|k| t + 1024 * k).map(|i| (i % 5) * (i % 3 + 1)).sum::<i64>();
    let want: Vec<i64> = (0..4).map(|b| (0..256).map(|t| thread(b * 256 + t)).sum()).collect();
    check_everywhere("dot_product.cu", "c", &want);
}

#[test]
fn block_scan_is_an_inclusive_prefix_sum_per_block() {
    let input: Vec<i64> = (0..512).map(|i| i % 9 - 3).collect();
    let mut want = Vec::new();
    for block in input.chunks(256) {
        let mut sum = 0;
        want.extend(block.iter().map(|x| {
            sum += x;
            sum
        }));
    }
    check_everywhere("scan_block.cu", "g_odata", &want);
}

#[test]
fn tiled_matmul_is_the_matrix_product() {
    let n = 32usize;
    let m: Vec<i64> = (0..n * n).map(|i| i as i64 % 11 - 5).collect();
    let nn: Vec<i64> = (0..n * n).map(|i| i as i64 % 7 - 2).collect();
    let want: Vec<i64> = (0..n * n).map(|at| (0..n).map(|k| m[(at / n) * n + k] * nn[k * n + at % n]).sum()).collect();
    check_everywhere("matmul_tiled.cu", "P", &want);
}

#[test]
fn tiled_transpose_is_the_transpose() {
    let want: Vec<i64> = (0..64 * 64).map(|at| (at % 64) * 64 + at / 64).collect();
    check_everywhere("transpose_tiled.cu", "odata", &want);
}

#[test]
fn shared_bin_histogram_counts_every_byte() {
    let mut want = vec![0i64; 256];
    for i in 0..8192 {
        want[((i * 37 + i / 256) % 256) as usize] += 1;
    }
    check_everywhere("histogram_shared.cu", "histo", &want);
}

#[test]
fn grid_stride_saxpy_covers_every_element() {
    let want: Vec<i64> = (0..1000).map(|i| 2 * (i % 13) + i % 5 - 2).collect();
    check_everywhere("saxpy_grid_stride.cu", "y", &want);
}

