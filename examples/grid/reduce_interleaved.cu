// Origin: Mark Harris, "Optimizing Parallel Reduction in CUDA" (NVIDIA, 2007), reduction #1 (interleaved addressing with a divergent branch); 4 blocks of 256 threads.
//@ title Interleaved reduction (Harris #1): every warp diverges at every step
//@ about `tid % (2*s) == 0` keeps every second, fourth, eighth... thread of each warp busy, so
//@ about every warp diverges in every round; the sums are the same as the sequential version's.
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
