// Written for warpscope, after the Jacobi iteration of course notes (e.g. Kirk & Hwu's stencil chapter): a 5-point 2D stencil whose boundary cells take their own branch, two sweeps ping-ponged from the host.
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

// Interior cells average their four neighbours; the edges keep their fixed value, the
// corners too; threads past the grid do nothing.
__global__ void jacobiStep(const float *in, float *out, int w, int h)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h)
        return;
    int i = y * w + x;
    if (x == 0 || y == 0 || x == w - 1 || y == h - 1) {
        out[i] = in[i];
    } else {
        out[i] = 0.25f * (in[i - 1] + in[i + 1] + in[i - w] + in[i + w]);
    }
}

int main()
{
    const int w = 60, h = 44;
    const int size = w * h;
    float *grid = (float *)malloc(size * sizeof(float));
    float *ref = (float *)malloc(size * sizeof(float));
    float *tmp = (float *)malloc(size * sizeof(float));
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            grid[y * w + x] = (y == 0) ? 100.0f : (x == 0 ? 50.0f : (float)((x * 3 + y * 7) % 10));
    for (int i = 0; i < size; i++)
        ref[i] = grid[i];
    float *d_a, *d_b;
    cudaMalloc(&d_a, size * sizeof(float));
    cudaMalloc(&d_b, size * sizeof(float));
    cudaMemcpy(d_a, grid, size * sizeof(float), cudaMemcpyHostToDevice);
    dim3 block(16, 16);
    dim3 blocks((w + 15) / 16, (h + 15) / 16);
    const int sweeps = 2;
    for (int s = 0; s < sweeps; s++) {
        jacobiStep<<<blocks, block>>>(d_a, d_b, w, h);
        float *t = d_a;
        d_a = d_b;
        d_b = t;
    }
    cudaMemcpy(grid, d_a, size * sizeof(float), cudaMemcpyDeviceToHost);
    for (int s = 0; s < sweeps; s++) {
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) {
                int i = y * w + x;
                if (x == 0 || y == 0 || x == w - 1 || y == h - 1)
                    tmp[i] = ref[i];
                else
                    tmp[i] = 0.25f * (ref[i - 1] + ref[i + 1] + ref[i - w] + ref[i + w]);
            }
        for (int i = 0; i < size; i++)
            ref[i] = tmp[i];
    }
    int wrong = 0;
    float total = 0.0f;
    for (int i = 0; i < size; i++) {
        if (fabsf(grid[i] - ref[i]) > 1e-4f)
            wrong++;
        total += grid[i];
    }
    printf("%dx%d grid, %d sweeps, cell (1,1) = %.4f, total %.2f, %d wrong: %s\n", w, h, sweeps, grid[w + 1], total, wrong, wrong == 0 ? "PASSED" : "FAILED");
    cudaFree(d_a);
    cudaFree(d_b);
    free(grid);
    free(ref);
    free(tmp);
    return 0;
}
