// Written for warpscope (issue 49's probe): an if/else inside a loop whose trip count differs per lane, the pattern where ncu counted 2 to 4 more warp instructions than the simulator; one launch per lane pattern and kernel (a short if/else nvcc predicates, a long one it branches around), single-warp and multi-warp.
#include <stdio.h>
#include <stdlib.h>

// Lane l (threadIdx.x % 32) runs base + (l * spread) % 8 trips; at trip i it takes the if side
// when bit (l + i) % 32 of sideMask is set, else the else side. nvcc predicates sides this
// short (and unrolls the loop by 4), so on the GPU the warp need not diverge inside it.
__global__ void ifElseLoop(const int *table, int *out, int base, int spread, unsigned int sideMask)
{
    int lane = threadIdx.x & 31;
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int trips = base + (lane * spread) % 8;
    int a = lane, b = 1;
    for (int i = 0; i < trips; i++) {
        if ((sideMask >> ((lane + i) & 31)) & 1) {
            a = a * 3 + table[(a + i) & 63];
            b = b + (a >> 2);
        } else {
            b = b * 5 - table[(b ^ i) & 63];
            a = a ^ (b << 1);
        }
    }
    out[t] = a + b;
}

// The same choice with longer sides (four dependent table reads each) in a loop kept rolled,
// so nvcc keeps a real branch inside the loop.
__global__ void ifElseLoopLong(const int *table, int *out, int base, int spread, unsigned int sideMask)
{
    int lane = threadIdx.x & 31;
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int trips = base + (lane * spread) % 8;
    int a = lane, b = 1;
#pragma unroll 1
    for (int i = 0; i < trips; i++) {
        if ((sideMask >> ((lane + i) & 31)) & 1) {
            for (int j = 0; j < 4; j++)
                a = a * 3 + table[(a + i + j) & 63];
            b = b + (a >> 2);
        } else {
            for (int j = 0; j < 4; j++)
                b = b * 5 - table[(b ^ (i + j)) & 63];
            a = a ^ (b << 1);
        }
    }
    out[t] = a + b;
}

static int expected(const int *table, int lane, int base, int spread, unsigned int sideMask, int kernel)
{
    int trips = base + (lane * spread) % 8;
    int a = lane, b = 1;
    int reads = kernel == 0 ? 1 : 4;
    for (int i = 0; i < trips; i++) {
        if ((sideMask >> ((lane + i) & 31)) & 1) {
            for (int j = 0; j < reads; j++)
                a = a * 3 + table[(a + i + j) & 63];
            b = b + (a >> 2);
        } else {
            for (int j = 0; j < reads; j++)
                b = b * 5 - table[(b ^ (i + j)) & 63];
            a = a ^ (b << 1);
        }
    }
    return a + b;
}

#define PATTERNS 9

int main()
{
    const int baseOf[PATTERNS] = {4, 4, 3, 2, 0, 6, 1, 3, 2};
    const int spreadOf[PATTERNS] = {0, 1, 1, 3, 5, 2, 7, 1, 3};
    const unsigned int sideOf[PATTERNS] = {
        0x0000ffffu, 0xffffffffu, 0x0000ffffu, 0x55555555u, 0x0000ffffu, 0x00000001u, 0x00000000u,
        0x0000ffffu, 0x55555555u};
    // The last two run 2 blocks of 4 warps, the others one warp.
    const int blocksOf[PATTERNS] = {1, 1, 1, 1, 1, 1, 1, 2, 2};
    const int threadsOf[PATTERNS] = {32, 32, 32, 32, 32, 32, 32, 128, 128};
    const int most = 2 * 128;
    int h_table[64];
    for (int i = 0; i < 64; i++)
        h_table[i] = (i * 23 + 7) % 31;
    int *h_out = (int *)malloc(most * sizeof(int));
    int *d_table, *d_out;
    cudaMalloc(&d_table, 64 * sizeof(int));
    cudaMalloc(&d_out, most * sizeof(int));
    cudaMemcpy(d_table, h_table, 64 * sizeof(int), cudaMemcpyHostToDevice);
    int failed = 0;
    for (int p = 0; p < PATTERNS; p++) {
        int n = blocksOf[p] * threadsOf[p];
        for (int k = 0; k < 2; k++) {
            cudaMemset(d_out, 0, most * sizeof(int));
            if (k == 0)
                ifElseLoop<<<blocksOf[p], threadsOf[p]>>>(d_table, d_out, baseOf[p], spreadOf[p], sideOf[p]);
            else
                ifElseLoopLong<<<blocksOf[p], threadsOf[p]>>>(d_table, d_out, baseOf[p], spreadOf[p], sideOf[p]);
            cudaMemcpy(h_out, d_out, n * sizeof(int), cudaMemcpyDeviceToHost);
            int wrong = 0;
            for (int t = 0; t < n; t++)
                if (h_out[t] != expected(h_table, t & 31, baseOf[p], spreadOf[p], sideOf[p], k))
                    wrong++;
            if (wrong)
                failed++;
            printf("launch %2d: %s trips %d + (lane * %d) %% 8, sides 0x%08x <<<%d, %d>>>: %d wrong\n",
                   2 * p + k + 1, k == 0 ? "ifElseLoop    " : "ifElseLoopLong", baseOf[p], spreadOf[p],
                   sideOf[p], blocksOf[p], threadsOf[p], wrong);
        }
    }
    printf("%s\n", failed == 0 ? "PASSED" : "FAILED");
    cudaFree(d_table);
    cudaFree(d_out);
    free(h_out);
    return 0;
}
