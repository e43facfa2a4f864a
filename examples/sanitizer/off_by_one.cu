// warpscope's own buggy-kernel corpus (written for warpscope): the bounds check is `<=`, so one thread writes one element past the end (an out-of-bounds store); -DFIXED uses `<`
#include <stdio.h>
__global__ void fill(int *a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
#ifdef FIXED
    if (i < n)
#else
    if (i <= n)
#endif
        a[i] = 2 * i;
}
int main()
{
    const int n = 1000;
    int *d, h[n];
    cudaMalloc(&d, n * sizeof(int));
    fill<<<(n + 127) / 128, 128>>>(d, n);
    cudaError_t e = cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
    printf("%s: h[999] = %d\n", cudaGetErrorString(e), h[999]);
    return 0;
}
