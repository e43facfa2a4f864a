// Butterfly all-reduce with __shfl_xor_sync.
// Lane l exchanges with lane l ^ mask; after log2(32) steps every lane holds the
// result, not just lane 0. The same pattern gives the sum and the maximum.
#define FULL_MASK 0xffffffff

__global__ void warp_allreduce(const float* in, float* sum_out, float* max_out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float sum = in[i];
    float best = in[i];

    for (int mask = 16; mask > 0; mask >>= 1) {
        sum += __shfl_xor_sync(FULL_MASK, sum, mask);
        best = fmaxf(best, __shfl_xor_sync(FULL_MASK, best, mask));
    }

    sum_out[i] = sum;
    max_out[i] = best;
}
