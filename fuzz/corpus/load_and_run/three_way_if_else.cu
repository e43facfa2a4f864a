//@ title Three-way if/else in C (course notes)
//@ about if (A) B; else { C; if (D) E; else F; } X. Two branches, two reconvergence points: the
//@ about inner if reconverges at the end of the else side, the outer one at X. Watch two SYNCs in a
//@ about row at the end of the else side: the inner region's and then the outer one's.
//@ warp 32
//@ buffer out: i32[32]
//@ model kepler
__global__ void three_way(int* out) {
    int t = threadIdx.x;
    int v = 0;
    if (t < 8) {
        v = 1;
    } else {
        v = 2;
        if (t < 20) {
            v = v + 10;
        } else {
            v = v + 20;
        }
    }
    out[t] = v;
}
