// Vite builds the app from index.html at the repo root. `base: './'` keeps the built site
// working from any sub-path; the wasm package (web/pkg, --target web) needs no plugin.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { defineConfig } from 'vite';

const root = import.meta.dirname;
const pages: Record<string, string> = { main: resolve(root, 'index.html') };
// The engine benchmark page lives beside the app; build it too when present.
if (existsSync(resolve(root, 'bench.html'))) pages.bench = resolve(root, 'bench.html');

export default defineConfig({
  base: './',
  build: { target: 'es2022', rollupOptions: { input: pages } },
  // The sweep worker is a module worker: it imports the wasm package, whose glue finds its .wasm
  // through import.meta.url.
  worker: { format: 'es' },
  server: { fs: { allow: [root] } },
});
