// Warp-level inclusive scan with __shfl_up_sync, and the exclusive scan from it.
// Each step a lane adds the value `offset` lanes below it; lanes with no lane that
// far below keep their value. One more shuffle by one lane turns inclusive into
// exclusive.
#define FULL_MASK 0xffffffff

__global__ void warp_scan(const int* in, int* inclusive, int* exclusive) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x & 31;
    int val = in[i];

    for (int offset = 1; offset < 32; offset <<= 1) {
        int n = __shfl_up_sync(FULL_MASK, val, offset);
        if (lane >= offset) val += n;
    }
    inclusive[i] = val;

    int before = __shfl_up_sync(FULL_MASK, val, 1);
    exclusive[i] = (lane == 0) ? 0 : before;
}
