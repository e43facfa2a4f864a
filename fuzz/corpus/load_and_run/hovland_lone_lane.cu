//@ title Hovland: one lane takes the branch, which lane does not matter (Figure 4)
//@ about Only lane k takes the branch (Hovland, Section 5.2). Whichever lane it is, the warp runs the
//@ about taken side with one lane and then the rest with 31: the cost of a divergent branch does
//@ about not depend on where the lone lane sits. Sweep k = 0 .. 31 and the line stays flat.
//@ warp 32
//@ param k = 0
//@ buffer out: i32[32]
//@ model kepler
//@ preset tesla
//@ ifconvert off
__global__ void hovland_lone_lane(int* out, int k) {
    int t = threadIdx.x;
    int v = t;
    if (t == k) {
        v = v * 3 + 1;
        v = v ^ (v >> 2);
        v = v * 5 + 7;
    } else {
        v = v * 7 + 2;
        v = v ^ (v >> 3);
        v = v * 3 + 5;
    }
    out[t] = v;
}
