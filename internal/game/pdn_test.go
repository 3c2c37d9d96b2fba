package game

import (
	"bufio"
	"bytes"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/riodraughts/rio/internal/movegen"
	"github.com/riodraughts/rio/internal/text"
)

// randomGame plays up to maxPly random legal moves from v's start.
func randomGame(v *movegen.Variant, rng *rand.Rand, maxPly int) *Game {
	g := New(v, v.Start())
	var buf [movegen.MaxMoves]movegen.Move
	for range maxPly {
		p := g.Position()
		moves := v.Generate(&p, buf[:0])
		if len(moves) == 0 || g.Outcome().Result != Ongoing {
			break
		}
		g.Play(moves[rng.IntN(len(moves))])
	}
	return g
}

func TestPDNRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	for _, v := range movegen.Variants {
		var buf bytes.Buffer
		var games []*Game
		for i := range 40 {
			g := randomGame(v, rng, 20+rng.IntN(150))
			g.Tags.Set("Event", "Round trip \"test\"")
			g.Tags.Set("White", "Rio")
			g.Tags.Set("Black", `Back\slash`)
			g.Tags.Set("Annotator", "x")
			if i%3 == 0 && g.Ply() > 4 {
				g.Comments = []Comment{{0, "start"}, {3, "after ply 3"}}
			}
			if err := g.WritePDN(&buf, g.Outcome().Result); err != nil {
				t.Fatal(err)
			}
			games = append(games, g)
		}
		// Also from a set-up position, Black to move.
		p, _ := v.ParseFEN("B:W21,22,23,24,25:B5,6,7,8,K12")
		if v == movegen.Portuguese {
			p, _ = v.ParseFEN("B:W1,2,3,4,5:B25,26,27,28,K21")
		}
		g := New(v, p)
		quietWalk(t, g, 6, 3, nil)
		g.WritePDN(&buf, Ongoing)
		games = append(games, g)

		text := buf.String()
		read, err := ReadPDN(strings.NewReader(text), movegen.Brazilian)
		if err != nil {
			t.Fatal(err)
		}
		if len(read) != len(games) {
			t.Fatalf("%s: wrote %d games, read %d", v.Name, len(games), len(read))
		}
		for i, r := range read {
			w := games[i]
			if r.Err != nil {
				t.Fatalf("%s game %d: %v\n%s", v.Name, i+1, r.Err, text)
			}
			if r.Game.Variant != v || r.Game.Start() != w.Start() || !slices.Equal(r.Game.Moves(), w.Moves()) {
				t.Fatalf("%s game %d: moves differ after a round trip", v.Name, i+1)
			}
			for _, name := range []string{"Event", "White", "Black", "Annotator"} {
				if i == len(games)-1 {
					break // the set-up game has no tags
				}
				if r.Game.Tags.Get(name) != w.Tags.Get(name) {
					t.Errorf("%s game %d: tag %s %q, wrote %q", v.Name, i+1, name, r.Game.Tags.Get(name), w.Tags.Get(name))
				}
			}
			if r.Declared != w.Outcome().Result && i < len(games)-1 {
				t.Errorf("%s game %d: result %v, wrote %v", v.Name, i+1, r.Declared, w.Outcome().Result)
			}
			if !slices.Equal(r.Game.Comments, w.Comments) {
				t.Errorf("%s game %d: comments %v, wrote %v", v.Name, i+1, r.Game.Comments, w.Comments)
			}
		}
	}
}

func TestPDNWriteStyle(t *testing.T) {
	for _, c := range []struct {
		v     *movegen.Variant
		moves []string
		want  string
	}{
		{movegen.Brazilian, []string{"22-18", "11-15", "18x11"}, "1. c3-d4 f6-e5 2. d4xf6"},
		{movegen.Russian, []string{"22-18", "11-15", "18x11"}, "1. c3-d4 f6-e5 2. d4:f6"},
		{movegen.Portuguese, []string{"10-14", "23-19", "14x23"}, "1. 10-14 23-19 2. 14x23"},
	} {
		g := New(c.v, c.v.Start())
		for _, m := range c.moves {
			if _, err := g.PlayText(m); err != nil {
				t.Fatal(err)
			}
		}
		var buf bytes.Buffer
		g.WritePDN(&buf, Ongoing)
		out := buf.String()
		if !strings.Contains(out, c.want+" *") || !strings.Contains(out, `[GameType "`) {
			t.Errorf("%s:\n%s\nwant movetext %q", c.v.Name, out, c.want)
		}
	}
}

// TestPDNOddities reads the kinds of files found in the wild.
func TestPDNOddities(t *testing.T) {
	input := "\xef\xbb\xbf" + strings.ReplaceAll(`[Event "BOM and CRLF"]
[GameType "26"]
[Result "2-0"]

1. 22-18 11-15 2. 18x11 8x15 {a comment} 3. 21-17 (3. 24-20 4-8) 7-11 $1 4. 17-14!? 2-0

This line is garbage between games, and so is this one: 1-0 [

[Event "Full GameType, russian, algebraic with colons"]
[GameType "25,W,8,8,A0,0"]
1.c3-d4 f6-e5 2.d4:f6 g7:e5 *

[Event "No result token, next game follows"]
[GameType "28"]
1. 10-14 23-19 2. 14x23

[Event "Set-up position, Black to move, half moves"]
[FEN "B:W30:B3"]
[GameType "26"]
1... 3-7 2. 30-26 1/2-1/2

1. 22-17 9-13 0-1

[Event "Illegal move"]
1. 22-17 9-14 2. 17-13 30-99 3. 21-17 2-0

[Event "International is not played"]
[GameType "20"]
1. 32-28 *

[Event "After the broken ones"]
[Result "1-1"]
1. 22-18 11-15 ; a line comment, to the end of the line 12-16
2. 18x11 8x15 1-1
`, "\n", "\r\n")
	games, err := ReadPDN(strings.NewReader(input), movegen.Brazilian)
	if err != nil {
		t.Fatal(err)
	}
	type want struct {
		event   string
		variant *movegen.Variant
		plies   int
		result  Result
		errHas  string
	}
	wants := []want{
		{"BOM and CRLF", movegen.Brazilian, 7, WhiteWins, ""},
		{"Full GameType, russian, algebraic with colons", movegen.Russian, 4, Ongoing, ""},
		{"No result token, next game follows", movegen.Portuguese, 3, Ongoing, ""},
		{"Set-up position, Black to move, half moves", movegen.Brazilian, 2, Draw, ""},
		{"", movegen.Brazilian, 2, BlackWins, ""},
		{"Illegal move", movegen.Brazilian, 3, WhiteWins, `ply 4: "30-99"`},
		{"International is not played", nil, 0, Ongoing, "GameType 20"},
		{"After the broken ones", movegen.Brazilian, 4, Draw, ""},
	}
	if len(games) != len(wants) {
		for _, g := range games {
			t.Logf("game %d: %v", g.Number, g.Err)
		}
		t.Fatalf("read %d games, want %d", len(games), len(wants))
	}
	for i, w := range wants {
		g := games[i]
		if w.errHas != "" {
			if g.Err == nil || !strings.Contains(g.Err.Error(), w.errHas) {
				t.Errorf("game %d: error %v, want one about %q", i+1, g.Err, w.errHas)
			}
		} else if g.Err != nil {
			t.Errorf("game %d (%s): %v", i+1, w.event, g.Err)
			continue
		}
		if g.Number != i+1 || g.Declared != w.result {
			t.Errorf("game %d: number %d, result %v, want %v", i+1, g.Number, g.Declared, w.result)
		}
		if g.Game == nil {
			continue
		}
		if g.Game.Tags.Get("Event") != w.event || g.Game.Variant != w.variant || g.Game.Ply() != w.plies {
			t.Errorf("game %d: event %q, variant %v, %d plies; want %q, %v, %d",
				i+1, g.Game.Tags.Get("Event"), g.Game.Variant, g.Game.Ply(), w.event, w.variant, w.plies)
		}
	}
	var me *MoveError
	if !errors.As(games[5].Err, &me) || me.Ply != 4 {
		t.Errorf("illegal move error %v does not carry ply 4", games[5].Err)
	}
	if c := games[0].Game.Comments; len(c) != 1 || c[0].Text != "a comment" || c[0].Ply != 4 {
		t.Errorf("comments %v", c)
	}
}

func TestPDNHostileInput(t *testing.T) {
	for _, s := range []string{
		"", "[", "[Event", `[Event "unterminated`, "{ never closed", "((((", "1.", "1...", "]]]]",
		"[FEN \"W:W33:B1\"]\n1. 22-17 *", strings.Repeat("1. 22-17 ", 10000),
		"\x00\x01\x02 garbage", "[Event \"x\"]\n" + strings.Repeat("(", 5000),
	} {
		games, err := ReadPDN(strings.NewReader(s), movegen.Brazilian)
		if err != nil {
			t.Errorf("%q: %v", text.Clip(s, 60), err)
		}
		_ = games
	}
}

// TestOpeningBallots: every position of the opening files parses, is legal
// and has a legal move.
func TestOpeningBallots(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "match", "ballots", "*.tsv"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no opening files: %v", err)
	}
	for _, name := range files {
		v := movegen.Brazilian
		if strings.Contains(name, "russian") {
			v = movegen.Russian
		}
		f, err := os.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		n := 0
		for sc.Scan() {
			line := sc.Text()
			if line == "" || strings.HasPrefix(line, "#") {
				continue
			}
			label, fen, ok := strings.Cut(line, "\t")
			if !ok {
				t.Errorf("%s: line %q has no tab", name, line)
				continue
			}
			p, err := v.ParseFEN(fen)
			if err != nil {
				t.Errorf("%s %s: %v", filepath.Base(name), label, err)
				continue
			}
			var buf [movegen.MaxMoves]movegen.Move
			if len(v.Generate(&p, buf[:0])) == 0 {
				t.Errorf("%s %s: no legal move", filepath.Base(name), label)
			}
			n++
		}
		f.Close()
		if n == 0 {
			t.Errorf("%s: no positions", name)
		}
	}
}

func FuzzReadPDN(f *testing.F) {
	f.Add("[Event \"x\"]\n[GameType \"25\"]\n1. c3-d4 f6-e5 2. d4:f6 g7:e5 *\n")
	f.Add("1. 22-18 11-15 2. 18x11 8x15 {c} (2. 21-17) $3 2-0\n\ngarbage\n[FEN \"B:W18:B14\"]\n1... 14-17 *")
	f.Add("[GameType \"28\"]\n1. 10-14 23-19 2. 14x23 1-1")
	f.Fuzz(func(t *testing.T, s string) {
		games, err := ReadPDN(strings.NewReader(s), movegen.Brazilian)
		if err != nil {
			t.Fatal(err)
		}
		for _, g := range games {
			if g.Game == nil || g.Err != nil {
				continue
			}
			// What was read replays and writes back to the same moves.
			var buf bytes.Buffer
			if err := g.Game.WritePDN(&buf, g.Declared); err != nil {
				t.Fatal(err)
			}
			again, err := ReadPDN(&buf, movegen.Brazilian)
			if err != nil || len(again) != 1 || again[0].Err != nil {
				t.Fatalf("written game does not read back: %v %v\n%s", err, again, buf.String())
			}
			if !slices.Equal(again[0].Game.Moves(), g.Game.Moves()) || again[0].Game.Start() != g.Game.Start() {
				t.Fatalf("written game reads back differently:\n%s", buf.String())
			}
		}
	})
}

// TestPDNSourceText: each game keeps its text, a game with an illegal move
// the movetext from that move on, and a game cut inside a comment says so.
func TestPDNSourceText(t *testing.T) {
	input := `[Event "One"]
1. 22-18 11-15 {ok} 2-0

[Event "Illegal"]
1. 22-17 9-14 2. 17-13 {why} 3. 21-17 (3. 24-20) 2-0

[Event "Illegal with its number glued"]
1. 22-17 9-14 2.30-99 11-15 *

[Event "Cut"]
1. 22-18 {never closed`
	games, err := ReadPDN(strings.NewReader(input), movegen.Brazilian)
	if err != nil || len(games) != 4 {
		t.Fatalf("%d games, %v", len(games), err)
	}
	if want := "[Event \"One\"]\n1. 22-18 11-15 {ok} 2-0"; games[0].Text != want || games[0].Rest != "" || games[0].Truncated {
		t.Errorf("game 1: text %q, rest %q, truncated %v", games[0].Text, games[0].Rest, games[0].Truncated)
	}
	if g := games[1]; g.Game.Ply() != 3 || g.Rest != "3. 21-17 (3. 24-20)" || !strings.HasSuffix(g.Text, "(3. 24-20) 2-0") {
		t.Errorf("game 2: %d plies, rest %q, text %q", g.Game.Ply(), g.Rest, g.Text)
	}
	if g := games[2]; g.Game.Ply() != 2 || g.Rest != "2.30-99 11-15" {
		t.Errorf("game 3: %d plies, rest %q", g.Game.Ply(), g.Rest)
	}
	if g := games[3]; !g.Truncated || g.Err != nil || g.Game.Ply() != 1 || g.Text != "[Event \"Cut\"]\n1. 22-18 {never closed" {
		t.Errorf("game 4: truncated %v, err %v, text %q", g.Truncated, g.Err, g.Text)
	}
	if games[1].Truncated || games[2].Truncated {
		t.Error("complete games reported truncated")
	}
}

// TestPDNCommentBraces: a comment that holds braces writes back as one
// comment.
func TestPDNCommentBraces(t *testing.T) {
	games, err := ReadPDN(strings.NewReader("1. 22-18 {a {nested} comment} 11-15 *"), movegen.Brazilian)
	if err != nil || len(games) != 1 || games[0].Err != nil {
		t.Fatalf("%v %v", games, err)
	}
	var buf bytes.Buffer
	games[0].Game.WritePDN(&buf, Ongoing)
	again, _ := ReadPDN(&buf, movegen.Brazilian)
	if len(again) != 1 || again[0].Game.Ply() != 2 || len(again[0].Game.Comments) != 1 || again[0].Truncated {
		t.Errorf("written back as:\n%s", buf.String())
	}
}

// TestPDNTagValues: tag values of any bytes (Latin-1 names, backslashes,
// quotes) write back and read the same; only \" and \\ are escapes.
func TestPDNTagValues(t *testing.T) {
	games, err := ReadPDN(strings.NewReader("[White \"Jos\xe9 \\\"Z\\\" C:\\new\\\\x\"]\n1. 22-18 *"), movegen.Brazilian)
	if err != nil || len(games) != 1 {
		t.Fatal(err)
	}
	want := "Jos\xe9 \"Z\" C:\\new\\x"
	if got := games[0].Game.Tags.Get("White"); got != want {
		t.Fatalf("read %q, want %q", got, want)
	}
	var buf bytes.Buffer
	games[0].Game.WritePDN(&buf, Ongoing)
	again, _ := ReadPDN(&buf, movegen.Brazilian)
	if got := again[0].Game.Tags.Get("White"); got != want {
		t.Errorf("written back as %q, read %q", buf.String(), got)
	}
}
