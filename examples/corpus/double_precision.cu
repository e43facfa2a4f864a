// Double precision: DAXPY with a division.
// The same shape as SAXPY with 64-bit floats: each element is twice the size, and
// consumer GPUs run double arithmetic many times slower than float.
__global__ void daxpy_third(int n, double a, const double* x, double* y) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        y[i] = a * x[i] + y[i] / 3.0;
    }
}
