package cb

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/riodraughts/rio/internal/book"
	"github.com/riodraughts/rio/internal/movegen"
)

func newTestEngine(t *testing.T) *Engine {
	t.Helper()
	e := New(GameTypeRussian)
	mustCommand(t, e, "set enable_wld 0") // no table builds in unit tests
	mustCommand(t, e, "set book 0")       // searched from the start: TestGetMoveBook plays the book
	return e
}

func mustCommand(t *testing.T, e *Engine, cmd string) string {
	t.Helper()
	reply, ok := e.Command(cmd)
	if !ok {
		t.Fatalf("%q: refused: %s", cmd, reply)
	}
	return reply
}

func TestCommands(t *testing.T) {
	e := newTestEngine(t)
	for _, c := range []struct{ cmd, reply string }{
		{"name", "Rio"},
		{"help", "rio-cb.htm"},
		{"get protocolversion", "2"},
		{"get gametype", "25"},
		{"set gametype 26", "gametype 26"},
		{"get gametype", "26"},
		{"set gametype 25", "gametype 25"},
		{"get gametype", "25"},
		{"get hashsize", "64"},
		{"set hashsize 16", "hashsize 16"},
		{"get hashsize", "16"},
		{"set searchthreads 1", "searchthreads 1"},
		{"get searchthreads", "1"},
		{"set enable_wld 1", "enable_wld 1"},
		{"get enable_wld", "1"},
		{"set enable_wld 0", "enable_wld 0"},
		{"get enable_wld", "0"},
		{"set max_dbpieces 3", "max_dbpieces 3"},
		{"get max_dbpieces", "3"},
		{"set book 2", "book 2"},
		{"get book", "2"},
		{"get bookfile", "builtin"},
		{"set bookfile", fmt.Sprintf("bookfile: the built-in book, %d positions", book.Builtin(movegen.Russian).Positions())},
		{"set dbpath " + t.TempDir(), ""},
		{"set dbpath", "dbpath: built-in tables"},
		{"get dbpath", ""},
		{"get movelist B:W1:B", "movelist 0"},
		{"set gamehist W:W21-32:B1-12", "gamehist 0 moves"},
		{"set gamehist W:W21-32:B1-12 22-18 11-15", "gamehist 2 moves"},
		{"name\x00garbage", "Rio"},
	} {
		reply := mustCommand(t, e, c.cmd)
		if c.reply != "" && reply != c.reply {
			t.Errorf("%q: reply %q, want %q", c.cmd, reply, c.reply)
		}
	}
	if about := mustCommand(t, e, "about"); !strings.Contains(about, "\n") || !strings.HasPrefix(about, "Rio") {
		t.Errorf("about: %q", about)
	}
	if r, ok := e.Command("set searchthreads 64"); !ok || r != "searchthreads "+strconv.Itoa(cpuThreads()) {
		t.Errorf("searchthreads 64: %q %v", r, ok)
	}
	for _, cmd := range []string{
		"", "   ", "frobnicate", "get", "set", "get nothing", "set nothing 1",
		"set allscores 1", "set solve 1", "set enable_mtc 1",
	} {
		if r, ok := e.Command(cmd); ok || r != unknown {
			t.Errorf("%q: %q %v, want ? and 0", cmd, r, ok)
		}
	}
	for _, cmd := range []string{
		"set gametype 21", "set gametype x", "set hashsize 0", "set hashsize 100000",
		"set searchthreads 0", "set book 4", "set enable_wld 2", "set dbpath /no/such/dir",
		"set gamehist", "set gamehist W:W99:B1", "set gamehist W:W21-32:B1-12 22-17 22-18",
		"get movelist W:W1:B5", "get movelist nonsense",
		"get movelist B:W5,6,7,8,9,10,11,12,13,14,15,16,17:B1",
		"name " + strings.Repeat("x", MaxCommand),
	} {
		r, ok := e.Command(cmd)
		if ok {
			t.Errorf("%.40q: accepted: %q", cmd, r)
		}
		if !strings.HasPrefix(r, "error") {
			t.Errorf("%.40q: reply %q", cmd, r)
		}
	}
	// The failed settings left the earlier ones.
	if r := mustCommand(t, e, "get hashsize"); r != "16" {
		t.Errorf("hashsize after refusals: %s", r)
	}
	if r := mustCommand(t, e, "get gametype"); r != "25" {
		t.Errorf("gametype after refusals: %s", r)
	}
}

// A long command (set gamehist has no length cap) is read whole.
func TestLongGameHist(t *testing.T) {
	e := newTestEngine(t)
	cycle := " 32-28 30-21 28-32 21-30"
	cmd := "set gamehist W:WK32:B3,4,8,19,23,24,27,K30" + strings.Repeat(cycle, 10)
	if len(cmd) < 256 {
		t.Fatal("command too short for the test")
	}
	if r := mustCommand(t, e, cmd); r != "gamehist 40 moves" {
		t.Fatalf("reply %q", r)
	}
}

// listed is a move as a movelist record gives it.
type listed struct {
	jumps, old, new, from, to int
	landed, taken, pieces     []int
}

func parseMoveList(t *testing.T, reply string) []listed {
	t.Helper()
	body, ok := strings.CutPrefix(reply, "movelist ")
	if !ok {
		t.Fatalf("reply %q", reply)
	}
	if body == "0" {
		return nil
	}
	count, rest, ok := strings.Cut(body, ",")
	n, err := strconv.Atoi(count)
	if !ok || err != nil || !strings.HasSuffix(rest, ";") {
		t.Fatalf("reply %q", reply)
	}
	records := strings.Split(strings.TrimSuffix(rest, ";"), ";")
	if len(records) != n {
		t.Fatalf("reply %q: %d records for %d moves", reply, len(records), n)
	}
	var out []listed
	for _, r := range records {
		var f []int
		for s := range strings.SplitSeq(r, ",") {
			x, err := strconv.Atoi(s)
			if err != nil {
				t.Fatalf("record %q: %v", r, err)
			}
			f = append(f, x)
		}
		if len(f) < 5 || (len(f)-5)%3 != 0 || (len(f)-5)/3 != f[0] {
			t.Fatalf("record %q: %d fields", r, len(f))
		}
		l := listed{jumps: f[0], old: f[1], new: f[2], from: f[3], to: f[4]}
		for i := 5; i < len(f); i += 3 {
			l.landed = append(l.landed, f[i])
			l.taken = append(l.taken, f[i+1])
			l.pieces = append(l.pieces, f[i+2])
		}
		out = append(out, l)
	}
	return out
}

// get movelist against the move generator, in capture positions of both
// variants: one record per legal move, each with its route.
func TestMoveList(t *testing.T) {
	for _, c := range []struct {
		v   *movegen.Variant
		fen string
	}{
		{movegen.Russian, "W:W21-32:B1-12"},
		{movegen.Russian, "W:W23,K24,29:B9,17,19,21,27"},               // the king's route comes back to its start
		{movegen.Russian, "W:WK2,21:B7,8,14,17,18,24,26"},              // captures of 2 and 5 pieces share from and to
		{movegen.Brazilian, "W:WK1,K17,28,30:B2,3,14,15,16,22,K26,27"}, // two captures of 3 share from and to
		{movegen.Brazilian, "W:WK20,25:B4,7,9,17,21,24"},               // route back to the start
		{movegen.Brazilian, "B:W18,19,K27:B10,14,K30"},
		{movegen.Russian, "W:W27:B22,14,7"},
	} {
		e := newTestEngine(t)
		mustCommand(t, e, fmt.Sprintf("set gametype %d", c.v.GameType))
		reply := mustCommand(t, e, "get movelist "+c.fen)
		got := parseMoveList(t, reply)
		p, err := c.v.ParseFEN(c.fen)
		if err != nil {
			t.Fatal(err)
		}
		var buf [movegen.MaxMoves]movegen.Move
		legal := c.v.Generate(&p, buf[:0])
		if len(got) != len(legal) {
			t.Fatalf("%s: %d moves listed, %d legal: %s", c.fen, len(got), len(legal), reply)
		}
		var want, have []string
		for _, m := range legal {
			want = append(want, c.v.FormatMove(m))
		}
		for _, l := range got {
			// Replay the route on the position: it must be one legal move.
			s := fmt.Sprint(l.from)
			if l.jumps == 0 {
				s += "-" + fmt.Sprint(l.to)
			} else {
				s += "x" + fmt.Sprint(l.to)
				taken := slices.Clone(l.taken)
				slices.Sort(taken)
				for _, x := range taken {
					s += "x" + fmt.Sprint(x)
				}
				if l.landed[len(l.landed)-1] != l.to {
					t.Errorf("%s: %s: route ends on %d", c.fen, s, l.landed[len(l.landed)-1])
				}
				path := fmt.Sprint(l.from)
				for _, x := range l.landed {
					path += "x" + fmt.Sprint(x)
				}
				m, err := c.v.ParseMove(&p, path)
				if err != nil && !strings.Contains(err.Error(), "ambiguous") {
					t.Errorf("%s: route %s: %v", c.fen, path, err)
				} else if err == nil && c.v.FormatMove(m) != s {
					t.Errorf("%s: route %s is %s, listed as %s", c.fen, path, c.v.FormatMove(m), s)
				}
			}
			for i, x := range l.taken {
				if want := int(pieceAt(&p, square(x))); l.pieces[i] != want {
					t.Errorf("%s: %s: piece %d on %d, board has %d", c.fen, s, l.pieces[i], x, want)
				}
			}
			if want := int(pieceAt(&p, square(l.from))); l.old != want {
				t.Errorf("%s: %s: old piece %d, board has %d", c.fen, s, l.old, want)
			}
			have = append(have, s)
		}
		slices.Sort(want)
		slices.Sort(have)
		if !slices.Equal(want, have) {
			t.Errorf("%s: listed %v, legal %v", c.fen, have, want)
		}
	}
}

// The probe CheckerBoard sends at start-up, and other positions whose
// side to move has no piece.
func TestMoveListProbe(t *testing.T) {
	e := newTestEngine(t)
	for _, fen := range []string{"B:W1:B", "B:W1:B.", `"B:W1:B"`, "W:B5:W", "W:W:B1-12", "B:W21-32:B"} {
		if r, ok := e.Command("get movelist " + fen); !ok || r != "movelist 0" {
			t.Errorf("%s: %q %v", fen, r, ok)
		}
	}
}

// A position with more moves than the GUI's list holds is refused, not
// cut short, and the reply fits the buffer.
func TestMoveListTooMany(t *testing.T) {
	e := newTestEngine(t)
	const fen = "W:WK14,K19,K23,K10,K31,K4:B1"
	p, err := movegen.Russian.ParseFEN(fen)
	var buf [movegen.MaxMoves]movegen.Move
	if err != nil || len(movegen.Russian.Generate(&p, buf[:0])) <= maxListedMoves {
		t.Fatalf("%s: not a position with many moves (%v)", fen, err)
	}
	r, ok := e.Command("get movelist " + fen)
	if ok || !strings.HasPrefix(r, "error") || len(r) >= ReplySize {
		t.Errorf("reply %q %v", r, ok)
	}
}
