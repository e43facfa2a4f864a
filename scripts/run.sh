#!/usr/bin/env bash
# Builds the wasm engine and the app, then serves it on http://localhost:5173 with the default
# example (the Figure 3 walk-through). Ctrl-C stops the server. PORT=NNNN picks another port.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh
bash scripts/build-wasm.sh
npm run -s build
port="${PORT:-5173}"
echo "warpscope: serving on http://localhost:$port/"
exec npx vite preview --port "$port" --strictPort --host 127.0.0.1
