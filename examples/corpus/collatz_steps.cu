// Collatz steps: a loop whose trip count depends on the data.
// Each thread counts how many steps its number takes to reach 1. Neighbouring
// numbers need very different counts (27 needs 111), so the warp keeps running
// until its slowest thread is done while the others wait.
__global__ void collatz(const unsigned int* start, int* steps) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned int x = start[i];
    int count = 0;

    while (x > 1) {
        if (x % 2 == 0)
            x = x / 2;
        else
            x = 3 * x + 1;
        count++;
    }

    steps[i] = count;
}
