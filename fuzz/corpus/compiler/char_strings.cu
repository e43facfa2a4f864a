__constant__ char key[] = "warp";
__device__ unsigned char table[4] = {1, 2, 250, 255};
__global__ void k(int* out) {
    int t = threadIdx.x;
    char c = key[t % 4];
    if (t < 2) printf("%c%d\n", c, table[t + 2]);
    out[t] = c + table[t % 4];
}
