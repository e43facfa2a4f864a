// Stream compaction inside a warp with __ballot_sync and __popc.
// The ballot gives every lane the bit mask of lanes that keep their element.
// Counting the set bits below its own lane tells a lane where to write; lane 0
// reserves the warp's whole range with one atomicAdd and broadcasts its start
// (warp-aggregated atomics).
#define FULL_MASK 0xffffffff

__global__ void compact_multiples_of_3(const int* in, int* out, int* count) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x % 32;
    int x = in[i];
    bool keep = (x % 3 == 0);

    unsigned int ballot = __ballot_sync(FULL_MASK, keep);
    int warp_count = __popc(ballot);

    int base = 0;
    if (lane == 0) base = atomicAdd(count, warp_count);
    base = __shfl_sync(FULL_MASK, base, 0);

    unsigned int lanes_below = (1u << lane) - 1;
    int offset = __popc(ballot & lanes_below);
    if (keep) out[base + offset] = x;
}
