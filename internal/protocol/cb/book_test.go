package cb

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/riodraughts/rio/internal/book"
	"github.com/riodraughts/rio/internal/movegen"
)

// set bookfile and set book 0-3: getmove plays a book move at once (the
// best at 1, one within the margin at 3, both of two close ones over many
// games), searches at 0 and out of book; a damaged or other-variant file
// is refused and the book stays.
func TestGetMoveBook(t *testing.T) {
	v := movegen.Russian
	start := v.Start()
	var buf [movegen.MaxMoves]movegen.Move
	var recs []book.Record
	var top []movegen.Move
	for i, m := range v.Generate(&start, buf[:0]) {
		score := []int16{30, 25, -40}[min(i, 2)] - int16(max(i-2, 0))
		recs = append(recs, book.Record{Key: start.Hash, From: m.From(), To: m.To(), Captured: m.Captured(), Score: score})
		if i < 2 {
			top = append(top, m)
		}
	}
	path := filepath.Join(t.TempDir(), "russian.rbk")
	f, _ := os.Create(path)
	if err := book.Encode(f, v, recs); err != nil {
		t.Fatal(err)
	}
	f.Close()

	e := New(GameTypeRussian) // with the default book settings
	mustCommand(t, e, "set enable_wld 0")
	play := func() (movegen.Move, time.Duration, string) {
		p, b := boardOf(t, v, v.StartFEN)
		var mv CBMove
		var status string
		t0 := time.Now()
		e.GetMove(&b, Request{Color: white, MaxTime: 1, Status: func(s string) { status = s }}, &mv)
		el := time.Since(t0)
		checkPlayed(t, v, &p, &b, &mv)
		for _, m := range v.Generate(&p, buf[:0]) {
			q := p.Play(m)
			var qb Board
			BoardFromPosition(&q, &qb)
			if qb == b {
				return m, el, status
			}
		}
		t.Fatal("the board written is no move's")
		return 0, 0, ""
	}
	// By default Rio plays good moves of its built-in book.
	if b, f := mustCommand(t, e, "get book"), mustCommand(t, e, "get bookfile"); b != "2" || f != "builtin" {
		t.Errorf("default book %q, bookfile %q: want 2, builtin", b, f)
	}
	builtinMoves := book.Builtin(v).Lookup(&start)
	if m, el, status := play(); el > 500*time.Millisecond || !strings.HasPrefix(status, "Rio: book move") ||
		!slices.ContainsFunc(builtinMoves, func(c book.Choice) bool { return c.Move == m && c.Score >= builtinMoves[0].Score-4 }) {
		t.Errorf("default: %s after %v (%q), want a good move of the built-in book at once", v.FormatMove(m), el, status)
	}
	if r := mustCommand(t, e, "set bookfile "+path); !strings.Contains(r, "1 positions") {
		t.Errorf("set bookfile: %q", r)
	}
	if got := mustCommand(t, e, "get bookfile"); got != path {
		t.Errorf("get bookfile %q", got)
	}
	mustCommand(t, e, "set book 1")
	for range 3 {
		m, el, status := play()
		if m != top[0] || el > 500*time.Millisecond || !strings.HasPrefix(status, "Rio: book move") {
			t.Errorf("book 1: %s after %v (%q), want %s at once", v.FormatMove(m), el, status, v.FormatMove(top[0]))
		}
	}
	mustCommand(t, e, "set book 3")
	seen := map[movegen.Move]bool{}
	for range 30 {
		m, _, _ := play()
		seen[m] = true
	}
	if len(seen) != 2 || !seen[top[0]] || !seen[top[1]] {
		t.Errorf("book 3: moves %v, want both within the margin", seen)
	}
	mustCommand(t, e, "set book 0")
	if _, el, status := play(); el < 600*time.Millisecond || !strings.HasPrefix(status, "Rio: played") {
		t.Errorf("book 0: %q after %v, want a search", status, el)
	}
	data, _ := os.ReadFile(path)
	bad := filepath.Join(t.TempDir(), "bad.rbk")
	os.WriteFile(bad, data[:30], 0o644)
	if r, ok := e.Command("set bookfile " + bad); ok || !strings.Contains(r, "error") {
		t.Errorf("damaged bookfile: %q %v", r, ok)
	}
	if got := mustCommand(t, e, "get bookfile"); got != path {
		t.Errorf("after a bad file, bookfile %q", got)
	}
	mustCommand(t, e, "set gametype 26")
	if got := mustCommand(t, e, "get bookfile"); got != "builtin" {
		t.Errorf("a russian book kept for brazilian: %q", got)
	}
	if r, ok := e.Command("set bookfile " + path); ok {
		t.Errorf("a russian book taken for brazilian: %q", r)
	}
}
