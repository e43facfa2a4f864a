// After NVIDIA cuda-samples reduction (reduce3, Mark Harris, "Optimizing Parallel Reduction in CUDA"): sequential addressing with the first add during the global load, two passes launched from a host loop.
#include <stdio.h>
#include <stdlib.h>

#define BLOCK 128

__global__ void reduce3(const int *g_idata, int *g_odata, int n)
{
    __shared__ int sdata[BLOCK];
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * (blockDim.x * 2) + threadIdx.x;
    int mySum = (i < n) ? g_idata[i] : 0;
    if (i + blockDim.x < n)
        mySum += g_idata[i + blockDim.x];
    sdata[tid] = mySum;
    __syncthreads();
    for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s)
            sdata[tid] = mySum = mySum + sdata[tid + s];
        __syncthreads();
    }
    if (tid == 0)
        g_odata[blockIdx.x] = mySum;
}

int main()
{
    int n = 20000;
    int *h_in = (int *)malloc(n * sizeof(int));
    long long expected = 0;
    for (int i = 0; i < n; i++) {
        h_in[i] = (i * 7919) % 23;
        expected += h_in[i];
    }
    int *d_a, *d_b;
    cudaMalloc(&d_a, n * sizeof(int));
    cudaMalloc(&d_b, n * sizeof(int));
    cudaMemcpy(d_a, h_in, n * sizeof(int), cudaMemcpyHostToDevice);
    int passes = 0;
    while (n > 1) {
        int blocks = (n + BLOCK * 2 - 1) / (BLOCK * 2);
        reduce3<<<blocks, BLOCK>>>(d_a, d_b, n);
        passes++;
        printf("pass %d: %d elements -> %d blocks\n", passes, n, blocks);
        int *t = d_a;
        d_a = d_b;
        d_b = t;
        n = blocks;
    }
    int sum = 0;
    cudaMemcpy(&sum, d_a, sizeof(int), cudaMemcpyDeviceToHost);
    printf("sum %d, expected %lld: %s\n", sum, expected, sum == expected ? "PASSED" : "FAILED");
    cudaFree(d_a);
    cudaFree(d_b);
    free(h_in);
    return 0;
}
