// After NVIDIA cuda-samples reduction (reduce0 and reduce1, Mark Harris, "Optimizing Parallel Reduction in CUDA"): interleaved addressing, first with the divergent modulo test, then with a strided index.
#include <stdio.h>
#include <stdlib.h>

#define BLOCK 256

// reduce0: every round, the threads whose id is a multiple of 2*s add; the warps stay
// divergent because the active threads are spread over all of them.
__global__ void reduce0(const int *g_idata, int *g_odata, int n)
{
    __shared__ int sdata[BLOCK];
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    sdata[tid] = (i < n) ? g_idata[i] : 0;
    __syncthreads();
    for (unsigned int s = 1; s < blockDim.x; s *= 2) {
        if ((tid % (2 * s)) == 0)
            sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    if (tid == 0)
        g_odata[blockIdx.x] = sdata[0];
}

// reduce1: the same sums, the active threads packed to the low ids (bank conflicts instead
// of divergence).
__global__ void reduce1(const int *g_idata, int *g_odata, int n)
{
    __shared__ int sdata[BLOCK];
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    sdata[tid] = (i < n) ? g_idata[i] : 0;
    __syncthreads();
    for (unsigned int s = 1; s < blockDim.x; s *= 2) {
        int index = 2 * s * tid;
        if (index < blockDim.x)
            sdata[index] += sdata[index + s];
        __syncthreads();
    }
    if (tid == 0)
        g_odata[blockIdx.x] = sdata[0];
}

int main()
{
    const int n = 6000;
    const int blocks = (n + BLOCK - 1) / BLOCK;
    int *h_in = (int *)malloc(n * sizeof(int));
    int *h_out = (int *)malloc(blocks * sizeof(int));
    long long expected = 0;
    for (int i = 0; i < n; i++) {
        h_in[i] = (i * 37 + 11) % 101 - 50;
        expected += h_in[i];
    }
    int *d_in, *d_out;
    cudaMalloc(&d_in, n * sizeof(int));
    cudaMalloc(&d_out, blocks * sizeof(int));
    cudaMemcpy(d_in, h_in, n * sizeof(int), cudaMemcpyHostToDevice);

    int ok = 1;
    for (int version = 0; version < 2; version++) {
        if (version == 0)
            reduce0<<<blocks, BLOCK>>>(d_in, d_out, n);
        else
            reduce1<<<blocks, BLOCK>>>(d_in, d_out, n);
        cudaMemcpy(h_out, d_out, blocks * sizeof(int), cudaMemcpyDeviceToHost);
        long long sum = 0;
        for (int b = 0; b < blocks; b++)
            sum += h_out[b];
        printf("reduce%d: %d blocks, sum %lld (expected %lld)\n", version, blocks, sum, expected);
        if (sum != expected)
            ok = 0;
    }
    printf("%s\n", ok ? "PASSED" : "FAILED");
    cudaFree(d_in);
    cudaFree(d_out);
    free(h_in);
    free(h_out);
    return 0;
}
