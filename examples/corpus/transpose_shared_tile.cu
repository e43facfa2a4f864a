// Matrix transpose through a shared-memory tile.
// A naive transpose either reads or writes global memory with a stride. Here the
// block reads a 4 x 8 tile row by row (coalesced), and writes the 8 x 4 result row
// by row too, reading the tile by column instead. The extra column of padding
// puts the elements of a tile column in different banks.
#define TILE_ROWS 4
#define TILE_COLS 8

// One block of TILE_ROWS * TILE_COLS = 32 threads (one warp), threads numbered flat.
__global__ void transpose_tile(const float* in, float* out) {
    __shared__ float tile[TILE_ROWS][TILE_COLS + 1];

    int t = threadIdx.x;
    int x = t % TILE_COLS;  // column of the input
    int y = t / TILE_COLS;  // row of the input
    tile[y][x] = in[y * TILE_COLS + x];

    __syncthreads();

    int r = t / TILE_ROWS;  // row of the output = column of the input
    int c = t % TILE_ROWS;  // column of the output = row of the input
    out[r * TILE_ROWS + c] = tile[c][r];
}
