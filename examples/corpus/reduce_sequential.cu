// Parallel reduction, version 3: sequential addressing.
// The stride starts at half the block and halves each step; thread tid adds the
// element s places above it. Active threads stay contiguous and reads are
// conflict-free. A complete program: the host sums the per-block results.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define BLOCK_SIZE 32

__global__ void reduce_sequential(const int* g_idata, int* g_odata) {
    __shared__ int sdata[BLOCK_SIZE];

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

int main() {
    const int n = 1024;
    const int blocks = n / BLOCK_SIZE;
    int* h_in = (int*)malloc(n * sizeof(int));
    int* h_out = (int*)malloc(blocks * sizeof(int));
    for (int i = 0; i < n; i++) h_in[i] = i;

    int *d_in, *d_out;
    cudaMalloc(&d_in, n * sizeof(int));
    cudaMalloc(&d_out, blocks * sizeof(int));
    cudaMemcpy(d_in, h_in, n * sizeof(int), cudaMemcpyHostToDevice);

    reduce_sequential<<<blocks, BLOCK_SIZE>>>(d_in, d_out);
    cudaMemcpy(h_out, d_out, blocks * sizeof(int), cudaMemcpyDeviceToHost);

    long long total = 0;
    for (int b = 0; b < blocks; b++) total += h_out[b];
    printf("sum = %lld (expected %lld)\n", total, (long long)n * (n - 1) / 2);

    cudaFree(d_in);
    cudaFree(d_out);
    free(h_in);
    free(h_out);
    return 0;
}
