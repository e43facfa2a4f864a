// Origin: written for warpscope after GPU Gems 3, chapter 31 (Nyland, Harris and Prins, "Fast N-Body Simulation with CUDA", NVIDIA 2007; its listings 31-1 to 31-3, not their text): all-pairs accelerations of 512 bodies, tiles of 128 positions staged in shared memory (its tile_calculation inlined into the kernel).
//@ title GPU Gems 3's n-body: tiles of bodies in shared memory
//@ about Each thread owns a body and walks every other body in tiles: the block loads a tile of
//@ about 128 float4 positions into shared memory, syncs, and every thread reads all of them.
//@ about No lane ever diverges; the barriers are what the warps wait at.
//@ launch grid=4 block=128 shared=2048
//@ buffer globalX: f32[2048] = i % 4 == 3 ? 1.0 + (i % 7) * 0.125 : ((i * 37) % 101) * 0.05 - 2.5
//@ buffer globalA: f32[2048]
//@ param N = 512
#define EPS2 0.01f

__device__ float3 bodyBodyInteraction(float4 bi, float4 bj, float3 ai) {
    float3 r;
    r.x = bj.x - bi.x;
    r.y = bj.y - bi.y;
    r.z = bj.z - bi.z;
    float distSqr = r.x * r.x + r.y * r.y + r.z * r.z + EPS2;
    float distSixth = distSqr * distSqr * distSqr;
    float invDistCube = 1.0f / sqrtf(distSixth);
    float s = bj.w * invDistCube;
    ai.x += r.x * s;
    ai.y += r.y * s;
    ai.z += r.z * s;
    return ai;
}

__global__ void calculate_forces(float4* globalX, float4* globalA, int N) {
    extern __shared__ float4 shPosition[];
    float3 acc = make_float3(0.0f, 0.0f, 0.0f);
    int gtid = blockIdx.x * blockDim.x + threadIdx.x;
    float4 myPosition = globalX[gtid];
    for (int i = 0, tile = 0; i < N; i += blockDim.x, tile++) {
        int idx = tile * blockDim.x + threadIdx.x;
        shPosition[threadIdx.x] = globalX[idx];
        __syncthreads();
        for (int j = 0; j < blockDim.x; j++) acc = bodyBodyInteraction(myPosition, shPosition[j], acc);
        __syncthreads();
    }
    globalA[gtid] = make_float4(acc.x, acc.y, acc.z, 0.0f);
}
