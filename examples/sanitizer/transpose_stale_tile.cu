// warpscope's own buggy-kernel corpus (written for warpscope, after the CUDA samples' transpose): the tiled transpose reads its tile without the barrier after writing it (a stale tile); -DFIXED adds it
#include <stdio.h>
#define T 32
__global__ void transpose(const float *in, float *out, int n)
{
    __shared__ float tile[T][T + 1];
    int x = blockIdx.x * T + threadIdx.x, y = blockIdx.y * T + threadIdx.y;
    tile[threadIdx.y][threadIdx.x] = in[y * n + x];
#ifdef FIXED
    __syncthreads();
#endif
    x = blockIdx.y * T + threadIdx.x;
    y = blockIdx.x * T + threadIdx.y;
    out[y * n + x] = tile[threadIdx.x][threadIdx.y];
}
int main()
{
    const int n = 64;
    float h[n * n], *d_in, *d_out;
    for (int i = 0; i < n * n; i++)
        h[i] = i;
    cudaMalloc(&d_in, sizeof(h));
    cudaMalloc(&d_out, sizeof(h));
    cudaMemcpy(d_in, h, sizeof(h), cudaMemcpyHostToDevice);
    transpose<<<dim3(n / T, n / T), dim3(T, T)>>>(d_in, d_out, n);
    cudaMemcpy(h, d_out, sizeof(h), cudaMemcpyDeviceToHost);
    int wrong = 0;
    for (int r = 0; r < n; r++)
        for (int c = 0; c < n; c++)
            wrong += h[r * n + c] != c * n + r;
    printf("%d wrong\n", wrong);
    return 0;
}
