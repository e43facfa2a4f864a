// warpscope's own buggy-kernel corpus (written for warpscope): a stencil reads one shared element past what the block wrote (an uninitialised read); -DFIXED writes the halo too
#include <stdio.h>
#define B 64
__global__ void stencil(const float *in, float *out, int n)
{
    __shared__ float s[B + 1];
    int i = blockIdx.x * B + threadIdx.x;
    s[threadIdx.x] = in[i];
#ifdef FIXED
    if (threadIdx.x == B - 1)
        s[B] = (i + 1 < n) ? in[i + 1] : 0.0f;
#endif
    __syncthreads();
    out[i] = s[threadIdx.x] + s[threadIdx.x + 1];
}
int main()
{
    const int n = 128;
    float h[n], *d_in, *d_out;
    for (int i = 0; i < n; i++)
        h[i] = i;
    cudaMalloc(&d_in, sizeof(h));
    cudaMalloc(&d_out, sizeof(h));
    cudaMemcpy(d_in, h, sizeof(h), cudaMemcpyHostToDevice);
    stencil<<<n / B, B>>>(d_in, d_out, n);
    cudaMemcpy(h, d_out, sizeof(h), cudaMemcpyDeviceToHost);
    printf("out[0] = %.1f, out[62] = %.1f\n", h[0], h[62]);
    return 0;
}
