// warpscope's own course program (written for warpscope, after the CUDA samples' reduction): a sum by repeated block reductions, launched in a host loop
#include <stdio.h>
#include <stdlib.h>

#define BLOCK 256

__global__ void reduceSum(const int *in, int *out, int n)
{
    __shared__ int s[BLOCK];
    int tid = threadIdx.x;
    int i = blockIdx.x * blockDim.x * 2 + threadIdx.x;
    int v = 0;
    if (i < n)
        v = in[i];
    if (i + blockDim.x < n)
        v += in[i + blockDim.x];
    s[tid] = v;
    __syncthreads();
    for (int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (tid < stride)
            s[tid] += s[tid + stride];
        __syncthreads();
    }
    if (tid == 0)
        out[blockIdx.x] = s[0];
}

int main()
{
    int n = 100000;
    int *h_in = (int *)malloc(n * sizeof(int));
    long long expected = 0;
    for (int i = 0; i < n; i++) {
        h_in[i] = rand() % 100;
        expected += h_in[i];
    }
    int *d_a, *d_b;
    cudaMalloc(&d_a, n * sizeof(int));
    cudaMalloc(&d_b, n * sizeof(int));
    cudaMemcpy(d_a, h_in, n * sizeof(int), cudaMemcpyHostToDevice);
    int passes = 0;
    while (n > 1) {
        int blocks = (n + BLOCK * 2 - 1) / (BLOCK * 2);
        reduceSum<<<blocks, BLOCK>>>(d_a, d_b, n);
        passes++;
        printf("pass %d: %d elements -> %d\n", passes, n, blocks);
        int *t = d_a;
        d_a = d_b;
        d_b = t;
        n = blocks;
    }
    int sum = 0;
    cudaMemcpy(&sum, d_a, sizeof(int), cudaMemcpyDeviceToHost);
    printf("sum = %d, expected %lld\n", sum, expected);
    if (sum != expected)
        printf("WRONG\n");
    cudaFree(d_a);
    cudaFree(d_b);
    free(h_in);
    return 0;
}
