// warpscope's own buggy-kernel corpus (written for warpscope): the host copies the first half of the input only (the byte count is off by a factor of two), so the second half of the threads read device memory nothing wrote (an uninitialised global read); -DFIXED copies all of it
#include <stdio.h>
__global__ void scale(const float *in, float *out, float k, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = k * in[i];
}
int main()
{
    const int n = 256;
    float h[n], *d_in, *d_out;
    for (int i = 0; i < n; i++)
        h[i] = i;
    cudaMalloc(&d_in, n * sizeof(float));
    cudaMalloc(&d_out, n * sizeof(float));
#ifdef FIXED
    cudaMemcpy(d_in, h, n * sizeof(float), cudaMemcpyHostToDevice);
#else
    cudaMemcpy(d_in, h, n * sizeof(float) / 2, cudaMemcpyHostToDevice);
#endif
    scale<<<n / 128, 128>>>(d_in, d_out, 2.0f, n);
    cudaMemcpy(h, d_out, sizeof(h), cudaMemcpyDeviceToHost);
    printf("out[1] = %.1f\n", h[1]);
    return 0;
}
