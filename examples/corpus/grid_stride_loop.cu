// A grid-stride loop: a fixed grid covers an array of any length.
// Each thread starts at its global index and steps by the total number of threads
// in the grid, so the same kernel works whether the grid is larger or smaller than
// the data. Here each thread sums the squares of the elements it visits.
__global__ void sum_of_squares(const float* x, float* partial, int n) {
    int index = blockIdx.x * blockDim.x + threadIdx.x;
    int stride = blockDim.x * gridDim.x;
    float acc = 0.0f;
    for (int i = index; i < n; i += stride) {
        acc += x[i] * x[i];
    }
    partial[index] = acc;
}
