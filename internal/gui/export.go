package gui

import (
	"bytes"
	"fmt"
	"html"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/riodraughts/rio/internal/movegen"
)

// EngineFiles are the files the static board loads beside the page that
// a native binary does not carry: board.wasm (cmd/wasm/board, the board's
// API compiled for the browser) and Go's wasm_exec.js, both written by
// bash cmd/wasm/build.sh.
var EngineFiles = []string{"board.wasm", "wasm_exec.js"}

// Export writes the board as static files into dir: the page (index.html,
// its modules under js/, style.css) and its worker (board-worker.js), the page marked to
// run Rio in the worker instead of asking a server. A new page starts
// with variant. It returns the EngineFiles dir still lacks.
func Export(dir string, variant *movegen.Variant) (missing []string, err error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	assets, _ := fs.Sub(static, "static")
	err = fs.WalkDir(assets, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := fs.ReadFile(assets, path)
		if err != nil {
			return err
		}
		if path == "index.html" {
			if data, err = staticPage(data, variant); err != nil {
				return err
			}
		}
		out := filepath.Join(dir, filepath.FromSlash(path))
		if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
			return err
		}
		return os.WriteFile(out, data, 0o644)
	})
	if err != nil {
		return nil, fmt.Errorf("exporting the board to %s: %w", dir, err)
	}
	for _, f := range EngineFiles {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			missing = append(missing, f)
		}
	}
	return missing, nil
}

// staticPage marks the page as the static board: the meta tag names the
// worker the page starts (js/transport.js).
func staticPage(page []byte, variant *movegen.Variant) ([]byte, error) {
	anchor := []byte(`<meta charset="utf-8">`)
	if !bytes.Contains(page, anchor) {
		return nil, fmt.Errorf("index.html has no %s to mark", anchor)
	}
	tag := fmt.Sprintf(`<meta charset="utf-8">
<meta name="rio-worker" content="board-worker.js?variant=%s">`, html.EscapeString(variant.Name))
	return bytes.Replace(page, anchor, []byte(tag), 1), nil
}
