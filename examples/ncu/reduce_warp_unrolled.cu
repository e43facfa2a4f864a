// After NVIDIA cuda-samples reduction (reduce4/reduce5 of the 2007 slides, Mark Harris): sequential addressing down to 64 threads, then the last warp unrolled through a volatile pointer.
#include <stdio.h>
#include <stdlib.h>

#define BLOCK 256

// The last warp adds without barriers, as the classic code does: volatile keeps every
// store in shared memory (written before __syncwarp existed).
__device__ void warpReduce(volatile int *sdata, unsigned int tid)
{
    sdata[tid] += sdata[tid + 32];
    sdata[tid] += sdata[tid + 16];
    sdata[tid] += sdata[tid + 8];
    sdata[tid] += sdata[tid + 4];
    sdata[tid] += sdata[tid + 2];
    sdata[tid] += sdata[tid + 1];
}

__global__ void reduce4(const int *g_idata, int *g_odata, int n)
{
    __shared__ int sdata[BLOCK];
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * (blockDim.x * 2) + threadIdx.x;
    int mySum = (i < n) ? g_idata[i] : 0;
    if (i + blockDim.x < n)
        mySum += g_idata[i + blockDim.x];
    sdata[tid] = mySum;
    __syncthreads();
    for (unsigned int s = blockDim.x / 2; s > 32; s >>= 1) {
        if (tid < s)
            sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    if (tid < 32)
        warpReduce(sdata, tid);
    if (tid == 0)
        g_odata[blockIdx.x] = sdata[0];
}

int main()
{
    const int n = 30000;
    const int blocks = (n + BLOCK * 2 - 1) / (BLOCK * 2);
    int *h_in = (int *)malloc(n * sizeof(int));
    int *h_out = (int *)malloc(blocks * sizeof(int));
    long long expected = 0;
    for (int i = 0; i < n; i++) {
        h_in[i] = ((i * 2654435761u) >> 20) % 64;
        expected += h_in[i];
    }
    int *d_in, *d_out;
    cudaMalloc(&d_in, n * sizeof(int));
    cudaMalloc(&d_out, blocks * sizeof(int));
    cudaMemcpy(d_in, h_in, n * sizeof(int), cudaMemcpyHostToDevice);
    reduce4<<<blocks, BLOCK>>>(d_in, d_out, n);
    cudaMemcpy(h_out, d_out, blocks * sizeof(int), cudaMemcpyDeviceToHost);
    long long sum = 0;
    for (int b = 0; b < blocks; b++)
        sum += h_out[b];
    printf("%d blocks, sum %lld, expected %lld: %s\n", blocks, sum, expected, sum == expected ? "PASSED" : "FAILED");
    cudaFree(d_in);
    cudaFree(d_out);
    free(h_in);
    free(h_out);
    return 0;
}
