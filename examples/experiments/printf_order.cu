// warpscope's own experiment (written for warpscope): in what order a GPU prints device printf lines across blocks, warps and divergent paths; its H100 output is gpu/printf_order.stdout (scripts/h100_sanitizer.sh)
#include <stdio.h>
__global__ void straight() { printf("straight b%d t%d\n", blockIdx.x, threadIdx.x); }
__global__ void twice() {
    printf("first b%d t%d\n", blockIdx.x, threadIdx.x);
    printf("second b%d t%d\n", blockIdx.x, threadIdx.x);
}
__global__ void ifelse() {
    if (threadIdx.x % 2 == 0) printf("even b%d t%d\n", blockIdx.x, threadIdx.x);
    else printf("odd b%d t%d\n", blockIdx.x, threadIdx.x);
}
__global__ void looped(int n) {
    for (int i = 0; i < n; i++)
        if (threadIdx.x < 2 + i) printf("loop i%d b%d t%d\n", i, blockIdx.x, threadIdx.x);
}
__global__ void barrier() {
    printf("before b%d t%d\n", blockIdx.x, threadIdx.x);
    __syncthreads();
    printf("after b%d t%d\n", blockIdx.x, threadIdx.x);
}
int main() {
    printf("== straight <<<3, 40>>>\n"); straight<<<3, 40>>>(); cudaDeviceSynchronize();
    printf("== twice <<<2, 36>>>\n"); twice<<<2, 36>>>(); cudaDeviceSynchronize();
    printf("== ifelse <<<2, 6>>>\n"); ifelse<<<2, 6>>>(); cudaDeviceSynchronize();
    printf("== looped <<<2, 4>>>\n"); looped<<<2, 4>>>(3); cudaDeviceSynchronize();
    printf("== barrier <<<2, 64>>>\n"); barrier<<<2, 64>>>(); cudaDeviceSynchronize();
    return 0;
}
