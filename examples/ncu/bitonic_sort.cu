// After the classic shared-memory bitonic sort of course material (e.g. the CUDA SDK's early bitonic sample, one block per segment): each block sorts 256 keys, the compare direction and the partner test split every warp.
#include <stdio.h>
#include <stdlib.h>

#define NUM 256

__global__ void bitonicSort(int *values)
{
    __shared__ int shared[NUM];
    const unsigned int tid = threadIdx.x;
    int *seg = values + blockIdx.x * NUM;
    shared[tid] = seg[tid];
    __syncthreads();
    for (unsigned int k = 2; k <= NUM; k *= 2) {
        for (unsigned int j = k / 2; j > 0; j /= 2) {
            unsigned int ixj = tid ^ j;
            if (ixj > tid) {
                if ((tid & k) == 0) {
                    if (shared[tid] > shared[ixj]) {
                        int t = shared[tid];
                        shared[tid] = shared[ixj];
                        shared[ixj] = t;
                    }
                } else {
                    if (shared[tid] < shared[ixj]) {
                        int t = shared[tid];
                        shared[tid] = shared[ixj];
                        shared[ixj] = t;
                    }
                }
            }
            __syncthreads();
        }
    }
    seg[tid] = shared[tid];
}

int main()
{
    const int segments = 6;
    const int n = segments * NUM;
    int *h = (int *)malloc(n * sizeof(int));
    long long sum = 0;
    for (int i = 0; i < n; i++) {
        h[i] = (int)(((unsigned)i * 2654435761u) >> 16) % 1000;
        sum += h[i];
    }
    int *d;
    cudaMalloc(&d, n * sizeof(int));
    cudaMemcpy(d, h, n * sizeof(int), cudaMemcpyHostToDevice);
    bitonicSort<<<segments, NUM>>>(d);
    cudaMemcpy(h, d, n * sizeof(int), cudaMemcpyDeviceToHost);
    int unsorted = 0;
    long long after = 0;
    for (int i = 0; i < n; i++) {
        after += h[i];
        if (i % NUM != 0 && h[i - 1] > h[i])
            unsorted++;
    }
    printf("%d segments of %d, first %d last %d, %d out of order, sum %s: %s\n", segments, NUM, h[0], h[n - 1], unsorted,
           after == sum ? "kept" : "changed", unsorted == 0 && after == sum ? "PASSED" : "FAILED");
    cudaFree(d);
    free(h);
    return 0;
}
