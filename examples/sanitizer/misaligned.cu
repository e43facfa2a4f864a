// warpscope's own buggy-kernel corpus (written for warpscope): records of one flag byte and one int are packed 5 bytes apart, and each int is read as a 4-byte word at an odd address (a misaligned access); -DFIXED reads the int's bytes one by one
#include <stdio.h>
__global__ void sum_records(const unsigned char *records, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        const unsigned char *r = records + 5 * i;
#ifdef FIXED
        int v = r[1] | r[2] << 8 | r[3] << 16 | r[4] << 24;
#else
        int v = *(const int *)(r + 1);
#endif
        out[i] = r[0] ? v : 0;
    }
}
int main()
{
    const int n = 64;
    unsigned char h[5 * n];
    int out[n], *d_out;
    unsigned char *d_records;
    for (int i = 0; i < n; i++) {
        h[5 * i] = 1;
        h[5 * i + 1] = i;
        h[5 * i + 2] = 0;
        h[5 * i + 3] = 0;
        h[5 * i + 4] = 0;
    }
    cudaMalloc(&d_records, sizeof(h));
    cudaMalloc(&d_out, sizeof(out));
    cudaMemcpy(d_records, h, sizeof(h), cudaMemcpyHostToDevice);
    sum_records<<<1, n>>>(d_records, d_out, n);
    cudaError_t e = cudaMemcpy(out, d_out, sizeof(out), cudaMemcpyDeviceToHost);
    printf("%s: out[3] = %d\n", cudaGetErrorString(e), out[3]);
    return 0;
}
