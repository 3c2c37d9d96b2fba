package gui

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/riodraughts/rio/internal/game"
	"github.com/riodraughts/rio/internal/movegen"
	"github.com/riodraughts/rio/internal/search"
	"github.com/riodraughts/rio/internal/text"
	"github.com/riodraughts/rio/internal/tt"
)

// MaxLines bounds the lines of a multi-PV analysis.
const MaxLines = 5

// analysisView is one report of a live analysis.
type analysisView struct {
	Depth int        `json:"depth"`
	Nodes int64      `json:"nodes"`
	NPS   float64    `json:"nps"`
	Time  float64    `json:"time"`
	Lines []lineView `json:"lines"`
	Table string     `json:"table,omitempty"`
	// Done is set on the last report: the search ended by itself (a
	// forced result seen to the end, or the depth limit).
	Done bool `json:"done,omitempty"`
}

// minReportGap spaces the reports a stream sends: the first iterations
// finish in microseconds.
const minReportGap = 150 * time.Millisecond

// handleAnalyse streams an analysis of a position as Server-Sent Events
// (event "analysis", data an analysisView) until the page closes the
// stream or the tab starts another search. The game comes in the query:
// tab, variant, fen, moves (protocol notation, space separated), at, and
// lines (1-5).
func (s *Server) handleAnalyse(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	req := gameRequest{Variant: q.Get("variant"), FEN: q.Get("fen"), Moves: strings.Fields(q.Get("moves"))}
	if a := q.Get("at"); a != "" {
		n, err := strconv.Atoi(a)
		if err != nil {
			fail(w, badf("at %q is not a ply number", text.Clip(a, 80)))
			return
		}
		req.At = &n
	}
	lines := 1
	if l := q.Get("lines"); l != "" {
		n, err := strconv.Atoi(l)
		if err != nil || n < 1 || n > MaxLines {
			fail(w, badf("lines %q: expected 1-%d", text.Clip(l, 80), MaxLines))
			return
		}
		lines = n
	}
	g, at, err := req.replay()
	if err != nil {
		fail(w, err)
		return
	}
	g = upTo(g, at)
	if o := g.Outcome(); o.Result != game.Ongoing {
		fail(w, badf("the game is over: %s", o.Reason))
		return
	}
	flusher, ok := w.(http.Flusher)
	if !ok {
		fail(w, fmt.Errorf("streaming is not supported here"))
		return
	}
	v := g.Variant
	root := g.Position()
	var buf [movegen.MaxMoves]movegen.Move
	nLines := min(lines, len(v.Generate(&root, buf[:0])))

	ctx, e, end, ok := s.claimTab(w, r, q.Get("tab"))
	if !ok {
		return
	}
	s.prepareTables(g)
	defer end()

	// The search's goroutine fills latest; this one alone writes the
	// stream.
	var mu sync.Mutex
	var latest *analysisView
	wake := make(chan struct{}, 1)
	pending := make([]lineView, nLines)
	table := s.tableValue(v, &root)
	onInfo := func(i search.Info) {
		if i.Line < 1 || i.Line > nLines {
			return
		}
		// A line the running iteration has not scored yet keeps its last
		// report.
		if i.Score >= -tt.Win && i.Score <= tt.Win {
			pending[i.Line-1] = viewLine(v, root, i.Score, i.PV)
		}
		if i.Line < nLines {
			return
		}
		if table == "" {
			table = s.tableValue(v, &root) // the tables may have become ready since
		}
		view := &analysisView{Depth: i.Depth, Nodes: i.Nodes, NPS: i.NPS(), Time: i.Time.Seconds(), Table: table}
		for _, l := range pending {
			if len(l.PV) > 0 {
				view.Lines = append(view.Lines, l)
			}
		}
		mu.Lock()
		latest = view
		mu.Unlock()
		select {
		case wake <- struct{}{}:
		default:
		}
	}
	srch := e.Start(ctx, g, search.Limits{Infinite: true},
		search.Options{Threads: s.cfg.Threads, MultiPV: nLines, Analysis: true, Progress: 500 * time.Millisecond}, onInfo)

	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
	fmt.Fprint(w, ": analysis\n\n")
	flusher.Flush()

	send := func(done bool) {
		mu.Lock()
		view := latest
		latest = nil
		mu.Unlock()
		if view == nil && !done {
			return
		}
		if view == nil {
			view = &analysisView{Lines: []lineView{}}
		}
		view.Done = done
		data, _ := json.Marshal(view)
		fmt.Fprintf(w, "event: analysis\ndata: %s\n\n", data)
		flusher.Flush()
	}
	heartbeat := time.NewTicker(15 * time.Second)
	defer heartbeat.Stop()
	last := time.Time{}
	for {
		select {
		case <-ctx.Done():
			srch.Stop()
			srch.Wait()
			return
		case <-srch.Done():
			send(true)
			return
		case <-wake:
			if gap := time.Since(last); gap < minReportGap {
				select {
				case <-time.After(minReportGap - gap):
				case <-ctx.Done():
					continue
				}
			}
			last = time.Now()
			send(false)
		case <-heartbeat.C:
			fmt.Fprint(w, ": keep-alive\n\n")
			flusher.Flush()
		}
	}
}
