// Origin: Mark Harris, "Optimizing Parallel Reduction in CUDA" (NVIDIA, 2007), reduction #3 (sequential addressing), as in the CUDA samples' reduction kernel; a 256-thread block per 256 elements.
//@ title Shared-memory reduction over 4 blocks of 256 threads
//@ about Every warp of a block adds pairs in shared memory and waits at __syncthreads() for the
//@ about others before the next round: block b's sum lands in g_odata[b].
//@ launch grid=4 block=256
//@ buffer g_idata: i32[1024] = i % 7 + 1
//@ buffer g_odata: i32[4]
#define BLOCK 256
__global__ void reduce3(const int* g_idata, int* g_odata) {
    __shared__ int sdata[BLOCK];
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    sdata[tid] = g_idata[i];
    __syncthreads();
    for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s) {
            sdata[tid] += sdata[tid + s];
        }
        __syncthreads();
    }
    if (tid == 0) g_odata[blockIdx.x] = sdata[0];
}
