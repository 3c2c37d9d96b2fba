package hub

import (
	"strings"
	"testing"
	"time"
)

// The level parameter is declared, refuses values outside 0-10, and makes
// go think vary its move with the level's random choice: at level 1 over
// repeated searches of the start Rio plays more than one first move, while
// at level 0 the same depth always gives the same move.
func TestHubLevel(t *testing.T) {
	s := newSession(t)
	defer s.close()
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
			s.send("pos start", "level depth=4", "go think")
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
