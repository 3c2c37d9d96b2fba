package hub

import (
	"bufio"
	"context"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"
)

// session drives Run through pipes.
type session struct {
	t    testing.TB
	in   *io.PipeWriter
	out  *bufio.Scanner
	done chan error
	got  chan string
}

func newSession(t testing.TB) *session {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	s := &session{t: t, in: inW, done: make(chan error, 1), got: make(chan string, 1000)}
	go func() {
		s.done <- Run(context.Background(), inR, outW, Identity{"Rio", "test", "tests", "Nowhere"}, zerolog.Nop())
		outW.Close()
	}()
	go func() {
		sc := bufio.NewScanner(outR)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			s.got <- sc.Text()
		}
		close(s.got)
	}()
	return s
}

func (s *session) send(lines ...string) {
	for _, l := range lines {
		if _, err := io.WriteString(s.in, l+"\n"); err != nil {
			s.t.Fatalf("write %q: %v", l, err)
		}
	}
}

// expect reads lines until one starts with prefix, failing after timeout;
// it returns the line and the lines skipped.
func (s *session) expect(prefix string, timeout time.Duration) (string, []string) {
	s.t.Helper()
	var skipped []string
	deadline := time.After(timeout)
	for {
		select {
		case l, ok := <-s.got:
			if !ok {
				s.t.Fatalf("output ended waiting for %q; saw %q", prefix, skipped)
			}
			if strings.HasPrefix(l, prefix) {
				return l, skipped
			}
			skipped = append(skipped, l)
		case <-deadline:
			s.t.Fatalf("no %q within %v; saw %q", prefix, timeout, skipped)
		}
	}
}

func (s *session) close() {
	s.in.Close()
	select {
	case err := <-s.done:
		if err != nil {
			s.t.Errorf("Run: %v", err)
		}
	case <-time.After(2 * time.Second):
		s.t.Error("Run did not return at the end of input")
	}
}

func TestHubSearchCycle(t *testing.T) {
	s := newSession(t)
	defer s.close()
	s.send("hub")
	if _, skipped := s.expect("wait", time.Second); len(skipped) < 3 || !strings.HasPrefix(skipped[0], "id name=Rio") {
		t.Fatalf("hub answer %q", skipped)
	}
	s.send("set-param name=book value=false") // searched, not the built-in book's move
	s.send("set-param name=variant value=russian", "init")
	s.expect("ready", 5*time.Second)
	s.send(`pos pos=Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww moves="22-18 11-15"`, "level depth=5", "go think")
	done, infos := s.expect("done", 5*time.Second)
	if done != "done move=18x11x15 ponder=8x15x11" && !strings.HasPrefix(done, "done move=18x11x15") {
		t.Errorf("forced capture: %s", done)
	}
	if len(infos) == 0 || !strings.Contains(infos[len(infos)-1], `pv="18x11x15`) {
		t.Errorf("info lines %q", infos)
	}
	// Analysis until stop, ping answered during it.
	s.send("level infinite", "go analyze")
	s.expect("info", 5*time.Second)
	s.send("ping")
	s.expect("pong", time.Second)
	t0 := time.Now()
	s.send("stop")
	s.expect("done", time.Second)
	if d := time.Since(t0); d > 50*time.Millisecond {
		t.Errorf("stop answered after %v", d)
	}
	// Strays when idle are silent; the next ping is the next line.
	s.send("stop", "ponder-hit", "ping")
	if l, skipped := s.expect("pong", time.Second); len(skipped) > 0 {
		t.Errorf("stray stop/ponder-hit answered: %q %s", skipped, l)
	}
}

func TestHubBadInputKeepsState(t *testing.T) {
	s := newSession(t)
	defer s.close()
	s.send("init")
	s.expect("ready", 5*time.Second)
	s.send(`pos pos=W:W22,28,K32:B11,18,24,27`, "level depth=3")
	for _, bad := range []string{
		"pos pos=Wxxx",
		`pos pos=Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww moves="22-17 99-1"`,
		`pos moves="22-19"`,
		"set-param name=variant value=italian",
		"set-param name=threads value=1000",
		"set-param name=draw-rules value=fmjd",
		"level time=abc",
		"level",
		"go",
		"frobnicate",
		`x a="unterminated`,
		strings.Repeat("z", 70000),
		"\x00\x01\xfe\xff",
	} {
		s.send(bad)
		if l, _ := s.expect("error", time.Second); !strings.HasPrefix(l, `error message="`) || !strings.HasSuffix(l, `"`) {
			t.Errorf("%q: %s", bad, l)
		}
	}
	// The position and level given before the errors are still there.
	s.send("go think")
	if l, _ := s.expect("done", 5*time.Second); !strings.HasPrefix(l, "done move=22x8x11x18") && !strings.HasPrefix(l, "done move=32x") {
		t.Errorf("previous state lost: %s", l)
	}
	// Accepted silently: unknown params and odd values of them.
	s.send("set-param name=initial-time value=180.0", "set-param name=book value=none", "ping")
	if _, skipped := s.expect("pong", time.Second); len(skipped) > 0 {
		t.Errorf("unknown params answered: %q", skipped)
	}
}

func TestHubPonder(t *testing.T) {
	s := newSession(t)
	defer s.close()
	// The move-time counts from the hit: 0.5 s after it, not 0.2 s (the
	// ponder's 0.3 s before it counted); the bounds leave room for a
	// machine loaded by the other tests (the search stops early by its
	// margin and twice its threads' longest wait).
	s.send("init", "pos start", "level move-time=0.5", "go ponder")
	s.expect("ready", 5*time.Second)
	time.Sleep(300 * time.Millisecond)
	t0 := time.Now()
	s.send("ponder-hit")
	s.expect("done", 2*time.Second)
	if d := time.Since(t0); d < 350*time.Millisecond || d > 900*time.Millisecond {
		t.Errorf("after ponder-hit with move-time 0.5 the search took %v", d)
	}
	// Ponder then stop: done at once.
	s.send("go ponder")
	time.Sleep(50 * time.Millisecond)
	s.send("stop")
	s.expect("done", time.Second)
}

func TestHubEndOfInputMidSearch(t *testing.T) {
	s := newSession(t)
	s.send("init", "level infinite", "go analyze")
	s.expect("info", 5*time.Second)
	s.close() // fails if Run does not return at once
}

// FuzzHub feeds random and mutated command lines to the loop: no panic, no
// hang, and a ping is still answered.
func FuzzHub(f *testing.F) {
	for _, s := range []string{"hub", "init", "pos start", "level depth=2", "go think", "set-param name=variant value=portuguese",
		`pos pos=W:W21:B1 moves="21-17"`, "level time=-0.05 inc=0.1", "go analyze", "stop", "ponder-hit", "new-game", "level nodes=100"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		if strings.ContainsAny(line, "\n\r") || strings.Contains(line, "quit") {
			return
		}
		s := newSession(t)
		defer s.close()
		s.send(line, "level nodes=500", "go think", "stop", "ping")
		s.expect("pong", 5*time.Second)
	})
}
