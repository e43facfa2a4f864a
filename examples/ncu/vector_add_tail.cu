// After NVIDIA cuda-samples vectorAdd: one element per thread, the last block only partly used (the n < numElements guard).
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

__global__ void vectorAdd(const float *A, const float *B, float *C, int numElements)
{
    int i = blockDim.x * blockIdx.x + threadIdx.x;
    if (i < numElements)
        C[i] = A[i] + B[i];
}

int main()
{
    const int numElements = 10000;
    size_t size = numElements * sizeof(float);
    float *h_A = (float *)malloc(size);
    float *h_B = (float *)malloc(size);
    float *h_C = (float *)malloc(size);
    for (int i = 0; i < numElements; i++) {
        h_A[i] = (float)(i % 100) / 100.0f;
        h_B[i] = (float)((i * 3) % 100) / 50.0f;
    }
    float *d_A, *d_B, *d_C;
    cudaMalloc(&d_A, size);
    cudaMalloc(&d_B, size);
    cudaMalloc(&d_C, size);
    cudaMemcpy(d_A, h_A, size, cudaMemcpyHostToDevice);
    cudaMemcpy(d_B, h_B, size, cudaMemcpyHostToDevice);
    int threadsPerBlock = 256;
    int blocksPerGrid = (numElements + threadsPerBlock - 1) / threadsPerBlock;
    vectorAdd<<<blocksPerGrid, threadsPerBlock>>>(d_A, d_B, d_C, numElements);
    cudaMemcpy(h_C, d_C, size, cudaMemcpyDeviceToHost);
    int wrong = 0;
    for (int i = 0; i < numElements; i++)
        if (fabsf(h_A[i] + h_B[i] - h_C[i]) > 1e-5f)
            wrong++;
    printf("%d blocks of %d threads for %d elements, C[%d] = %.2f, %d wrong: %s\n", blocksPerGrid, threadsPerBlock, numElements, numElements - 1, h_C[numElements - 1], wrong, wrong == 0 ? "PASSED" : "FAILED");
    cudaFree(d_A);
    cudaFree(d_B);
    cudaFree(d_C);
    free(h_A);
    free(h_B);
    free(h_C);
    return 0;
}
