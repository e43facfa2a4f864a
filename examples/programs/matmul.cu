// warpscope's own course program (written for warpscope, after the CUDA Programming Guide's shared-memory matrix multiply): tiled C = A * B with a CPU check and event timing
#include <stdio.h>
#include <stdlib.h>

#define TILE 16

__global__ void matMul(const float *A, const float *B, float *C, int n)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    int row = blockIdx.y * TILE + threadIdx.y;
    int col = blockIdx.x * TILE + threadIdx.x;
    float sum = 0.0f;
    for (int t = 0; t < (n + TILE - 1) / TILE; t++) {
        int ac = t * TILE + threadIdx.x;
        int br = t * TILE + threadIdx.y;
        As[threadIdx.y][threadIdx.x] = (row < n && ac < n) ? A[row * n + ac] : 0.0f;
        Bs[threadIdx.y][threadIdx.x] = (br < n && col < n) ? B[br * n + col] : 0.0f;
        __syncthreads();
        for (int k = 0; k < TILE; k++)
            sum += As[threadIdx.y][k] * Bs[k][threadIdx.x];
        __syncthreads();
    }
    if (row < n && col < n)
        C[row * n + col] = sum;
}

void matMulCpu(const float *A, const float *B, float *C, int n)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            float s = 0;
            for (int k = 0; k < n; k++)
                s += A[i * n + k] * B[k * n + j];
            C[i * n + j] = s;
        }
}

int main()
{
    int n = 40;
    int bytes = n * n * sizeof(float);
    float *A = new float[n * n];
    float *B = new float[n * n];
    float *C = new float[n * n];
    float *ref = new float[n * n];
    srand(1);
    for (int i = 0; i < n * n; i++) {
        A[i] = rand() % 10;
        B[i] = rand() % 10 - 5;
    }

    float *dA, *dB, *dC;
    cudaMalloc(&dA, bytes);
    cudaMalloc(&dB, bytes);
    cudaMalloc(&dC, bytes);
    cudaMemcpy(dA, A, bytes, cudaMemcpyHostToDevice);
    cudaMemcpy(dB, B, bytes, cudaMemcpyHostToDevice);

    cudaEvent_t start, stop;
    cudaEventCreate(&start);
    cudaEventCreate(&stop);
    dim3 block(TILE, TILE);
    dim3 grid((n + TILE - 1) / TILE, (n + TILE - 1) / TILE);
    cudaEventRecord(start);
    matMul<<<grid, block>>>(dA, dB, dC, n);
    cudaEventRecord(stop);
    cudaEventSynchronize(stop);
    float ms = 0;
    cudaEventElapsedTime(&ms, start, stop);
    fprintf(stderr, "kernel time: %.3f ms\n", ms);

    cudaMemcpy(C, dC, bytes, cudaMemcpyDeviceToHost);
    matMulCpu(A, B, ref, n);
    int mismatches = 0;
    double trace = 0;
    for (int i = 0; i < n * n; i++)
        if (C[i] != ref[i])
            mismatches++;
    for (int i = 0; i < n; i++)
        trace += C[i * n + i];
    printf("%dx%d grid of %dx%d blocks\n", grid.x, grid.y, block.x, block.y);
    printf("C[0][0] = %.1f, C[%d][%d] = %.1f, trace = %.1f\n", C[0], n - 1, n - 1, C[n * n - 1], trace);
    printf("%s (%d mismatches)\n", mismatches ? "FAILED" : "PASSED", mismatches);

    cudaEventDestroy(start);
    cudaEventDestroy(stop);
    cudaFree(dA);
    cudaFree(dB);
    cudaFree(dC);
    delete[] A;
    delete[] B;
    delete[] C;
    delete[] ref;
    return 0;
}
