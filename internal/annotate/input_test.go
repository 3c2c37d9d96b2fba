package annotate

import (
	"errors"
	"strings"
	"testing"

	"github.com/riodraughts/rio/internal/movegen"
)

func TestReadRefuses(t *testing.T) {
	for in, want := range map[string]string{
		"":                               "empty",
		"  \n\n":                         "empty",
		"\x00\x01PK\x03\x04 binary":      "binary data (a NUL byte at offset 0)",
		"[Event \"x\"]\n1. 22-18\x00 *":  "NUL byte at offset 20",
		"just some words\nand more\n":    "no PDN game found",
		"\x89PNG\r\n\x1a\n no nul here ": "no PDN game found",
	} {
		if _, err := Read(strings.NewReader(in), movegen.Brazilian); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: error %v, want one saying %q", in, err, want)
		}
	}
}

// TestReadTruncated: a file cut anywhere reads without a panic, and a cut
// inside a comment or a variation marks the game.
func TestReadTruncated(t *testing.T) {
	text := sampleGames(t)
	for cut := 0; cut < len(text); cut += 13 {
		games, err := Read(strings.NewReader(text[:cut]), movegen.Brazilian)
		if err != nil {
			continue
		}
		_, analyses := annotateText(t, text[:cut], testOptions(50, 1))
		last := analyses[len(analyses)-1]
		if games[len(games)-1].Truncated && !errors.Is(last.Err, ErrTruncated) && last.Err == nil {
			t.Errorf("cut at %d: a truncated game not reported", cut)
		}
	}
	_, analyses := annotateText(t, "[Event \"x\"]\n1. 22-18 {cut here", testOptions(50, 1))
	if !errors.Is(analyses[0].Err, ErrTruncated) || len(analyses[0].Moves) != 1 {
		t.Errorf("cut in a comment: %v, %d moves", analyses[0].Err, len(analyses[0].Moves))
	}
}

func TestSelection(t *testing.T) {
	games, err := Read(strings.NewReader(manyGames(t, 10)), movegen.Brazilian)
	if err != nil {
		t.Fatal(err)
	}
	numbers := func(sel string, i, n int) string {
		s, err := ParseSelection(sel)
		if err != nil {
			return "error: " + err.Error()
		}
		picked, err := s.Pick(games, i, n)
		if err != nil {
			return "error: " + err.Error()
		}
		var out []string
		for _, g := range picked {
			out = append(out, strings.TrimPrefix(g.Game.Tags.Get("Event"), "game "))
		}
		return strings.Join(out, ",")
	}
	for _, c := range []struct {
		sel  string
		i, n int
		want string
	}{
		{"", 1, 1, "1,2,3,4,5,6,7,8,9,10"},
		{"3,7-9", 1, 1, "3,7,8,9"},
		{"9-9, 2 ,3", 1, 1, "2,3,9"},
		{"", 2, 3, "2,5,8"},
		{"3,7-9", 2, 2, "7,9"},
		{"11", 1, 1, "error: game 11 asked for, but the file has 10 games"},
		{"0", 1, 1, "error: games \"0\""},
		{"5-3", 1, 1, "error: games \"5-3\""},
		{"x", 1, 1, "error: games \"x\""},
		{"1,,2", 1, 1, "error: games \"1,,2\""},
		{"", 3, 2, "error: shard 3/2"},
	} {
		if got := numbers(c.sel, c.i, c.n); !strings.HasPrefix(got, c.want) {
			t.Errorf("--games %q shard %d/%d: %s, want %s", c.sel, c.i, c.n, got, c.want)
		}
	}
}
