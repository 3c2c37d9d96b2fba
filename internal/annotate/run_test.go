package annotate

import (
	"bytes"
	"context"
	"fmt"
	"sort"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/riodraughts/rio/internal/game"
	"github.com/riodraughts/rio/internal/movegen"
	"github.com/riodraughts/rio/internal/search"
)

// manyGames are n random games of every variant, each with its own Event.
func manyGames(t testing.TB, n int) string {
	var b strings.Builder
	for i := range n {
		v := movegen.Variants[i%len(movegen.Variants)]
		g := randomGame(v, uint64(100+i), 10+i%7)
		g.Tags.Set("Event", fmt.Sprintf("game %d", i+1))
		b.WriteString(pdnOf(t, g, game.Ongoing))
	}
	return b.String()
}

// TestParallelSameOutput: with a node limit, the output does not depend
// on the threads, and the shards hold every game once, each annotated as
// in the whole.
func TestParallelSameOutput(t *testing.T) {
	text := manyGames(t, 9)
	one, _ := annotateText(t, text, testOptions(1500, 1))
	three, _ := annotateText(t, text, testOptions(1500, 3))
	if one != three {
		t.Fatalf("1 and 3 threads differ:\n%s\n---\n%s", one, three)
	}
	all, _ := Read(strings.NewReader(text), movegen.Brazilian)
	var shards []string
	for i := 1; i <= 4; i++ {
		picked, err := Selection{}.Pick(all, i, 4)
		if err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		if err := Run(context.Background(), picked, testOptions(1500, 2), func(a *Game) error {
			if a.PDN.Number%4 != i%4 {
				t.Errorf("shard %d/4 has game %d", i, a.PDN.Number)
			}
			return WritePDN(&out, a, DefaultPVPlies)
		}); err != nil {
			t.Fatal(err)
		}
		shards = append(shards, out.String())
	}
	whole, joined := splitGames(one), splitGames(strings.Join(shards, ""))
	if len(whole) != 9 {
		t.Fatalf("%d games", len(whole))
	}
	sort.Strings(whole)
	sort.Strings(joined)
	if strings.Join(whole, "") != strings.Join(joined, "") {
		t.Errorf("shards concatenated are not the games of the whole:\n%s\n---\n%s", one, strings.Join(shards, ""))
	}
}

// splitGames splits PDN output into games: a blank line, then the next
// game's tags.
func splitGames(s string) []string {
	var games []string
	for s != "" {
		i := strings.Index(s, "\n\n[")
		if i < 0 {
			return append(games, s)
		}
		games = append(games, s[:i+2])
		s = s[i+2:]
	}
	return games
}

// TestRunOrderAndProgress: games come out in the file's order though they
// finish in any, progress counts every position, and a cancelled run
// stops.
func TestRunOrderAndProgress(t *testing.T) {
	text := manyGames(t, 6)
	games, _ := Read(strings.NewReader(text), movegen.Brazilian)
	opt := testOptions(800, 3)
	var last atomic.Value
	opt.Progress = func(p Progress) { last.Store(p) }
	var order []int
	if err := Run(context.Background(), games, opt, func(a *Game) error {
		order = append(order, a.PDN.Number)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(order) != "[1 2 3 4 5 6]" {
		t.Errorf("order %v", order)
	}
	if p := last.Load().(Progress); p.Games != 6 || p.Positions != Positions(games) {
		t.Errorf("progress %+v, want 6 games and %d positions", p, Positions(games))
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	opt.Limits = search.Limits{Depth: 30}
	if err := Run(ctx, games, opt, func(*Game) error { return nil }); err != context.Canceled {
		t.Errorf("cancelled run: %v", err)
	}
	stop := fmt.Errorf("stop")
	n := 0
	if err := Run(context.Background(), games, testOptions(300, 2), func(*Game) error { n++; return stop }); err != stop || n != 1 {
		t.Errorf("emit's error: %v after %d games", err, n)
	}
}
