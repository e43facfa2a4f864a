// warpscope's own course program (written for warpscope, after the "hello from the GPU" first lesson): device printf, flushed by cudaDeviceSynchronize
#include <stdio.h>

__global__ void hello(int rounds)
{
    int t = threadIdx.x;
    if (t % 2 == 0)
        printf("block %d thread %d: even\n", blockIdx.x, t);
    else if (t < rounds)
        printf("block %d thread %d: odd, below %d\n", blockIdx.x, t, rounds);
}

int main()
{
    printf("before the launch\n");
    hello<<<2, 8>>>(5);
    printf("after the launch, before synchronising\n");
    cudaDeviceSynchronize();
    printf("done\n");
    return 0;
}
