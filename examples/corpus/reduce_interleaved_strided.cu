// Parallel reduction, version 2: interleaved addressing with a strided index.
// The same additions as version 1, but thread tid works on element 2*s*tid, so the
// working threads are packed at the start of the block and whole warps drop out
// together. The price: shared memory is read with a stride (bank conflicts).
#define BLOCK_SIZE 32

__global__ void reduce_strided(const int* g_idata, int* g_odata) {
    __shared__ int sdata[BLOCK_SIZE];

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
