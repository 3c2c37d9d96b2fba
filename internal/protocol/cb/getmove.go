package cb

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/riodraughts/rio/internal/egdb"
	"github.com/riodraughts/rio/internal/game"
	"github.com/riodraughts/rio/internal/movegen"
	"github.com/riodraughts/rio/internal/search"
	"github.com/riodraughts/rio/internal/tt"
)

// pollEvery is how often GetMove looks at playnow while the search runs.
const pollEvery = 2 * time.Millisecond

// maxMoveTime caps maxtime (a GUI may send anything).
const maxMoveTime = 24 * time.Hour

// Request is one getmove call, the C arguments but the board and move.
type Request struct {
	Color    int
	MaxTime  float64 // seconds, the average time per move
	Info     int
	MoreInfo int
	// PlayNow reports whether the GUI wants the move now (nil: never).
	PlayNow func() bool
	// Status receives the status-bar text as the search goes (nil: none);
	// it is called from the search's goroutine, never after GetMove
	// returns.
	Status func(string)
}

// limits returns the search limits of a getmove: with an incremental
// clock (info bits 2-3), the clock's remaining time and increment budgeted
// as the Hub clock is; else maxtime, the average per move, as a move time
// (so that it is never exceeded, which CB_EXACT_TIME demands). With both
// the clock and CB_EXACT_TIME, maxtime still caps the move.
func limits(maxTime float64, info, moreInfo int) search.Limits {
	mt := seconds(maxTime)
	if mode := (info >> incrTimeShift) & 3; mode != 0 {
		unit := [...]time.Duration{time.Millisecond, 10 * time.Millisecond, 100 * time.Millisecond}[mode-1]
		remaining := time.Duration(uint16(uint32(moreInfo)>>16)) * unit
		inc := time.Duration(uint16(moreInfo)) * unit
		lim := search.Limits{HasClock: true, Time: remaining, Inc: inc}
		if info&infoExactTime != 0 && mt > 0 {
			// A clock and an exact time: the clock's own budget, capped.
			lim = search.Limits{MoveTime: min(mt, clockHard(lim))}
		}
		return lim
	}
	return search.Limits{MoveTime: max(mt, time.Millisecond)}
}

// clockHard is a bound on what the clock lets one move use: the time left
// with the increment, less the safety margin, halved.
func clockHard(l search.Limits) time.Duration {
	return max((l.Time+l.Inc-search.Safety)/2, time.Millisecond)
}

// seconds converts maxtime, refusing what is not a sensible time.
func seconds(s float64) time.Duration {
	if math.IsNaN(s) || s <= 0 {
		return 0
	}
	if s >= maxMoveTime.Seconds() {
		return maxMoveTime
	}
	return time.Duration(s * float64(time.Second))
}

// GetMove is getmove: it searches the position of b with req.Color to
// move, writes the position after its move into b and the move into mv,
// and returns the result code. Bad input (a colour other than 1 or 2, a
// board that is no position) returns ResultUnknown with b unchanged, mv
// zeroed and the reason in the status; a side without a legal move returns
// resultLoss, b unchanged.
func (e *Engine) GetMove(b *Board, req Request, mv *CBMove) int {
	// The GUI's clock runs from the call: waiting for the search before,
	// setting up and allocating are paid out of this move's time.
	called := time.Now()
	e.searchMu.Lock()
	unlock := e.searchMu.Unlock
	defer func() { unlock() }()
	*mv = CBMove{}
	// The status is never reported after GetMove returns, even when the
	// search's threads are left to stop behind it.
	var statusMu sync.Mutex
	returned := false
	defer func() { statusMu.Lock(); returned = true; statusMu.Unlock() }()
	status := func(s string) {
		statusMu.Lock()
		defer statusMu.Unlock()
		if req.Status != nil && !returned {
			req.Status(clipReply(s))
		}
	}

	e.mu.Lock()
	cfg := e.settings // a command during the search is for the next one
	v := cfg.variant
	p, err := positionFromBoard(v, b, req.Color)
	if err != nil {
		e.mu.Unlock()
		status("Rio: " + err.Error())
		return ResultUnknown
	}
	g := e.hist
	e.hist = nil // a history serves the one getmove that follows it
	e.mu.Unlock()
	if g == nil || g.Variant != v || !samePosition(g.Position(), p) {
		g = game.NewRules(v, p, cfg.drawRules)
	}
	eng := e.prepare(&cfg)
	tables := eng.Tables

	var buf [movegen.MaxMoves]movegen.Move
	legal := v.Generate(&p, buf[:0])
	if len(legal) == 0 {
		status("Rio: no legal move")
		return resultLoss
	}
	if cfg.book > 0 {
		if c, ok := cfg.currentBook().Play(g, bookMargins[cfg.book], e.state.rng); ok {
			describe(v, &p, c.Move, mv)
			q := p.Play(c.Move)
			BoardFromPosition(&q, b)
			status(fmt.Sprintf("Rio: book move %s, score %s", v.FormatPDN(&p, c.Move, movegen.PDNStyle{}), search.ScoreText(c.Score)))
			statusMu.Lock()
			returned = true
			statusMu.Unlock()
			_ = g.Play(c.Move)
			return outcome(v, g, tables, c.Score)
		}
	}
	if p.Occupied().Count() <= egdb.Reach {
		tables.For(v) // the endgame is near: prepare the tables
	}

	lim := limits(req.MaxTime, req.Info, req.MoreInfo)
	lim.From = called
	opt := search.Options{Threads: cfg.threads, Progress: 100 * time.Millisecond}
	s := eng.Start(context.Background(), g, lim, opt, func(i search.Info) {
		if i.Line == 1 {
			status(progress(v, &p, i))
		}
	})
	// The search stops itself at its hard limit. On a loaded machine its
	// threads may be left waiting past it: the move is then answered from
	// the last completed iteration, a little after the limit (a quarter
	// of the margin the limit keeps: the rest is for the host's own
	// scheduling on a loaded machine), and the threads stop behind it,
	// holding the search lock until they have.
	var late <-chan time.Time
	if deadline, ok := s.Deadline(); ok {
		timer := time.NewTimer(time.Until(deadline) + lim.Margin()/4)
		defer timer.Stop()
		late = timer.C
	}
	var tick <-chan time.Time
	if req.PlayNow != nil {
		ticker := time.NewTicker(pollEvery)
		defer ticker.Stop()
		tick = ticker.C
	}
	early := false
wait:
	for {
		select {
		case <-s.Done():
			break wait
		case <-late:
			s.Stop()
			early = true
			break wait
		case <-tick:
			if req.PlayNow() {
				s.Stop()
				break wait
			}
		}
	}
	res, ok := s.Latest()
	select {
	case <-s.Done():
		res = s.Wait()
	default:
		if early && ok {
			unlock = func() { go func() { s.Wait(); e.searchMu.Unlock() }() }
		} else {
			res = s.Wait()
		}
	}
	m := res.Move
	if !slices.Contains(legal, m) {
		m = legal[0] // not reached: a search with a legal move finds one
	}
	describe(v, &p, m, mv)
	q := p.Play(m)
	BoardFromPosition(&q, b)
	status(fmt.Sprintf("Rio: played %s, depth %d, score %s, %s nodes in %.2fs",
		v.FormatPDN(&p, m, movegen.PDNStyle{}), res.Depth, search.ScoreText(res.Score),
		count(res.Nodes), time.Since(called).Seconds()))
	// The final line stays: a late progress report of the threads still
	// stopping does not replace it.
	statusMu.Lock()
	returned = true
	statusMu.Unlock()

	_ = g.Play(m)
	return outcome(v, g, tables, res.Score)
}

// outcome is getmove's result for the mover after its move m was played
// in g with the search score score: a win or a loss only when proved (the
// opponent has no move, a forced result within the search horizon), a
// draw only when the rules or the endgame tables say so, else unknown.
func outcome(v *movegen.Variant, g *game.Game, tables *egdb.Tables, score int) int {
	switch o := g.Outcome(); o.Result {
	case game.Draw:
		return resultDraw
	case game.WhiteWins, game.BlackWins:
		return resultWin // the opponent has no move
	}
	switch {
	case score > tt.MateBound:
		return resultWin
	case score < -tt.MateBound:
		return resultLoss
	}
	q := g.Position()
	if val, ok := tables.Ready(v).Probe(&q); ok && val.WDL == egdb.Draw {
		return resultDraw
	}
	return ResultUnknown
}

// samePosition compares the pieces and the side to move.
func samePosition(a, b movegen.Position) bool {
	return a.Pieces == b.Pieces && a.Kings == b.Kings && a.Side == b.Side
}

// progress formats a search report for the status bar: its legal line
// (movegen.LegalPrefix), at most 12 moves of it.
func progress(v *movegen.Variant, root *movegen.Position, i search.Info) string {
	var pv strings.Builder
	p := *root
	for n, m := range v.LegalPrefix(root, i.PV) {
		if n == 12 {
			pv.WriteString(" ...")
			break
		}
		if n > 0 {
			pv.WriteByte(' ')
		}
		pv.WriteString(v.FormatPDN(&p, m, movegen.PDNStyle{}))
		p = p.Play(m)
	}
	return fmt.Sprintf("Rio: depth %d/%d  score %s  %s nodes  %.0f kN/s  time %.1fs  pv %s",
		i.Depth, i.SelDepth, search.ScoreText(i.Score), count(i.Nodes), i.NPS()/1e3, i.Time.Seconds(), pv.String())
}

func count(n int64) string {
	switch {
	case n >= 10_000_000:
		return fmt.Sprintf("%.1fM", float64(n)/1e6)
	case n >= 10_000:
		return fmt.Sprintf("%.1fk", float64(n)/1e3)
	}
	return fmt.Sprint(n)
}

// IsLegal is islegal: it reports whether color has a legal move from
// square number from to square number to in b and, if so, fills mv with
// one such move. b is not changed; bad input is simply not legal.
func (e *Engine) IsLegal(b *Board, color, from, to int, mv *CBMove) bool {
	*mv = CBMove{}
	e.mu.Lock()
	v := e.variant
	e.mu.Unlock()
	if from < 1 || from > 32 || to < 1 || to > 32 {
		return false
	}
	p, err := positionFromBoard(v, b, color)
	if err != nil {
		return false
	}
	var buf [movegen.MaxMoves]movegen.Move
	for _, m := range v.Generate(&p, buf[:0]) {
		if m.From() == square(from) && m.To() == square(to) {
			describe(v, &p, m, mv)
			return true
		}
	}
	return false
}
