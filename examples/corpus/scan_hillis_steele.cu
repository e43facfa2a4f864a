// Inclusive prefix sum (Hillis-Steele) in shared memory, double-buffered.
// In step d every element adds the element 2^d places to its left. Writing into
// the other half of `temp` means no thread overwrites a value another thread has
// still to read in the same step. O(n log n) additions, log n steps.
#define BLOCK_SIZE 32

__global__ void scan_inclusive(const float* g_idata, float* g_odata, int n) {
    __shared__ float temp[2 * BLOCK_SIZE];
    int thid = threadIdx.x;
    int pout = 0, pin = 1;

    temp[pout * n + thid] = g_idata[thid];
    __syncthreads();

    for (int offset = 1; offset < n; offset *= 2) {
        pout = 1 - pout;  // swap the double buffer
        pin = 1 - pout;
        if (thid >= offset)
            temp[pout * n + thid] = temp[pin * n + thid] + temp[pin * n + thid - offset];
        else
            temp[pout * n + thid] = temp[pin * n + thid];
        __syncthreads();
    }

    g_odata[thid] = temp[pout * n + thid];
}
