// warpscope's own course program (written for warpscope, in the style of the CUDA course's first exercise): vector add with a CPU check
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

#define N 5000

__global__ void vecAdd(const float *a, const float *b, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = a[i] + b[i];
}

int main(void)
{
    size_t size = N * sizeof(float);
    float *h_a = (float *)malloc(size);
    float *h_b = (float *)malloc(size);
    float *h_c = (float *)malloc(size);
    srand(2024);
    for (int i = 0; i < N; i++) {
        h_a[i] = rand() / (float)RAND_MAX;
        h_b[i] = rand() / (float)RAND_MAX;
    }
    float *d_a, *d_b, *d_c;
    cudaMalloc((void **)&d_a, size);
    cudaMalloc((void **)&d_b, size);
    cudaMalloc((void **)&d_c, size);
    cudaMemcpy(d_a, h_a, size, cudaMemcpyHostToDevice);
    cudaMemcpy(d_b, h_b, size, cudaMemcpyHostToDevice);

    int threads = 256;
    int blocks = (N + threads - 1) / threads;
    printf("launching %d blocks of %d threads\n", blocks, threads);
    vecAdd<<<blocks, threads>>>(d_a, d_b, d_c, N);
    cudaError_t err = cudaGetLastError();
    if (err != cudaSuccess) {
        fprintf(stderr, "launch failed: %d\n", err);
        exit(EXIT_FAILURE);
    }
    cudaMemcpy(h_c, d_c, size, cudaMemcpyDeviceToHost);

    int errors = 0;
    double sum = 0;
    for (int i = 0; i < N; i++) {
        if (fabsf(h_a[i] + h_b[i] - h_c[i]) > 1e-5f)
            errors++;
        sum += h_c[i];
    }
    printf("c[0] = %f, c[%d] = %f\n", h_c[0], N - 1, h_c[N - 1]);
    printf("sum = %.4f, errors = %d\n", sum, errors);
    cudaFree(d_a);
    cudaFree(d_b);
    cudaFree(d_c);
    free(h_a);
    free(h_b);
    free(h_c);
    if (errors == 0)
        printf("PASSED\n");
    else
        printf("FAILED\n");
    return errors == 0 ? 0 : 1;
}
