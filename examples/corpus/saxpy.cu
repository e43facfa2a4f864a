// SAXPY: y = a * x + y in single precision.
// The textbook memory-bound kernel: two loads, one multiply-add, one store per
// element. A whole program with unified memory.
#include <cstdio>
#include <cmath>

__global__ void saxpy(int n, float a, const float* x, float* y) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}

int main() {
    int N = 1 << 20;
    float *x, *y;
    cudaMallocManaged(&x, N * sizeof(float));
    cudaMallocManaged(&y, N * sizeof(float));
    for (int i = 0; i < N; i++) {
        x[i] = 1.0f;
        y[i] = 2.0f;
    }

    saxpy<<<(N + 255) / 256, 256>>>(N, 2.0f, x, y);
    cudaDeviceSynchronize();

    float maxError = 0.0f;
    for (int i = 0; i < N; i++) maxError = fmaxf(maxError, fabsf(y[i] - 4.0f));
    printf("Max error: %f\n", maxError);

    cudaFree(x);
    cudaFree(y);
    return 0;
}
