// Index arithmetic in size_t, unsigned and long long.
// size_t indices do not overflow on arrays beyond 2^31 elements; a long long
// product does not overflow where an int product would. Unsigned arithmetic wraps:
// the left neighbour of element 0 is index 0xffffffff, which the bounds check
// then rejects, so no separate test for i == 0 is needed.
__global__ void index_types(const int* in, int* gathered, int* left, int* scaled_hi, size_t n) {
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        long long j = ((long long)i * 7) % (long long)n;  // a permutation when gcd(7, n) = 1
        gathered[i] = in[j];

        unsigned int prev = (unsigned int)i - 1u;
        left[i] = prev < n ? in[prev] : -1;

        long long big = (long long)in[i] * 1000000000LL;
        scaled_hi[i] = (int)(big >> 32);
    }
}
