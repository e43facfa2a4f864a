// warpscope's own buggy-kernel corpus (written for warpscope, after the CUDA samples' reduction): the tree reduction's loop lacks its __syncthreads (a shared-memory race); -DFIXED restores it
#include <stdio.h>
#define N 256
__global__ void reduce(const int *in, int *out)
{
    __shared__ int s[N];
    int t = threadIdx.x;
    s[t] = in[blockIdx.x * N + t];
    __syncthreads();
    for (int stride = N / 2; stride > 0; stride >>= 1) {
        if (t < stride)
            s[t] += s[t + stride];
#ifdef FIXED
        __syncthreads();
#endif
    }
    if (t == 0)
        out[blockIdx.x] = s[0];
}
int main()
{
    int h[2 * N], *d_in, *d_out, sums[2];
    for (int i = 0; i < 2 * N; i++)
        h[i] = i % 7;
    cudaMalloc(&d_in, sizeof(h));
    cudaMalloc(&d_out, sizeof(sums));
    cudaMemcpy(d_in, h, sizeof(h), cudaMemcpyHostToDevice);
    reduce<<<2, N>>>(d_in, d_out);
    cudaMemcpy(sums, d_out, sizeof(sums), cudaMemcpyDeviceToHost);
    printf("sums %d %d\n", sums[0], sums[1]);
    return 0;
}
