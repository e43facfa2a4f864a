// Atomic read-modify-write operations beyond atomicAdd.
// atomicMax and atomicMin find the extremes of the data in one pass. atomicCAS is
// the building block of every other atomic: the loop below rebuilds atomicAdd from
// it (the pattern behind atomicAdd on doubles before sm_60), retrying until no
// other thread changed the value between its read and its swap. The bitwise
// atomics set, clear and flip bits; atomicExch swaps a value in unconditionally.
__device__ int atomicAddViaCAS(int* address, int val) {
    int old = *address;
    int assumed;
    do {
        assumed = old;
        old = atomicCAS(address, assumed, assumed + val);
    } while (assumed != old);
    return old;
}

__global__ void atomic_stats(const int* in, int* stats) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int x = in[i];

    atomicMax(&stats[0], x);
    atomicMin(&stats[1], x);
    atomicAddViaCAS(&stats[2], x);
    atomicSub(&stats[3], 1);
    atomicOr(&stats[4], 1 << (x % 16));
    atomicAnd(&stats[5], ~(1 << (x % 3)));
    atomicXor(&stats[6], x);
    if (x == 7) atomicExch(&stats[7], 100 + x);
}
