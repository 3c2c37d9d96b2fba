package annotate

import (
	"bytes"
	"context"
	"encoding/json"
	"slices"
	"testing"

	"github.com/riodraughts/rio/internal/game"
	"github.com/riodraughts/rio/internal/movegen"
)

// FuzzAnnotate feeds any bytes through the annotate input path: reading,
// analysis, PDN and JSON writing. Nothing panics; the PDN written reads
// back to the same games with the same moves and results, and annotating
// it again gives the same text.
func FuzzAnnotate(f *testing.F) {
	f.Add([]byte("[Event \"x\"]\n[GameType \"25\"]\n1. c3-d4 f6-e5 2. d4:f6 g7:e5 {c} *\n"))
	f.Add([]byte("1. 22-18 11-15 2. 18x11 8x15 {c} (2. 21-17) $3 2-0\n\ngarbage\n[FEN \"B:W18:B14\"]\n1... 14-17 *"))
	f.Add([]byte("[GameType \"28\"]\n1. 10-14 23-19 2. 14x23 {[%eval 0.35,18]} 1-1\n[GameType \"20\"]\n1. 32-28 *"))
	f.Add([]byte("[Event \"illegal\"]\n1. 22-18 11-15 2. 18-14 ; comment\n% escape\n 3. 1-5 2-0\n[Event \"cut\"]\n1. 22-18 {cut"))
	f.Fuzz(func(t *testing.T, data []byte) {
		games, err := Read(bytes.NewReader(data), movegen.Brazilian)
		if err != nil || Positions(games) > 300 {
			return
		}
		annotateAll := func(games []game.PDNGame) []byte {
			var out bytes.Buffer
			err := Run(context.Background(), games, testOptions(100, 1), func(a *Game) error {
				if err := WriteJSON(&bytes.Buffer{}, a); err != nil {
					t.Fatal(err)
				}
				return WritePDN(&out, a, DefaultPVPlies)
			})
			if err != nil {
				t.Fatal(err)
			}
			return out.Bytes()
		}
		out := annotateAll(games)
		back, err := Read(bytes.NewReader(out), movegen.Brazilian)
		if err != nil || len(back) != len(games) {
			t.Fatalf("the output reads back as %d games (%v), not %d:\n%s", len(back), err, len(games), out)
		}
		for i, g := range games {
			if !Analysable(&g) {
				continue
			}
			b := back[i]
			if !Analysable(&b) || !slices.Equal(b.Game.Moves(), g.Game.Moves()) || b.Game.Start() != g.Game.Start() || b.Declared != g.Declared {
				t.Fatalf("game %d reads back differently:\n%s", i+1, out)
			}
		}
		if again := annotateAll(back); !bytes.Equal(again, out) {
			t.Fatalf("annotating twice differs:\n%s\n---\n%s", out, again)
		}
		for _, g := range games {
			j, _ := json.Marshal(ToJSON(&Game{PDN: g}))
			if !json.Valid(j) {
				t.Fatalf("bad JSON %s", j)
			}
		}
	})
}
