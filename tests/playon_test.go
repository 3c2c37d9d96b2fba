package tests

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// pastDraw is a real game (russian, this release against the previous
// one, refereed with repetition only), a lone white king against two
// black kings: FMJD-64 7.2.8 draws it after 9... h2-b8 (18 plies). Six
// plies before, the previous release, scoring every move as a draw,
// played 7. b8-a7?, and the king was trapped on a7 and taken (10. a7-b6
// g1:a7) after the rule had drawn the game.
const (
	pastDrawFEN   = "W:W21,K26,30:BK15,20"
	pastDrawMoves = "a3-b4 e5-c3 d2-g5 c3:a5 g5-d8 h4-g3 c1-d2 a5:e1 d8-c7 g3-f2 c7-b8 f2-g1 b8-a7 e1-g3 a7-b8 g3-h2 b8-a7 h2-b8"
)

// TestHubPlaysOnPastARuleDraw: six plies before the rule draws the game,
// Rio keeps its king out of the trap whatever rules the GUI applies;
// after the draw, Rio says the game is drawn (info draw=) where the GUI
// applies the rule, and still answers with a move.
func TestHubPlaysOnPastARuleDraw(t *testing.T) {
	moves := strings.Fields(pastDrawMoves)
	for _, rules := range []string{"all", "repetition", "none", "checkerboard"} {
		t.Run(rules, func(t *testing.T) {
			h := startHub(t)
			h.send("hub", "set-param name=variant value=russian", "set-param name=draw-rules value="+rules, "init")
			h.expect("ready", 10*time.Second)
			h.send(`pos pos=`+pastDrawFEN+` moves="`+strings.Join(moves[:12], " ")+`"`, "level depth=14", "go think")
			if done, _ := h.expect("done", 30*time.Second); strings.HasPrefix(done, "done move=1-5") {
				t.Errorf("%s: b8-a7 walks into the trap", done)
			}
			h.send(`pos pos=`+pastDrawFEN+` moves="`+pastDrawMoves+`"`, "level depth=12", "go think")
			_, before := h.expect("done", 30*time.Second)
			draw := ""
			for _, l := range before {
				if strings.HasPrefix(l, "info draw=") {
					draw = l
				} else if !hubInfo.MatchString(l) {
					t.Errorf("info line %q", l)
				}
			}
			want := ""
			if rules == "all" {
				want = `info draw="2 pieces or fewer against a lone king for 5 moves (FMJD-64 7.2.8)" ply=18`
			}
			if draw != want {
				t.Errorf("draw line %q, want %q", draw, want)
			}
			h.send("quit")
		})
	}
}

// TestMatchPlaysOnPastRuleDraws: a referee that applies repetition only
// lets games go on past the FMJD-64 draws; Rio told that all rules apply
// loses none of those games after the draw. Endgames of 6 pieces, 16
// games (RIO_PLAYON_GAMES=100 for the full match); every game's
// PDN names the referee's rules, and engine pdn finds the rule draw.
func TestMatchPlaysOnPastRuleDraws(t *testing.T) {
	games := "16"
	if n := os.Getenv("RIO_PLAYON_GAMES"); n != "" {
		games = n
	}
	pdn := filepath.Join(t.TempDir(), "m.pdn")
	r := run(t, "", "match", "--variant", "russian", "--endgames", "6", "--games", games, "--nodes", "2000",
		"--max-plies", "120", "--concurrency", "2", "--draw-rules", "repetition",
		"--param1", "draw-rules=all", "--param2", "draw-rules=repetition", "--pdn", pdn)
	if r.code != 0 {
		t.Fatalf("exit %d, stderr %q", r.code, r.stderr)
	}
	past := regexp.MustCompile(`^past a rule draw \(referee: repetition\): (\d+) games; lost after it: engine1 (\d+), engine2 \d+$`)
	var m []string
	for _, l := range lines(r.stdout) {
		if m = past.FindStringSubmatch(l); m != nil {
			break
		}
	}
	switch {
	case m == nil:
		t.Fatalf("no past-draw line in %q", r.stdout)
	case m[1] == "0":
		t.Errorf("no game went on past a rule draw: the test tests nothing")
	case m[2] != "0":
		t.Errorf("Rio with draw-rules=all lost %s games after a rule draw: %s", m[2], m[0])
	}
	text, _ := os.ReadFile(pdn)
	if n := strings.Count(string(text), `[DrawRules "repetition"]`); strconv.Itoa(n) != games {
		t.Errorf("%d games name the referee's rules, want %s", n, games)
	}
	p := run(t, "", "pdn", pdn)
	if after := strings.Count(p.stdout, " after="); after == 0 || p.code != 0 {
		t.Errorf("engine pdn: exit %d, %d games with after=", p.code, after)
	}
}
