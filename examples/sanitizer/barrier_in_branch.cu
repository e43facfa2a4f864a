// warpscope's own buggy-kernel corpus (written for warpscope): a __syncthreads inside a branch only some threads take (a divergent barrier); -DFIXED moves it out
#include <stdio.h>
__global__ void shift(int *data)
{
    __shared__ int s[64];
    int t = threadIdx.x;
    s[t] = data[t];
#ifdef FIXED
    __syncthreads();
    if (t < 48)
        data[t] = s[t + 16];
#else
    if (t < 48) {
        __syncthreads();
        data[t] = s[t + 16];
    }
#endif
}
int main()
{
    int h[64], *d;
    for (int i = 0; i < 64; i++)
        h[i] = i;
    cudaMalloc(&d, sizeof(h));
    cudaMemcpy(d, h, sizeof(h), cudaMemcpyHostToDevice);
    shift<<<1, 64>>>(d);
    cudaError_t e = cudaDeviceSynchronize();
    cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
    printf("%s: h[0] = %d, h[47] = %d\n", cudaGetErrorString(e), h[0], h[47]);
    return 0;
}
