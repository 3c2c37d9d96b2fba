package gui

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/riodraughts/rio/internal/search"
)

// tab is one browser tab's claim on the engine: at most one search runs
// for it, and starting one stops the one before.
type tab struct {
	mu sync.Mutex
	// engine is the tab's own (its transposition table too), so that tabs
	// searching at once share nothing.
	engine *search.Engine
	cancel context.CancelFunc // of the search running, or nil
	done   chan struct{}      // closed when that search has ended
	used   time.Time
}

// begin stops the tab's search, if any, waits for it to end, and starts
// the claim of a new one; end must be called when it is over.
func (t *tab) begin(parent context.Context) (ctx context.Context, end func()) {
	t.mu.Lock()
	for t.cancel != nil {
		cancel, done := t.cancel, t.done
		t.mu.Unlock()
		cancel()
		<-done
		t.mu.Lock()
	}
	ctx, cancel := context.WithCancel(parent)
	done := make(chan struct{})
	t.cancel, t.done, t.used = cancel, done, time.Now()
	t.mu.Unlock()
	return ctx, func() {
		cancel()
		t.mu.Lock()
		if t.done == done {
			t.cancel, t.done = nil, nil
		}
		t.used = time.Now()
		t.mu.Unlock()
		close(done)
	}
}

// stop stops the tab's search, if any, without waiting.
func (t *tab) stop() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.cancel != nil {
		t.cancel()
	}
}

func (t *tab) busy() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.cancel != nil
}

// tabSet holds the tabs by id, at most max of them: a new tab takes the
// place of the least recently used idle one.
type tabSet struct {
	mu        sync.Mutex
	max       int
	tabs      map[string]*tab
	newEngine func() *search.Engine
}

func newTabSet(max int, newEngine func() *search.Engine) *tabSet {
	return &tabSet{max: max, tabs: map[string]*tab{}, newEngine: newEngine}
}

var errTooManyTabs = errors.New("too many tabs are searching: stop the analysis in another tab")

// validTabID accepts the ids the page makes: 1-64 letters, digits, - or _.
func validTabID(id string) bool { return isWord(id, 64, "-_") }

// get returns the tab id, making it (and its engine) if new.
func (ts *tabSet) get(id string) (*tab, error) {
	if !validTabID(id) {
		return nil, badf("tab %q: expected 1-64 letters, digits, - or _", clip(id))
	}
	ts.mu.Lock()
	defer ts.mu.Unlock()
	if t, ok := ts.tabs[id]; ok {
		return t, nil
	}
	if len(ts.tabs) >= ts.max {
		var oldest string
		var when time.Time
		for k, t := range ts.tabs {
			t.mu.Lock()
			idle, used := t.cancel == nil, t.used
			t.mu.Unlock()
			if idle && (oldest == "" || used.Before(when)) {
				oldest, when = k, used
			}
		}
		if oldest == "" {
			return nil, errTooManyTabs
		}
		delete(ts.tabs, oldest)
	}
	t := &tab{engine: ts.newEngine(), used: time.Now()}
	ts.tabs[id] = t
	return t, nil
}

// lookup returns the tab id if it exists.
func (ts *tabSet) lookup(id string) *tab {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	return ts.tabs[id]
}

// stopAll stops every search (the server is closing).
func (ts *tabSet) stopAll() {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	for _, t := range ts.tabs {
		t.stop()
	}
}
