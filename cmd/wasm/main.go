//go:build js && wasm

// Command wasm is Rio's Hub engine for the browser: built with GOOS=js
// GOARCH=wasm into rio.wasm, it runs inside a Web Worker (rio-worker.js)
// and talks Hub through the worker's messages instead of stdin and stdout:
// each message in is one command line, each line out one postMessage
// string. It only wires the worker to internal/protocol/hub; build.sh
// writes the three files a page needs.
package main

import (
	"context"
	"io"
	"strings"
	"sync"
	"syscall/js"

	"github.com/riodraughts/rio/internal/protocol/hub"
	"github.com/rs/zerolog"
)

func main() {
	in := newInbox()
	global := js.Global()
	receive := js.FuncOf(func(_ js.Value, args []js.Value) any {
		for _, a := range args {
			in.put(a.String())
		}
		return nil
	})
	global.Set("rioReceive", receive)
	// The worker script queued the page's early messages: it hands them
	// over now, in order, and sends the rest straight to rioReceive.
	if ready := global.Get("rioReady"); ready.Type() == js.TypeFunction {
		ready.Invoke(receive)
	}
	out := &poster{post: global.Get("postMessage")}
	// Quiet: the console is the page's, and logs would cost the one thread.
	log := zerolog.Nop()
	hub.Run(context.Background(), in, out, hub.Rio(), log)
	receive.Release()
	// quit (or the end of input): the worker closes.
	if c := global.Get("close"); c.Type() == js.TypeFunction {
		c.Invoke()
	}
}

// inbox is the session's input: the lines the page sent, in order, read as
// one stream. put never blocks (it runs on the event loop's callback).
type inbox struct {
	mu    sync.Mutex
	buf   []byte
	ready chan struct{} // a token when buf has grown
}

func newInbox() *inbox { return &inbox{ready: make(chan struct{}, 1)} }

// put adds one message; a message with several lines is several commands.
func (b *inbox) put(msg string) {
	b.mu.Lock()
	b.buf = append(b.buf, msg...)
	if !strings.HasSuffix(msg, "\n") {
		b.buf = append(b.buf, '\n')
	}
	b.mu.Unlock()
	select {
	case b.ready <- struct{}{}:
	default:
	}
}

// Read waits for input; the page has no end of input (quit ends Hub).
func (b *inbox) Read(p []byte) (int, error) {
	for {
		b.mu.Lock()
		if len(b.buf) > 0 {
			n := copy(p, b.buf)
			b.buf = b.buf[n:]
			b.mu.Unlock()
			return n, nil
		}
		b.mu.Unlock()
		<-b.ready
	}
}

// poster posts every whole line written to it as one message.
type poster struct {
	post    js.Value
	partial []byte
}

func (p *poster) Write(data []byte) (int, error) {
	p.partial = append(p.partial, data...)
	for {
		i := strings.IndexByte(string(p.partial), '\n')
		if i < 0 {
			return len(data), nil
		}
		p.post.Invoke(strings.TrimSuffix(string(p.partial[:i]), "\r"))
		p.partial = p.partial[i+1:]
	}
}

var _ io.Writer = (*poster)(nil)
