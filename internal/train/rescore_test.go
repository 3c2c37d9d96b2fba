package train

import (
	"bytes"
	"context"
	"testing"

	"github.com/riodraughts/rio/internal/game"
	"github.com/riodraughts/rio/internal/movegen"
	"github.com/riodraughts/rio/internal/search"
	"github.com/rs/zerolog"
)

// rescored runs Rescore over the games of data and returns its output.
func rescored(t *testing.T, cfg RescoreConfig, games [][]Record) []byte {
	t.Helper()
	var buf bytes.Buffer
	n, err := Rescore(context.Background(), cfg, games, &buf)
	if err != nil {
		t.Fatalf("%s: %v", cfg.Variant.Name, err)
	}
	want := 0
	for _, g := range games[min(cfg.Skip, len(games)):] {
		want += len(g)
	}
	if n != want || buf.Len() != want*RecordSize {
		t.Fatalf("%s: Rescore reported %d positions and wrote %d bytes, want %d positions", cfg.Variant.Name, n, buf.Len(), want)
	}
	return buf.Bytes()
}

// selfPlayGames runs cfg and returns its records, split into games, and
// its game summaries.
func selfPlayGames(t *testing.T, cfg SelfPlayConfig) ([]Record, [][]Record, []GameSummary) {
	t.Helper()
	data, _, sums := selfPlay(t, cfg)
	recs, err := ReadAll(bytes.NewReader(data), cfg.Variant)
	if err != nil {
		t.Fatal(err)
	}
	games, err := Games(recs)
	if err != nil {
		t.Fatal(err)
	}
	return recs, games, sums
}

// TestRescore: a rescored file is its input with only the scores changed,
// the same bytes whatever the thread count, and a resumed run's games are
// the rest of the whole run's; the first position of each game (searched
// from an empty table) scores what a fresh engine's search of it scores.
func TestRescore(t *testing.T) {
	variants := movegen.Variants
	if testing.Short() {
		variants = variants[:1]
	}
	for _, v := range variants {
		cfg := tinyConfig(v, 6)
		cfg.Threads = 2
		recs, games, _ := selfPlayGames(t, cfg)
		if len(games) != 6 {
			t.Fatalf("%s: %d games, want 6", v.Name, len(games))
		}
		lim := search.Limits{Nodes: 3000}
		rc := RescoreConfig{Variant: v, Limits: lim, Threads: 1, HashMiB: 1}
		one := rescored(t, rc, games)
		rc.Threads = 2
		if two := rescored(t, rc, games); !bytes.Equal(one, two) {
			t.Errorf("%s: 2 threads wrote other bytes than 1", v.Name)
		}
		rc.Skip = 2
		rest := rescored(t, rc, games)
		if skipped := (len(games[0]) + len(games[1])) * RecordSize; !bytes.Equal(rest, one[skipped:]) {
			t.Errorf("%s: the run resumed after 2 games wrote other bytes than the whole run's rest", v.Name)
		}

		out, err := ReadAll(bytes.NewReader(one), v)
		if err != nil {
			t.Fatalf("%s: rescored file: %v", v.Name, err)
		}
		changed := 0
		for i := range recs {
			a, b := recs[i], out[i]
			if a.Score != b.Score {
				changed++
			}
			a.Score = b.Score
			if a != b {
				t.Fatalf("%s: record %d: %+v became %+v: only the score may change", v.Name, i+1, recs[i], out[i])
			}
		}
		// The teacher searched 300 nodes with the game's history, the
		// rescoring 3,000 without: most scores move.
		if changed < len(recs)/4 {
			t.Errorf("%s: %d of %d scores changed", v.Name, changed, len(recs))
		}
		e := search.NewEngine(1, zerolog.Nop())
		at := 0
		for gi, g := range games {
			e.TT.Clear()
			res := e.Run(context.Background(), game.New(v, g[0].Pos), lim, search.Options{Threads: 1}, nil)
			if got := out[at].Score; int(got) != res.Score {
				t.Errorf("%s: game %d's first position rescored %d, a fresh search gives %d", v.Name, gi+1, got, res.Score)
			}
			at += len(g)
		}
	}
}

func TestRescoreErrors(t *testing.T) {
	v := movegen.Russian
	recs := []Record{{Pos: v.Start(), Result: game.Draw, First: true, GameType: uint8(v.GameType)}}
	var buf bytes.Buffer
	if _, err := Rescore(context.Background(), RescoreConfig{Variant: v}, [][]Record{recs}, &buf); err == nil {
		t.Error("Rescore without a node or depth limit ran")
	}
	other := []Record{recs[0]}
	other[0].GameType = uint8(movegen.Brazilian.GameType)
	if _, err := Rescore(context.Background(), RescoreConfig{Variant: v, Limits: search.Limits{Nodes: 100}}, [][]Record{other}, &buf); err == nil {
		t.Error("Rescore took a brazilian position for russian")
	}
	if buf.Len() != 0 {
		t.Errorf("failed runs wrote %d bytes", buf.Len())
	}
}

// TestGames: Games splits at the First marks into runs that join back to
// the input, and refuses records that do not start a game.
func TestGames(t *testing.T) {
	v := movegen.Brazilian
	recs, games, sums := selfPlayGames(t, tinyConfig(v, 5))
	if len(games) != len(sums) {
		t.Fatalf("%d games, want %d", len(games), len(sums))
	}
	at := 0
	for i, g := range games {
		if len(g) != sums[i].Positions || !g[0].First {
			t.Fatalf("game %d: %d positions (first marked %v), want %d", i+1, len(g), g[0].First, sums[i].Positions)
		}
		for j, r := range g {
			if r != recs[at] || (j > 0 && r.First) {
				t.Fatalf("game %d, position %d is not record %d of the input", i+1, j+1, at+1)
			}
			at++
		}
	}
	if at != len(recs) {
		t.Fatalf("the games hold %d records of %d", at, len(recs))
	}
	if _, err := Games(recs[1:]); err == nil {
		t.Error("Games took records that start inside a game")
	}
	if g, err := Games(nil); err != nil || len(g) != 0 {
		t.Errorf("Games(nil) = %v, %v", g, err)
	}
}
