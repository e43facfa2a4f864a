//@ title A loop with break, under every reconvergence scheme
//@ about Each lane sums i until it finds its key: lane t breaks out of the loop at i = key[t], so
//@ about the lanes leave one or two at a time. The token stack parks them on a BRK token; the PDOM
//@ about stack keeps them in its reconvergence entry at the loop exit; thread frontiers hold them
//@ about at the exit, a higher pc than the loop; Volta's BREAK takes them out of barrier B0 so
//@ about the others need not wait; MIMD runs each lane alone. Compare any two models.
//@ warp 8
//@ buffer key: i32[8] = (i * 3) % 5
//@ buffer out: i32[8]
//@ model kepler
__global__ void loop_break(int* key, int* out) {
    int t = threadIdx.x;
    int k = key[t];
    int s = 0;
    for (int i = 0; i < 4; i++) {
        if (i == k) break;
        s = s + i;
    }
    out[t] = s;
}
