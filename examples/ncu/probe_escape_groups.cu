// Written for warpscope (issue 49's probe): mandelbrot's escape loop one warp at a time, with each of that program's 120 warps' pixels and with lane groups of chosen sizes leaving at chosen trips, to read which groups waiting at one BSYNC the H100 issues it for together.
#include <stdio.h>
#include <stdlib.h>

#define MAX_ITER 64

// mandelbrot.cu's kernel, its pixel given per lane: the same loop, so the same SASS.
__global__ void escape(int *iters, const int *pxs, const int *pys, float x0, float y0, float step)
{
    int px = pxs[threadIdx.x];
    int py = pys[threadIdx.x];
    float cr = x0 + px * step;
    float ci = y0 + py * step;
    float zr = 0.0f, zi = 0.0f;
    int k = 0;
    while (k < MAX_ITER && zr * zr + zi * zi < 4.0f) {
        float t = zr * zr - zi * zi + cr;
        zi = 2.0f * zr * zi + ci;
        zr = t;
        k++;
    }
    iters[threadIdx.x] = k;
}

// The same shape of loop, left by lane l after exactly trips[l] trips (z counts 0, 1, 2, ...
// exactly in float, and a float loop is not folded away).
__global__ void steps(int *iters, const float *limits)
{
    float limit = limits[threadIdx.x];
    float z = 0.0f;
    int k = 0;
#pragma unroll
    while (k < MAX_ITER && z < limit) {
        z = z + 1.0f;
        k++;
    }
    iters[threadIdx.x] = k;
}

// steps as a loop nvcc keeps rolled: every group leaves by the one backward branch.
__global__ void stepsRolled(int *iters, const float *limits)
{
    float limit = limits[threadIdx.x];
    float z = 0.0f;
    int k = 0;
#pragma unroll 1
    while (k < MAX_ITER && z < limit) {
        z = z + 1.0f;
        k++;
    }
    iters[threadIdx.x] = k;
}

// Group sizes in the order the groups leave, summing to 32; group g leaves at trip 3g + 2 (the
// last at MAX_ITER when its row ends in 0: it runs the whole loop).
#define SHAPES 22

// The lowbias32 mixer of the corpus's other programs: a fixed hash, so the GPU and the
// simulator see the same bytes.
static unsigned int hash32(unsigned int x)
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
    const int w = 80, h = 48;
    const float x0 = -2.0f, y0 = -1.2f, step = 0.05f;
    int pxs[32], pys[32], iters[32];
    float limits[32];
    int *d_iters, *d_px, *d_py;
    float *d_limits;
    cudaMalloc(&d_iters, 32 * sizeof(int));
    cudaMalloc(&d_px, 32 * sizeof(int));
    cudaMalloc(&d_py, 32 * sizeof(int));
    cudaMalloc(&d_limits, 32 * sizeof(float));
    int launch = 0;
    // Group sizes in the order the groups leave, summing to 32; group g leaves at trip 3g + 2
    // (the last at MAX_ITER in the third variant: it runs the whole loop).
    const int shapes[SHAPES][9] = {
        {16, 16, 0}, {20, 12, 0}, {12, 20, 0}, {24, 8, 0}, {8, 24, 0}, {31, 1, 0}, {1, 31, 0},
        {8, 8, 8, 8, 0}, {4, 4, 4, 20, 0}, {20, 4, 4, 4, 0}, {12, 4, 4, 12, 0}, {4, 12, 12, 4, 0},
        {10, 11, 11, 0}, {11, 11, 10, 0}, {6, 6, 6, 6, 8, 0}, {16, 8, 4, 2, 1, 1, 0},
        {1, 1, 2, 4, 8, 16, 0}, {3, 5, 7, 9, 8, 0}, {9, 7, 5, 3, 8, 0}, {2, 2, 2, 2, 2, 2, 20, 0},
        {14, 2, 2, 2, 2, 2, 8, 0}, {5, 5, 5, 5, 5, 7, 0}};

    // mandelbrot.cu's warps in launch order: blocks of 16x8 threads, a warp two rows of 16.
    for (int by = 0; by < h / 8; by++) {
        for (int bx = 0; bx < w / 16; bx++) {
            for (int warp = 0; warp < 4; warp++) {
                for (int l = 0; l < 32; l++) {
                    pxs[l] = bx * 16 + l % 16;
                    pys[l] = by * 8 + warp * 2 + l / 16;
                }
                cudaMemcpy(d_px, pxs, sizeof(pxs), cudaMemcpyHostToDevice);
                cudaMemcpy(d_py, pys, sizeof(pys), cudaMemcpyHostToDevice);
                escape<<<1, 32>>>(d_iters, d_px, d_py, x0, y0, step);
                cudaMemcpy(iters, d_iters, sizeof(iters), cudaMemcpyDeviceToHost);
                printf("%d escape block (%d,%d) warp %d:", launch, bx, by, warp);
                for (int l = 0; l < 32; l++)
                    printf(" %d", iters[l]);
                printf("\n");
                launch++;
            }
        }
    }

    // Each shape four times: the groups' lanes contiguous (group 0 the lowest lanes); dealt
    // (lane l takes lane 7l mod 32 of the contiguous order); contiguous with the last group
    // running the whole loop; contiguous in the rolled loop.
    for (int s = 0; s < SHAPES; s++) {
        for (int dealt = 0; dealt < 4; dealt++) {
            int trips[32];
            int groups = 0;
            while (shapes[s][groups] != 0)
                groups++;
            int lane = 0;
            for (int g = 0; g < groups; g++) {
                int trip = (dealt == 2 && g == groups - 1) ? MAX_ITER : 3 * g + 2;
                for (int i = 0; i < shapes[s][g]; i++)
                    trips[lane++] = trip;
            }
            for (int l = 0; l < 32; l++) {
                int from = dealt == 1 ? (l * 7) % 32 : l;
                limits[l] = (float)trips[from];
            }
            cudaMemcpy(d_limits, limits, sizeof(limits), cudaMemcpyHostToDevice);
            if (dealt == 3)
                stepsRolled<<<1, 32>>>(d_iters, d_limits);
            else
                steps<<<1, 32>>>(d_iters, d_limits);
            cudaMemcpy(iters, d_iters, sizeof(iters), cudaMemcpyDeviceToHost);
            printf("%d steps shape %d dealt %d:", launch, s, dealt);
            for (int l = 0; l < 32; l++)
                printf(" %d", iters[l]);
            printf("\n");
            launch++;
        }
    }

    // Random trips: k distinct trips among 1..MAX_ITER, each lane one of them.
    for (int r = 0; r < 40; r++) {
        int k = 2 + r % 8;
        int choice[9];
        for (int i = 0; i < k; i++)
            choice[i] = 1 + (int)(hash32(100 * r + i) % MAX_ITER);
        for (int l = 0; l < 32; l++)
            limits[l] = (float)choice[hash32(100 * r + 50 + l) % k];
        cudaMemcpy(d_limits, limits, sizeof(limits), cudaMemcpyHostToDevice);
        steps<<<1, 32>>>(d_iters, d_limits);
        cudaMemcpy(iters, d_iters, sizeof(iters), cudaMemcpyDeviceToHost);
        printf("%d steps random %d:", launch, r);
        for (int l = 0; l < 32; l++)
            printf(" %d", iters[l]);
        printf("\n");
        launch++;
    }
    printf("%d launches\n", launch);
    cudaFree(d_iters);
    cudaFree(d_px);
    cudaFree(d_py);
    cudaFree(d_limits);
    return 0;
}
