// 1-D stencil with a shared-memory halo.
// Each output is the sum of the 2*RADIUS+1 inputs around it. The block copies its
// inputs into shared memory once, and its first RADIUS threads also fetch the
// halo: RADIUS elements on each side (zero beyond the ends of the array).
#define RADIUS 3
#define BLOCK_SIZE 32

__global__ void stencil_1d(const int* in, int* out, int n) {
    __shared__ int temp[BLOCK_SIZE + 2 * RADIUS];
    int gindex = threadIdx.x + blockIdx.x * blockDim.x;
    int lindex = threadIdx.x + RADIUS;

    temp[lindex] = in[gindex];
    if (threadIdx.x < RADIUS) {
        temp[lindex - RADIUS] = gindex >= RADIUS ? in[gindex - RADIUS] : 0;
        temp[lindex + BLOCK_SIZE] = gindex + BLOCK_SIZE < n ? in[gindex + BLOCK_SIZE] : 0;
    }

    // Every element, halo included, must be in place before anyone reads.
    __syncthreads();

    int result = 0;
    for (int offset = -RADIUS; offset <= RADIUS; offset++)
        result += temp[lindex + offset];

    out[gindex] = result;
}
