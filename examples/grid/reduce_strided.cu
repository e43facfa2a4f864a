// Origin: Mark Harris, "Optimizing Parallel Reduction in CUDA" (NVIDIA, 2007), reduction #2 (interleaved addressing, strided index and non-divergent branch); 4 blocks of 256 threads.
//@ title Strided reduction (Harris #2): whole warps idle, the busy ones stay full
//@ about The same sums as reduction #1, but thread tid adds at index 2*s*tid: the busy threads
//@ about are the block's first ones, so whole warps go idle and the others branch together.
//@ note step 1: The same sums as reduction #1. Watch the Warps panel: in the first rounds the busy threads fill whole warps (0-3 in the first, 0-1 in the next) and the other warps only skip the add, so no warp splits and the lanes strip stays full.
//@ note div 1: Only now, with 16 threads busy, does warp 0 split (2*s*tid < 256 holds for tid < 16): from here on one warp works, partly. Reduction #1 split every warp from the first round.
//@ launch grid=4 block=256
//@ buffer g_idata: i32[1024] = i % 7 + 1
//@ buffer g_odata: i32[4]
#define BLOCK 256
__global__ void reduce2(const int* g_idata, int* g_odata) {
    __shared__ int sdata[BLOCK];
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    sdata[tid] = g_idata[i];
    __syncthreads();
    for (unsigned int s = 1; s < blockDim.x; s *= 2) {
        unsigned int index = 2 * s * tid;
        if (index < blockDim.x) {
            sdata[index] += sdata[index + s];
        }
        __syncthreads();
    }
    if (tid == 0) g_odata[blockIdx.x] = sdata[0];
}
