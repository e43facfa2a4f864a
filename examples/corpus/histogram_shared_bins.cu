// Histogram with privatised bins in shared memory.
// Each block first counts into its own copy of the bins (fast shared-memory
// atomics, contention only inside the block), then adds its copy into the global
// histogram with one atomic per bin. The input loop is grid-stride.
#include <cstdio>
#include <cuda_runtime.h>

#define NUM_BINS 8

__global__ void histogram_shared(const unsigned int* data, unsigned int* bins, int n) {
    __shared__ unsigned int local_bins[NUM_BINS];

    if (threadIdx.x < NUM_BINS) local_bins[threadIdx.x] = 0;
    __syncthreads();

    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        atomicAdd(&local_bins[data[i] % NUM_BINS], 1u);
    }
    __syncthreads();

    if (threadIdx.x < NUM_BINS) atomicAdd(&bins[threadIdx.x], local_bins[threadIdx.x]);
}

int main() {
    const int n = 1 << 16;
    unsigned int* data;
    unsigned int* bins;
    cudaMallocManaged(&data, n * sizeof(unsigned int));
    cudaMallocManaged(&bins, NUM_BINS * sizeof(unsigned int));
    for (int i = 0; i < n; i++) data[i] = (i * 7) % 101;
    cudaMemset(bins, 0, NUM_BINS * sizeof(unsigned int));

    histogram_shared<<<64, 256>>>(data, bins, n);
    cudaDeviceSynchronize();

    for (int b = 0; b < NUM_BINS; b++) printf("bin %d: %u\n", b, bins[b]);
    cudaFree(data);
    cudaFree(bins);
    return 0;
}
