// Origin: Harris, Sengupta and Owens, "Parallel Prefix Sum (Scan) with CUDA", GPU Gems 3 (2007), chapter 39, the naive double-buffered scan (Hillis and Steele), made inclusive; one scan of 256 per block, 2 blocks.
//@ title Block scan (Hillis-Steele, double-buffered): each block scans its 256 elements
//@ about At each step thread t adds the element `offset` places before it, reading one half of
//@ about the shared buffer and writing the other; a barrier separates the steps.
//@ launch grid=2 block=256
//@ buffer g_idata: i32[512] = i % 9 - 3
//@ buffer g_odata: i32[512]
#define BLOCK 256
__global__ void scan_naive(const int* g_idata, int* g_odata) {
    __shared__ int temp[2 * BLOCK];
    int thid = threadIdx.x;
    int base = blockIdx.x * blockDim.x;
    int n = blockDim.x;
    int pout = 0, pin = 1;
    temp[pout * n + thid] = g_idata[base + thid];
    __syncthreads();
    for (int offset = 1; offset < n; offset *= 2) {
        pout = 1 - pout;
        pin = 1 - pout;
        if (thid >= offset)
            temp[pout * n + thid] = temp[pin * n + thid] + temp[pin * n + thid - offset];
        else
            temp[pout * n + thid] = temp[pin * n + thid];
        __syncthreads();
    }
    g_odata[base + thid] = temp[pout * n + thid];
}
