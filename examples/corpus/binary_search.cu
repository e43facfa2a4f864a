// Binary search: every thread looks up its own key in a sorted array.
// Threads finish after different numbers of halvings, and keys that are absent
// take the longest, so the loop diverges.
__device__ int find(const int* sorted, int n, int key) {
    int lo = 0;
    int hi = n - 1;
    while (lo <= hi) {
        int mid = lo + (hi - lo) / 2;
        if (sorted[mid] == key) return mid;
        if (sorted[mid] < key)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    return -1;
}

__global__ void search(const int* sorted, const int* keys, int* found, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    found[i] = find(sorted, n, keys[i]);
}
