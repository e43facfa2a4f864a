//@ title Thread frontiers: short-circuit || (unstructured flow from a compound condition)
//@ about `if (a > 0 || b > 0)` compiles to two branches that both jump into the then-side: the
//@ about region has two entries, so it is not structured. Lanes with a > 0 go straight to the
//@ about then-side; under PDOM they run it apart from the lanes that get there through b > 0
//@ about (both branches reconverge only after it), so the then-side runs twice. Thread frontiers
//@ about hold the first group at the then-side until the second arrives, and it runs once. STRUCT (model struct) copies the then-side for the second test (BB2'): each group runs its own copy, 24 warp instructions against pdom's 23 and tf-stack's 19.
//@ warp 32
//@ buffer a: i32[32] = i % 4 - 1
//@ buffer b: i32[32] = i % 3 - 1
//@ buffer out: i32[32]
//@ model tf-stack
//@ ifconvert off
__global__ void short_circuit(int* a, int* b, int* out) {
    int t = threadIdx.x;
    int x = a[t];
    int y = b[t];
    int r = 0;
    if (x > 0 || y > 0) {
        r = x * 5 + y;
        r = r * r - x;
    }
    out[t] = r + t;
}
