//@ title Switch in C
//@ about A switch is a chain of compare-and-branch, one per case: each branch that splits the warp
//@ about pushes a DIV token, all under one SSY at the end of the switch, so four groups of lanes
//@ about run their cases one after another. Case 1 falls through into case 2.
//@ warp 32
//@ buffer out: i32[32]
//@ model kepler
__global__ void switch_kernel(int* out) {
    int t = threadIdx.x;
    int v = 0;
    switch (t & 3) {
    case 0:
        v = 100;
        break;
    case 1:
        v = 200;
    case 2:
        v = v + 30;
        break;
    default:
        v = -1;
    }
    out[t] = v;
}
