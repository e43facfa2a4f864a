// Origin: Kirk and Hwu, "Programming Massively Parallel Processors" (3rd ed., 2016), figure 4.16, the tiled matrix multiply; 32 x 32 matrices, 16 x 16 tiles, a 2 x 2 grid of 16 x 16 blocks.
//@ title Tiled matrix multiply (PMPP): four blocks share tiles through shared memory
//@ about Each block loads a tile of M and of N into shared memory, waits, multiplies, waits, and
//@ about moves to the next pair of tiles: every warp reads what the block's other warps loaded.
//@ note step 1: A block of 16 x 16 threads is 8 warps, two rows of the tile each. Watch the Warps panel: each warp loads its two rows of the M and N tiles into shared memory, then waits at the first __syncthreads() (its row turns to waiting).
//@ note step 337: The last warp has arrived: the barrier releases all 8 (the tick on the Warps panel). Only now may a warp read the tile: its inner loop reads a row of Mds and a column of Nds, written by every other warp. Memory shows who wrote each element.
//@ note step 550: Warp 7 has done its 16 multiply-adds and waits at the second barrier: no warp may load the next tile over this one while another warp still reads it. That is the second barrier per tile.
//@ note step 2049: Every warp has reached the second barrier, and all 8 go on to load the second pair of tiles, behind the same two barriers. No warp ever split (the lanes strip stays full): the waits are the price of sharing the tiles.
//@ launch grid=(2, 2) block=(16, 16)
//@ buffer M: i32[1024] = i % 11 - 5
//@ buffer N: i32[1024] = i % 7 - 2
//@ buffer P: i32[1024]
//@ param Width = 32
#define TILE_WIDTH 16
__global__ void MatrixMulKernel(const int* M, const int* N, int* P, int Width) {
    __shared__ int Mds[TILE_WIDTH][TILE_WIDTH];
    __shared__ int Nds[TILE_WIDTH][TILE_WIDTH];
    int bx = blockIdx.x;
    int by = blockIdx.y;
    int tx = threadIdx.x;
    int ty = threadIdx.y;
    int Row = by * TILE_WIDTH + ty;
    int Col = bx * TILE_WIDTH + tx;
    int Pvalue = 0;
    for (int ph = 0; ph < Width / TILE_WIDTH; ++ph) {
        Mds[ty][tx] = M[Row * Width + ph * TILE_WIDTH + tx];
        Nds[ty][tx] = N[(ph * TILE_WIDTH + ty) * Width + Col];
        __syncthreads();
        for (int k = 0; k < TILE_WIDTH; ++k) {
            Pvalue += Mds[ty][k] * Nds[k][tx];
        }
        __syncthreads();
    }
    P[Row * Width + Col] = Pvalue;
}
