// warpscope's own buggy-kernel corpus (written for warpscope): the histogram's bins come from cudaMalloc and are never zeroed, so every atomicAdd adds to whatever the memory held (an uninitialised global read); -DFIXED clears them with cudaMemset
#include <stdio.h>
#define BINS 8
__global__ void histogram(const int *data, int *bins, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        atomicAdd(&bins[data[i] % BINS], 1);
}
int main()
{
    const int n = 256;
    int h[n], counts[BINS], *d_data, *d_bins;
    for (int i = 0; i < n; i++)
        h[i] = i * 7;
    cudaMalloc(&d_data, sizeof(h));
    cudaMalloc(&d_bins, sizeof(counts));
    cudaMemcpy(d_data, h, sizeof(h), cudaMemcpyHostToDevice);
#ifdef FIXED
    cudaMemset(d_bins, 0, sizeof(counts));
#endif
    histogram<<<n / 64, 64>>>(d_data, d_bins, n);
    cudaMemcpy(counts, d_bins, sizeof(counts), cudaMemcpyDeviceToHost);
    int total = 0;
    for (int b = 0; b < BINS; b++)
        total += counts[b];
    printf("%d values counted\n", total);
    return 0;
}
