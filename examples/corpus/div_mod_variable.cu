// Integer division and remainder by a value known only at run time.
// A row-major index splits into (row, col) with / and % by the row width. C
// division truncates toward zero, so a negative value has a negative remainder.
// Multiplicative hashing (Knuth) picks a bucket with unsigned arithmetic, whose
// multiply wraps modulo 2^32.
__global__ void div_mod(const int* in, int* quot, int* rem, unsigned int* bucket, int width) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = in[i] - 16;  // -16 .. 15 for the first 32 elements

    quot[i] = v / width;
    rem[i] = v % width;

    unsigned int h = (unsigned int)in[i] * 2654435761u;
    bucket[i] = h % (unsigned int)width;
}
