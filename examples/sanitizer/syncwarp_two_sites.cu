// warpscope's own buggy-kernel corpus (written for warpscope): each half of a warp calls __syncwarp() in its own side of a branch, so two different __syncwarp()s meet (fine on Volta and later, undefined before); -DFIXED calls it once, after the branch
#include <stdio.h>
__global__ void halves(int *out)
{
    __shared__ int s[32];
    int lane = threadIdx.x;
    if (lane < 16) {
        s[lane] = lane;
#ifndef FIXED
        __syncwarp();
#endif
    } else {
        s[lane] = 2 * lane;
#ifndef FIXED
        __syncwarp();
#endif
    }
#ifdef FIXED
    __syncwarp();
#endif
    out[lane] = s[31 - lane];
}
int main()
{
    int h[32], *d;
    cudaMalloc(&d, sizeof(h));
    halves<<<1, 32>>>(d);
    cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
    printf("out[0] = %d, out[31] = %d\n", h[0], h[31]);
    return 0;
}
