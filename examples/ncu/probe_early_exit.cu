// Written for warpscope (issue 49's probe): the lanes of a mask skip the rest of the kernel by a flag (a return at the top, or in the middle), the pattern where ncu counted 2 more warp instructions than the simulator; one launch per lane pattern, single-warp and multi-warp.
#include <stdio.h>
#include <stdlib.h>

#define N 8

// The lanes of exitMask (lane = threadIdx.x % 32) return at once; the others sum N values.
__global__ void earlyExit(const int *in, int *out, unsigned int exitMask)
{
    int lane = threadIdx.x & 31;
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    bool done = (exitMask >> lane) & 1;
    if (done)
        return;
    int s = 0;
    for (int i = 0; i < N; i++)
        s += in[(t + i) % 64] * (i + 1);
    out[t] = s;
}

// The lanes of exitMask store a first result, then leave; the others go on.
__global__ void earlyExitMid(const int *in, int *out, unsigned int exitMask)
{
    int lane = threadIdx.x & 31;
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int s = in[t % 64];
    out[t] = s;
    bool done = (exitMask >> lane) & 1;
    if (done)
        return;
    for (int i = 1; i < N; i++)
        s += in[(t + i) % 64] * (i + 1);
    out[t] = s;
}

static int expected(const int *in, int t, unsigned int exitMask, int kernel)
{
    int lane = t & 31;
    bool done = (exitMask >> lane) & 1;
    if (done)
        return kernel == 0 ? -1 : in[t % 64];
    int s = 0;
    for (int i = 0; i < N; i++)
        s += in[(t + i) % 64] * (i + 1);
    return s;
}

#define PATTERNS 12

int main()
{
    // kernel: 0 earlyExit, 1 earlyExitMid.
    const int kernelOf[PATTERNS] = {0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 0, 1};
    const unsigned int maskOf[PATTERNS] = {
        0x00000000u, 0x00000001u, 0x80000000u, 0x0000ffffu, 0x55555555u, 0xfffffffeu, 0xffffffffu,
        0x00000001u, 0x0000ffffu, 0xfffffffeu,
        0x0000ffffu, 0x0000ffffu};
    // The last two run 2 blocks of 4 warps, the others one warp.
    const int blocksOf[PATTERNS] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2};
    const int threadsOf[PATTERNS] = {32, 32, 32, 32, 32, 32, 32, 32, 32, 32, 128, 128};
    const int most = 2 * 128;
    int h_in[64];
    for (int i = 0; i < 64; i++)
        h_in[i] = (i * 11 + 3) % 19 - 9;
    int *h_out = (int *)malloc(most * sizeof(int));
    int *d_in, *d_out;
    cudaMalloc(&d_in, 64 * sizeof(int));
    cudaMalloc(&d_out, most * sizeof(int));
    cudaMemcpy(d_in, h_in, 64 * sizeof(int), cudaMemcpyHostToDevice);
    int failed = 0;
    for (int p = 0; p < PATTERNS; p++) {
        int k = kernelOf[p];
        int n = blocksOf[p] * threadsOf[p];
        // -1 marks what a lane that left at once never wrote.
        cudaMemset(d_out, 0xff, most * sizeof(int));
        if (k == 0)
            earlyExit<<<blocksOf[p], threadsOf[p]>>>(d_in, d_out, maskOf[p]);
        else
            earlyExitMid<<<blocksOf[p], threadsOf[p]>>>(d_in, d_out, maskOf[p]);
        cudaMemcpy(h_out, d_out, n * sizeof(int), cudaMemcpyDeviceToHost);
        int wrong = 0;
        for (int t = 0; t < n; t++)
            if (h_out[t] != expected(h_in, t, maskOf[p], k))
                wrong++;
        if (wrong)
            failed++;
        printf("launch %2d: %s mask 0x%08x <<<%d, %d>>>: %d wrong\n", p + 1,
               k == 0 ? "earlyExit   " : "earlyExitMid", maskOf[p], blocksOf[p], threadsOf[p], wrong);
    }
    printf("%s\n", failed == 0 ? "PASSED" : "FAILED");
    cudaFree(d_in);
    cudaFree(d_out);
    free(h_out);
    return 0;
}
