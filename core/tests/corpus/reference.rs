//! Each corpus kernel written again in Rust: plain loops over the launch's 32 threads (one block,
//! `blockIdx` 0, `blockDim.x` 32, `gridDim.x` 1), starting from the automatic inputs (every
//! buffer holds 0, 1, 2, ... as its element type) and giving every buffer's final contents.
//! Written from the CUDA text, never from a warpscope run. Where a kernel relies on the warp
//! (shuffles, votes, warp-synchronous shared memory), `warp` gives the exchange as CUDA defines it.
//!
//! A case's `params` override scalars as a caller would (`--param n=20`); the default of every
//! scalar is the thread count. Cases that need an override say why.

use super::warp::{self, WARP};

/// Threads in the default launch: one block of one warp.
pub const THREADS: usize = 32;

/// A buffer's expected final contents.
pub enum Want {
    I32(Vec<i32>),
    U32(Vec<u32>),
    /// With the units in the last place a value may be off by (0: exact). Only the library
    /// functions get a tolerance (CUDA's `sqrtf` and `expf` are within 1 and 2 ulp of the true
    /// value; an emulator may round differently): arithmetic on small integers is exact.
    F32(Vec<f32>, u32),
    F64(Vec<f64>),
}

/// One run of a file: scalar overrides, the scalars the kernel declares, every pointer parameter.
pub struct Case {
    pub params: Vec<(&'static str, i64)>,
    pub scalars: Vec<&'static str>,
    pub buffers: Vec<(&'static str, Want)>,
}

/// True when `got` is within `ulps` units in the last place of `want` (exact for 0).
pub fn within_ulps(want: f32, got: f32, ulps: u32) -> bool {
    if want == got {
        return true;
    }
    if !want.is_finite() || !got.is_finite() || want.is_sign_negative() != got.is_sign_negative() {
        return false;
    }
    want.to_bits().abs_diff(got.to_bits()) <= ulps
}

fn iota() -> Vec<i32> {
    (0..THREADS as i32).collect()
}
fn iota_u() -> Vec<u32> {
    (0..THREADS as u32).collect()
}
fn iota_f() -> Vec<f32> {
    (0..THREADS).map(|i| i as f32).collect()
}
fn i32s(v: Vec<i32>) -> Want {
    Want::I32(v)
}
fn f32s(v: Vec<f32>) -> Want {
    Want::F32(v, 0)
}

fn case(params: &[(&'static str, i64)], scalars: &[&'static str], buffers: Vec<(&'static str, Want)>) -> Case {
    Case { params: params.to_vec(), scalars: scalars.to_vec(), buffers }
}

/// The cases of one corpus file (empty for a file with no reference).
pub fn cases(file: &str) -> Vec<Case> {
    match file {
        // Four reductions: thread 0 writes the block's sum to out[blockIdx.x]; the rest of the
        // output buffer keeps its automatic contents.
        "reduce_interleaved_divergent.cu" | "reduce_interleaved_strided.cu" | "reduce_sequential.cu" | "reduce_warp_unrolled.cu" => {
            vec![case(&[], &[], vec![("g_idata", i32s(iota())), ("g_odata", i32s(block_sum_at_0(file)))])]
        }
        "warp_reduce_shfl_down.cu" => vec![case(&[], &[], vec![("in", i32s(iota())), ("out", i32s(warp_reduce_shfl_down()))])],
        "warp_allreduce_xor.cu" => {
            let (sum, max) = warp_allreduce_xor();
            vec![case(&[], &[], vec![("in", f32s(iota_f())), ("sum_out", f32s(sum)), ("max_out", f32s(max))])]
        }
        "scan_hillis_steele.cu" => vec![case(&[], &["n"], vec![("g_idata", f32s(iota_f())), ("g_odata", f32s(scan_hillis_steele(32)))])],
        "warp_scan_shfl_up.cu" => {
            let (incl, excl) = warp_scan_shfl_up();
            vec![case(&[], &[], vec![("in", i32s(iota())), ("inclusive", i32s(incl)), ("exclusive", i32s(excl))])]
        }
        // n = 10: only the first ten elements are counted.
        "histogram_global_atomic.cu" => [32, 10]
            .iter()
            .map(|&n| {
                let params: &[(&str, i64)] = if n == 32 { &[] } else { &[("n", 10)] };
                case(params, &["n"], vec![("data", i32s(iota())), ("bins", i32s(histogram_global(n)))])
            })
            .collect(),
        // n = 13: the bins are counted unevenly.
        "histogram_shared_bins.cu" => [32, 13]
            .iter()
            .map(|&n| {
                let params: &[(&str, i64)] = if n == 32 { &[] } else { &[("n", 13)] };
                case(params, &["n"], vec![("data", Want::U32(iota_u())), ("bins", Want::U32(histogram_shared(n)))])
            })
            .collect(),
        "transpose_shared_tile.cu" => vec![case(&[], &[], vec![("in", f32s(iota_f())), ("out", f32s(transpose_tile()))])],
        "stencil_1d_halo.cu" => vec![case(&[], &["n"], vec![("in", i32s(iota())), ("out", i32s(stencil_1d()))])],
        // The default j = k = 32 pairs every element with one past the buffer (i ^ 32): a real
        // launch passes the network's (j, k), so the cases do too.
        "bitonic_sort_step.cu" => [(1, 2), (2, 4), (1, 4), (4, 8), (8, 16), (16, 32)]
            .iter()
            .map(|&(j, k)| case(&[("j", j), ("k", k)], &["j", "k"], vec![("values", i32s(bitonic_step(j as usize, k as usize)))]))
            .collect(),
        "stream_compact_ballot.cu" => {
            let (out, count) = compact_multiples_of_3();
            vec![case(&[], &[], vec![("in", i32s(iota())), ("out", i32s(out)), ("count", i32s(count))])]
        }
        "vote_any_all.cu" => vec![case(&[], &[], vec![("in", i32s(iota())), ("flags", i32s(vote()))])],
        "matmul_shared_tile.cu" => {
            vec![case(&[], &[], vec![("A", f32s(iota_f())), ("B", f32s(iota_f())), ("C", f32s(matmul_tiled()))])]
        }
        "collatz_steps.cu" => vec![case(&[], &[], vec![("start", Want::U32(iota_u())), ("steps", i32s(collatz()))])],
        // n = 20 and 1: keys beyond the searched prefix are not found; n = 0 finds nothing.
        "binary_search.cu" => [32, 20, 1, 0]
            .iter()
            .map(|&n| {
                let params: Vec<(&'static str, i64)> = if n == 32 { vec![] } else { vec![("n", n)] };
                case(&params, &["n"], vec![("sorted", i32s(iota())), ("keys", i32s(iota())), ("found", i32s(binary_search(n)))])
            })
            .collect(),
        // n = 20: the bounds check stops threads 20..31.
        "vector_add.cu" => [32, 20]
            .iter()
            .map(|&n| {
                let params: &[(&str, i64)] = if n == 32 { &[] } else { &[("n", 20)] };
                case(params, &["n"], vec![("A", f32s(iota_f())), ("B", f32s(iota_f())), ("C", f32s(vector_add(n)))])
            })
            .collect(),
        // By default a = 32 and n = 32; then a = 2 over the first 16 elements.
        "saxpy.cu" => [(32, 32), (16, 2)]
            .iter()
            .map(|&(n, a)| {
                let params: &[(&str, i64)] = if n == 32 { &[] } else { &[("n", 16), ("a", 2)] };
                case(params, &["n", "a"], vec![("x", f32s(iota_f())), ("y", f32s(saxpy(n, a as f32)))])
            })
            .collect(),
        // n = 10: threads past the data still write their (empty) sum.
        "grid_stride_loop.cu" => [32, 10]
            .iter()
            .map(|&n| {
                let params: &[(&str, i64)] = if n == 32 { &[] } else { &[("n", 10)] };
                case(params, &["n"], vec![("x", f32s(iota_f())), ("partial", f32s(grid_stride(n)))])
            })
            .collect(),
        "divergent_odd_even.cu" => vec![case(&[], &[], vec![("in", i32s(iota())), ("out", i32s(divergent_branch()))])],
        "switch_lane.cu" => vec![case(&[], &[], vec![("in", i32s(iota())), ("out", i32s(switch_on_lane()))])],
        "atomic_min_max_cas.cu" => vec![case(&[], &[], vec![("in", i32s(iota())), ("stats", i32s(atomic_stats()))])],
        "bit_intrinsics.cu" => {
            let (log2, low, rev, ones) = bits();
            vec![case(
                &[],
                &[],
                vec![
                    ("in", i32s(iota())),
                    ("log2_floor", i32s(log2)),
                    ("lowest_bit", i32s(low)),
                    ("reversed", Want::U32(rev)),
                    ("ones", i32s(ones)),
                ],
            )]
        }
        // width = 5 and -3: remainders of negative values, and a negative divisor.
        "div_mod_variable.cu" => [32, 5, -3]
            .iter()
            .map(|&w| {
                let params: Vec<(&'static str, i64)> = if w == 32 { vec![] } else { vec![("width", w)] };
                let (q, r, b) = div_mod(w as i32);
                case(&params, &["width"], vec![("in", i32s(iota())), ("quot", i32s(q)), ("rem", i32s(r)), ("bucket", Want::U32(b))])
            })
            .collect(),
        "math_functions.cu" => {
            let t = transform();
            vec![case(
                &[],
                &[],
                vec![
                    ("x", f32s(iota_f())),
                    ("clamped", f32s(t.clamped)),
                    ("root", Want::F32(t.root, 2)),
                    ("bin", f32s(t.bin)),
                    ("weight", Want::F32(t.weight, 4)),
                    ("dist", i32s(t.dist)),
                ],
            )]
        }
        // n = 20: the gather permutes the first 20 elements only.
        "index_types.cu" => [32, 20]
            .iter()
            .map(|&n| {
                let params: &[(&str, i64)] = if n == 32 { &[] } else { &[("n", 20)] };
                let (g, l, h) = index_types(n);
                case(params, &["n"], vec![("in", i32s(iota())), ("gathered", i32s(g)), ("left", i32s(l)), ("scaled_hi", i32s(h))])
            })
            .collect(),
        "double_precision.cu" => {
            let x: Vec<f64> = (0..THREADS).map(|i| i as f64).collect();
            vec![case(&[], &["n", "a"], vec![("x", Want::F64(x)), ("y", Want::F64(daxpy_third(32.0)))])]
        }
        // rows = 4, cols = 8: a one-dimensional block still covers only row 0.
        "matrix_add_2d.cu" => [(32, 32), (4, 8)]
            .iter()
            .map(|&(rows, cols)| {
                let params: &[(&str, i64)] = if rows == 32 { &[] } else { &[("rows", 4), ("cols", 8)] };
                case(params, &["rows", "cols"], vec![("A", i32s(iota())), ("B", i32s(iota())), ("C", i32s(mat_add_row0(cols)))])
            })
            .collect(),
        "warp_sync_shared.cu" => vec![case(&[], &[], vec![("in", i32s(iota())), ("out", i32s(rotate_left()))])],
        _ => vec![],
    }
}

/// The shared-memory reductions, step by step as each file's loop runs them (every step reads
/// the values of the step before), giving out[0] = the sum; out[1..] keep their inputs.
fn block_sum_at_0(file: &str) -> Vec<i32> {
    let mut s = iota();
    let n = THREADS;
    let before = |s: &Vec<i32>| s.clone();
    match file {
        "reduce_interleaved_divergent.cu" => {
            let mut st = 1;
            while st < n {
                let old = before(&s);
                for tid in (0..n).filter(|t| t % (2 * st) == 0) {
                    s[tid] = old[tid] + old[tid + st];
                }
                st *= 2;
            }
        }
        "reduce_interleaved_strided.cu" => {
            let mut st = 1;
            while st < n {
                let old = before(&s);
                for index in (0..n).map(|t| 2 * st * t).filter(|&i| i < n) {
                    s[index] = old[index] + old[index + st];
                }
                st *= 2;
            }
        }
        // Sequential addressing, and the unrolled warp (the same strides, 16 down to 1).
        _ => {
            let mut st = n / 2;
            while st > 0 {
                let old = before(&s);
                for tid in 0..st {
                    s[tid] = old[tid] + old[tid + st];
                }
                st /= 2;
            }
        }
    }
    assert_eq!(s[0], (0..THREADS as i32).sum::<i32>());
    let mut out = iota();
    out[0] = s[0];
    out
}

fn warp_reduce_shfl_down() -> Vec<i32> {
    let mut v: [i32; WARP] = std::array::from_fn(|l| l as i32);
    let mut offset = WARP / 2;
    while offset > 0 {
        let got = warp::shfl_down(&v, offset);
        v = std::array::from_fn(|l| v[l] + got[l]);
        offset /= 2;
    }
    let mut out = iota();
    out[0] = v[0];
    out
}

fn warp_allreduce_xor() -> (Vec<f32>, Vec<f32>) {
    let mut sum: [f32; WARP] = std::array::from_fn(|l| l as f32);
    let mut best = sum;
    let mut mask = 16;
    while mask > 0 {
        let s = warp::shfl_xor(&sum, mask);
        let b = warp::shfl_xor(&best, mask);
        sum = std::array::from_fn(|l| sum[l] + s[l]);
        best = std::array::from_fn(|l| best[l].max(b[l]));
        mask >>= 1;
    }
    (sum.to_vec(), best.to_vec())
}

fn scan_hillis_steele(n: usize) -> Vec<f32> {
    let mut cur = iota_f();
    let mut offset = 1;
    while offset < n {
        let old = cur.clone();
        for t in 0..n {
            cur[t] = if t >= offset { old[t] + old[t - offset] } else { old[t] };
        }
        offset *= 2;
    }
    cur
}

fn warp_scan_shfl_up() -> (Vec<i32>, Vec<i32>) {
    let mut v: [i32; WARP] = std::array::from_fn(|l| l as i32);
    let mut offset = 1;
    while offset < WARP {
        let n = warp::shfl_up(&v, offset);
        v = std::array::from_fn(|l| if l >= offset { v[l] + n[l] } else { v[l] });
        offset <<= 1;
    }
    let before = warp::shfl_up(&v, 1);
    let excl = (0..WARP).map(|l| if l == 0 { 0 } else { before[l] }).collect();
    (v.to_vec(), excl)
}

/// Bins start with their automatic contents (a host would clear them first).
fn histogram_global(n: usize) -> Vec<i32> {
    let mut bins = iota();
    for i in 0..n {
        let bin = (i as i32 / 4).clamp(0, 7);
        bins[bin as usize] += 1;
    }
    bins
}

fn histogram_shared(n: usize) -> Vec<u32> {
    let mut local = [0u32; 8];
    for d in 0..n as u32 {
        local[(d % 8) as usize] += 1;
    }
    let mut bins = iota_u();
    for b in 0..8 {
        bins[b] += local[b];
    }
    bins
}

/// The 4 x 8 input as an 8 x 4 output.
fn transpose_tile() -> Vec<f32> {
    let input = iota_f();
    let mut out = vec![0.0; 32];
    for r in 0..8 {
        for c in 0..4 {
            out[r * 4 + c] = input[c * 8 + r];
        }
    }
    out
}

fn stencil_1d() -> Vec<i32> {
    let input = iota();
    (0..32i32).map(|i| (i - 3..=i + 3).filter(|j| (0..32).contains(j)).map(|j| input[j as usize]).sum()).collect()
}

fn bitonic_step(j: usize, k: usize) -> Vec<i32> {
    let mut v = iota();
    for i in 0..THREADS {
        let ixj = i ^ j;
        if ixj > i {
            let ascending = i & k == 0;
            if (ascending && v[i] > v[ixj]) || (!ascending && v[i] < v[ixj]) {
                v.swap(i, ixj);
            }
        }
    }
    v
}

fn compact_multiples_of_3() -> (Vec<i32>, Vec<i32>) {
    let x: [i32; WARP] = std::array::from_fn(|l| l as i32);
    let keep: [bool; WARP] = std::array::from_fn(|l| x[l] % 3 == 0);
    let ballot = warp::ballot(u32::MAX, &keep);
    let mut count = iota();
    // Lane 0's atomicAdd returns the counter's old value; the shuffle gives it to every lane.
    let mut base = [0i32; WARP];
    base[0] = count[0];
    count[0] += ballot.count_ones() as i32;
    let base = warp::shfl(&base, 0);
    let mut out = iota();
    for l in (0..WARP).filter(|&l| keep[l]) {
        let below = (ballot & ((1u32 << l) - 1)).count_ones() as i32;
        out[(base[l] + below) as usize] = x[l];
    }
    (out, count)
}

fn vote() -> Vec<i32> {
    let x: [i32; WARP] = std::array::from_fn(|l| l as i32);
    let p = |f: &dyn Fn(i32) -> bool| -> [bool; WARP] { std::array::from_fn(|l| f(x[l])) };
    let any_large = warp::any(u32::MAX, &p(&|v| v > 30)) as i32;
    let all_small = warp::all(u32::MAX, &p(&|v| v < 31)) as i32;
    let all_nonneg = warp::all(u32::MAX, &p(&|v| v >= 0)) as i32;
    let low_half = warp::any(0x0000_ffff, &p(&|v| v > 12)) as i32;
    let high_half = warp::any(0xffff_0000, &p(&|v| v > 40)) as i32;
    (0..WARP).map(|l| any_large | all_small << 1 | all_nonneg << 2 | if l < 16 { low_half } else { high_half } << 3).collect()
}

/// C = A * B for the 4 x 4 matrices at the start of A and B; the rest of C keeps its inputs.
fn matmul_tiled() -> Vec<f32> {
    let (a, b) = (iota_f(), iota_f());
    let mut c = iota_f();
    for r in 0..4 {
        for col in 0..4 {
            c[r * 4 + col] = (0..4).map(|k| a[r * 4 + k] * b[k * 4 + col]).sum();
        }
    }
    c
}

fn collatz() -> Vec<i32> {
    (0..THREADS as u32)
        .map(|mut x| {
            let mut count = 0;
            while x > 1 {
                x = if x % 2 == 0 { x / 2 } else { 3 * x + 1 };
                count += 1;
            }
            count
        })
        .collect()
}

/// Keys 0..31 in the sorted prefix of length n: found at their own index, else -1.
fn binary_search(n: i64) -> Vec<i32> {
    let sorted = iota();
    let prefix = &sorted[..n as usize];
    (0..THREADS as i32).map(|key| prefix.iter().position(|&v| v == key).map_or(-1, |p| p as i32)).collect()
}

fn vector_add(n: usize) -> Vec<f32> {
    (0..THREADS).map(|i| if i < n { 2.0 * i as f32 } else { i as f32 }).collect()
}

fn saxpy(n: usize, a: f32) -> Vec<f32> {
    (0..THREADS).map(|i| if i < n { a * i as f32 + i as f32 } else { i as f32 }).collect()
}

/// One pass of the loop per thread at most: the grid is one block of 32 threads.
fn grid_stride(n: usize) -> Vec<f32> {
    (0..THREADS).map(|i| (i..n).step_by(THREADS).map(|j| (j * j) as f32).sum()).collect()
}

fn divergent_branch() -> Vec<i32> {
    (0..THREADS as i32).map(|i| if i % 2 == 1 { 3 * i + 1 } else { i / 2 }).collect()
}

fn switch_on_lane() -> Vec<i32> {
    (0..THREADS as i32)
        .map(|v| match v % 6 {
            0 => v * 10,
            1 => -v,
            2 => (v + 100) * 2,
            3 => v * 2,
            4 => v << 4,
            _ => 7,
        })
        .collect()
}

fn atomic_stats() -> Vec<i32> {
    let mut s = iota();
    for x in 0..THREADS as i32 {
        s[0] = s[0].max(x);
        s[1] = s[1].min(x);
        s[2] += x;
        s[3] -= 1;
        s[4] |= 1 << (x % 16);
        s[5] &= !(1 << (x % 3));
        s[6] ^= x;
        if x == 7 {
            s[7] = 100 + x;
        }
    }
    s
}

fn bits() -> (Vec<i32>, Vec<i32>, Vec<u32>, Vec<i32>) {
    let x = iota();
    let log2 = x.iter().map(|&v| if v > 0 { 31 - v.leading_zeros() as i32 } else { -1 }).collect();
    let low = x.iter().map(|&v| if v == 0 { 0 } else { v.trailing_zeros() as i32 + 1 }).collect();
    let rev = x.iter().map(|&v| (v as u32).reverse_bits()).collect();
    let ones = x.iter().map(|&v| v.count_ones() as i32).collect();
    (log2, low, rev, ones)
}

/// C's `/` and `%` truncate toward zero, as Rust's do.
fn div_mod(width: i32) -> (Vec<i32>, Vec<i32>, Vec<u32>) {
    let v: Vec<i32> = (0..THREADS as i32).map(|i| i - 16).collect();
    let q = v.iter().map(|&v| v / width).collect();
    let r = v.iter().map(|&v| v % width).collect();
    let b = (0..THREADS as u32).map(|i| i.wrapping_mul(2_654_435_761) % width as u32).collect();
    (q, r, b)
}

struct Transform {
    clamped: Vec<f32>,
    root: Vec<f32>,
    bin: Vec<f32>,
    weight: Vec<f32>,
    dist: Vec<i32>,
}

fn transform() -> Transform {
    let x = iota_f();
    let v: Vec<f32> = x.iter().map(|x| x - 15.5).collect();
    Transform {
        clamped: v.iter().map(|v| v.clamp(-8.0, 8.0)).collect(),
        root: v.iter().map(|v| v.abs().sqrt()).collect(),
        bin: x.iter().map(|x| (x / 4.0).floor()).collect(),
        weight: v.iter().map(|v| (-(v * v) / 32.0).exp()).collect(),
        dist: (0..THREADS as i32).map(|i| (i - 16).abs()).collect(),
    }
}

fn index_types(n: usize) -> (Vec<i32>, Vec<i32>, Vec<i32>) {
    let input = iota();
    let (mut g, mut l, mut h) = (iota(), iota(), iota());
    for i in 0..n.min(THREADS) {
        g[i] = input[(i * 7) % n];
        // (unsigned)0 - 1 wraps to 0xffffffff, which is not below n.
        let prev = (i as u32).wrapping_sub(1);
        l[i] = if (prev as usize) < n { input[prev as usize] } else { -1 };
        h[i] = ((input[i] as i64 * 1_000_000_000) >> 32) as i32;
    }
    (g, l, h)
}

/// `a * x[i]` is a small whole number (exact, fused or not); `y[i] / 3.0` is IEEE division.
fn daxpy_third(a: f64) -> Vec<f64> {
    (0..THREADS).map(|i| a * i as f64 + i as f64 / 3.0).collect()
}

fn mat_add_row0(cols: usize) -> Vec<i32> {
    (0..THREADS as i32).map(|i| if (i as usize) < cols { 2 * i } else { i }).collect()
}

fn rotate_left() -> Vec<i32> {
    (0..THREADS as i32).map(|l| ((l + 1) % 32) * ((l + 1) % 32)).collect()
}
