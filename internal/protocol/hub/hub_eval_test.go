package hub

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/riodraughts/rio/internal/eval"
	"github.com/riodraughts/rio/internal/movegen"
)

// stmWeights are weights that score every position +5.00 for the side to
// move (both phases' side-to-move weight, nothing else): a search that uses
// them reports a score of 5.00 or -5.00, which no other evaluation gives at
// the start.
func stmWeights(v *movegen.Variant) *eval.Model {
	params := make([]int16, eval.Params)
	for ph := range 2 {
		params[ph*eval.PhaseParams+eval.PatternParams+eval.ScSideToMove] = 500 * eval.Unit
	}
	return eval.NewModel(v, params)
}

// inWeightsDir makes a fresh directory the working directory, so that
// weights files have short relative names: the Hub's error lines are
// bounded (see TestHubEvalFileErrorNamesProblem), whatever TMPDIR is.
func inWeightsDir(t *testing.T) {
	t.Helper()
	t.Chdir(t.TempDir())
}

// hubParams answers "hub" and returns the declared parameters by name.
func (s *session) hubParams() map[string]Line {
	s.t.Helper()
	s.send("hub")
	_, skipped := s.expect("wait", 2*time.Second)
	params := map[string]Line{}
	for _, l := range skipped {
		if !strings.HasPrefix(l, "param ") {
			continue
		}
		pl, err := ParseLine(l)
		if err != nil {
			s.t.Fatalf("param line %q: %v", l, err)
		}
		name, _ := pl.Get("name")
		params[name] = pl
	}
	return params
}

// search runs a depth-limited go think and returns the done line and the
// score of the last info line.
func (s *session) search(depth string) (done, score string) {
	s.t.Helper()
	s.send("pos start", "level depth="+depth, "go think")
	done, infos := s.expect("done", 10*time.Second)
	if !strings.HasPrefix(done, "done move=") {
		s.t.Fatalf("search answer %q (before: %q)", done, infos)
	}
	for _, l := range infos {
		if strings.HasPrefix(l, "error") {
			s.t.Errorf("error during the search: %s", l)
		}
		if pl, err := ParseLine(l); err == nil && pl.Command == "info" {
			score, _ = pl.Get("score")
		}
	}
	if score == "" {
		s.t.Fatalf("no info line before %q: %q", done, infos)
	}
	return done, score
}

// quiet checks that nothing but pong answers a ping: the commands sent
// before were accepted silently.
func (s *session) quiet(what string) {
	s.t.Helper()
	s.send("ping")
	if _, skipped := s.expect("pong", 2*time.Second); len(skipped) > 0 {
		s.t.Errorf("%s answered %q", what, skipped)
	}
}

// expectError sends line and returns the error line it is answered with.
func (s *session) expectError(line string) string {
	s.t.Helper()
	s.send(line, "ping")
	l, _ := s.expect("error", 2*time.Second)
	if !strings.HasPrefix(l, `error message="`) || !strings.HasSuffix(l, `"`) {
		s.t.Errorf("%q: error line %q", line, l)
	}
	s.expect("pong", 2*time.Second)
	return l
}

func isSTMScore(score string) bool { return score == "5.00" || score == "-5.00" }

func TestHubEvalParamsDeclared(t *testing.T) {
	s := newSession(t)
	defer s.close()
	params := s.hubParams()
	ev, ok := params["eval"]
	if !ok {
		t.Fatalf("no eval param in %v", params)
	}
	if typ, _ := ev.Get("type"); typ != "enum" {
		t.Errorf("eval type %q, want enum", typ)
	}
	if vals, _ := ev.Get("values"); vals != "learned classic" {
		t.Errorf("eval values %q, want \"learned classic\"", vals)
	}
	if val, _ := ev.Get("value"); val != "learned" {
		t.Errorf("eval value %q, want the default learned", val)
	}
	ef, ok := params["eval-file"]
	if !ok {
		t.Fatalf("no eval-file param in %v", params)
	}
	if typ, _ := ef.Get("type"); typ != "string" {
		t.Errorf("eval-file type %q, want string", typ)
	}
	if val, ok := ef.Get("value"); !ok || val != "" {
		t.Errorf("eval-file value %q (given %v), want empty", val, ok)
	}
}

func TestHubEvalClassicAndBogus(t *testing.T) {
	s := newSession(t)
	defer s.close()
	s.send("set-param name=book value=false") // searched from the start, not the built-in book
	s.send("set-param name=eval value=classic")
	s.quiet("set-param eval=classic")
	if done, _ := s.search("3"); done == "" {
		t.Fatal("no search with eval classic")
	}
	if val, _ := s.hubParams()["eval"].Get("value"); val != "classic" {
		t.Errorf("eval value %q after set-param classic", val)
	}

	l := s.expectError("set-param name=eval value=bogus")
	if !strings.Contains(l, "bogus") {
		t.Errorf("error does not name the bad value: %s", l)
	}
	// The old value stays and the session goes on.
	if val, _ := s.hubParams()["eval"].Get("value"); val != "classic" {
		t.Errorf("eval value %q after a bad set-param, want classic", val)
	}
	s.search("3")
	s.send("set-param name=eval value=learned")
	s.quiet("set-param eval=learned")
	s.search("3")
}

func TestHubEvalFile(t *testing.T) {
	inWeightsDir(t)
	good := "b.rwt"
	if err := stmWeights(movegen.Brazilian).Save(good); err != nil {
		t.Fatal(err)
	}
	trunc := "t.rwt"
	if err := os.WriteFile(trunc, stmWeights(movegen.Brazilian).Marshal()[:200], 0o644); err != nil {
		t.Fatal(err)
	}
	russian := "r.rwt"
	if err := stmWeights(movegen.Russian).Save(russian); err != nil {
		t.Fatal(err)
	}

	s := newSession(t)
	defer s.close()
	s.send("set-param name=book value=false") // searched from the start, not the built-in book
	if _, score := s.search("2"); isSTMScore(score) {
		t.Fatalf("built-in weights score %s at the start", score)
	}

	// A valid file for the current variant (brazilian) is accepted and used.
	s.send("set-param name=eval-file value=" + good)
	s.quiet("a valid eval-file")
	if _, score := s.search("2"); !isSTMScore(score) {
		t.Errorf("with the side-to-move weights the score is %s, want +-5.00", score)
	}
	if val, _ := s.hubParams()["eval-file"].Get("value"); val != good {
		t.Errorf("eval-file value %q, want %q", val, good)
	}
	// eval classic overrides the file; learned takes it again.
	s.send("set-param name=eval value=classic")
	s.quiet("eval classic")
	if _, score := s.search("2"); isSTMScore(score) {
		t.Errorf("eval classic still searches with the eval-file (score %s)", score)
	}
	s.send("set-param name=eval value=learned")
	s.quiet("eval learned")
	if _, score := s.search("2"); !isSTMScore(score) {
		t.Errorf("back to eval learned the eval-file is not used (score %s)", score)
	}

	// A truncated file is refused naming the file and the problem; the
	// previous evaluation stays.
	l := s.expectError("set-param name=eval-file value=" + trunc)
	if !strings.Contains(l, trunc) || !strings.Contains(l, "truncated") {
		t.Errorf("truncated eval-file: %s", l)
	}
	if _, score := s.search("2"); !isSTMScore(score) {
		t.Errorf("after a refused eval-file the previous one is not used (score %s)", score)
	}
	if val, _ := s.hubParams()["eval-file"].Get("value"); val != good {
		t.Errorf("eval-file value %q after a refused file, want %q", val, good)
	}

	// A missing file.
	l = s.expectError("set-param name=eval-file value=none.rwt")
	if !strings.Contains(l, "none.rwt") {
		t.Errorf("missing eval-file: %s", l)
	}

	// A file of another variant is taken (hosts send parameters in any
	// order) but serves only its own variant's games: brazilian keeps
	// the built-in weights, russian then uses it.
	s.send("set-param name=eval-file value=" + russian)
	s.quiet("a russian eval-file while brazilian")
	if _, score := s.search("2"); isSTMScore(score) {
		t.Errorf("the russian eval-file is used for brazilian (score %s)", score)
	}
	s.send("set-param name=variant value=russian")
	s.quiet("variant russian")
	if val, _ := s.hubParams()["eval-file"].Get("value"); val != russian {
		t.Errorf("eval-file value %q after the variant changed, want %q kept", val, russian)
	}
	if _, score := s.search("2"); !isSTMScore(score) {
		t.Errorf("russian eval-file not used for russian (score %s)", score)
	}
	// The brazilian file while russian: kept, used once brazilian again.
	s.send("set-param name=eval-file value=" + good)
	s.quiet("the brazilian eval-file while russian")
	if _, score := s.search("2"); isSTMScore(score) {
		t.Errorf("the brazilian eval-file is used for russian (score %s)", score)
	}
	s.send("set-param name=variant value=brazilian")
	s.quiet("variant brazilian")
	if _, score := s.search("2"); !isSTMScore(score) {
		t.Errorf("brazilian eval-file not used for brazilian (score %s)", score)
	}
	// An empty value goes back to the built-in weights.
	s.send("set-param name=eval-file value=")
	s.quiet("an empty eval-file")
	if _, score := s.search("2"); isSTMScore(score) {
		t.Errorf("empty eval-file still uses the file (score %s)", score)
	}
}

// TestHubEvalFileErrorNamesProblem: the error line for a refused eval-file
// must name the file and say why, even when the path is as long as GUIs'
// paths are.
func TestHubEvalFileErrorNamesProblem(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "Program Files", "Some GUI", "engines", "rio")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	trunc := filepath.Join(dir, "weights.rwt")
	if err := os.WriteFile(trunc, stmWeights(movegen.Brazilian).Marshal()[:200], 0o644); err != nil {
		t.Fatal(err)
	}
	russian := filepath.Join(dir, "russian.rwt")
	if err := stmWeights(movegen.Russian).Save(russian); err != nil {
		t.Fatal(err)
	}
	s := newSession(t)
	defer s.close()
	l := s.expectError(`set-param name=eval-file value="` + trunc + `"`)
	if !strings.Contains(l, trunc) || !strings.Contains(l, "truncated") {
		t.Errorf("truncated file: %s", l)
	}
	// A long path with spaces to a good file is taken.
	s.send(`set-param name=eval-file value="` + russian + `"`)
	s.quiet("a quoted path with spaces")
	if val, _ := s.hubParams()["eval-file"].Get("value"); val != russian {
		t.Errorf("eval-file value %q, want %q", val, russian)
	}
}
