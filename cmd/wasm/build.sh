#!/usr/bin/env bash
# Builds Rio for the browser into DIR (default dist/web):
#  - rio.wasm (the Hub engine) and rio-worker.js (the Web Worker that runs
#    it): what lidraughts' analysis or any page starts with new Worker();
#  - board.wasm and the static board (index.html, app.js, style.css,
#    board-worker.js, written by engine gui --export): Rio's own board,
#    served by any static file server;
#  - wasm_exec.js, Go's loader, from the Go that builds both.
# Usage: bash cmd/wasm/build.sh [DIR]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-dist/web}
mkdir -p "$out"
out=$(cd "$out" && pwd)
cd "$here/../.."
# The Hub worker is built without the opening books (rionobook): it serves
# analysis, which never plays from a book, and every byte is downloaded.
GOOS=js GOARCH=wasm go build -trimpath -tags rionobook -ldflags=-s -o "$out/rio.wasm" ./cmd/wasm
GOOS=js GOARCH=wasm go build -trimpath -ldflags=-s -o "$out/board.wasm" ./cmd/wasm/board
cp "$here/rio-worker.js" "$out/rio-worker.js"
root=$(go env GOROOT)
if [ -f "$root/lib/wasm/wasm_exec.js" ]; then
  cp "$root/lib/wasm/wasm_exec.js" "$out/wasm_exec.js"
else
  cp "$root/misc/wasm/wasm_exec.js" "$out/wasm_exec.js" # Go before 1.24
fi
go run ./cmd/engine gui --export "$out" >/dev/null
for f in rio.wasm board.wasm; do
  echo "$f $(wc -c < "$out/$f") bytes, $(gzip -9 -c "$out/$f" | wc -c) gzipped"
done
echo "in $out: rio-worker.js (Hub worker), index.html (the board)"
