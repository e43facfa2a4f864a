// Origin: warpscope's own lesson, particles as course kernels keep them (an array of structs of float3s, updated by a member function); 1,000 particles in blocks of 128, the last block partly idle.
//@ title Particles: an array of structs, a member function, and a bounce that splits warps
//@ about Each thread steps its particle through ten time steps, on a spring and under gravity. One that
//@ about falls below the floor bounces, losing energy, and only those lanes run the bounce; a
//@ about particle whose life runs out stops early, so lanes leave the loop at different trips.
//@ launch grid=8 block=128
//@ buffer ps: f32[7000] = i % 7 == 1 ? (i / 7) % 13 * 0.25 : (i % 7 == 4 ? -((i / 7) % 5) * 0.5 : (i % 7 == 6 ? 0.05 + (i / 7) % 9 * 0.05 : (i % 7) * 0.1))
//@ param n = 1000
//@ param dt = 0.05
struct Particle {
    float3 pos;
    float3 vel;
    float life;

    // A spring pulls each particle toward the axis, and gravity down.
    __device__ void step(float dt) {
        vel.x += -4.0f * pos.x * dt;
        vel.y += (-4.0f * pos.y - 9.8f) * dt;
        vel.z += -4.0f * pos.z * dt;
        pos.x += vel.x * dt;
        pos.y += vel.y * dt;
        pos.z += vel.z * dt;
        life -= dt;
    }
};

__global__ void simulate(Particle* ps, int n, float dt) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    Particle p = ps[i];
    for (int s = 0; s < 10 && p.life > 0.0f; s++) {
        p.step(dt);
        if (p.pos.y < 0.0f) {
            // Bounce off the floor.
            p.pos.y = -p.pos.y;
            p.vel.y = -p.vel.y * 0.8f;
        }
    }
    ps[i] = p;
}
