// Origin: Mark Harris, "Using Shared Memory in CUDA C/C++" (NVIDIA developer blog, 2013), dynamicReverse: an array reversed through dynamic shared memory, launched as dynamicReverse<<<1, n, n * sizeof(int)>>>(d, n) with n = 64.
//@ title Reversing an array through dynamic shared memory (two warps)
//@ about The shared array's size is the launch's third argument (`shared=256` bytes): each thread
//@ about stores its element, waits, and reads the one the other end's thread stored.
//@ launch grid=1 block=64 shared=256
//@ buffer d: i32[64] = i * 3 + 1
//@ param n = 64
__global__ void dynamicReverse(int* d, int n) {
    extern __shared__ int s[];
    int t = threadIdx.x;
    int tr = n - t - 1;
    s[t] = d[t];
    __syncthreads();
    d[t] = s[tr];
}
