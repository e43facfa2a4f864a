//! The constructs public kernels use that the C front end refused (issue 46's list): a line
//! spliced with a backslash in code, a function whose every path returns (an if/else of returns,
//! a `do ... while (1)` left by `return`), `true` as a template argument, default arguments,
//! a functional cast (`float(t)`, a template's `T(4.0)`), a pointer against `NULL`, `__log2f`
//! and `__powf`, a shuffle whose width is a variable, and structs. Each kernel runs one warp and
//! its buffer is checked against values computed here.

use warpscope_core::kernel::parse_kernel;
use warpscope_core::sim::StopReason;
use warpscope_core::{launch, LaunchOptions};

/// `out`'s 32 words after one warp ran `text` (a kernel of `out` with `//@` lines).
fn out(text: &str) -> Vec<u32> {
    let (k, diags) = parse_kernel(text);
    assert!(diags.iter().all(|d| !d.is_error()), "{diags:#?}");
    let mut sim = launch(&k, &LaunchOptions::default()).expect("launches");
    assert_eq!(sim.run_to_end(), StopReason::Exited);
    let m = &sim.state().machine.memory;
    let (_, words) = m.buffers.iter().zip(&m.words).find(|(b, _)| b.name == "out").expect("out");
    words.clone()
}

fn ints(text: &str) -> Vec<i64> {
    out(text).into_iter().map(|w| i64::from(w as i32)).collect()
}

fn floats(text: &str) -> Vec<f32> {
    out(text).into_iter().map(f32::from_bits).collect()
}

#[test]
fn a_backslash_splices_a_line_in_code_as_in_a_macro() {
    let text = "//@ buffer out: i32[32]\n#define SQUARE(x) \\\n    ((x) * (x))\n__global__ void k(int* out) {\n    int t = threadIdx.x; \\\n    out[t] = \\\n        SQUARE(t);\n}\n";
    assert_eq!(ints(text), (0..32).map(|t| t * t).collect::<Vec<_>>());
}

#[test]
fn a_function_whose_every_path_returns_has_no_missing_return() {
    let text = "//@ buffer out: i32[32]\n__device__ int pick(int a, int b) {\n    if (a < b) return a; else return b;\n}\n__device__ int spin(int a) {\n    do { a++; if (a > 10) return a; } while (1);\n}\n__device__ int forever(int a) {\n    while (true) { if (a % 7 == 0) return a; a++; }\n}\n__global__ void k(int* out) {\n    int t = threadIdx.x;\n    out[t] = pick(t, 5) + spin(t) + forever(t);\n}\n";
    let spin = |t: i64| if t >= 10 { t + 1 } else { 11 };
    let forever = |t: i64| (t..).find(|a| a % 7 == 0).unwrap();
    assert_eq!(ints(text), (0..32).map(|t| t.min(5) + spin(t) + forever(t)).collect::<Vec<_>>());
    // One that can fall off its end still says so.
    let (_, diags) = parse_kernel(
        "//@ buffer out: i32[32]\n__device__ int f(int a) {\n    if (a > 0) return a;\n}\n__global__ void k(int* out) { out[0] = f(1); }\n",
    );
    assert!(diags.iter().any(|d| d.message.contains("`f` can reach its end without returning a value")), "{diags:?}");
}

#[test]
fn template_bools_default_arguments_and_functional_casts() {
    let text = "//@ buffer out: f32[32]\ntemplate <bool Twice>\n__device__ float f(float x) { return Twice ? 2.0f * x : x; }\ntemplate <typename T>\n__device__ T h(T x) { return x * T(4.0); }\n__device__ float g(float x, float s = 3.0f, int n = 2) { return x * s + n; }\n__global__ void k(float* out) {\n    int t = threadIdx.x;\n    out[t] = f<true>(float(t)) + f<false>(1.0f) + g(1.0f) + g(1.0f, 5.0f) + h(float(t));\n}\n";
    assert_eq!(floats(text), (0..32).map(|t| 2.0 * t as f32 + 1.0 + 5.0 + 7.0 + 4.0 * t as f32).collect::<Vec<_>>());
    let (_, diags) = parse_kernel("//@ buffer out: f32[32]\n__device__ float g(float x, float s = 3.0f) { return x * s; }\n__global__ void k(float* out) { out[0] = g(); }\n");
    assert!(diags.iter().any(|d| d.message.contains("`g` takes 1 to 2 argument(s), found 0")), "{diags:?}");
    let (_, diags) = parse_kernel("//@ buffer out: f32[32]\n__global__ void k(float* out, int n = 3) { out[0] = n; }\n");
    assert!(diags.iter().any(|d| d.message.contains("a kernel's parameter has no default")), "{diags:?}");
}

#[test]
fn pointers_against_null_and_each_other_and_their_difference() {
    let text = "//@ buffer out: i32[32]\n//@ buffer other: i32[32]\n__global__ void k(int* out, int* other) {\n    int t = threadIdx.x;\n    int* p = t < 8 ? out : NULL;\n    out[t] = (p != NULL) + 2 * (p == 0) + 4 * (out != other) + 8 * (&out[t] > &out[3]) + 16 * (int)(&out[t] - out);\n}\n";
    assert_eq!(ints(text), (0..32).map(|t| if t < 8 { 1 } else { 2 } + 4 + if t > 3 { 8 } else { 0 } + 16 * t).collect::<Vec<_>>());
}

#[test]
fn fast_log2_and_power() {
    let text = "//@ buffer out: f32[32]\n__global__ void k(float* out) {\n    int t = threadIdx.x;\n    out[t] = __log2f(8.0f) + __powf(2.0f, 3.0f) + __log2f(float(t + 1));\n}\n";
    let got = floats(text);
    for (t, g) in got.iter().enumerate() {
        let want = 3.0 + 8.0 + ((t + 1) as f32).log2();
        assert!((g - want).abs() <= 1e-5 * want.abs().max(1.0), "lane {t}: {g} against {want}");
    }
}

#[test]
fn a_shuffle_width_known_only_at_run_time_is_the_constant_widths() {
    let kernel = |w: &str| {
        format!("//@ buffer out: i32[32]\n//@ param w = 8\n__global__ void k(int* out, int w) {{\n    int t = threadIdx.x;\n    out[t] = __shfl_down_sync(0xffffffff, t * 10, 1, {w}) + __shfl_up_sync(0xffffffff, t, 2, {w});\n}}\n")
    };
    let want: Vec<i64> = (0..32)
        .map(|t: i64| {
            let (seg, lane) = (t / 8 * 8, t % 8);
            let down = if lane + 1 < 8 { (t + 1) * 10 } else { t * 10 };
            let up = if lane >= 2 { seg + lane - 2 } else { t };
            down + up
        })
        .collect();
    assert_eq!(ints(&kernel("w")), want);
    assert_eq!(ints(&kernel("8")), want);
}

/// What is not supported yet says what to write instead, at the declaration.
#[test]
fn shared_vector_arrays_hold_their_components_in_a_row() {
    // An n-body's tile of positions: each thread writes its point, the warp reads its neighbour's.
    let text = "//@ buffer out: f32[32]\n__global__ void k(float* out) {\n    __shared__ float3 pts[32];\n    __shared__ float2 one;\n    int t = threadIdx.x;\n    pts[t] = make_float3(t, 2 * t, 3 * t);\n    if (t == 0) { one.x = 100.0f; one.y = 0.5f; }\n    __syncwarp();\n    float3 p = pts[(t + 1) % 32];\n    out[t] = p.x + p.y + p.z + one.x * one.y + pts[t].y;\n}\n";
    assert_eq!(floats(text), (0..32).map(|t| 6.0 * ((t + 1) % 32) as f32 + 50.0 + 2.0 * t as f32).collect::<Vec<_>>());
    let (_, diags) = parse_kernel(
        "//@ buffer out: f32[32]\n__constant__ float2 c[2] = {1, 2, 3, 4};\n__global__ void k(float* out) { out[0] = c[0].x; }\n",
    );
    assert!(diags.iter().any(|d| d.is_error() && d.message.contains("an array of `float2` with one is not supported")), "{diags:?}");
}

/// A template kernel instantiated explicitly (`template __global__ void k<3>(int*);`) runs that
/// instance, as a host launch with literal arguments would choose it; `true` is an argument too.
#[test]
fn an_explicit_instantiation_chooses_the_kernels_arguments() {
    let text = "//@ buffer out: i32[32]\ntemplate <int K, bool Neg>\n__global__ void scale(int* out) { out[threadIdx.x] = (Neg ? -1 : 1) * int(threadIdx.x) * K; }\ntemplate __global__ void scale<3, true>(int*);\n";
    assert_eq!(ints(text), (0..32).map(|t| -3 * t).collect::<Vec<_>>());
}

/// Cooperative groups, rewritten into the built-ins they compile to (`compile/groups.rs`): the
/// programming guide's `reduce_sum` over a `thread_group` given the block leaves every thread
/// with 1 + 2 + ... + 64, a tile of 8 sums its ranks, a coalesced group counts its lanes.
#[test]
fn cooperative_groups_compute_what_they_say() {
    let reduce = "//@ launch block=64\n//@ buffer out: i32[64]\n#include <cooperative_groups.h>\nusing namespace cooperative_groups;\n__device__ int reduce_sum(thread_group g, int* temp, int val) {\n    int lane = g.thread_rank();\n    for (int i = g.size() / 2; i > 0; i /= 2) {\n        temp[lane] = val;\n        g.sync();\n        if (lane < i) val += temp[lane + i];\n        g.sync();\n    }\n    return val;\n}\n__global__ void k(int* out) {\n    __shared__ int temp[64];\n    thread_block block = this_thread_block();\n    int v = reduce_sum(block, temp, block.thread_rank() + 1);\n    if (block.thread_rank() == 0) out[0] = v;\n}\n";
    let (k, diags) = parse_kernel(reduce);
    assert!(diags.iter().all(|d| !d.is_error()), "{diags:#?}");
    let run = warpscope_core::grid::run_launch(&k, &LaunchOptions::default()).unwrap();
    let (_, words) = run.memory.buffer("out").unwrap();
    assert_eq!(words[0], (1..=64).sum::<u32>());
    let tiles = "//@ buffer out: i32[32]\n#include <cooperative_groups.h>\nnamespace cg = cooperative_groups;\n__global__ void k(int* out) {\n    cg::thread_block_tile<8> t = cg::tiled_partition<8>(cg::this_thread_block());\n    int v = t.thread_rank();\n    for (int d = 4; d > 0; d /= 2) v += t.shfl_down(v, d);\n    int odd = 0;\n    if (threadIdx.x % 2) {\n        cg::coalesced_group a = cg::coalesced_threads();\n        odd = a.size() * 100 + a.thread_rank();\n    }\n    out[threadIdx.x] = v * 1000 + odd + 10000 * t.meta_group_rank();\n}\n";
    let want: Vec<i64> = (0..32)
        .map(|t: i64| {
            let lane = t % 8;
            // shfl_down within the tile: a lane whose source is past the tile keeps its value.
            let mut v: Vec<i64> = (0..8).collect();
            for d in [4, 2, 1] {
                v = (0..8).map(|l| v[l] + if l + d < 8 { v[l + d] } else { v[l] }).collect();
            }
            let odd = if t % 2 == 1 { 1600 + t / 2 } else { 0 };
            v[lane as usize] * 1000 + odd + 10000 * (t / 8)
        })
        .collect();
    assert_eq!(ints(tiles), want);
}

/// What cooperative groups warpscope does not run says so, at the line, with what to write.
#[test]
fn unsupported_cooperative_groups_say_what_to_write() {
    let cases = [
        ("cg::grid_group g = cg::this_grid();\n    g.sync();", "a grid group (`this_grid()`, grid-wide sync) is not supported"),
        ("cg::thread_block b = cg::this_thread_block();\n    cg::thread_block_tile<32> t = cg::tiled_partition<32>(b);\n    out[0] = t.match_any(1);", "`thread_block_tile<32>::match_any` is not supported"),
        ("cg::thread_block b = cg::this_thread_block();\n    out[0] = b.thread_rank(1);", "`thread_block::thread_rank` takes 0 argument(s), found 1"),
    ];
    for (body, words) in cases {
        let text = format!("//@ buffer out: i32[32]\n#include <cooperative_groups.h>\nnamespace cg = cooperative_groups;\n__global__ void k(int* out) {{\n    {body}\n}}\n");
        let (_, diags) = parse_kernel(&text);
        let d = diags.iter().find(|d| d.is_error()).unwrap_or_else(|| panic!("{body}: no error"));
        assert!(d.message.contains(words) && d.span.line >= 5, "{body}: {d:?}");
    }
    // A `thread_group` parameter given a block by one call and a tile of 8 by another: one
    // function for each, as nvcc's inlining makes.
    let text = "//@ buffer out: i32[32]\n#include <cooperative_groups.h>\nusing namespace cooperative_groups;\n__device__ int r(thread_group g) { return g.thread_rank(); }\n__global__ void k(int* out) {\n    thread_block b = this_thread_block();\n    thread_block_tile<8> t = tiled_partition<8>(b);\n    out[threadIdx.x] = r(b) * 100 + r(t);\n}\n";
    assert_eq!(ints(text), (0..32).map(|t| t * 100 + t % 8).collect::<Vec<_>>());
    // `cg::reduce` over what it does not take.
    for (body, words) in [
        ("out[0] = cg::reduce(cg::this_thread_block(), 1, cg::plus<int>());", "`reduce` takes a tile variable"),
        ("cg::thread_block b = cg::this_thread_block();\n    out[0] = cg::reduce(b, 1, cg::plus<int>());", "`reduce` over a `thread_block` is not supported"),
        ("cg::thread_block b = cg::this_thread_block();\n    auto t = cg::tiled_partition<32>(b);\n    out[0] = cg::reduce(t, 1, cg::multiplies<int>());", "one of `plus<T>()`"),
    ] {
        let text = format!("//@ buffer out: i32[32]\n#include <cooperative_groups.h>\nnamespace cg = cooperative_groups;\n__global__ void k(int* out) {{\n    {body}\n}}\n");
        let (_, diags) = parse_kernel(&text);
        assert!(diags.iter().any(|d| d.is_error() && d.message.contains(words)), "{body}: {diags:?}");
    }
}

/// `bool` is a byte in memory, as in CUDA (Rodinia's BFS keeps its masks in `bool*` arrays):
/// `sizeof(bool)` is 1, a `bool*` steps a byte, and a `bool` stored is 0 or 1.
#[test]
fn bool_arrays_are_bytes() {
    let text = "//@ buffer mask: u8[32] = i % 3 == 0\n//@ buffer visited: u8[32] = i % 2\n//@ buffer out: i32[32]\n__global__ void k(bool* mask, bool* visited, int* out) {\n    __shared__ bool seen[32];\n    int t = threadIdx.x;\n    seen[t] = visited[t];\n    __syncwarp();\n    if (mask[t] && !seen[t]) { visited[t] = 5; out[t] = 1; }\n    mask[t] = false;\n    out[t] += sizeof(bool) * 10 + (int)(&mask[t + 1] - &mask[t]) * 100 + seen[(t + 1) % 32] * 1000;\n}\n";
    let (k, diags) = parse_kernel(text);
    assert!(diags.iter().all(|d| !d.is_error()), "{diags:#?}");
    let mut sim = launch(&k, &LaunchOptions::default()).expect("launches");
    assert_eq!(sim.run_to_end(), StopReason::Exited);
    let m = &sim.state().machine.memory;
    let bytes = |name: &str| -> Vec<u8> {
        let (b, words) = m.buffers.iter().zip(&m.words).find(|(b, _)| b.name == name).expect(name);
        words.iter().flat_map(|w| w.to_le_bytes()).take(b.size() as usize).collect()
    };
    let fresh = |t: usize| t.is_multiple_of(6);
    assert_eq!(bytes("mask"), vec![0; 32]);
    assert_eq!(bytes("visited"), (0..32).map(|t| u8::from(t % 2 == 1 || fresh(t))).collect::<Vec<_>>());
    let want: Vec<i64> = (0..32).map(|t| i64::from(fresh(t)) + 10 + 100 + 1000 * ((t + 1) % 32 % 2) as i64).collect();
    let got: Vec<i64> = bytes("out").chunks(4).map(|c| i64::from(i32::from_le_bytes(c.try_into().unwrap()))).collect();
    assert_eq!(got, want);
}

/// The CUDA C Programming Guide's `Matrix`, passed by value with a pointer field: each field
/// binds as its own param or buffer (`A_width`, `A_elements`), and a method and an operator of a
/// struct run on values held in registers.
#[test]
fn structs_by_value_hold_their_fields_and_run_their_methods() {
    let text = "//@ buffer out: f32[32]\n//@ param A_width = 4\n//@ buffer A_elements: f32[16] = i * 0.5\n\
        //@ param B_width = 4\n//@ buffer B_elements: f32[16] = (i * 7) % 5 - 2\n\
        typedef struct {\n    int width;\n    int height;\n    float* elements;\n} Matrix;\n\
        struct Acc {\n    float sum;\n    int n;\n    __device__ void add(float v) { sum += v; n++; }\n\
            __device__ Acc operator+(Acc o) const { Acc r = {sum + o.sum, n + o.n}; return r; }\n};\n\
        __global__ void k(Matrix A, Matrix B, float* out) {\n    int t = threadIdx.x % 16;\n\
            int row = t / 4, col = t % 4;\n    Acc lo = {0.0f, 0}, hi = {0.0f, 0};\n\
            for (int e = 0; e < A.width; ++e) {\n\
                float p = A.elements[row * A.width + e] * B.elements[e * B.width + col];\n\
                if (e < 2) lo.add(p); else hi.add(p);\n    }\n\
            Acc all = lo + hi;\n    out[threadIdx.x] = all.sum * 100.0f + all.n;\n}\n";
    let a: Vec<f32> = (0..16).map(|i| i as f32 * 0.5).collect();
    let b: Vec<f32> = (0..16).map(|i| ((i * 7) % 5 - 2) as f32).collect();
    let want: Vec<f32> = (0..32)
        .map(|t| {
            let (row, col) = (t % 16 / 4, t % 4);
            let lo: f32 = (0..2).map(|e| a[row * 4 + e] * b[e * 4 + col]).sum();
            let hi: f32 = (2..4).map(|e| a[row * 4 + e] * b[e * 4 + col]).sum();
            (lo + hi) * 100.0 + 4.0
        })
        .collect();
    assert_eq!(floats(text), want);
}

/// What a review of the struct compiler found: member initialisers in braces and a struct
/// field's constructor in the list; a member function that changes the object only through
/// another (`inc2` calling `inc`); a member function called on an array element by every lane,
/// each changing another field (each field written back only where its lane changed it); an
/// `operator+=`; `__align__(16)` rounding the size.
#[test]
fn structs_keep_cpp_semantics_where_they_are_easy_to_lose() {
    let text = "//@ buffer out: i32[32]\n//@ buffer f: i32[2]\n\
        struct P {\n    int a, b;\n    __device__ P(int x, int y) : a{x}, b{y} {}\n};\n\
        struct Q {\n    P p;\n    int n, z;\n    __device__ Q(int s) : p(s, 2), n{3}, z() {}\n\
            __device__ void inc() { n++; }\n    __device__ void inc2() { inc(); inc(); }\n\
            __device__ Q& operator+=(int d) { n += d; return *this; }\n};\n\
        struct F {\n    int a, b;\n    __device__ void set(int w) { if (w) b = 1; else a = 1; }\n};\n\
        struct __align__(16) V {\n    float x, y, z;\n};\n\
        __global__ void k(int* out, F* f) {\n    int t = threadIdx.x;\n    Q q(t);\n    q.inc2();\n\
            q += 5;\n\
            f[0].set(t & 1);\n    __syncwarp();\n\
            out[t] = q.p.a + q.p.b * 100 + q.n * 1000 + q.z + (f[0].a + f[0].b) * 100000 + sizeof(V) * 1000000;\n}\n";
    let want: Vec<i64> = (0..32).map(|t| t + 200 + 10 * 1000 + 2 * 100000 + 16 * 1000000).collect();
    assert_eq!(ints(text), want);
}

/// Overloaded constructors, member functions and operators are chosen by their arguments'
/// types, not only their count (`V(int)` against `V(float)`, `operator*(float)` against
/// `operator*(const V&)`), and members take default arguments.
#[test]
fn overloads_are_chosen_by_type_and_members_take_defaults() {
    let text = "//@ buffer out: f32[32]\nstruct V {\n    float x, y;\n\
        __device__ V(int a) : x(a * 100), y(0) {}\n    __device__ V(float a, float b = 7.0f) : x(a), y(b) {}\n\
        __device__ V operator*(float k) const { return V(x * k, y * k); }\n\
        __device__ V operator*(const V& o) const { return V(x * o.x, y * o.y); }\n\
        __device__ float sum(float w = 0.5f) const { return x + y + w; }\n};\n\
        __global__ void k(float* out) {\n    int t = threadIdx.x;\n    V a(t), b(1.5f), c(2.0f, 3.0f);\n\
            V d = a * 2.0f, e = b * c;\n    out[t] = d.x + e.sum() + c.sum(10.0f) + b.y * 1000;\n}\n";
    // d = (200 t, 0); b = (1.5, 7) by the default; e = (3, 21); c.sum(10) = 15.
    assert_eq!(floats(text), (0..32).map(|t| 200.0 * t as f32 + 24.5 + 15.0 + 7000.0).collect::<Vec<_>>());
}

/// `typedef` of a scalar (`real`), of an unsigned (`uint_t`) and of a tagged struct (`Node` for
/// `struct node`) names the type; a typedef the C cannot read (a function pointer) is host code.
#[test]
fn typedefs_name_their_types() {
    let text = "//@ buffer out: f32[32]\ntypedef float real;\ntypedef unsigned int uint_t;\n\
        struct node { real v; uint_t n; };\ntypedef struct node Node;\ntypedef real (*fn_t)(real);\n\
        __global__ void k(real* out) {\n    Node a = {1.5f, 2u};\n    uint_t t = threadIdx.x;\n\
            out[t] = a.v * t + a.n + sizeof(Node) * 100 + (real)sizeof(real);\n}\n";
    assert_eq!(floats(text), (0..32).map(|t| 1.5 * t as f32 + 806.0).collect::<Vec<_>>());
}

/// A `__shared__` array of structs: each element's fields at their offsets, a whole element
/// copied out, `sizeof` of the array.
#[test]
fn shared_arrays_of_structs_hold_their_fields() {
    let text = "//@ buffer out: f32[32]\nstruct P { float3 pos; float m; };\n__global__ void k(float* out) {\n\
        __shared__ P ps[32];\n    int t = threadIdx.x;\n    ps[t].pos = make_float3(t, 2 * t, 3 * t);\n    ps[t].m = 0.5f * t;\n\
        __syncwarp();\n    P o = ps[31 - t];\n    out[t] = o.pos.x + o.pos.y * 100 + o.m * 10000 + sizeof(ps) / sizeof(P);\n}\n";
    let want: Vec<f32> = (0..32).map(|t| (31 - t) as f32 * (1.0 + 200.0 + 5000.0) + 32.0).collect();
    assert_eq!(floats(text), want);
}

/// `friend` operators declared in a struct are operators of the file (either order of
/// `friend` and `__device__`); a host-only friend is skipped.
#[test]
fn friend_operators_are_free_operators() {
    let text = "//@ buffer out: f32[32]\nstruct V {\n    float x, y;\n    __device__ V(float a, float b) : x(a), y(b) {}\n\
        friend __device__ V operator*(float k, const V& v) { return V(k * v.x, k * v.y); }\n\
        __device__ friend V operator+(const V& a, const V& b) { return V(a.x + b.x, a.y + b.y); }\n\
        friend V hostOnly(const V& a);\n};\n__global__ void k(float* out) {\n    V a(threadIdx.x, 1.0f);\n\
        V b = 3.0f * a + a;\n    out[threadIdx.x] = b.x + b.y * 100;\n}\n";
    assert_eq!(floats(text), (0..32).map(|t| 4.0 * t as f32 + 400.0).collect::<Vec<_>>());
}

/// A struct template takes a struct as its argument (`Box<Vec2>`) and names its own instances
/// in its body (`Cplx<T> operator*(const Cplx<T>&)`).
#[test]
fn struct_templates_take_structs_and_name_themselves() {
    let text = "//@ buffer out: f32[32]\nstruct Vec2 { float x, y; };\ntemplate <typename T>\nstruct Box {\n    T v;\n\
        __device__ Box<T> twice() const { Box<T> b = {v}; b.v.x *= 2; return b; }\n};\ntemplate <typename T>\nstruct Cplx {\n\
        T r, i;\n    __device__ Cplx(T a, T b) : r(a), i(b) {}\n\
        __device__ Cplx<T> operator*(const Cplx<T>& o) const { return Cplx<T>(r * o.r - i * o.i, r * o.i + i * o.r); }\n};\n\
        __global__ void k(float* out) {\n    Vec2 p = {1.0f * threadIdx.x, 2.0f};\n    Box<Vec2> b = {p};\n\
            Box<Vec2> c = b.twice();\n    Cplx<float> z(0.0f, 1.0f);\n    Cplx<float> w = z * z;\n\
            out[threadIdx.x] = c.v.x + c.v.y * 100 + w.r * 1000;\n}\n";
    assert_eq!(floats(text), (0..32).map(|t| 2.0 * t as f32 - 800.0).collect::<Vec<_>>());
}

/// A struct template that never ends, one specialised without arguments, and a member
/// function that calls itself are located errors, not a hang or a panic.
#[test]
fn runaway_struct_templates_and_recursion_are_errors() {
    let message = |text: &str| -> String {
        let (_, diags) = parse_kernel(text);
        diags.iter().find(|d| d.is_error()).map(|d| format!("{}: {}", d.span.line, d.message)).unwrap_or_default()
    };
    let nest = message("template <int N> struct B;\ntemplate <int N> struct A { int v; B<N> b; };\ntemplate <int N> struct B { int w; A<N - 1> a; };\n__global__ void k(int* o) { A<3> a; o[0] = 1; }\n");
    assert!(nest.starts_with("4: `A<-5>`: struct templates nest more than 16 deep"), "{nest}");
    let bare = message("template <> struct S { int x; };\n__global__ void k(int* o) { o[0] = 1; }\n");
    assert!(bare.starts_with("1: `template <>` specialises `S` for arguments"), "{bare}");
    let open =
        message("template <class T> struct S { T x; };\ntemplate <> struct S<int { int x; };\n__global__ void k(int* o) { o[0] = 1; }\n");
    assert!(open.starts_with("2: `template <>` specialises `S`"), "{open}");
    let recursive = message("struct R {\n    int n;\n    __device__ int sum(int k) { return k ? k + sum(k - 1) : 0; }\n};\n__global__ void k(int* o) { R r = {1}; o[0] = r.sum(3); }\n");
    assert!(recursive.contains("`R::sum` calls itself"), "{recursive}");
}

/// A struct this C cannot read is named where the kernel uses it, with why and where; a field
/// or member function a struct lacks is named with the ones it has; an unknown type lists the
/// types there are.
#[test]
fn a_struct_says_what_it_is_and_what_to_do() {
    let message = |text: &str| -> String {
        let (_, diags) = parse_kernel(text);
        diags.iter().find(|d| d.is_error()).map(|d| format!("{}: {}", d.span.line, d.message)).unwrap_or_default()
    };
    let array = message("struct Grid {\n    int n;\n    float cells[16];\n};\n__global__ void k(Grid* g, int* out) { out[0] = 1; }\n");
    assert!(
        array.starts_with("5: `Grid` is a struct (line 1) that warpscope's own C cannot read: array fields")
            && array.contains("(line 3)")
            && array.contains("`--nvcc`"),
        "{array}"
    );
    let derived = message("struct A { int x; };\nclass B : public A {\npublic:\n    int y;\n};\n__global__ void k(B* p) { }\n");
    assert!(derived.starts_with("6: `B` is a class (line 2)") && derived.contains("deriving"), "{derived}");
    let field = message("struct P { float x, y; };\n__global__ void k(P* p, float* out) {\n    out[0] = p[0].z;\n}\n");
    assert!(field.starts_with("3: `P` has no field `z`: it has the fields `x`, `y`"), "{field}");
    let method = message("struct P {\n    float x;\n    __device__ float twice() const { return 2 * x; }\n};\n__global__ void k(P* p, float* out) {\n    out[0] = p[0].half();\n}\n");
    assert!(method.starts_with("6: `P` has no `__device__` member function `half` taking 0 argument(s) (it has `twice`)"), "{method}");
    let unknown = message("__global__ void k(Vec3* v) { }\n");
    assert!(
        unknown.contains("found `Vec3`") && unknown.contains("`char`") && unknown.contains("`uchar4`") && unknown.contains("struct"),
        "{unknown}"
    );
}
