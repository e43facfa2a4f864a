// warpscope's own course program (written for warpscope, after the PMPP book's privatised histogram, chapter 9): shared-memory bins merged with atomics, checked on the CPU
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <vector>

#define BINS 16

#define CHECK(call)                                                          \
    do {                                                                     \
        cudaError_t err = (call);                                            \
        if (err != cudaSuccess) {                                            \
            fprintf(stderr, "CUDA error at %s:%d: %s\n", __FILE__, __LINE__, \
                    cudaGetErrorString(err));                                \
            exit(EXIT_FAILURE);                                              \
        }                                                                    \
    } while (0)

__global__ void histogram(const unsigned char *data, int n, unsigned int *bins)
{
    __shared__ unsigned int local[BINS];
    if (threadIdx.x < BINS)
        local[threadIdx.x] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        atomicAdd(&local[data[i] % BINS], 1);
    __syncthreads();
    if (threadIdx.x < BINS)
        atomicAdd(&bins[threadIdx.x], local[threadIdx.x]);
}

int main()
{
    const int n = 20000;
    std::vector<unsigned char> data(n);
    srand(42);
    for (int i = 0; i < n; i++)
        data[i] = rand() % 256;

    std::vector<unsigned int> expected(BINS, 0);
    for (int i = 0; i < n; i++)
        expected[data[i] % BINS]++;

    unsigned char *d_data;
    unsigned int *d_bins;
    CHECK(cudaMalloc(&d_data, n));
    CHECK(cudaMalloc(&d_bins, BINS * sizeof(unsigned int)));
    CHECK(cudaMemcpy(d_data, data.data(), n, cudaMemcpyHostToDevice));
    CHECK(cudaMemset(d_bins, 0, BINS * sizeof(unsigned int)));

    histogram<<<8, 128>>>(d_data, n, d_bins);
    CHECK(cudaGetLastError());

    std::vector<unsigned int> bins(BINS);
    CHECK(cudaMemcpy(bins.data(), d_bins, BINS * sizeof(unsigned int), cudaMemcpyDeviceToHost));

    int wrong = 0;
    unsigned int total = 0;
    for (int b = 0; b < BINS; b++) {
        std::cout << "bin " << b << ": " << bins[b] << std::endl;
        total += bins[b];
        if (bins[b] != expected[b])
            wrong++;
    }
    std::cout << "total " << total << " of " << n << std::endl;
    std::cout << (wrong == 0 ? "PASSED" : "FAILED") << std::endl;
    CHECK(cudaFree(d_data));
    CHECK(cudaFree(d_bins));
    return wrong;
}
