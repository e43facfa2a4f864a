// After Bell & Garland, "Efficient Sparse Matrix-Vector Multiplication on CUDA" (NVIDIA, 2008), the scalar CSR kernel: one thread per row, so rows of different lengths make the warp's loop diverge.
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

__global__ void spmvCsrScalar(int numRows, const int *rowPtr, const int *cols, const float *vals,
                              const float *x, float *y)
{
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < numRows) {
        float dot = 0.0f;
        int rowStart = rowPtr[row];
        int rowEnd = rowPtr[row + 1];
        for (int jj = rowStart; jj < rowEnd; jj++)
            dot += vals[jj] * x[cols[jj]];
        y[row] = dot;
    }
}

static unsigned hash32(unsigned x)
{
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
}

int main()
{
    const int rows = 1500, columns = 1500;
    int *rowPtr = (int *)malloc((rows + 1) * sizeof(int));
    // Row lengths 0 to 24, every 16th row long (a power-law-ish mix).
    int nnz = 0;
    for (int r = 0; r < rows; r++) {
        rowPtr[r] = nnz;
        nnz += (r % 16 == 0) ? 24 : hash32(r) % 9;
    }
    rowPtr[rows] = nnz;
    int *cols = (int *)malloc(nnz * sizeof(int));
    float *vals = (float *)malloc(nnz * sizeof(float));
    float *x = (float *)malloc(columns * sizeof(float));
    float *y = (float *)malloc(rows * sizeof(float));
    for (int j = 0; j < nnz; j++) {
        cols[j] = hash32(j + 12345) % columns;
        vals[j] = (float)(hash32(j + 999) % 17) * 0.25f - 2.0f;
    }
    for (int c = 0; c < columns; c++)
        x[c] = (float)(c % 13) * 0.5f;
    int *d_rowPtr, *d_cols;
    float *d_vals, *d_x, *d_y;
    cudaMalloc(&d_rowPtr, (rows + 1) * sizeof(int));
    cudaMalloc(&d_cols, nnz * sizeof(int));
    cudaMalloc(&d_vals, nnz * sizeof(float));
    cudaMalloc(&d_x, columns * sizeof(float));
    cudaMalloc(&d_y, rows * sizeof(float));
    cudaMemcpy(d_rowPtr, rowPtr, (rows + 1) * sizeof(int), cudaMemcpyHostToDevice);
    cudaMemcpy(d_cols, cols, nnz * sizeof(int), cudaMemcpyHostToDevice);
    cudaMemcpy(d_vals, vals, nnz * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(d_x, x, columns * sizeof(float), cudaMemcpyHostToDevice);
    spmvCsrScalar<<<(rows + 127) / 128, 128>>>(rows, d_rowPtr, d_cols, d_vals, d_x, d_y);
    cudaMemcpy(y, d_y, rows * sizeof(float), cudaMemcpyDeviceToHost);
    int wrong = 0;
    float total = 0.0f;
    for (int r = 0; r < rows; r++) {
        float dot = 0.0f;
        for (int jj = rowPtr[r]; jj < rowPtr[r + 1]; jj++)
            dot += vals[jj] * x[cols[jj]];
        if (fabsf(dot - y[r]) > 1e-3f)
            wrong++;
        total += y[r];
    }
    printf("%d rows, %d nonzeros, y[0] = %.2f, sum %.2f, %d wrong: %s\n", rows, nnz, y[0], total, wrong, wrong == 0 ? "PASSED" : "FAILED");
    cudaFree(d_rowPtr);
    cudaFree(d_cols);
    cudaFree(d_vals);
    cudaFree(d_x);
    cudaFree(d_y);
    free(rowPtr);
    free(cols);
    free(vals);
    free(x);
    free(y);
    return 0;
}
