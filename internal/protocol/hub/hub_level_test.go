package hub

import (
	"strings"
	"testing"
	"time"
)

// The level parameter is declared, refuses values outside 0-10, and makes
// go think vary its move with the level's random choice: at level 1 over
// repeated searches of the start Rio plays more than one first move, while
// at level 0 the same depth from a cleared table always gives the same move.
func TestHubLevel(t *testing.T) {
	s := newSession(t)
	defer s.close()
	s.send("set-param name=book value=false") // searched from the start, not the built-in book
	p, ok := s.hubParams()["level"]
	if !ok {
		t.Fatal("no level parameter declared")
	}
	if v, _ := p.Get("value"); v != "0" {
		t.Fatalf("level declared with value %q, want 0", v)
	}
	s.expectError("set-param name=level value=11")
	s.expectError("set-param name=level value=-1")

	moves := func() map[string]bool {
		seen := map[string]bool{}
		for range 12 {
			// new-game clears the table: a search that finds the last one's
			// entries may settle on another of two moves scored alike, which
			// is not the level's doing.
			s.send("new-game", "pos start", "level depth=4", "go think")
			done, _ := s.expect("done", 10*time.Second)
			f := strings.Fields(done)
			if len(f) < 2 || !strings.HasPrefix(f[1], "move=") {
				t.Fatalf("answer %q", done)
			}
			seen[f[1]] = true
		}
		return seen
	}
	if full := moves(); len(full) != 1 {
		t.Errorf("level 0: %d different moves at depth 4, want 1: %v", len(full), full)
	}
	s.send("set-param name=level value=1")
	if weak := moves(); len(weak) < 2 {
		t.Errorf("level 1: always %v", weak)
	}
}

// Successive level commands add up until the next pos, as Scan reads them
// and lidraughts sends them: "level move-time=90" then "level depth=3"
// ends the search at depth 3, long before 90 s; "level infinite" stands
// alone; pos starts over.
func TestHubLevelsAddUp(t *testing.T) {
	s := newSession(t)
	defer s.close()
	s.send("set-param name=book value=false") // searched from the start, not the built-in book
	s.send("set-param name=variant value=russian", "init")
	s.expect("ready", 5*time.Second)
	s.send("pos start", "level move-time=90", "level depth=3", "go analyze")
	done, infos := s.expect("done", 5*time.Second)
	if len(infos) == 0 || !strings.HasPrefix(infos[len(infos)-1], "info depth=3 ") {
		t.Errorf("move-time=90 then depth=3: %q then %q", infos, done)
	}
	// infinite replaces the depth: the search runs until stop.
	s.send("pos start", "level depth=2", "level infinite", "go analyze")
	s.expect("info depth=4 ", 5*time.Second)
	s.send("stop")
	s.expect("done", time.Second)
	// A limit after infinite replaces it; pos forgets both.
	s.send("pos start", "level infinite", "level depth=2", "go analyze")
	if _, infos := s.expect("done", 5*time.Second); !strings.HasPrefix(infos[len(infos)-1], "info depth=2 ") {
		t.Errorf("infinite then depth=2: %q", infos)
	}
	s.send("pos start", "level depth=1", "pos start", "level nodes=2000", "go think")
	if _, infos := s.expect("done", 5*time.Second); !strings.HasPrefix(infos[len(infos)-1], "info depth=") || strings.HasPrefix(infos[len(infos)-1], "info depth=1 ") && len(infos) == 1 {
		t.Errorf("pos did not forget depth=1: %q", infos)
	}
}

// tt-size values up to 32 are Scan's log2 of entries (lidraughts sends 22
// for 4 M entries, 64 MiB of Rio's 16-byte entries); larger ones MiB.
func TestTableMiB(t *testing.T) {
	for _, c := range []struct{ value, mib int }{
		{1, 1}, {16, 1}, {20, 16}, {22, 64}, {24, 256}, {28, 4096}, {32, 4096},
		{33, 33}, {64, 64}, {4096, 4096}, {5000, 4096},
	} {
		if got := TableMiB(c.value); got != c.mib {
			t.Errorf("tt-size %d: %d MiB, want %d", c.value, got, c.mib)
		}
	}
	// The parameter is declared in log2 of entries, so a GUI sending back
	// the value it read gets the same table.
	for v := 16; v <= 28; v++ {
		if mib := TableMiB(v); TableMiB(log2Entries(mib)) != mib {
			t.Errorf("tt-size %d: %d MiB, declared %d, which is %d MiB", v, mib, log2Entries(mib), TableMiB(log2Entries(mib)))
		}
	}
	s := newSession(t)
	defer s.close()
	p := s.hubParams()["tt-size"]
	if v, _ := p.Get("value"); v != "22" {
		t.Errorf("tt-size declared %q, want 22 (64 MiB)", v)
	}
	s.send("set-param name=tt-size value=22", "init")
	if l, skipped := s.expect("ready", 5*time.Second); len(skipped) > 0 {
		t.Errorf("tt-size 22: %q before %s", skipped, l)
	}
}

// The features parameter switches parts of the search for a match; an
// unknown name is an error and the previous value stays.
func TestHubFeatures(t *testing.T) {
	s := newSession(t)
	defer s.close()
	s.send("set-param name=features value=\"+AdaptiveTime -LMR\"")
	s.expectError("set-param name=features value=+Nonsense")
	if v, _ := s.hubParams()["features"].Get("value"); v != "+AdaptiveTime -LMR" {
		t.Errorf("features %q after a bad value", v)
	}
	s.send("init", "pos start", "level depth=4", "go think")
	if _, infos := s.expect("done", 5*time.Second); len(infos) == 0 {
		t.Error("no search with the features switched")
	}
}
