//@ title Hovland: how many lanes take the branch (Figure 6)
//@ about Lanes 0 .. k-1 take the branch (Hovland, Section 5.4). With 0 or 32 lanes the warp does not
//@ about split and runs one side; with any k in between it runs both sides, one after the other, and
//@ about the cost is the same whether 1 lane or 31 take the branch.
//@ warp 32
//@ param k = 11
//@ buffer out: i32[32]
//@ model kepler
//@ preset tesla
//@ ifconvert off
__global__ void hovland_branch_size(int* out, int k) {
    int t = threadIdx.x;
    int v = t;
    if (t < k) {
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
