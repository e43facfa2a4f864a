// After NVIDIA's "GPU Pro Tip: Fast Histograms Using Shared Atomics on Maxwell" (and CUDA by Example, ch. 9): 64 bins per block in shared memory with atomicAdd, a grid-stride loop, then one global atomicAdd per bin and block.
#include <stdio.h>
#include <stdlib.h>

#define BINS 64

__global__ void histogramShared(const unsigned char *data, int n, unsigned int *hist)
{
    __shared__ unsigned int local[BINS];
    for (int b = threadIdx.x; b < BINS; b += blockDim.x)
        local[b] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        atomicAdd(&local[data[i] % BINS], 1u);
    __syncthreads();
    for (int b = threadIdx.x; b < BINS; b += blockDim.x)
        if (local[b] > 0)
            atomicAdd(&hist[b], local[b]);
}

static unsigned hash32(unsigned x)
{
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
}

int main()
{
    const int n = 40000;
    unsigned char *h_data = (unsigned char *)malloc(n);
    unsigned int h_hist[BINS];
    unsigned int ref[BINS];
    for (int b = 0; b < BINS; b++)
        ref[b] = 0;
    // Skewed: half the bytes fall in the low 8 bins, so atomics collide.
    for (int i = 0; i < n; i++) {
        unsigned h = hash32(i);
        h_data[i] = (unsigned char)((h & 1) ? (h >> 8) % 8 : (h >> 8) % 256);
        ref[h_data[i] % BINS]++;
    }
    unsigned char *d_data;
    unsigned int *d_hist;
    cudaMalloc(&d_data, n);
    cudaMalloc(&d_hist, BINS * sizeof(unsigned int));
    cudaMemcpy(d_data, h_data, n, cudaMemcpyHostToDevice);
    cudaMemset(d_hist, 0, BINS * sizeof(unsigned int));
    histogramShared<<<20, 256>>>(d_data, n, d_hist);
    cudaMemcpy(h_hist, d_hist, BINS * sizeof(unsigned int), cudaMemcpyDeviceToHost);
    int wrong = 0;
    unsigned int total = 0;
    for (int b = 0; b < BINS; b++) {
        total += h_hist[b];
        if (h_hist[b] != ref[b])
            wrong++;
    }
    printf("%u bytes counted, bin 0: %u, bin 63: %u, %d bins wrong: %s\n", total, h_hist[0], h_hist[BINS - 1], wrong, wrong == 0 ? "PASSED" : "FAILED");
    cudaFree(d_data);
    cudaFree(d_hist);
    free(h_data);
    return 0;
}
