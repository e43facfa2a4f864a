// Origin: written for warpscope after NVIDIA's cuda-samples, Samples/0_Introduction/simpleCooperativeGroups (BSD-3-Clause; its kernel and launch, not its text): one block of 64 threads sums its ranks with a thread_group reduction, then each run-time tile of 16 sums its own; the sums it prints go to two buffers here (nvcc's grid SASS here is nvdisasm -c, which holds no printf strings).
//@ title CUDA samples' simpleCooperativeGroups: one reduction, a block and tiles of 16
//@ about sumReduction takes a thread_group: the block (64 threads) and a tiled_partition of 16
//@ about call the same code; the block's sync is a barrier, the tile's a warp sync.
//@ launch block=64 shared=256
//@ buffer blockSums: i32[64]
//@ buffer tileSums: i32[64]
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__device__ int sumReduction(cg::thread_group g, int* x, int val) {
    int lane = g.thread_rank();
    for (int i = g.size() / 2; i > 0; i /= 2) {
        x[lane] = val;
        g.sync();
        if (lane < i) val += x[lane + i];
        g.sync();
    }
    if (g.thread_rank() == 0)
        return val;
    else
        return -1;
}

__global__ void cgkernel(int* blockSums, int* tileSums) {
    cg::thread_block threadBlockGroup = cg::this_thread_block();
    int threadBlockGroupSize = threadBlockGroup.size();
    extern __shared__ int workspace[];
    int input = threadBlockGroup.thread_rank();
    int expectedOutput = (threadBlockGroupSize - 1) * threadBlockGroupSize / 2;
    int output = sumReduction(threadBlockGroup, workspace, input);
    blockSums[threadBlockGroup.thread_rank()] = output;
    // The sample prints: " Sum of all ranks 0..63 in threadBlockGroup is 2016 (expected 2016)".
    if (threadBlockGroup.thread_rank() == 0 && output != expectedOutput) blockSums[0] = -2;
    threadBlockGroup.sync();
    cg::thread_group tiledPartition16 = cg::tiled_partition(threadBlockGroup, 16);
    int workspaceOffset = threadBlockGroup.thread_rank() - tiledPartition16.thread_rank();
    input = tiledPartition16.thread_rank();
    expectedOutput = 15 * 16 / 2;
    output = sumReduction(tiledPartition16, workspace + workspaceOffset, input);
    tileSums[threadBlockGroup.thread_rank()] = output;
    if (tiledPartition16.thread_rank() == 0 && output != expectedOutput) tileSums[threadBlockGroup.thread_rank()] = -2;
}
