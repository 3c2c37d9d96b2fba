package train

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/riodraughts/rio/internal/egdb"
	"github.com/riodraughts/rio/internal/game"
	"github.com/riodraughts/rio/internal/movegen"
	"github.com/riodraughts/rio/internal/pool"
	"github.com/riodraughts/rio/internal/search"
	"github.com/rs/zerolog"
)

// Rescoring replaces the search score of recorded positions with a
// deeper search's: the score half of the tuning target (lambda < 1) then
// teaches what a longer search sees, not what the self-play teacher saw in
// its 5,000 nodes. Positions keep their game's result and their order, so
// a rescored file has the same games and sizes as its input and the rest
// of the input (its bytes after the rescored ones) can be appended to it.

// RescoreConfig describes a rescoring run.
type RescoreConfig struct {
	Variant *movegen.Variant
	// Limits is each position's search limit (nodes or depth keep a run
	// reproducible).
	Limits search.Limits
	// Threads is the number of games rescored at once (one search thread
	// each).
	Threads int
	// Skip is how many games are already rescored (a resumed run).
	Skip int
	// Eval scores positions; nil is the built-in evaluation.
	Eval func(*movegen.Variant, *movegen.Position) int
	// Tables are endgame databases the searches probe (nil: none).
	Tables  *egdb.Tables
	HashMiB int
	Log     zerolog.Logger
	// OnGame, if set, hears of each rescored game (its 0-based number and
	// its positions), in game order, after the game is written.
	OnGame func(game, positions int)
}

// Games splits records into games at their First marks. Records that do
// not start with a First mark are no whole games: an error.
func Games(records []Record) ([][]Record, error) {
	var games [][]Record
	for i, r := range records {
		switch {
		case r.First:
			games = append(games, records[i:i+1])
		case i == 0:
			return nil, errors.New("record 1 does not start a game (no first-position mark)")
		default:
			last := &games[len(games)-1]
			*last = records[i-len(*last) : i+1]
		}
	}
	return games, nil
}

// Rescore searches every position of games[cfg.Skip:] afresh and writes
// the records with the new scores to w, a game per Write, in game order.
// Each game is searched from an empty table, its positions in order (a
// position's search reuses what the previous one stored), without the
// game's history (records keep no moves); so the output depends only on
// the input and the limits, not on Threads.
func Rescore(ctx context.Context, cfg RescoreConfig, games [][]Record, w io.Writer) (positions int, err error) {
	if cfg.Limits.Nodes <= 0 && cfg.Limits.Depth <= 0 {
		return 0, errors.New("rescore: a node or depth limit is required (a timed search is not reproducible)")
	}
	if cfg.HashMiB <= 0 {
		cfg.HashMiB = 16
	}
	v := cfg.Variant
	first := min(max(cfg.Skip, 0), len(games))
	todo := games[first:]
	err = pool.Ordered(ctx, len(todo), max(cfg.Threads, 1), func() func(context.Context, int) ([]byte, error) {
		e := search.NewEngine(cfg.HashMiB, cfg.Log)
		if cfg.Eval != nil {
			e.Eval = cfg.Eval
		}
		e.Tables = cfg.Tables
		return func(ctx context.Context, i int) ([]byte, error) {
			e.TT.Clear()
			data := make([]byte, 0, len(todo[i])*RecordSize)
			for j, r := range todo[i] {
				if int(r.GameType) != v.GameType {
					return nil, fmt.Errorf("game %d, position %d: GameType %d, not %s", first+i+1, j+1, r.GameType, v.Name)
				}
				g := game.New(v, r.Pos)
				res := e.Run(ctx, g, cfg.Limits, search.Options{Threads: 1}, nil)
				if ctx.Err() != nil {
					return nil, ctx.Err()
				}
				r.Score = int16(max(min(res.Score, 32767), -32767))
				data = r.Append(data)
			}
			return data, nil
		}
	}, func(i int, data []byte) error {
		if _, err := w.Write(data); err != nil {
			return err
		}
		positions += len(todo[i])
		if cfg.OnGame != nil {
			cfg.OnGame(first+i, len(todo[i]))
		}
		return nil
	})
	return positions, err
}
