// Matrix multiply C = A * B with shared-memory tiles.
// Each thread computes one element of C. The k dimension is walked TILE columns
// of A (and TILE rows of B) at a time: the block loads the strips into shared
// memory together, waits, and every thread reads them TILE times instead of
// fetching from global memory. Sized so one block of 32 threads covers C.
#define N 4     // A, B and C are N x N
#define TILE 2  // width of the strips of the k dimension

__global__ void matmul_tiled(const float* A, const float* B, float* C) {
    __shared__ float As[N][TILE];
    __shared__ float Bs[TILE][N];

    int row = threadIdx.x / N;
    int col = threadIdx.x % N;
    bool inside = row < N;  // the other threads of the block only meet at the barriers
    float sum = 0.0f;

    for (int t = 0; t < N / TILE; ++t) {
        if (inside && col < TILE) As[row][col] = A[row * N + t * TILE + col];
        if (inside && row < TILE) Bs[row][col] = B[(t * TILE + row) * N + col];
        __syncthreads();

        if (inside) {
            for (int k = 0; k < TILE; ++k) sum += As[row][k] * Bs[k][col];
        }
        __syncthreads();
    }

    if (inside) C[row * N + col] = sum;
}
