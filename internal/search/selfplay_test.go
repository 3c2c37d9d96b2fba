package search

import (
	"bufio"
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/riodraughts/rio/internal/game"
	"github.com/riodraughts/rio/internal/movegen"
	"github.com/rs/zerolog"
)

// Self-play matches measure what a search feature is worth: the default
// configuration plays the same one with the feature off, from each opening
// of the ballots with both colours, at a fixed number of nodes per move.
// They are slow, so they run only when asked:
//
//	RIO_SELFPLAY=40 go test -run SelfPlay -timeout 0 -v ./internal/search
//
// plays 40 openings per variant (80 games) per feature; RIO_SELFPLAY_NODES
// sets the nodes per move (default 30000).

func TestSelfPlayFeatures(t *testing.T) {
	openings, _ := strconv.Atoi(os.Getenv("RIO_SELFPLAY"))
	if openings <= 0 {
		t.Skip("set RIO_SELFPLAY=<openings per variant> to run")
	}
	nodes := int64(30000)
	if n, err := strconv.ParseInt(os.Getenv("RIO_SELFPLAY_NODES"), 10, 64); err == nil && n > 0 {
		nodes = n
	}
	// RIO_SELFPLAY_MOVETIME (milliseconds) plays at a fixed time per move
	// instead, so that a feature's cost in speed counts too.
	var movetime time.Duration
	if ms, err := strconv.Atoi(os.Getenv("RIO_SELFPLAY_MOVETIME")); err == nil && ms > 0 {
		movetime, nodes = time.Duration(ms)*time.Millisecond, 0
	}
	// Features in use are measured by switching them off; candidates by
	// switching them on (RIO_SELFPLAY_FEATURE=+LogLMR).
	without := map[string]func(*Features){
		"+LogLMR":      func(f *Features) { f.LogLMR = true },
		"+Futility":    func(f *Features) { f.Futility = true },
		"LMR":          func(f *Features) { f.LMR = false },
		"SingleReply":  func(f *Features) { f.SingleReply = false },
		"ThreatSearch": func(f *Features) { f.ThreatSearch = false },
		"Aspiration":   func(f *Features) { f.Aspiration = false },
		"PlayOn":       func(f *Features) { f.PlayOn = false },
	}
	only := os.Getenv("RIO_SELFPLAY_FEATURE")
	if _, listed := without[only]; !listed && strings.HasPrefix(only, "+") {
		// Any other candidate by its name in Features (ApplyFeatures).
		if _, err := ApplyFeatures(DefaultFeatures, only); err != nil {
			t.Fatal(err)
		}
		without[only] = func(f *Features) { *f, _ = ApplyFeatures(*f, only) }
	}
	for name, off := range without {
		if only != "" && only != name {
			continue
		}
		a, b := DefaultFeatures, DefaultFeatures
		label := "with vs without " + name
		if strings.HasPrefix(name, "+") {
			off(&a) // a tries the candidate, b is the default
			label = "with vs without " + name[1:]
		} else {
			off(&b)
		}
		if only == "" && strings.HasPrefix(name, "+") {
			continue // candidates only on request
		}
		var total matchScore
		for _, v := range []*movegen.Variant{movegen.Brazilian, movegen.Russian} {
			s := selfPlay(t, v, loadOpenings(t, v, openings), a, b, nodes, movetime)
			total.add(s)
			t.Logf("%s, %s: %s", v.Name, label, s)
		}
		t.Logf("TOTAL %s: %s", label, total)
	}
}

func loadOpenings(t *testing.T, v *movegen.Variant, n int) []string {
	name := "brazilian-3move.tsv"
	if v == movegen.Russian {
		name = "russian-3move.tsv"
	}
	f, err := os.Open(filepath.Join("..", "match", "ballots", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	for sc.Scan() && len(out) < n {
		line := sc.Text()
		if _, fen, ok := strings.Cut(line, "\t"); ok && !strings.HasPrefix(line, "#") {
			out = append(out, fen)
		}
	}
	return out
}

// matchScore counts results from the first configuration's side.
type matchScore struct{ wins, draws, losses int }

func (m *matchScore) add(o matchScore) {
	m.wins += o.wins
	m.draws += o.draws
	m.losses += o.losses
}

// String gives the score and the Elo difference with a 95% interval
// (normal approximation of the per-game score).
func (m matchScore) String() string {
	n := float64(m.wins + m.draws + m.losses)
	if n == 0 {
		return "no games"
	}
	score := (float64(m.wins) + float64(m.draws)/2) / n
	variance := (float64(m.wins)*math.Pow(1-score, 2) + float64(m.draws)*math.Pow(0.5-score, 2) + float64(m.losses)*math.Pow(score, 2)) / n
	margin := 1.96 * math.Sqrt(variance/n)
	elo := func(s float64) float64 {
		s = math.Min(math.Max(s, 1e-3), 1-1e-3)
		return -400 * math.Log10(1/s-1)
	}
	return fmt.Sprintf("+%d =%d -%d (%.1f%%) Elo %+.0f [%+.0f, %+.0f]", m.wins, m.draws, m.losses, 100*score,
		elo(score), elo(score-margin), elo(score+margin))
}

// selfPlay plays every opening twice, a playing White then Black.
func selfPlay(t *testing.T, v *movegen.Variant, openings []string, a, b Features, nodes int64, movetime time.Duration) matchScore {
	var mu sync.Mutex
	var total matchScore
	var wg sync.WaitGroup
	sem := make(chan struct{}, 2)
	for _, fen := range openings {
		for _, aWhite := range []bool{true, false} {
			wg.Add(1)
			sem <- struct{}{}
			go func() {
				defer func() { <-sem; wg.Done() }()
				r := playGame(t, v, fen, a, b, aWhite, Limits{Nodes: nodes, MoveTime: movetime})
				mu.Lock()
				defer mu.Unlock()
				switch {
				case r == game.Draw || r == game.Ongoing:
					total.draws++
				case (r == game.WhiteWins) == aWhite:
					total.wins++
				default:
					total.losses++
				}
			}()
		}
	}
	wg.Wait()
	return total
}

func playGame(t *testing.T, v *movegen.Variant, fen string, a, b Features, aWhite bool, lim Limits) game.Result {
	p, err := v.ParsePosition(fen)
	if err != nil {
		t.Error(err)
		return game.Ongoing
	}
	g := game.New(v, p)
	ea, eb := NewEngine(8, zerolog.Nop()), NewEngine(8, zerolog.Nop())
	ea.Features, eb.Features = a, b
	for ply := 0; ply < 250; ply++ {
		if o := g.Outcome(); o.Result != game.Ongoing {
			return o.Result
		}
		e := eb
		if (g.Position().Side == movegen.White) == aWhite {
			e = ea
		}
		res := e.Run(context.Background(), g, lim, Options{Threads: 1}, nil)
		if err := g.Play(res.Move); err != nil {
			t.Errorf("%s: %v", fen, err)
			return game.Ongoing
		}
	}
	return game.Draw
}
