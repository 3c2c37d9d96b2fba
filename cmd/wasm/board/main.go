//go:build js && wasm

// Command board is Rio's browser board without a server: built with
// GOOS=js GOARCH=wasm into board.wasm, it runs in a Web Worker
// (board-worker.js, internal/gui/static) and answers the page's API
// requests, which arrive as messages instead of HTTP, with the same
// handlers engine gui serves (internal/gui). It only wires messages to
// gui.Server.Local.
//
// Messages in: {id, method, path, body, type} for a request, {id, cancel:
// true} when the page gives up on it (an aborted fetch, a closed
// analysis stream). Messages out: {id, status, type, chunk} for each
// flushed part of a streamed answer (Server-Sent Events), then {id,
// status, type, chunk, end: true} with the rest.
package main

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"os"
	"strings"
	"sync"
	"syscall/js"

	"github.com/riodraughts/rio/internal/gui"
	"github.com/riodraughts/rio/internal/movegen"
	"github.com/rs/zerolog"
)

func main() {
	// One thread: one search per tab, a table of 64 MiB, no endgame
	// tables (the page would wait for their build; see hub/tables_js.go).
	// The variant a new page starts with: board-worker.js passes the one
	// engine gui --export was given.
	v := movegen.Brazilian
	if len(os.Args) > 1 && movegen.VariantByName(os.Args[1]) != nil {
		v = movegen.VariantByName(os.Args[1])
	}
	srv := gui.New(gui.Config{Variant: v, Threads: 1, HashMiB: 64, MaxTabs: 2}, zerolog.Nop())
	h := srv.Local()
	post := js.Global().Get("postMessage")
	var mu sync.Mutex
	cancels := map[int]context.CancelFunc{}

	receive := js.FuncOf(func(_ js.Value, args []js.Value) any {
		if len(args) == 0 || args[0].Type() != js.TypeObject {
			return nil
		}
		m := args[0]
		if m.Get("id").Type() != js.TypeNumber {
			// Not a request of the page's transport: nothing to answer to.
			return nil
		}
		id := m.Get("id").Int()
		if m.Get("cancel").Truthy() {
			mu.Lock()
			if c := cancels[id]; c != nil {
				c()
			}
			mu.Unlock()
			return nil
		}
		method, path := str(m.Get("method")), str(m.Get("path"))
		body, ctype := str(m.Get("body")), str(m.Get("type"))
		ctx, cancel := context.WithCancel(context.Background())
		mu.Lock()
		cancels[id] = cancel
		mu.Unlock()
		go func() {
			defer func() {
				mu.Lock()
				delete(cancels, id)
				mu.Unlock()
				cancel()
			}()
			w := &messageWriter{id: id, post: post, header: http.Header{}}
			defer func() {
				// net/http recovers a handler's panic for its connection;
				// here one would end the worker and every tab's search.
				if p := recover(); p != nil {
					w.buf.Reset()
					w.status = 0
					w.header.Set("Content-Type", "application/json")
					w.WriteHeader(http.StatusInternalServerError)
					fmt.Fprintf(w, `{"error":%q}`, fmt.Sprint("internal error: ", p))
					w.end()
				}
			}()
			r, err := http.NewRequestWithContext(ctx, method, "http://rio.board"+path, strings.NewReader(body))
			if err != nil {
				http.Error(w, err.Error(), http.StatusBadRequest)
			} else {
				if ctype != "" {
					r.Header.Set("Content-Type", ctype)
				}
				h.ServeHTTP(w, r)
			}
			w.end()
		}()
		return nil
	})
	global := js.Global()
	global.Set("rioBoardRequest", receive)
	if ready := global.Get("rioBoardReady"); ready.Type() == js.TypeFunction {
		ready.Invoke(receive)
	}
	select {} // the worker lives as long as the page
}

func str(v js.Value) string {
	if v.Type() != js.TypeString {
		return ""
	}
	return v.String()
}

// messageWriter is an http.ResponseWriter whose answer goes to the page as
// messages: every Flush posts what was written since (a stream's events),
// end posts the rest.
type messageWriter struct {
	id     int
	post   js.Value
	header http.Header
	status int
	buf    bytes.Buffer
}

func (w *messageWriter) Header() http.Header { return w.header }

func (w *messageWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
}

func (w *messageWriter) Write(b []byte) (int, error) {
	w.WriteHeader(http.StatusOK)
	return w.buf.Write(b)
}

func (w *messageWriter) Flush() { w.send(false) }

func (w *messageWriter) end() { w.send(true) }

func (w *messageWriter) send(end bool) {
	w.WriteHeader(http.StatusOK)
	msg := map[string]any{"id": w.id, "status": w.status, "type": w.header.Get("Content-Type"), "chunk": w.buf.String()}
	if end {
		msg["end"] = true
	}
	w.buf.Reset()
	w.post.Invoke(js.ValueOf(msg))
}
