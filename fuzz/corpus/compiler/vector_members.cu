//@ buffer a: f32[64] = i
//@ buffer out: f32[128]
__device__ float2 swap(float2 v) { return make_float2(v.y, v.x); }
__global__ void k(float2* a, float4* out, uchar3* c) {
    int t = threadIdx.x;
    float2 v = a[t];
    float2 w = swap(v);
    w.x += 100.0f;
    float4 r = make_float4(w.x, w.y, v.x, 0);
    r.w = sizeof(float4) + sizeof(uchar3);
    uchar3 p = c[t]; p.z++;
    float2 s = t % 2 ? v : w;
    if (t % 2) out[t / 2] = r; else (out + t / 2 + 16)->y = s.x + p.z;
}
