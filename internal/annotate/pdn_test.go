package annotate

import (
	"encoding/json"
	"errors"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/riodraughts/rio/internal/game"
	"github.com/riodraughts/rio/internal/movegen"
)

// sampleGames are games of each variant with tags, comments and results.
func sampleGames(t testing.TB) string {
	var b strings.Builder
	for i, v := range movegen.Variants {
		g := engineGame(t, v, "startpos", 14+2*i, 1500)
		g.Tags.Set("Event", "Sample "+v.Name)
		g.Tags.Set("White", "Ann \"the\" Player")
		g.Tags.Set("Black", `Back\slash`)
		g.Tags.Set("Annotator", "someone")
		g.Comments = []game.Comment{{Ply: 0, Text: "before the first move"}, {Ply: 3, Text: "a {nested} note [%clk 0:01:00]"}, {Ply: 7, Text: "later"}}
		b.WriteString(pdnOf(t, g, game.Result(1+i%3)))
	}
	return b.String()
}

var evalText = regexp.MustCompile(`^\[%eval (-?\d+\.\d\d|#-?\d+)(,\d+)?\]( egdb: .*)?$`)

// TestPDNKeepsTheGame: the annotated text reads back to the same moves,
// tags, comments and results, plus the annotations; annotating it again
// gives the same text.
func TestPDNKeepsTheGame(t *testing.T) {
	text := sampleGames(t)
	out, analyses := annotateText(t, text, testOptions(1500, 2))
	before, _ := game.ReadPDN(strings.NewReader(text), movegen.Brazilian)
	after, _ := game.ReadPDN(strings.NewReader(out), movegen.Brazilian)
	if len(after) != len(before) || len(analyses) != len(before) {
		t.Fatalf("%d games in, %d out\n%s", len(before), len(after), out)
	}
	for i, a := range after {
		b := before[i]
		if a.Err != nil || a.Truncated || !slices.Equal(a.Game.Moves(), b.Game.Moves()) || a.Game.Start() != b.Game.Start() || a.Declared != b.Declared {
			t.Fatalf("game %d reads back differently (%v)\n%s", i+1, a.Err, out)
		}
		for _, tag := range b.Game.Tags {
			if got := a.Game.Tags.Get(tag.Name); got != tag.Value {
				t.Errorf("game %d: tag %s %q, was %q", i+1, tag.Name, got, tag.Value)
			}
		}
		for _, tag := range SummaryTags(analyses[i]) {
			if got := a.Game.Tags.Get(tag.Name); got != tag.Value || got == "" {
				t.Errorf("game %d: summary tag %s %q, want %q", i+1, tag.Name, got, tag.Value)
			}
		}
		// The comments are the game's own (braces made parentheses) and
		// one evaluation after every move.
		var own []game.Comment
		evals := 0
		for _, c := range a.Game.Comments {
			if evalText.MatchString(c.Text) {
				evals++
				continue
			}
			own = append(own, c)
		}
		var want []game.Comment
		for _, c := range b.Game.Comments {
			want = append(want, game.Comment{Ply: c.Ply, Text: strings.NewReplacer("{", "(", "}", ")").Replace(c.Text)})
		}
		if !slices.Equal(own, want) || evals != b.Game.Ply() {
			t.Errorf("game %d: comments %v (and %d evaluations), want %v and %d", i+1, own, evals, want, b.Game.Ply())
		}
		// The NAGs written are the analysis'.
		for _, m := range analyses[i].Moves {
			if m.NAG >= Mistake && !strings.Contains(out, m.NAG.String()+" {") {
				t.Errorf("game %d ply %d: %q not written", i+1, m.Ply, m.NAG)
			}
		}
	}
	again, _ := annotateText(t, out, testOptions(1500, 1))
	if again != out {
		t.Errorf("annotating twice changes the text:\n%s\nthen\n%s", out, again)
	}
}

// TestPDNNotations: a game written with numbers and the same written with
// algebraic squares annotate to the same text, in the variant's own
// notation (algebraic for brazilian and russian, numbers for portuguese),
// variations included.
func TestPDNNotations(t *testing.T) {
	for _, v := range movegen.Variants {
		g := randomGame(v, uint64(v.GameType), 30)
		var numeric, algebraic strings.Builder
		for _, b := range []*strings.Builder{&numeric, &algebraic} {
			b.WriteString("[Event \"x\"]\n[GameType \"" + strconv.Itoa(v.GameType) + "\"]\n")
		}
		for i, m := range g.Moves() {
			p := g.PositionAt(i)
			numeric.WriteString(v.FormatPDN(&p, m, movegen.PDNStyle{}) + " ")
			algebraic.WriteString(v.FormatPDN(&p, m, movegen.PDNStyle{Algebraic: true}) + " ")
		}
		// A threshold that marks every move that is not the best: the
		// variations show.
		opt := testOptions(800, 1)
		opt.Thresholds = Thresholds{1, 1, 1}
		a, analyses := annotateText(t, numeric.String()+"*\n", opt)
		b, _ := annotateText(t, algebraic.String()+"*\n", opt)
		if a != b || len(analyses[0].Moves) != g.Ply() {
			t.Errorf("%s: numeric and algebraic input annotate differently:\n%s\n%s", v.Name, a, b)
		}
		square := `[a-h][1-8]`
		if v == movegen.Portuguese {
			square = `\d+`
		}
		move := square + `[-x:]` + square
		if !regexp.MustCompile(`\((\d+\.+ )?` + move + `( (\d+\.+ )?` + move + `)*\)`).MatchString(a) {
			t.Errorf("%s: no variation in %s notation:\n%s", v.Name, square, a)
		}
		if regexp.MustCompile(`\d+\.+ `+move+`\S*`).FindAllString(a, -1) == nil {
			t.Errorf("%s: moves not in the variant's notation:\n%s", v.Name, a)
		}
	}
}

// TestIllegalMove: a game is annotated up to its illegal move and keeps
// the rest of its text; a game that cannot be read is copied as it was.
func TestIllegalMove(t *testing.T) {
	text := `[Event "illegal"]
1. 22-18 11-15 2. 18x11 {takes} 8x15 3. 18-14 {never} 15-19 (3... 9-13) 2-0

[Event "bad variant"]
[GameType "20"]
1. 32-28 *

[Event "fine"]
1. 22-18 *
`
	out, games := annotateText(t, text, testOptions(500, 1))
	var me *game.MoveError
	if len(games) != 3 || !errors.As(games[0].Err, &me) || me.Ply != 5 || len(games[0].Moves) != 4 {
		t.Fatalf("games %d, first: %v, %d moves", len(games), games[0].Err, len(games[0].Moves))
	}
	if !strings.Contains(out, "{takes}") || !strings.Contains(out, " 3. 18-14 {never} 15-19 (3... 9-13) 2-0\n") {
		t.Errorf("the illegal game's text is not kept:\n%s", out)
	}
	if !strings.Contains(out, "[Event \"bad variant\"]\n[GameType \"20\"]\n1. 32-28 *\n") || games[1].Err == nil {
		t.Errorf("the unreadable game is not copied:\n%s", out)
	}
	if games[2].Err != nil || len(games[2].Moves) != 1 {
		t.Errorf("the good game: %v", games[2].Err)
	}
	back, _ := game.ReadPDN(strings.NewReader(out), movegen.Brazilian)
	if len(back) != 3 || back[0].Game.Ply() != 4 || back[0].Rest != "3. 18-14 {never} 15-19 (3... 9-13)" || back[0].Declared != game.WhiteWins {
		t.Errorf("the output reads back as %d games, first %v", len(back), back[0].Err)
	}
}

func TestJSON(t *testing.T) {
	text := sampleGames(t)
	games, _ := Read(strings.NewReader(text), movegen.Brazilian)
	_, analyses := annotateText(t, text, testOptions(1500, 1))
	for i, a := range analyses {
		var line strings.Builder
		if err := WriteJSON(&line, a); err != nil {
			t.Fatal(err)
		}
		if strings.Count(line.String(), "\n") != 1 {
			t.Errorf("not one line: %q", line.String())
		}
		var j JSONGame
		if err := json.Unmarshal([]byte(line.String()), &j); err != nil {
			t.Fatal(err)
		}
		g := games[i].Game
		if j.Game != i+1 || j.White != g.Tags.Get("White") || j.Black != g.Tags.Get("Black") || j.Result != games[i].Declared.PDN() ||
			j.Variant != g.Variant.Name || len(j.Moves) != g.Ply() || j.Error != "" {
			t.Errorf("game %d: %+v", i+1, j)
		}
		for c, side := range []string{"white", "black"} {
			s := a.Sides[c]
			if js := j.Stats[side]; js.Moves != s.Moves || js.Blunders != s.NAGs[Blunder] || js.Mistakes != s.NAGs[Mistake] || js.Inaccuracies != s.NAGs[Inaccuracy] {
				t.Errorf("game %d %s: %+v, want %+v", i+1, side, js, s)
			}
		}
		for k, m := range j.Moves {
			am := a.Moves[k]
			if m.Ply != k+1 || m.NAG != am.NAG.String() || m.Side != am.Side.String() || (m.Best == "") != am.Forced() {
				t.Errorf("game %d move %d: %+v", i+1, k+1, m)
			}
			if am.After.Source == Searched && (m.Depth != am.After.Depth || m.Score != float64(WhiteScore(&am.After, am.Side.Other()))/100) {
				t.Errorf("game %d move %d: score %v depth %d, want %+v", i+1, k+1, m.Score, m.Depth, am.After)
			}
		}
	}
}
