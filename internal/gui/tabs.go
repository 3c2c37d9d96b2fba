package gui

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/riodraughts/rio/internal/search"
	"github.com/riodraughts/rio/internal/text"
)

// tab is one browser tab's claim on an engine: at most one search runs
// for it, and starting one stops the one before.
type tab struct {
	mu sync.Mutex
	// cancel is the newest search's, from its claim until it has ended
	// (nil: the tab is idle and may be evicted); done is closed when that
	// search has ended.
	cancel context.CancelFunc
	done   chan struct{}
	used   time.Time

	// engine is the tab's own (its transposition table too), so that tabs
	// searching at once share nothing. It is nil until the tab's first
	// search makes it, or an evicted tab's, whose table stale says is
	// still to be cleared. Only the search holding the tab touches them:
	// each search waits for the one before to end (claim).
	engine *search.Engine
	stale  bool
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
// place, and the engine, of the least recently used idle one.
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

// claim makes a search the newest of the tab id (making the tab if new)
// and returns the search's context, the engine to search with and end,
// to call when the search is over. It stops the tab's search before and
// waits for it to end, so that the engine is this search's alone.
//
// The claim is made under the set's lock, the one eviction takes: from
// then on the tab cannot be evicted, and /api/stop or a newer search of
// the tab cancels this one's context, even while it still waits for the
// search before or for its engine. Making or clearing the engine (its
// table is up to --hash MiB, touched page by page) waits until that lock
// is released, since every tab's stop and search goes through it.
func (ts *tabSet) claim(parent context.Context, id string) (context.Context, *search.Engine, func(), error) {
	if !validTabID(id) {
		return nil, nil, nil, badf("tab %q: expected 1-64 letters, digits, - or _", text.Clip(id, 80))
	}
	ts.mu.Lock()
	t, ok := ts.tabs[id]
	if !ok {
		t = &tab{}
		if len(ts.tabs) >= ts.max {
			old := ts.evict()
			if old == nil {
				ts.mu.Unlock()
				return nil, nil, nil, errTooManyTabs
			}
			// The new tab takes the evicted one's table: a dropped table
			// is unmapped only when the garbage collector gets to it (it
			// lives outside the Go heap on Linux), so tabs coming and
			// going would hold more than max tables.
			t.engine, t.stale = old.engine, true
		}
		ts.tabs[id] = t
	}
	ctx, cancel := context.WithCancel(parent)
	done := make(chan struct{})
	t.mu.Lock()
	before, beforeDone := t.cancel, t.done
	t.cancel, t.done, t.used = cancel, done, time.Now()
	t.mu.Unlock()
	ts.mu.Unlock()

	if before != nil {
		before()
		<-beforeDone
	}
	if t.engine == nil {
		t.engine = ts.newEngine()
	} else if t.stale {
		t.engine.TT.Clear()
	}
	t.stale = false
	return ctx, t.engine, func() {
		cancel()
		t.mu.Lock()
		if t.done == done {
			t.cancel, t.done = nil, nil
		}
		t.used = time.Now()
		t.mu.Unlock()
		close(done)
	}, nil
}

// evict takes the least recently used idle tab out of the set and returns
// it, or nil when every tab is searching. ts.mu is held: no search can
// claim the tab once it is out.
func (ts *tabSet) evict() *tab {
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
		return nil
	}
	t := ts.tabs[oldest]
	delete(ts.tabs, oldest)
	return t
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
