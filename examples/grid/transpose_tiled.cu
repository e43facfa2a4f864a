// Origin: Ruetsch and Micikevicius, "Optimizing Matrix Transpose in CUDA" (NVIDIA CUDA samples, transposeCoalesced with the padded tile); a 64 x 64 matrix, 32 x 32 tiles, blocks of 32 x 8 threads.
//@ title Coalesced transpose through a padded shared tile (CUDA samples)
//@ about Each block of 32 x 8 threads copies a 32 x 32 tile in four rows per thread, waits, and
//@ about writes it transposed: thread (x, y) writes what threads of other warps read.
//@ launch grid=(2, 2) block=(32, 8)
//@ buffer idata: f32[4096] = i
//@ buffer odata: f32[4096]
#define TILE_DIM 32
#define BLOCK_ROWS 8
__global__ void transposeCoalesced(float* odata, const float* idata) {
    __shared__ float tile[TILE_DIM][TILE_DIM + 1];
    int x = blockIdx.x * TILE_DIM + threadIdx.x;
    int y = blockIdx.y * TILE_DIM + threadIdx.y;
    int width = gridDim.x * TILE_DIM;
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
        tile[threadIdx.y + j][threadIdx.x] = idata[(y + j) * width + x];
    __syncthreads();
    x = blockIdx.y * TILE_DIM + threadIdx.x;
    y = blockIdx.x * TILE_DIM + threadIdx.y;
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
        odata[(y + j) * width + x] = tile[threadIdx.x][threadIdx.y + j];
}
