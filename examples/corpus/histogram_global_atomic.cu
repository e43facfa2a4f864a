// Histogram with global atomics: every thread increments the bin of its element.
// Threads whose elements fall in the same bin collide on one address, and the
// hardware serialises their atomicAdds. The bin index is clamped so a bad input
// cannot write outside the histogram.
#define NUM_BINS 8

__global__ void histogram(const int* data, int* bins, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int bin = min(max(data[i] / 4, 0), NUM_BINS - 1);
        atomicAdd(&bins[bin], 1);
    }
}
