// A switch on the lane index: up to five paths through one warp.
// Lanes that land on different cases run their cases one after another. Case 2
// falls through into case 3, and lanes that match no case take the default.
__global__ void switch_on_lane(const int* in, int* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x % 32;
    int v = in[i];

    switch (lane % 6) {
    case 0:
        v = v * 10;
        break;
    case 1:
        v = -v;
        break;
    case 2:
        v = v + 100;
        // fall through
    case 3:
        v = v * 2;
        break;
    case 4:
        v = v << 4;
        break;
    default:
        v = 7;
        break;
    }

    out[i] = v;
}
