//@ title Nested if in C
//@ about Two levels of divergence: the outer if splits even and odd lanes, the inner one splits
//@ about the even lanes again. Each if gets its own SSY at its own immediate post-dominator, so the
//@ about stack holds the outer SSY token, the outer DIV token and the inner ones at once.
//@ warp 32
//@ buffer out: i32[32]
//@ model kepler
__global__ void nested_if(int* out) {
    int t = threadIdx.x;
    int r = 0;
    if ((t & 1) == 0) {
        r = 10;
        if (t < 16) {
            r = r + t;
            out[t] = r;
        } else {
            r = r - t;
        }
        r = r * 2;
    } else {
        r = 1;
        out[t] = r;
    }
    out[t] = out[t] + r;
}
