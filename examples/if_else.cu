//@ title If/else in C (course notes, divergent flow part two)
//@ about Lanes 0-4 take the then side, the rest the else side. The compiler puts SSY at the
//@ about branch's immediate post-dominator (the statement after the if) and a SYNC at the end of
//@ about each side: the first SYNC pops the DIV token and runs the other side, the second pops the
//@ about SSY token and the warp is whole again. Switch on if-conversion: the sides are short, so
//@ about they become predicated stores and nothing diverges.
//@ warp 32
//@ buffer a: i32[40]
//@ buffer b: i32[40]
//@ buffer c: i32[40]
//@ model kepler
//@ note div 1: The branch splits the warp: lanes 0-4 take the then side, lanes 5-31 the else side. One side runs while the other waits; the model decides which runs first (see the stack).
//@ note join 1: All 32 lanes issue together again, at the statement after the if (a[6] = 99).
__global__ void if_else(int* a, int* b, int* c) {
    int t = threadIdx.x;
    if (t < 5) {
        a[t] = 1;
        b[t] = 2;
        c[t] = 3;
    } else {
        a[t + 6] = 5;
        b[t + 6] = 7;
        c[t + 6] = 9;
    }
    a[6] = 99;
}
