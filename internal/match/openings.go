package match

import (
	"bufio"
	"context"
	"embed"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"strings"

	"github.com/riodraughts/rio/internal/eval"
	"github.com/riodraughts/rio/internal/game"
	"github.com/riodraughts/rio/internal/movegen"
	"github.com/riodraughts/rio/internal/search"
	"github.com/rs/zerolog"
)

// Opening is a start position with a name.
type Opening struct {
	Name     string
	Position movegen.Position
}

// ReadOpenings reads start positions, one per line: a FEN or Hub string,
// optionally after a name and a tab (the ballot files' layout); empty lines
// and lines starting with # are skipped. A bad line is an error naming it.
func ReadOpenings(r io.Reader, v *movegen.Variant) ([]Opening, error) {
	var out []Opening
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		name, text := fmt.Sprintf("line %d", n), line
		if label, rest, ok := strings.Cut(line, "\t"); ok {
			name, text = strings.TrimSpace(label), strings.TrimSpace(rest)
		}
		p, err := v.ParsePosition(text)
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", n, err)
		}
		out = append(out, Opening{name, p})
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no positions")
	}
	return out, nil
}

// LoadOpenings reads the openings of a file.
func LoadOpenings(path string, v *movegen.Variant) ([]Opening, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	out, err := ReadOpenings(f, v)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return out, nil
}

//go:embed ballots/*.tsv
var ballots embed.FS

// Ballots returns the built-in opening ballots of v: the three-move
// ballots of brazilian and russian (those of the FMJD-64 list are
// included for russian); nil for portuguese, whose openings are generated.
func Ballots(v *movegen.Variant) []Opening {
	var files []string
	switch v {
	case movegen.Brazilian:
		files = []string{"ballots/brazilian-3move.tsv"}
	case movegen.Russian:
		files = []string{"ballots/russian-3move.tsv", "ballots/fmjd64-150.tsv"}
	}
	var out []Opening
	for _, name := range files {
		f, err := ballots.Open(name)
		if err != nil {
			panic("match: missing embedded ballot " + name)
		}
		ops, err := ReadOpenings(f, v)
		f.Close()
		if err != nil {
			panic("match: bad embedded ballot " + name + ": " + err.Error())
		}
		out = append(out, ops...)
	}
	return out
}

// GenerateOpenings makes n start positions by playing plies random legal
// moves from v's start (a fixed seed: the same list every time), keeping
// only positions that a shallow search finds balanced (|score| <= within,
// in hundredths of a man) and that differ from each other.
func GenerateOpenings(v *movegen.Variant, n, plies, within int, seed uint64) []Opening {
	rng := rand.New(rand.NewPCG(seed, uint64(v.GameType)))
	// The classic evaluation judges the balance: the openings must not
	// change when the learned weights do (they are what matches test).
	engine := search.NewEngine(4, zerolog.Nop())
	engine.Eval = eval.Evaluate
	seen := map[uint64]bool{}
	var out []Opening
	var buf [movegen.MaxMoves]movegen.Move
	for tries := 0; len(out) < n && tries < 200*n; tries++ {
		g := game.New(v, v.Start())
		var names []string
		for range plies {
			p := g.Position()
			moves := v.Generate(&p, buf[:0])
			if len(moves) == 0 {
				break
			}
			m := moves[rng.IntN(len(moves))]
			names = append(names, v.FormatMove(m))
			g.Play(m)
		}
		p := g.Position()
		if seen[p.Hash] || g.Outcome().Result != game.Ongoing {
			continue
		}
		seen[p.Hash] = true
		engine.TT.Clear()
		res := engine.Run(context.Background(), g, search.Limits{Depth: 6}, search.Options{Threads: 1}, nil)
		if abs(res.Score) > within {
			continue
		}
		out = append(out, Opening{Name: strings.Join(names, " "), Position: p})
	}
	return out
}

// GenerateEndgames makes n balanced endgame start positions of at most
// pieces pieces (a fixed seed: the same list every time): games from the
// variant's ballots (or its start) played by a shallow search that picks
// at random among the moves within a few hundredths of its best, until
// few enough pieces remain and no capture is pending; a position is kept
// when a deeper search finds it within half a man of even and it differs
// from those kept. They test endgame play, where the tables matter.
func GenerateEndgames(v *movegen.Variant, n, pieces int, seed uint64) []Opening {
	rng := rand.New(rand.NewPCG(seed, uint64(v.GameType)+1000))
	engine := search.NewEngine(4, zerolog.Nop())
	engine.Eval = eval.Evaluate // as in GenerateOpenings
	starts := Ballots(v)
	if len(starts) == 0 {
		starts = []Opening{{Name: "start", Position: v.Start()}}
	}
	seen := map[uint64]bool{}
	var out []Opening
	for tries := 0; len(out) < n && tries < 50*n; tries++ {
		g := game.New(v, starts[rng.IntN(len(starts))].Position)
		for g.Outcome().Result == game.Ongoing && g.Ply() < 300 {
			p := g.Position()
			if p.Occupied().Count() <= pieces && !v.HasCapture(&p) {
				break
			}
			engine.TT.Clear()
			// The lines of the last iteration, best first.
			type line struct {
				m     movegen.Move
				score int
			}
			var lines []line
			res := engine.Run(context.Background(), g, search.Limits{Depth: 3}, search.Options{Threads: 1, MultiPV: 3}, func(i search.Info) {
				if i.Line == 1 {
					lines = lines[:0]
				}
				if len(i.PV) > 0 {
					lines = append(lines, line{i.PV[0], i.Score})
				}
			})
			m := res.Move
			var near []movegen.Move
			for _, l := range lines {
				if l.score >= lines[0].score-15 {
					near = append(near, l.m)
				}
			}
			if len(near) > 0 {
				m = near[rng.IntN(len(near))]
			}
			g.Play(m)
		}
		p := g.Position()
		if p.Occupied().Count() > pieces || g.Outcome().Result != game.Ongoing || seen[p.Hash] {
			continue
		}
		seen[p.Hash] = true
		engine.TT.Clear()
		if res := engine.Run(context.Background(), g, search.Limits{Depth: 10}, search.Options{Threads: 1}, nil); abs(res.Score) > 50 {
			continue
		}
		out = append(out, Opening{Name: fmt.Sprintf("endgame %d", len(out)+1), Position: p})
	}
	return out
}
