package tests

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// annotateGames are games of every variant, in numeric and in algebraic
// notation, with tags, comments and results.
const annotateGames = `[Event "brazilian numeric"]
[White "A"]
[Black "B"]
[GameType "26"]
{a comment before the moves}
1. 24-20 10-14 2. 22-18 6-10 3. 26-22 {a comment} 14-17 4. 22x15 5-9 5. 21-17
11-16 6. 20x11 7x16 7. 15-10 1-5 1-1

[Event "brazilian algebraic"]
[GameType "26"]
1. g3-f4 d6-e5 2. f4xd6 c7xe5 3. c3-d4 e5xc3 4. d2xb4 b8-c7 5. b2-c3 c7-d6 6.
b4-c5 d6xf4 7. e1-d2 b6-a5 *

[Event "russian algebraic"]
[GameType "25"]
[Result "2-0"]
1. g3-f4 d6-c5 2. c3-b4 f6-g5 3. b4:d6 e7:c5 4. e3-d4 g5:e3 5. d2:f4 c5:g5 6.
f2-g3 g5-f4 7. g3:e5 h6-g5 2-0

[Event "portuguese numeric"]
[GameType "28"]
1. 12-15 23-19 2. 11-14 19x12 3. 8x15 27-23 4. 15-20 24x15 5. 14-19 23x14 6.
10x19 28-23 7. 19x28 32x23 0-2
`

// TestAnnotate: the command annotates every game, reads back with engine
// pdn as the input does, gives the same output with any number of threads
// and across shards, and --json gives one object per game.
func TestAnnotate(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "games.pdn")
	os.WriteFile(in, []byte(annotateGames), 0o644)
	base := []string{"annotate", in, "--nodes", "3000", "--egdb-pieces", "0"}
	r := run(t, "", base...)
	if r.code != 0 || r.stderr != "" {
		t.Fatalf("exit %d, stderr %q", r.code, r.stderr)
	}
	out := r.stdout
	evals := regexp.MustCompile(`\{\[%eval (-?\d+\.\d\d|#-?\d+),\d+\]\}`).FindAllString(out, -1)
	if len(evals) < 30 || strings.Count(out, "[WhiteAverageLoss \"") != 4 || strings.Count(out, "[BlackBlunders \"") != 4 {
		t.Errorf("%d evaluations, summaries missing?\n%s", len(evals), out)
	}
	for _, keep := range []string{"{a comment before the moves}", "{a comment}", "[White \"A\"]", "[Result \"2-0\"]", " 1-1\n", " 0-2\n"} {
		if !strings.Contains(out, keep) {
			t.Errorf("%q lost:\n%s", keep, out)
		}
	}
	// engine pdn reads the output as it reads the input.
	annotated := filepath.Join(dir, "annotated.pdn")
	os.WriteFile(annotated, []byte(out), 0o644)
	want, got := run(t, "", "pdn", in), run(t, "", "pdn", annotated)
	if want.code != 0 || got.stdout != want.stdout {
		t.Errorf("engine pdn reads the output as\n%s\nand the input as\n%s", got.stdout, want.stdout)
	}
	// Annotating the output again changes nothing.
	if again := run(t, "", "annotate", annotated, "--nodes", "3000", "--egdb-pieces", "0"); again.stdout != out {
		t.Errorf("annotating twice:\n%s", again.stdout)
	}
	// Threads and --out.
	outFile := filepath.Join(dir, "out.pdn")
	if r := run(t, "", append(base, "--threads", "2", "--out", outFile)...); r.code != 0 || r.stdout != "" {
		t.Fatalf("--threads 2 --out: exit %d %q", r.code, r.stderr)
	}
	if b, _ := os.ReadFile(outFile); string(b) != out {
		t.Errorf("2 threads differ from 1:\n%s", b)
	}
	// Shards: every game once, each as in the whole; stdin.
	var shards []string
	for _, sh := range []string{"1/3", "2/3", "3/3"} {
		r := run(t, annotateGames, "annotate", "-", "--nodes", "3000", "--egdb-pieces", "0", "--shard", sh)
		if r.code != 0 {
			t.Fatalf("shard %s: %q", sh, r.stderr)
		}
		shards = append(shards, pdnGames(r.stdout)...)
	}
	whole := pdnGames(out)
	slices.Sort(whole)
	slices.Sort(shards)
	if len(whole) != 4 || !slices.Equal(whole, shards) {
		t.Errorf("shards hold %d games, the whole %d, or they differ", len(shards), len(whole))
	}

	// JSON: one object per game, the same NAGs as the PDN.
	r = run(t, "", append(base, "--json", "--games", "1,3-4")...)
	ls := lines(r.stdout)
	if r.code != 0 || len(ls) != 3 {
		t.Fatalf("--json: exit %d, %d lines, %q", r.code, len(ls), r.stderr)
	}
	for i, l := range ls {
		var g struct {
			Game   int    `json:"game"`
			White  string `json:"white"`
			Result string `json:"result"`
			Stats  map[string]struct {
				Moves, Blunders int
				AverageLoss     float64 `json:"average_loss"`
			} `json:"stats"`
			Moves []struct {
				Ply   int     `json:"ply"`
				Move  string  `json:"move"`
				Score float64 `json:"score"`
				Best  string  `json:"best"`
				NAG   string  `json:"nag"`
			} `json:"moves"`
		}
		if err := json.Unmarshal([]byte(l), &g); err != nil {
			t.Fatalf("line %q: %v", l, err)
		}
		if g.Game != []int{1, 3, 4}[i] || len(g.Moves) == 0 || g.Stats["white"].Moves == 0 || g.Result == "" || (g.Game == 1) != (g.White == "A") {
			t.Errorf("line %d: %+v", i+1, g)
		}
		for _, m := range g.Moves {
			if m.Move == "" || !strings.Contains(whole[g.Game-1]+out, m.Move+m.NAG) {
				t.Errorf("game %d ply %d: %q%s not in the PDN", g.Game, m.Ply, m.Move, m.NAG)
			}
		}
	}
}

// pdnGames splits annotate's PDN output into games.
func pdnGames(s string) []string {
	var games []string
	for s != "" {
		i := strings.Index(s, "\n\n[")
		if i < 0 {
			return append(games, s)
		}
		games, s = append(games, s[:i+2]), s[i+2:]
	}
	return games
}

// TestAnnotateBadInput: an illegal move is reported and the game kept;
// binary, truncated and missing files and bad flags are clear errors.
func TestAnnotateBadInput(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(text), 0o644)
		return p
	}
	illegal := write("illegal.pdn", "[Event \"one\"]\n1. 22-18 *\n\n[Event \"two\"]\n1. 22-18 11-15 2. 18-14 {x} 3. 21-17 2-0\n\n[Event \"three\"]\n1. 22-17 *\n")
	r := run(t, "", "annotate", illegal, "--nodes", "500", "--egdb-pieces", "0")
	if r.code != 2 || len(pdnGames(r.stdout)) != 3 || !strings.Contains(r.stdout, "18-14 {x} 3. 21-17 2-0\n") {
		t.Errorf("exit %d, stdout\n%s", r.code, r.stdout)
	}
	if ls := lines(r.stderr); len(ls) != 2 || !strings.HasPrefix(ls[0], `game 2: ply 3: move "18-14": illegal move`) || !strings.Contains(ls[1], "1 of 3 games") {
		t.Errorf("stderr %q", r.stderr)
	}

	cut := write("cut.pdn", annotateGames+"\n[Event \"cut\"]\n1. 22-18 {the file ends in")
	r = run(t, "", "annotate", cut, "--nodes", "300", "--egdb-pieces", "0", "--json")
	if ls := lines(r.stderr); r.code != 2 || len(lines(r.stdout)) != 5 || len(ls) != 2 || !strings.Contains(ls[0], "game 5: the text ends inside a comment") {
		t.Errorf("truncated: exit %d, stderr %q", r.code, r.stderr)
	}

	binary := write("binary.pdn", "\x7fELF\x02\x01\x01\x00\x00\x00garbage")
	for _, args := range [][]string{
		{"annotate", binary},
		{"annotate", write("empty.pdn", "")},
		{"annotate", write("text.pdn", "no games here\n")},
		{"annotate", filepath.Join(dir, "missing.pdn")},
		{"annotate"},
		{"annotate", illegal, "--thresholds", "1,0.5,2"},
		{"annotate", illegal, "--games", "4"},
		{"annotate", illegal, "--games", "2-x"},
		{"annotate", illegal, "--shard", "3/2"},
		{"annotate", illegal, "--depth", "-1"},
		{"annotate", illegal, "--eval", "magic"},
		{"annotate", illegal, "extra"},
	} {
		r := run(t, "", args...)
		if r.code != 2 || r.stdout != "" || len(lines(r.stderr)) != 1 || strings.Contains(r.stderr, "panic") {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", args[1:], r.code, r.stdout, r.stderr)
		}
	}
	if r := run(t, "", "annotate", binary); !strings.Contains(r.stderr, "binary data") {
		t.Errorf("binary file: %q", r.stderr)
	}
}

// TestAnnotateTables: a position inside the endgame tables gets the table
// value.
func TestAnnotateTables(t *testing.T) {
	// No GameType: --variant says.
	r := run(t, "[FEN \"W:WK29,K31,K32:BK4\"]\n1. e1-c3 h8:b2 2. a1:h8 *\n", "annotate", "-", "--nodes", "1000", "--variant", "russian")
	if r.code != 0 || !regexp.MustCompile(`\{\[%eval #\d+\] egdb: white wins in \d+\}`).MatchString(r.stdout) || !strings.Contains(r.stdout, "[GameType \"25\"]") {
		t.Errorf("exit %d, stderr %q\n%s", r.code, r.stderr, r.stdout)
	}
}
