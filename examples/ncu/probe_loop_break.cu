// Written for warpscope (issue 49's probe): a loop of 16 trips that the lanes of a mask leave by `break` at trip c, the pattern where ncu counted 35 more warp instructions than the simulator; one launch per lane pattern, single-warp and multi-warp.
#include <stdio.h>
#include <stdlib.h>

#define TRIPS 16

// The lanes of breakMask (lane = threadIdx.x % 32, so every warp has the same pattern) leave
// at trip c; the others run all 16 trips.
__global__ void loopBreak(int *out, unsigned int breakMask, int c)
{
    int lane = threadIdx.x & 31;
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int s = lane;
    for (int i = 0; i < TRIPS; i++) {
        if (i == c && ((breakMask >> lane) & 1))
            break;
        s = s * 3 + i;
    }
    out[t] = s;
}

// As loopBreak, but lane l of breakMask leaves at its own trip, bits 2l..2l+1 of trips (0 to 3).
__global__ void loopBreakMixed(int *out, unsigned int breakMask, unsigned long long trips)
{
    int lane = threadIdx.x & 31;
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int c = (int)((trips >> (2 * lane)) & 3);
    int s = lane;
    for (int i = 0; i < TRIPS; i++) {
        if (i == c && ((breakMask >> lane) & 1))
            break;
        s = s * 3 + i;
    }
    out[t] = s;
}

// As loopBreak, kept a loop: nvcc may unroll the others.
__global__ void loopBreakRolled(int *out, unsigned int breakMask, int c)
{
    int lane = threadIdx.x & 31;
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int s = lane;
#pragma unroll 1
    for (int i = 0; i < TRIPS; i++) {
        if (i == c && ((breakMask >> lane) & 1))
            break;
        s = s * 3 + i;
    }
    out[t] = s;
}

static int expected(int lane, unsigned int breakMask, int c)
{
    int s = lane;
    for (int i = 0; i < TRIPS; i++) {
        if (i == c && ((breakMask >> lane) & 1))
            break;
        s = s * 3 + i;
    }
    return s;
}

#define PATTERNS 19

int main()
{
    // kernel: 0 loopBreak, 1 loopBreakMixed, 2 loopBreakRolled.
    const int kernelOf[PATTERNS] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 2, 2, 2, 2, 0, 0, 0, 0, 2};
    const unsigned int maskOf[PATTERNS] = {
        0x0000ffffu, 0x0000ffffu, 0x0000ffffu, 0x0000ffffu,
        0x00000001u, 0x55555555u, 0xfffffffeu, 0xffffffffu,
        0xffffffffu, 0x0f0f0f0fu,
        0x0000ffffu, 0x0000ffffu, 0x0000ffffu, 0x0000ffffu,
        0x0000ffffu, 0x0000ffffu, 0x0000ffffu, 0x0000ffffu,
        0x0000ffffu};
    const int cOf[PATTERNS] = {0, 1, 2, 3, 1, 1, 1, 1, 0, 0, 0, 1, 2, 3, 0, 1, 2, 3, 2};
    // loopBreakMixed's lanes break at their own trips: lane l at l % 4 (mixed 1), then at
    // (l / 8) % 4 (mixed 2); packed 2 bits a lane.
    const int mixedOf[PATTERNS] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    // The last five run 2 blocks of 4 warps, the others one warp.
    const int blocksOf[PATTERNS] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2};
    const int threadsOf[PATTERNS] = {32, 32, 32, 32, 32, 32, 32, 32, 32, 32, 32, 32, 32, 32, 128, 128, 128, 128, 128};
    const int most = 2 * 128;
    int *h_out = (int *)malloc(most * sizeof(int));
    int *d_out;
    cudaMalloc(&d_out, most * sizeof(int));
    int failed = 0;
    for (int p = 0; p < PATTERNS; p++) {
        int k = kernelOf[p];
        int n = blocksOf[p] * threadsOf[p];
        unsigned long long trips = 0;
        for (int lane = 0; lane < 32; lane++) {
            unsigned long long c = mixedOf[p] == 1 ? lane % 4 : (lane / 8) % 4;
            if (mixedOf[p] != 0)
                trips |= c << (2 * lane);
        }
        cudaMemset(d_out, 0, most * sizeof(int));
        if (k == 0)
            loopBreak<<<blocksOf[p], threadsOf[p]>>>(d_out, maskOf[p], cOf[p]);
        else if (k == 1)
            loopBreakMixed<<<blocksOf[p], threadsOf[p]>>>(d_out, maskOf[p], trips);
        else
            loopBreakRolled<<<blocksOf[p], threadsOf[p]>>>(d_out, maskOf[p], cOf[p]);
        cudaMemcpy(h_out, d_out, n * sizeof(int), cudaMemcpyDeviceToHost);
        int wrong = 0;
        for (int t = 0; t < n; t++) {
            int lane = t & 31;
            int c = k == 1 ? (int)((trips >> (2 * lane)) & 3) : cOf[p];
            if (h_out[t] != expected(lane, maskOf[p], c))
                wrong++;
        }
        if (wrong)
            failed++;
        printf("launch %2d: %s mask 0x%08x c %d trips 0x%016llx <<<%d, %d>>>: %d wrong\n", p + 1,
               k == 0 ? "loopBreak      " : (k == 1 ? "loopBreakMixed " : "loopBreakRolled"),
               maskOf[p], k == 1 ? -1 : cOf[p], trips, blocksOf[p], threadsOf[p], wrong);
    }
    printf("%s\n", failed == 0 ? "PASSED" : "FAILED");
    cudaFree(d_out);
    free(h_out);
    return 0;
}
