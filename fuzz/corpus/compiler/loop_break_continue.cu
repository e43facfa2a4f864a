//@ title Loop with break and continue in C
//@ about On Kepler, a loop with break gets PBK before it and its exits become BRK: lanes that
//@ about break park until every lane has left the loop, and the BRK token brings them back
//@ about together after it. continue gets a PCNT token per iteration and CONT. Lane t breaks at
//@ about i = t % 8 + 2 and skips odd i, so lanes leave in waves.
//@ warp 32
//@ buffer out: i32[32]
//@ model kepler
__global__ void break_continue(int* out) {
    int t = threadIdx.x;
    int s = 0;
    for (int i = 0; i < 12; i++) {
        if (i == (t & 7) + 2) {
            break;
        }
        if ((i & 1) == 1) {
            continue;
        }
        s = s + i;
    }
    out[t] = s;
}
