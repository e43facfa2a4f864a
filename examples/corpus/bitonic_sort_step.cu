// One step of a bitonic sort.
// The host runs the network: for each sequence size k = 2, 4, ..., n and each
// distance j = k/2, ..., 1 it launches one step, in which thread i compares its
// element with the element at i ^ j and swaps them into ascending or descending
// order depending on bit k of i.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void bitonic_sort_step(int* values, int j, int k) {
    unsigned int i = threadIdx.x + blockDim.x * blockIdx.x;
    unsigned int ixj = i ^ j;

    // Only the lower thread of each pair does the work.
    if (ixj > i) {
        if ((i & k) == 0) {
            // Sort ascending.
            if (values[i] > values[ixj]) {
                int temp = values[i];
                values[i] = values[ixj];
                values[ixj] = temp;
            }
        }
        if ((i & k) != 0) {
            // Sort descending.
            if (values[i] < values[ixj]) {
                int temp = values[i];
                values[i] = values[ixj];
                values[ixj] = temp;
            }
        }
    }
}

int main() {
    const int n = 1024;  // a power of two
    const int threads = 256;
    int* h = (int*)malloc(n * sizeof(int));
    for (int i = 0; i < n; i++) h[i] = rand() % 1000;

    int* d;
    cudaMalloc(&d, n * sizeof(int));
    cudaMemcpy(d, h, n * sizeof(int), cudaMemcpyHostToDevice);
    for (int k = 2; k <= n; k <<= 1)
        for (int j = k >> 1; j > 0; j >>= 1)
            bitonic_sort_step<<<n / threads, threads>>>(d, j, k);
    cudaMemcpy(h, d, n * sizeof(int), cudaMemcpyDeviceToHost);

    int sorted = 1;
    for (int i = 1; i < n; i++) sorted &= h[i - 1] <= h[i];
    printf("%s\n", sorted ? "sorted" : "NOT sorted");
    cudaFree(d);
    free(h);
    return 0;
}
