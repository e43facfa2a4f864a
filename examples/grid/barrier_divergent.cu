// Origin: warpscope's own lesson, after the CUDA C++ Programming Guide's rule for __syncthreads() in conditional code and its "Independent Thread Scheduling" section (compute capability 7.x); 1 block of 64 threads (2 warps).
//@ title A barrier in divergent code: a deadlock on a reconvergence stack, fine on Volta
//@ about Each warp splits: lanes 0-15 take the if side, lanes 16-31 the else side, and each side
//@ about has its own __syncthreads(). The block's 64 threads all reach a barrier 0, so per-thread
//@ about hardware (volta) releases them together. A reconvergence stack runs one side at a time:
//@ about the side it runs first waits at its barrier for lanes parked on the stack, which never come.
//@ about nvcc's sm_90 SASS of it has no branch (ptxas predicates both short sides, `@P0 BAR.SYNC`).
//@ about On an H100 it gives this buffer, but compute-sanitizer's synccheck stops it at that first
//@ about barrier: "Barrier error detected. Divergent thread(s) in warp" (examples/grid/h100).
//@ note step 1: CUDA's guide allows __syncthreads() in conditional code only where the condition is the same across the block: otherwise it is likely to hang. Switch the model between kepler and volta. Under kepler (a token stack) the run stops with a deadlock at the first barrier; under volta it runs to the end.
//@ note div 1: Each warp splits here. Under a stack model one side's lanes wait on the stack until the other side reaches the join, but that side waits at __syncthreads() for every thread of the block: neither can go on. Volta keeps a program counter per thread, so the lanes of the side not yet run go on to their own barrier, and the block's 64 threads meet at barrier 0 (BAR.SYNC counts threads, not the line they wait at).
//@ launch grid=1 block=64
//@ buffer out: i32[64]
//@ model volta
__global__ void swap_halves(int* out) {
    __shared__ int s[64];
    int tid = threadIdx.x;
    int other = (tid + 32) % 64;
    if (tid % 32 < 16) {
        s[tid] = tid;
        __syncthreads();
        out[tid] = s[other];
    } else {
        s[tid] = -tid;
        __syncthreads();
        out[tid] = s[other];
    }
}
