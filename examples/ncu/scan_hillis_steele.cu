// After GPU Gems 3, ch. 39 (Harris, Sengupta, Owens), Example 39-1: the naive Hillis-Steele inclusive scan of each block's segment, double-buffered in shared memory.
#include <stdio.h>
#include <stdlib.h>

#define BLOCK 256

__global__ void scanHillisSteele(const int *g_in, int *g_out, int n)
{
    __shared__ int temp[2][BLOCK];
    int tid = threadIdx.x;
    int i = blockIdx.x * blockDim.x + tid;
    int pout = 0, pin = 1;
    temp[pout][tid] = (i < n) ? g_in[i] : 0;
    __syncthreads();
    for (int offset = 1; offset < blockDim.x; offset *= 2) {
        pout = 1 - pout;
        pin = 1 - pout;
        if (tid >= offset)
            temp[pout][tid] = temp[pin][tid] + temp[pin][tid - offset];
        else
            temp[pout][tid] = temp[pin][tid];
        __syncthreads();
    }
    if (i < n)
        g_out[i] = temp[pout][tid];
}

int main()
{
    const int n = 3000;
    const int blocks = (n + BLOCK - 1) / BLOCK;
    int *h_in = (int *)malloc(n * sizeof(int));
    int *h_out = (int *)malloc(n * sizeof(int));
    for (int i = 0; i < n; i++)
        h_in[i] = (i * 13 + 5) % 9;
    int *d_in, *d_out;
    cudaMalloc(&d_in, n * sizeof(int));
    cudaMalloc(&d_out, n * sizeof(int));
    cudaMemcpy(d_in, h_in, n * sizeof(int), cudaMemcpyHostToDevice);
    scanHillisSteele<<<blocks, BLOCK>>>(d_in, d_out, n);
    cudaMemcpy(h_out, d_out, n * sizeof(int), cudaMemcpyDeviceToHost);
    int wrong = 0;
    int run = 0;
    for (int i = 0; i < n; i++) {
        if (i % BLOCK == 0)
            run = 0;
        run += h_in[i];
        if (h_out[i] != run)
            wrong++;
    }
    printf("%d blocks, last segment total %d, %d wrong: %s\n", blocks, h_out[n - 1], wrong, wrong == 0 ? "PASSED" : "FAILED");
    cudaFree(d_in);
    cudaFree(d_out);
    free(h_in);
    free(h_out);
    return 0;
}
