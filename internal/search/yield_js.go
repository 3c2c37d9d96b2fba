//go:build js

package search

import (
	"syscall/js"
	"time"
)

// yieldEvery is how long a search on the browser's single thread runs
// before it gives the JavaScript event loop a turn. Go's js/wasm runtime
// returns to the event loop only when every goroutine is blocked, so
// without it a search would never see the page's "stop" (which lidraughts
// expects answered within a second, and Rio within 100 ms). A turn costs
// a macrotask (well under a millisecond through a MessageChannel, a
// clamped 4 ms through setTimeout), about 1-10% of 30 ms.
const yieldEvery = 30 * time.Millisecond

// hostTurn is the turn's machinery, made on first use: the worker script's
// rioYield(f) schedules f as a macrotask (a MessageChannel message), and f
// wakes the search.
var hostTurn struct {
	schedule js.Value
	wake     js.Func
	woken    chan struct{}
}

// yieldHost blocks the search for one turn of the event loop when
// yieldEvery has passed since the last one: the messages queued meanwhile
// ("stop" among them) are delivered and handled before it goes on.
func (w *worker) yieldHost(el time.Duration) bool {
	if el-w.lastYield < yieldEvery {
		return false
	}
	w.lastYield = el
	if hostTurn.woken == nil {
		hostTurn.woken = make(chan struct{}, 1)
		hostTurn.schedule = js.Global().Get("rioYield")
		hostTurn.wake = js.FuncOf(func(js.Value, []js.Value) any {
			hostTurn.woken <- struct{}{}
			return nil
		})
	}
	if hostTurn.schedule.Type() != js.TypeFunction {
		time.Sleep(time.Millisecond) // a setTimeout turn
		return true
	}
	hostTurn.schedule.Invoke(hostTurn.wake)
	<-hostTurn.woken
	return true
}
