package tests

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestPDNCommand(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.pdn")
	os.WriteFile(good, []byte(`[Event "Blocked"]
[White "A"]
[Black "B"]
[GameType "26"]
[FEN "W:W9,14,22:B5"]
1. 22-18 2-0

[Event "Repetition"]
[GameType "25"]
[FEN "W:WK28,21:BK5,12"]
1. h2-g3 a7-b6 2. g3-h2 b6-a7 3. h2-g3 a7-b6 4. g3-h2 b6-a7 1-1

[Event "Unfinished"]
[GameType "28"]
1. 10-14 23-19 2. 14x23 *

[Event "Played on past 7.2.8"]
[Result "0-2"]
[GameType "25"]
[FEN "W:W21,K26,30:BK15,20"]
[DrawRules "repetition"]
1. a3-b4 e5-c3 2. d2-g5 c3:a5 3. g5-d8 h4-g3 4. c1-d2 a5:e1 5. d8-c7 g3-f2 6.
c7-b8 f2-g1 7. b8-a7 e1-g3 8. a7-b8 g3-h2 9. b8-a7 h2-b8 10. a7-b6 g1:a7 0-2
`), 0o644)
	r := run(t, "", "pdn", good)
	ls := lines(r.stdout)
	if r.code != 0 || len(ls) != 4 {
		t.Fatalf("exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	for i, want := range []string{
		`game=1 variant=brazilian event="Blocked" white="A" black="B" declared=2-0 plies=1 result=2-0 reason="black has no legal move"`,
		`game=2 variant=russian event="Repetition" declared=1-1 plies=8 result=1-1 reason="repetition (the same position 3 times)" ply=8 after=0`,
		`game=3 variant=portuguese event="Unfinished" declared=* plies=3 result=* reason="game not finished by the rules"`,
		`game=4 variant=russian event="Played on past 7.2.8" declared=0-2 plies=20 result=1-1 reason="2 pieces or fewer against a lone king for 5 moves (FMJD-64 7.2.8)" ply=18 after=2`,
	} {
		if ls[i] != want {
			t.Errorf("line %d:\n got %s\nwant %s", i+1, ls[i], want)
		}
	}

	bad := filepath.Join(dir, "bad.pdn")
	os.WriteFile(bad, []byte("1. 22-18 11-15 2. 18-14 *\n\n1. 22-17 *\n"), 0o644)
	r = run(t, "", "pdn", bad)
	ls = lines(r.stdout)
	if r.code != 2 || len(ls) != 2 || !strings.Contains(ls[0], `error="ply 3: \"18-14\": illegal move 18-14"`) ||
		!strings.Contains(ls[1], "plies=1") || len(lines(r.stderr)) != 1 {
		t.Errorf("broken file: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}

	r = run(t, "1. 22-18 *\n", "pdn", "-", "--variant", "russian")
	if r.code != 0 || !strings.Contains(r.stdout, "variant=russian") {
		t.Errorf("stdin: exit %d, %q", r.code, r.stdout)
	}
	for _, args := range [][]string{{"pdn"}, {"pdn", filepath.Join(dir, "missing.pdn")}} {
		if r = run(t, "", args...); r.code != 2 || r.stdout != "" || len(lines(r.stderr)) != 1 {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", args, r.code, r.stdout, r.stderr)
		}
	}
}
