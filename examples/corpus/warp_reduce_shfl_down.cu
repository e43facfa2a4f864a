// Warp reduction with shuffles: no shared memory at all.
// Each step every lane reads the value of the lane `offset` above it. Lanes near
// the top read past the warp and get their own value back, so after five steps
// only lane 0 is sure to hold the whole sum.
#define FULL_MASK 0xffffffff

__inline__ __device__ int warpReduceSum(int val) {
    for (int offset = warpSize / 2; offset > 0; offset /= 2)
        val += __shfl_down_sync(FULL_MASK, val, offset);
    return val;
}

__global__ void warp_sum(const int* in, int* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x % warpSize;
    int warp = i / warpSize;

    int sum = warpReduceSum(in[i]);

    if (lane == 0) out[warp] = sum;
}
