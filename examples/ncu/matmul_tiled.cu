// After the CUDA C Programming Guide's shared-memory matrix multiplication (and Kirk & Hwu, ch. 4): 16x16 tiles, with bounds checks because the sizes are not multiples of the tile.
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

#define TILE 16

// C (M x N) = A (M x K) * B (K x N), row-major.
__global__ void matMulTiled(const float *A, const float *B, float *C, int M, int K, int N)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty;
    int col = blockIdx.x * TILE + tx;
    float sum = 0.0f;
    for (int t = 0; t < (K + TILE - 1) / TILE; t++) {
        int ak = t * TILE + tx;
        int bk = t * TILE + ty;
        if (row < M && ak < K)
            As[ty][tx] = A[row * K + ak];
        else
            As[ty][tx] = 0.0f;
        if (bk < K && col < N)
            Bs[ty][tx] = B[bk * N + col];
        else
            Bs[ty][tx] = 0.0f;
        __syncthreads();
        for (int k = 0; k < TILE; k++)
            sum += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    if (row < M && col < N)
        C[row * N + col] = sum;
}

int main()
{
    const int M = 50, K = 40, N = 36;
    float *A = (float *)malloc(M * K * sizeof(float));
    float *B = (float *)malloc(K * N * sizeof(float));
    float *C = (float *)malloc(M * N * sizeof(float));
    for (int i = 0; i < M * K; i++)
        A[i] = (float)((i * 7) % 11 - 5);
    for (int i = 0; i < K * N; i++)
        B[i] = (float)((i * 5) % 13 - 6) * 0.5f;
    float *dA, *dB, *dC;
    cudaMalloc(&dA, M * K * sizeof(float));
    cudaMalloc(&dB, K * N * sizeof(float));
    cudaMalloc(&dC, M * N * sizeof(float));
    cudaMemcpy(dA, A, M * K * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(dB, B, K * N * sizeof(float), cudaMemcpyHostToDevice);
    dim3 block(TILE, TILE);
    dim3 grid((N + TILE - 1) / TILE, (M + TILE - 1) / TILE);
    matMulTiled<<<grid, block>>>(dA, dB, dC, M, K, N);
    cudaMemcpy(C, dC, M * N * sizeof(float), cudaMemcpyDeviceToHost);
    int wrong = 0;
    float trace = 0.0f;
    for (int r = 0; r < M; r++) {
        for (int c = 0; c < N; c++) {
            float ref = 0.0f;
            for (int k = 0; k < K; k++)
                ref += A[r * K + k] * B[k * N + c];
            if (fabsf(ref - C[r * N + c]) > 1e-3f)
                wrong++;
        }
        if (r < N)
            trace += C[r * N + r];
    }
    printf("%dx%d grid of %dx%d tiles, trace %.1f, %d wrong: %s\n", grid.x, grid.y, TILE, TILE, trace, wrong, wrong == 0 ? "PASSED" : "FAILED");
    cudaFree(dA);
    cudaFree(dB);
    cudaFree(dC);
    free(A);
    free(B);
    free(C);
    return 0;
}
