// Bit-manipulation intrinsics: __clz, __ffs, __brev and __popc.
// __clz counts leading zero bits (so 31 - __clz(x) is floor(log2 x)), __ffs gives
// the 1-based position of the lowest set bit (0 when there is none), __brev
// reverses the bits, and __popc counts the set bits.
__global__ void bits(const int* in, int* log2_floor, int* lowest_bit, unsigned int* reversed, int* ones) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int x = in[i];

    log2_floor[i] = x > 0 ? 31 - __clz(x) : -1;
    lowest_bit[i] = __ffs(x);
    reversed[i] = __brev((unsigned int)x);
    ones[i] = __popc((unsigned int)x);
}
