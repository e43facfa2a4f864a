// Parallel reduction, version 4: the last warp unrolled.
// Once only one warp is left, its threads need no __syncthreads(). The classic
// version relies on the warp running in lockstep and on `volatile` to stop the
// compiler from keeping sdata in registers. Since Volta, threads of a warp may
// drift apart, so the second kernel says where they must meet with __syncwarp().
#define BLOCK_SIZE 32

__device__ void warpReduce(volatile int* sdata, unsigned int tid) {
    sdata[tid] += sdata[tid + 16];
    sdata[tid] += sdata[tid + 8];
    sdata[tid] += sdata[tid + 4];
    sdata[tid] += sdata[tid + 2];
    sdata[tid] += sdata[tid + 1];
}

// A block of exactly one warp: no loop is left, only the unrolled steps.
__global__ void reduce_warp_unrolled(const int* g_idata, int* g_odata) {
    __shared__ int sdata[BLOCK_SIZE];

    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    sdata[tid] = g_idata[i];
    __syncthreads();

    if (tid < 16) warpReduce(sdata, tid);

    if (tid == 0) g_odata[blockIdx.x] = sdata[0];
}

// The same reduction written for independent thread scheduling: each step reads
// into a register, the warp meets, then writes, and meets again.
__global__ void reduce_warp_syncwarp(const int* g_idata, int* g_odata) {
    __shared__ int sdata[BLOCK_SIZE];

    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    sdata[tid] = g_idata[i];
    __syncthreads();

    int v = sdata[tid];
    for (unsigned int offset = 16; offset > 0; offset /= 2) {
        if (tid < offset) v += sdata[tid + offset];
        __syncwarp();
        sdata[tid] = v;
        __syncwarp();
    }

    if (tid == 0) g_odata[blockIdx.x] = sdata[0];
}
