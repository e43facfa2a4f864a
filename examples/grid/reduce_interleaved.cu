// Origin: Mark Harris, "Optimizing Parallel Reduction in CUDA" (NVIDIA, 2007), reduction #1 (interleaved addressing with a divergent branch); 4 blocks of 256 threads.
//@ title Interleaved reduction (Harris #1): every warp diverges at every step
//@ about `tid % (2*s) == 0` keeps every second, fourth, eighth... thread of each warp busy, so
//@ about every warp diverges in every round; the sums are the same as the sequential version's.
//@ note step 1: Each row of the Warps panel is one of this block's 8 warps. Under gto (greedy then oldest) warp 0 issues until it must wait: at the first __syncthreads() it waits for the other 7, which then run in turn.
//@ note div 1: The first round splits warp 0: tid % 2 == 0 keeps the even lanes busy while the odd ones wait. Every warp splits like this in every round; the strip under the warps, the lanes each step ran, never stays full. To see the same sums with whole warps idle instead, press compare and pick "Strided reduction (Harris #2)" as the right run's kernel: both run under one model, and the table gives each whole launch's counts.
//@ launch grid=4 block=256
//@ buffer g_idata: i32[1024] = i % 7 + 1
//@ buffer g_odata: i32[4]
#define BLOCK 256
__global__ void reduce1(const int* g_idata, int* g_odata) {
    __shared__ int sdata[BLOCK];
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    sdata[tid] = g_idata[i];
    __syncthreads();
    for (unsigned int s = 1; s < blockDim.x; s *= 2) {
        if (tid % (2 * s) == 0) {
            sdata[tid] += sdata[tid + s];
        }
        __syncthreads();
    }
    if (tid == 0) g_odata[blockIdx.x] = sdata[0];
}
