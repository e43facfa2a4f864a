// After NVIDIA's "An Efficient Matrix Transpose in CUDA C/C++" (Mark Harris; cuda-samples transpose, transposeNoBankConflicts): a 32x32 tile padded to 33 columns, 32x8 threads each moving 4 rows, with bounds checks for sizes that are not multiples of the tile.
#include <stdio.h>
#include <stdlib.h>

#define TILE_DIM 32
#define BLOCK_ROWS 8

// out (w x h) = transpose of in (h x w), both row-major.
__global__ void transposeNoBankConflicts(float *odata, const float *idata, int w, int h)
{
    __shared__ float tile[TILE_DIM][TILE_DIM + 1];
    int x = blockIdx.x * TILE_DIM + threadIdx.x;
    int y = blockIdx.y * TILE_DIM + threadIdx.y;
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
        if (x < w && y + j < h)
            tile[threadIdx.y + j][threadIdx.x] = idata[(y + j) * w + x];
    __syncthreads();
    x = blockIdx.y * TILE_DIM + threadIdx.x;
    y = blockIdx.x * TILE_DIM + threadIdx.y;
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
        if (x < h && y + j < w)
            odata[(y + j) * h + x] = tile[threadIdx.x][threadIdx.y + j];
}

int main()
{
    const int w = 80, h = 72;
    float *in = (float *)malloc(w * h * sizeof(float));
    float *out = (float *)malloc(w * h * sizeof(float));
    for (int i = 0; i < w * h; i++)
        in[i] = (float)i;
    float *d_in, *d_out;
    cudaMalloc(&d_in, w * h * sizeof(float));
    cudaMalloc(&d_out, w * h * sizeof(float));
    cudaMemcpy(d_in, in, w * h * sizeof(float), cudaMemcpyHostToDevice);
    dim3 grid((w + TILE_DIM - 1) / TILE_DIM, (h + TILE_DIM - 1) / TILE_DIM);
    dim3 block(TILE_DIM, BLOCK_ROWS);
    transposeNoBankConflicts<<<grid, block>>>(d_out, d_in, w, h);
    cudaMemcpy(out, d_out, w * h * sizeof(float), cudaMemcpyDeviceToHost);
    int wrong = 0;
    for (int r = 0; r < h; r++)
        for (int c = 0; c < w; c++)
            if (out[c * h + r] != in[r * w + c])
                wrong++;
    printf("%dx%d matrix, %dx%d tiles, out[1] = %.0f, %d wrong: %s\n", h, w, grid.x, grid.y, out[1], wrong, wrong == 0 ? "PASSED" : "FAILED");
    cudaFree(d_in);
    cudaFree(d_out);
    free(in);
    free(out);
    return 0;
}
