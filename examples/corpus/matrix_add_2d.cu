// Matrix addition with a 2-D grid of 2-D blocks.
// Threads get a row from the y dimension and a column from the x dimension, and
// the bounds check covers both. Launched with one-dimensional blocks, every
// thread has threadIdx.y == 0 and only the first row is added.
__global__ void mat_add(const int* A, const int* B, int* C, int rows, int cols) {
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row < rows && col < cols) {
        int idx = row * cols + col;
        C[idx] = A[idx] + B[idx];
    }
}
