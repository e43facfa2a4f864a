// The one Node API the unit tests use (reading the wasm and example files), declared here so the
// project needs no @types/node: the app itself never runs in Node.
declare module 'node:fs' {
  export function readFileSync(path: URL, encoding: 'utf8'): string;
  export function readFileSync(path: URL): Uint8Array<ArrayBuffer>;
}
