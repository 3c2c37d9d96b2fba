package hub

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/riodraughts/rio/internal/book"
	"github.com/riodraughts/rio/internal/movegen"
)

// writeBook writes a russian book of the start position: its first legal
// moves scored 30, 28, 10 (hundredths of a man), the rest lower.
func writeBook(t *testing.T) (path string, top []string) {
	t.Helper()
	v := movegen.Russian
	p := v.Start()
	var buf [movegen.MaxMoves]movegen.Move
	var recs []book.Record
	for i, m := range v.Generate(&p, buf[:0]) {
		score := []int16{30, 28, 10}[min(i, 2)] - int16(max(i-2, 0))
		recs = append(recs, book.Record{Key: p.Hash, From: m.From(), To: m.To(), Captured: m.Captured(), Score: score})
		if i < 2 {
			top = append(top, v.FormatMove(m))
		}
	}
	path = filepath.Join(t.TempDir(), "russian.rbk")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := book.Encode(f, v, recs); err != nil {
		t.Fatal(err)
	}
	f.Close()
	return path, top
}

// go think plays from the book at once, a move within book-margin of the
// best (both of the two within 4 over many games), at any level;
// book=false and go analyze search; a damaged book is refused by name
// and the previous one stays.
func TestHubBook(t *testing.T) {
	path, top := writeBook(t)
	s := newSession(t)
	defer s.close()
	if p, ok := s.hubParams()["book"]; !ok {
		t.Fatal("no book parameter")
	} else if v, _ := p.Get("value"); v != "true" {
		t.Errorf("book declared %q, want true", v)
	}
	s.send("set-param name=book-file value="+path, "set-param name=variant value=russian", "init")
	s.expect("ready", 5*time.Second)
	seen := map[string]bool{}
	for range 40 {
		s.send("pos start", "level move-time=5", "go think")
		t0 := time.Now()
		done, infos := s.expect("done", 2*time.Second)
		if time.Since(t0) > time.Second || len(infos) > 0 {
			t.Fatalf("a book move searched: %q after %v", infos, time.Since(t0))
		}
		seen[strings.TrimPrefix(done, "done move=")] = true
	}
	if len(seen) != 2 || !seen[top[0]] || !seen[top[1]] {
		t.Errorf("book moves played %v, want both of %v", seen, top)
	}
	s.send("set-param name=book-margin value=0")
	for range 5 {
		s.send("pos start", "level move-time=5", "go think")
		if done, _ := s.expect("done", 2*time.Second); done != "done move="+top[0] {
			t.Errorf("margin 0: %q, want %s", done, top[0])
		}
	}
	// A level plays the book too, as analyze --level --book does.
	s.send("set-param name=level value=5", "pos start", "level depth=3", "go think")
	if done, infos := s.expect("done", 2*time.Second); len(infos) > 0 || done != "done move="+top[0] {
		t.Errorf("level 5: %q %q, want the book move", done, infos)
	}
	// Searched: analysis, book off, a position out of book.
	for _, c := range [][]string{
		{"set-param name=level value=0", "pos start", "level depth=3", "go analyze"},
		{"set-param name=book value=false", "pos start", "level depth=3", "go think"},
		{"set-param name=book value=true", `pos start moves="c3-d4 f6-e5"`, "level depth=3", "go think"},
	} {
		s.send(c...)
		if _, infos := s.expect("done", 5*time.Second); len(infos) == 0 {
			t.Errorf("%q: answered without a search", c)
		}
	}
	// A damaged file: an error naming it, the book stays.
	bad := filepath.Join(t.TempDir(), "bad.rbk")
	data, _ := os.ReadFile(path)
	os.WriteFile(bad, data[:len(data)-5], 0o644)
	s.expectError("set-param name=book-file value=" + bad)
	s.send("pos start", "level move-time=5", "go think")
	if done, infos := s.expect("done", 2*time.Second); len(infos) > 0 || done != "done move="+top[0] {
		t.Errorf("after a bad book-file: %q %q", done, infos)
	}
	// An empty book-file is the variant's built-in book: from the start,
	// and after its best move, go think answers at once with one of its
	// moves, within the margin of its best; the position after that move
	// set up on its own (as a match sets up a ballot) is searched.
	s.send("set-param name=book-file value=", "set-param name=book-margin value=4")
	v := movegen.Russian
	builtin := book.Builtin(v)
	start := v.Start()
	first := builtin.Lookup(&start)[0].Move
	after := start.Play(first)
	for _, c := range []struct {
		pos  string
		p    movegen.Position
		book bool
	}{
		{"pos start", start, true},
		{fmt.Sprintf("pos start moves=%q", v.FormatMove(first)), after, true},
		{"pos pos=" + v.FormatHub(&after), after, false},
	} {
		level := "level move-time=5" // a book move is at once
		if !c.book {
			level = "level depth=3"
		}
		s.send(c.pos, level, "go think")
		done, infos := s.expect("done", 2*time.Second)
		if !c.book {
			if len(infos) == 0 {
				t.Errorf("built-in book, %q: %q at once, want a search", c.pos, done)
			}
			continue
		}
		choices := builtin.Lookup(&c.p)
		ok := false
		for _, ch := range choices {
			ok = ok || done == "done move="+v.FormatMove(ch.Move) && ch.Score >= choices[0].Score-4
		}
		if len(infos) > 0 || !ok {
			t.Errorf("built-in book, %q: %q %q, want one of %d book moves at once", c.pos, done, infos, len(choices))
		}
	}
}
