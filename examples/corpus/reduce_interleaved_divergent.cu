// Parallel reduction, version 1: interleaved addressing with a divergent branch.
// In step s only the threads whose index is a multiple of 2*s add, so the active
// threads are scattered across the warp: every step diverges, and `%` is slow.
#define BLOCK_SIZE 32

__global__ void reduce_interleaved(const int* g_idata, int* g_odata) {
    __shared__ int sdata[BLOCK_SIZE];

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

    // Thread 0 writes this block's sum.
    if (tid == 0) g_odata[blockIdx.x] = sdata[0];
}
