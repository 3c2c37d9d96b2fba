package gui

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/riodraughts/rio/internal/search"
	"github.com/rs/zerolog"
)

// answer is how a request ended: its status and body (for an analysis,
// the whole stream).
type answer struct {
	code int
	body []byte
	err  error
}

// startLong sends a search of tab that runs until it is stopped: kind
// "search" asks for a move in 600 seconds, "analyse" for an analysis. It
// answers on the channel returned; it calls no t.Fatal, so that any
// goroutine may use it.
func (h *harness) startLong(ctx context.Context, kind, tab string) <-chan answer {
	ch := make(chan answer, 1)
	var req *http.Request
	var err error
	if kind == "search" {
		body, _ := json.Marshal(searchReq{Tab: tab, Game: gameReq{Variant: "brazilian"}, MoveTime: 600})
		req, err = http.NewRequestWithContext(ctx, "POST", h.srv.URL+"/api/search", bytes.NewReader(body))
		if err == nil {
			req.Header.Set("Content-Type", "application/json")
		}
	} else {
		req, err = http.NewRequestWithContext(ctx, "GET", h.srv.URL+"/api/analyse?"+analyseQuery(tab, "brazilian", nil, 1).Encode(), nil)
	}
	if err != nil {
		ch <- answer{err: err}
		return ch
	}
	go func() {
		resp, err := h.client.Do(req)
		if err != nil {
			ch <- answer{err: err}
			return
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		ch <- answer{code: resp.StatusCode, body: b, err: err}
	}()
	return ch
}

// stopTab posts /api/stop for tab and returns its "stopped".
func (h *harness) stopTab(tab string) (bool, error) {
	resp, err := h.client.Post(h.srv.URL+"/api/stop", "application/json", strings.NewReader(`{"tab":"`+tab+`"}`))
	if err != nil {
		return false, err
	}
	defer resp.Body.Close()
	var out map[string]bool
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil || resp.StatusCode != 200 {
		return false, fmt.Errorf("/api/stop: %d %v", resp.StatusCode, err)
	}
	return out["stopped"], nil
}

// stopBound is how long a stopped search may take to answer: far less
// than the 600 seconds it would run if the stop did not reach it, far more
// than a stop takes on a slow machine under the race detector.
const stopBound = 30 * time.Second

// TestTabChurn: 20 tabs, five times MaxTabs, search and analyse at once,
// each stopping its search with /api/stop or with a newer search of the
// tab, so that tabs are evicted and made while others claim and stop
// theirs. Every request must answer, every search must end once stopped
// (each would run for minutes otherwise), the stop must find it (it
// answers "stopped"), and the tabs must make do with MaxTabs engines
// however many come and go.
func TestTabChurn(t *testing.T) {
	const maxTabs, tabs, rounds = 4, 20, 3
	s := New(Config{MaxTabs: maxTabs, HashMiB: 1}, zerolog.Nop())
	var made atomic.Int32
	newEngine := s.tabs.newEngine
	s.tabs.newEngine = func() *search.Engine {
		made.Add(1)
		return newEngine()
	}
	h := serve(t, s)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()

	kinds := []string{"search", "analyse"}
	var wg sync.WaitGroup
	for i := range tabs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			id := fmt.Sprintf("churn%d", i)
			for r := range rounds {
				first, second := kinds[(i+r)%2], kinds[(i+r/2)%2]
				if !churnRound(t, h, ctx, id, first, second, (i+r)%3 == 0) {
					return
				}
			}
		}()
	}
	wg.Wait()

	if n := made.Load(); n > maxTabs {
		t.Errorf("%d engines made for %d tabs, at most %d at a time: want at most %d", n, tabs, maxTabs, maxTabs)
	}
	s.tabs.mu.Lock()
	defer s.tabs.mu.Unlock()
	if len(s.tabs.tabs) > maxTabs {
		t.Errorf("%d tabs held, want at most %d", len(s.tabs.tabs), maxTabs)
	}
	for id, tb := range s.tabs.tabs {
		if tb.busy() {
			t.Errorf("tab %s still searching after every request answered", id)
		}
	}
}

// churnRound starts a search of kind first for tab id (again while every
// tab is searching: 503) and waits until the tab holds it. It then stops
// it with /api/stop or, when replace is set, with a newer search of kind
// second, which it stops in turn. It reports false when the tab cannot go
// on.
func churnRound(t *testing.T, h *harness, ctx context.Context, id, first, second string, replace bool) bool {
	give := time.Now().Add(time.Minute)
	var ans <-chan answer
	for ans == nil {
		if time.Now().After(give) {
			t.Errorf("tab %s: refused (every tab searching) for a minute", id)
			return false
		}
		ch := h.startLong(ctx, first, id)
		switch a, ok := claimed(h, id, ch); {
		case ok:
			ans = ch
		case a.err == nil && a.code == http.StatusServiceUnavailable:
			time.Sleep(5 * time.Millisecond)
		case a.err == nil && a.code == 0:
			t.Errorf("tab %s: its %s is neither answered nor held by the tab after %v: /api/stop cannot reach it", id, first, stopBound)
			return false
		default:
			t.Errorf("tab %s: %s answered before it was stopped: %d %v %.200s", id, first, a.code, a.err, a.body)
			return false
		}
	}
	if replace {
		newer := h.startLong(ctx, second, id)
		if !stoppedAnswer(t, id, first, ans) {
			return false
		}
		// The first search is stopped only by the newer one's claim:
		// the newer one now holds the tab.
		ans, first = newer, second
	}
	stopped, err := h.stopTab(id)
	if err != nil || !stopped {
		t.Errorf("tab %s: /api/stop of its %s: stopped %v, %v", id, first, stopped, err)
	}
	return stoppedAnswer(t, id, first, ans)
}

// claimed waits until tab holds a search (true) or the request answers.
// It gives up after stopBound with a zero answer.
func claimed(h *harness, id string, ans <-chan answer) (answer, bool) {
	for end := time.Now().Add(stopBound); time.Now().Before(end); {
		select {
		case a := <-ans:
			return a, false
		default:
		}
		if tb := h.s.tabs.lookup(id); tb != nil && tb.busy() {
			return answer{}, true
		}
		time.Sleep(time.Millisecond)
	}
	return answer{}, false
}

// stoppedAnswer checks that a stopped search answers within stopBound,
// as a stopped search does: a search 409 errReplaced, an analysis the end
// of its stream.
func stoppedAnswer(t *testing.T, id, kind string, ans <-chan answer) bool {
	var a answer
	select {
	case a = <-ans:
	case <-time.After(stopBound):
		t.Errorf("tab %s: its %s still runs %v after it was stopped", id, kind, stopBound)
		return false
	}
	switch {
	case a.err != nil:
		t.Errorf("tab %s: %s: %v", id, kind, a.err)
	case kind == "search" && (a.code != http.StatusConflict || !bytes.Contains(a.body, []byte(errReplaced.Error()))):
		t.Errorf("tab %s: stopped search answered %d %.200s, want %d %q", id, a.code, a.body, http.StatusConflict, errReplaced)
	case kind == "analyse" && (a.code != 200 || !bytes.HasPrefix(a.body, []byte(": analysis"))):
		t.Errorf("tab %s: stopped analysis answered %d %.200s, want its stream", id, a.code, a.body)
	default:
		return true
	}
	return false
}
