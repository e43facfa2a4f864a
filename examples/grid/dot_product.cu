// Origin: Sanders and Kandrot, "CUDA by Example" (2010), chapter 5, dot.cu: a grid-stride product, a shared cache and a block reduction; N = 4096 over 4 blocks of 256 threads.
//@ title Dot product (CUDA by Example): partial sums per block
//@ about Each thread sums products with a grid-stride loop into the block's shared cache, then
//@ about the block halves the cache at each step between __syncthreads(); c[b] is block b's part.
//@ launch grid=4 block=256
//@ buffer a: f32[4096] = i % 5
//@ buffer b: f32[4096] = i % 3 + 1
//@ buffer c: f32[4]
#define N 4096
#define threadsPerBlock 256
__global__ void dot(const float* a, const float* b, float* c) {
    __shared__ float cache[threadsPerBlock];
    int tid = threadIdx.x + blockIdx.x * blockDim.x;
    int cacheIndex = threadIdx.x;
    float temp = 0;
    while (tid < N) {
        temp += a[tid] * b[tid];
        tid += blockDim.x * gridDim.x;
    }
    cache[cacheIndex] = temp;
    __syncthreads();
    int i = blockDim.x / 2;
    while (i != 0) {
        if (cacheIndex < i)
            cache[cacheIndex] += cache[cacheIndex + i];
        __syncthreads();
        i /= 2;
    }
    if (cacheIndex == 0)
        c[blockIdx.x] = cache[0];
}
