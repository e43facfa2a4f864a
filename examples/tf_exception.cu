//@ title Thread frontiers: an exception that is never thrown (exception-cond)
//@ about The thread-frontier paper's exception-cond micro-benchmark: a throw (goto catch) inside a
//@ about divergent conditional. Nothing is ever thrown, yet the catch edge moves the branch's
//@ about immediate post-dominator past the code after the conditional, so PDOM runs that code
//@ about twice, once per side. Thread frontiers join the two sides where they meet and run it
//@ about once. Compare the block counts of pdom and tf-stack. STRUCT (model struct) copies the code after the conditional for the else side (BB5'), so each side runs its own copy: 29 warp instructions, as many as PDOM.
//@ warp 32
//@ buffer data: i32[32] = i - 12
//@ buffer out: i32[32]
//@ model tf-stack
//@ ifconvert off
__global__ void exception_cond(int* data, int* out) {
    int t = threadIdx.x;
    int v = data[t];
    int r;
    if (v > 0) {
        r = v * 3;
        if (r > 1000) goto catch_block;   // throw: never taken
        r = r + 1;
    } else {
        r = 7 - v;
    }
    // The code after the conditional: the work PDOM duplicates.
    r = r * r + 3 * r;
    r = r ^ (r >> 3);
    out[t] = r;
    return;
catch_block:
    out[t] = -1;
}
