// After GPU Gems 3, ch. 39 (Harris, Sengupta, Owens), Example 39-2: Blelloch's work-efficient exclusive scan (up-sweep, then down-sweep) of 2*BLOCK elements per block, without the bank-conflict padding.
#include <stdio.h>
#include <stdlib.h>

#define BLOCK 128

__global__ void prescan(const int *g_idata, int *g_odata, int n)
{
    __shared__ int temp[2 * BLOCK];
    int thid = threadIdx.x;
    int base = blockIdx.x * 2 * BLOCK;
    int ai = base + 2 * thid, bi = base + 2 * thid + 1;
    temp[2 * thid] = (ai < n) ? g_idata[ai] : 0;
    temp[2 * thid + 1] = (bi < n) ? g_idata[bi] : 0;
    int offset = 1;
    for (int d = BLOCK; d > 0; d >>= 1) {
        __syncthreads();
        if (thid < d) {
            int a = offset * (2 * thid + 1) - 1;
            int b = offset * (2 * thid + 2) - 1;
            temp[b] += temp[a];
        }
        offset *= 2;
    }
    if (thid == 0)
        temp[2 * BLOCK - 1] = 0;
    for (int d = 1; d < 2 * BLOCK; d *= 2) {
        offset >>= 1;
        __syncthreads();
        if (thid < d) {
            int a = offset * (2 * thid + 1) - 1;
            int b = offset * (2 * thid + 2) - 1;
            int t = temp[a];
            temp[a] = temp[b];
            temp[b] += t;
        }
    }
    __syncthreads();
    if (ai < n)
        g_odata[ai] = temp[2 * thid];
    if (bi < n)
        g_odata[bi] = temp[2 * thid + 1];
}

int main()
{
    const int n = 2000;
    const int blocks = (n + 2 * BLOCK - 1) / (2 * BLOCK);
    int *h_in = (int *)malloc(n * sizeof(int));
    int *h_out = (int *)malloc(n * sizeof(int));
    for (int i = 0; i < n; i++)
        h_in[i] = (i * 29 + 3) % 17;
    int *d_in, *d_out;
    cudaMalloc(&d_in, n * sizeof(int));
    cudaMalloc(&d_out, n * sizeof(int));
    cudaMemcpy(d_in, h_in, n * sizeof(int), cudaMemcpyHostToDevice);
    prescan<<<blocks, BLOCK>>>(d_in, d_out, n);
    cudaMemcpy(h_out, d_out, n * sizeof(int), cudaMemcpyDeviceToHost);
    int wrong = 0;
    int run = 0;
    for (int i = 0; i < n; i++) {
        if (i % (2 * BLOCK) == 0)
            run = 0;
        if (h_out[i] != run)
            wrong++;
        run += h_in[i];
    }
    printf("%d blocks of %d elements, out[%d] = %d, %d wrong: %s\n", blocks, 2 * BLOCK, n - 1, h_out[n - 1], wrong, wrong == 0 ? "PASSED" : "FAILED");
    cudaFree(d_in);
    cudaFree(d_out);
    free(h_in);
    free(h_out);
    return 0;
}
