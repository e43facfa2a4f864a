// Warp votes: __any_sync and __all_sync.
// A vote evaluates a condition on every lane named in the mask and gives all of
// them the same answer. Inside a divergent branch the mask must name only the
// lanes that take the branch. Each lane packs its answers into one int of flags.
#define FULL_MASK 0xffffffff

__global__ void vote(const int* in, int* flags) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x % 32;
    int x = in[i];

    bool any_large = __any_sync(FULL_MASK, x > 30);   // true: one lane is enough
    bool all_small = __all_sync(FULL_MASK, x < 31);   // false: one lane is enough
    bool all_nonneg = __all_sync(FULL_MASK, x >= 0);  // true

    bool half_any;
    if (lane < 16)
        half_any = __any_sync(0x0000ffff, x > 12);
    else
        half_any = __any_sync(0xffff0000, x > 40);

    flags[i] = any_large | (all_small << 1) | (all_nonneg << 2) | (half_any << 3);
}
