//! Support for the differential test (`ptx_differential.rs`): a seeded generator of CUDA-C
//! kernels within the subset warpscope's compiler and nvcc share (`gen` for the kernel and its
//! inputs, `stmt` for statements, `expr` and `ops` for expressions, `range` for the value
//! ranges that keep them free of undefined behaviour), and nvcc (`nvcc`).
//!
//! # Known bugs
//!
//! Bugs of warpscope this test found, each with the smallest kernel that shows it. With
//! `Config::avoid_known_bugs` (the default) the generator steers around them, each workaround
//! marked "known bug N", so that the test checks the PTX side; `DIFF_KNOWN_BUGS=1` turns the
//! workarounds off, to see whether they are fixed. Remove a workaround when its bug is.
//!
//! 1. Fixed (the assembler reads a float immediate in `SEL` as its bits; the generator makes
//!    such arms again; `compile_cuda.rs` keeps the kernel). The compiler, every target: a float
//!    constant as an arm of `?:` became a `SEL` with a float immediate, which did not assemble:
//!    ```c
//!    __global__ void k(float* out, const float* a) {
//!        float x = a[threadIdx.x];
//!        out[threadIdx.x] = x < 3.0f ? 1.5f : x;
//!    }
//!    ```
//! 2. The compiler, kepler target (so kepler and pdom-ssy): after a loop with `break`, a branch
//!    gets no SSY (an `if` after the loop, or the test of a loop around it), and a loop with
//!    `continue` gets none for its own exit; lanes that leave early run on alone, so a barrier
//!    after it deadlocks and a full-mask shuffle or vote faults:
//!    ```c
//!    __global__ void k(const int* a, int* out) {
//!        int lane = threadIdx.x, u = 0;
//!        for (int j = 0; j < 2; j++) {
//!            if (a[lane] > 5) break;
//!        }
//!        if (a[lane] > 3) u = 17;
//!        out[lane] = __shfl_down_sync(0xffffffff, u, 2);   // faults: lanes wait at the if
//!    }
//!    ```
//!    The same with `for (...; j < (lane & 2) + 1; ...) { if (lane > 28) continue; ... }` and a
//!    `__syncthreads()` after the loop (deadlock), or an outer `for (j < (lane & 1) + 1)` around
//!    an inner loop with `break`.
//! 3. The thread-frontier models (tf-stack, tf-sandy): after a call of a `__device__` function
//!    from divergent code (or of one that returns early), the lanes that were not in the call (or
//!    returned first) run on, so a barrier deadlocks; the callee is laid out after the caller and
//!    so has the lower priority:
//!    ```c
//!    __device__ int f(int x) { return x + 1; }
//!    __global__ void k(int* out) {
//!        int v = 0;
//!        if (threadIdx.x < 8) v = f(threadIdx.x);
//!        __syncthreads();                                  // deadlock: lanes 0-7 wait
//!        out[threadIdx.x] = v;
//!    }
//!    ```
//! 4. The PDOM model: a function called from two divergent places; reconvergence after the first
//!    call fails (the analysis joins the call sites):
//!    ```c
//!    __device__ int f(int x) { return x + 1; }
//!    __global__ void k(int* out) {
//!        int v = 0;
//!        if (threadIdx.x < 5) v = f(threadIdx.x);
//!        __syncthreads();                                  // deadlock: lanes 0-4 wait
//!        if (threadIdx.x > 20) v = f(threadIdx.x);
//!        out[threadIdx.x] = v;
//!    }
//!    ```
//! 5. The pdom-ssy model: a function that calls a function, with no SSY of its own, faults at its
//!    `RET` ("ran past the end of the code"): the inner `RET` leaves the outer call's entry as
//!    the running one.
//!    ```c
//!    __device__ int g(int x) { return x + 1; }
//!    __device__ int f(int x) { return g(x) + ((threadIdx.x == 3) ? 1 : 2); }
//!    __global__ void k(int* out) { out[threadIdx.x] = f(threadIdx.x); }
//!    ```
//! 6. The pdom-ssy model computes a wrong result: a `break` that every lane takes out of a loop
//!    whose inner loop has a `break` is lost, and the rest of the body runs (`out` is 7, not 1):
//!    ```c
//!    __global__ void k(int* out) {
//!        int f = 1;
//!        for (int w = 0; w < 3; w++) {
//!            for (int j = 0; j < 2; j++) {
//!                if (f > 100) break;
//!            }
//!            if (threadIdx.x < 40) break;
//!            f = 7;
//!        }
//!        out[threadIdx.x] = f;
//!    }
//!    ```
//! 7. Fixed (a `bool` first arm makes the result an `int`; kept in `compile_cuda.rs`). The
//!    compiler, every target, a wrong result: a `?:` lowered with branches (an arm that is
//!    not a plain value, here a division) takes its type from its first arm, so with a `bool`
//!    first arm the other arm's value becomes 0 or 1 (`out[0]` is 1, not 33):
//!    ```c
//!    __global__ void k(int* out) {
//!        int i = threadIdx.x;
//!        unsigned u = 100u + i;
//!        out[i] = (i > 100) ? (i > 200) : (int)(u / 3u);
//!    }
//!    ```
//!    Both warpscope runs of a kernel agree on it, so only the PTX comparison (or a reference
//!    outside warpscope) sees it.

pub mod expr;
pub mod gen;
pub mod nvcc;
pub mod ops;
pub mod range;
pub mod stmt;
