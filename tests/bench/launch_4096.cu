// Issue 44's browser target: 4,096 threads (16 blocks of 256) and about 10^4 warp instructions
// per warp, with the block's barriers inside the loop (scripts/launch-scale.mjs times it).
//@ launch grid=16 block=256
//@ buffer out: i32[4096]
//@ param iters = 700
__global__ void work(int* out, int iters) {
    __shared__ int s[256];
    int acc = threadIdx.x;
    for (int k = 0; k < iters; k++) {
        acc = acc * 3 + k;
        if (k % 64 == 0) {
            s[threadIdx.x] = acc;
            __syncthreads();
            acc += s[(threadIdx.x + 1) % 256];
            __syncthreads();
        }
    }
    out[blockIdx.x * 256 + threadIdx.x] = acc;
}
