//! For the Vitest tests that run the real wasm package in Node: its bytes, the examples, and the
//! kernels several tests share. Not part of the app.
import { readFileSync } from 'node:fs';

/** The built engine (`web/pkg`, from `scripts/build-wasm.sh`). */
export const engineBytes = (): Uint8Array<ArrayBuffer> => readFileSync(new URL('../../web/pkg/warpscope_web_bg.wasm', import.meta.url));

/** An example kernel's text. */
export const example = (name: string): string => readFileSync(new URL(`../../examples/${name}`, import.meta.url), 'utf8');

/** Every lane loops forever, and the counter keeps the warp's state from repeating. */
export const COUNTER = `//@ warp 32
//@ buffer out: i32[32]
__global__ void k(int* out) {
    int i = 0;
    while (threadIdx.x < 100) {
        i = i + 1;
    }
    out[threadIdx.x] = i;
}
`;
