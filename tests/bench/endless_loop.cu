//@ title Counter loop that never ends (the 10 M- and 50 M-step benchmarks)
//@ about Every lane loops forever and the counter keeps the warp's state from ever repeating, so
//@ about the run ends at the step limit: 10 M steps at the default, 50 M at the highest.
//@ warp 32
//@ buffer out: i32[32]
//@ model kepler
__global__ void counter(int* out) {
    int i = 0;
    while (threadIdx.x < 100) {
        i = i + 1;
    }
    out[threadIdx.x] = i;
}
