// warpscope's own buggy-kernel corpus (written for warpscope, after the pre-Volta "warp-synchronous" reduction of the CUDA samples): the last warp's steps use shared memory without volatile or __syncwarp (a race under independent thread scheduling); -DFIXED adds __syncwarp
#include <stdio.h>
__global__ void reduce(const int *in, int *out)
{
    __shared__ int s[64];
    int t = threadIdx.x;
    s[t] = in[t];
    __syncthreads();
    if (t < 32) {
        for (int stride = 32; stride > 0; stride >>= 1) {
#ifdef FIXED
            int v = s[t] + s[t + stride];
            __syncwarp();
            s[t] = v;
            __syncwarp();
#else
            s[t] += s[t + stride];
#endif
        }
    }
    if (t == 0)
        *out = s[0];
}
int main()
{
    int h[64], *d_in, *d_out, sum = 0;
    for (int i = 0; i < 64; i++)
        h[i] = i;
    cudaMalloc(&d_in, sizeof(h));
    cudaMalloc(&d_out, sizeof(int));
    cudaMemcpy(d_in, h, sizeof(h), cudaMemcpyHostToDevice);
    reduce<<<1, 64>>>(d_in, d_out);
    cudaMemcpy(&sum, d_out, sizeof(int), cudaMemcpyDeviceToHost);
    printf("sum %d (expected 2016)\n", sum);
    return 0;
}
