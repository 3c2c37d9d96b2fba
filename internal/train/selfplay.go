package train

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"

	"github.com/riodraughts/rio/internal/egdb"
	"github.com/riodraughts/rio/internal/game"
	"github.com/riodraughts/rio/internal/movegen"
	"github.com/riodraughts/rio/internal/pool"
	"github.com/riodraughts/rio/internal/search"
	"github.com/riodraughts/rio/internal/tt"
	"github.com/rs/zerolog"
)

// SelfPlayConfig describes a self-play run.
type SelfPlayConfig struct {
	Variant *movegen.Variant
	// Games is the number of games of the whole (unsharded) run; game i
	// (0-based) belongs to shard i%Shards+1.
	Games         int
	Shard, Shards int
	// Skip is how many of the shard's games are already written (a
	// resumed run): they are not played again, and the others keep their
	// numbers, so the games are the same as in one uninterrupted run.
	Skip int
	// Limits is each move's search limit (nodes or depth keep a run
	// reproducible; move time does not).
	Limits search.Limits
	// Openings are the start positions; game i starts from one its own
	// random generator picks.
	Openings []movegen.Position
	// RandomPlies uniformly random legal moves are played after the
	// opening, before the searched moves; their positions are not written.
	RandomPlies int
	// RandomMoves is the chance that a searched move is replaced by a
	// uniformly random legal one (when there are two or more), so that
	// the data holds the positions a mistake leads to, which the search
	// meets at its leaves and good play never reaches. The position is
	// still written with its search score; it and those before it are
	// marked ScoreOnly, since the game's result judges the random move.
	RandomMoves float64
	// Balanced, when above 0, keeps only starts within Balanced hundredths
	// of a man: the first search of a start (its opening and random plies)
	// scoring beyond it sends the game back to draw another, up to
	// BalanceTries starts. Six random plies leave most starts a man or more
	// off balance, and such games are won by the side the dice favoured:
	// their positions teach little beyond the material count.
	Balanced int
	// Threads is the number of games played at once (one search thread each).
	Threads int
	Seed    uint64
	// Eval scores positions for both players.
	Eval func(*movegen.Variant, *movegen.Position) int
	// Tables are endgame databases the searches probe (nil: none).
	Tables  *egdb.Tables
	HashMiB int
	// MaxPlies ends a game as a draw (0: 400).
	MaxPlies int
	Log      zerolog.Logger
	// OnGame, if set, hears of each finished game (from the writer's
	// goroutine, in game order).
	OnGame func(GameSummary)
}

// GameSummary is what a finished self-play game reports.
type GameSummary struct {
	Index     int // 0-based number in the unsharded run
	Plies     int
	Positions int // records written
	// RandomMoves is how many searched moves were replaced by random ones
	// (SelfPlayConfig.RandomMoves), ScoreOnly how many records were
	// written score-only because of them: the game's first ones.
	RandomMoves, ScoreOnly int
	// Redrawn is how many starts were drawn again for
	// SelfPlayConfig.Balanced, and StartScore the search score (side to
	// move) of the start played (0 without Balanced).
	Redrawn, StartScore int
	Result              game.Result
	Reason              string
}

// Totals add up a run.
type Totals struct {
	Games, Positions, WhiteWins, Draws, BlackWins int
}

// SelfPlay plays the configured shard of games and writes the records of
// each game to w in game order, one Write per game. The records depend only
// on the configuration (with node or depth limits), not on Threads or on
// which goroutine played which game: each game has its own random
// generator, seeded by (Seed, game number), and starts from an empty table.
func SelfPlay(ctx context.Context, cfg SelfPlayConfig, w io.Writer) (Totals, error) {
	var tot Totals
	if cfg.Shards < 1 || cfg.Shard < 1 || cfg.Shard > cfg.Shards {
		return tot, fmt.Errorf("shard %d/%d out of range", cfg.Shard, cfg.Shards)
	}
	if len(cfg.Openings) == 0 {
		return tot, fmt.Errorf("no openings")
	}
	if cfg.MaxPlies <= 0 {
		cfg.MaxPlies = 400
	}
	if cfg.HashMiB <= 0 {
		cfg.HashMiB = 16
	}
	threads := max(cfg.Threads, 1)
	// The shard's games, by their number in the whole run.
	count := 0
	if cfg.Games >= cfg.Shard {
		count = (cfg.Games-cfg.Shard)/cfg.Shards + 1
	}
	gameOf := func(seq int) int { return cfg.Shard - 1 + seq*cfg.Shards }
	first := min(max(cfg.Skip, 0), count)

	type played struct {
		data []byte
		sum  GameSummary
	}
	// Written in game order whatever finishes first.
	err := pool.Ordered(ctx, count-first, threads, func() func(context.Context, int) (played, error) {
		e := search.NewEngine(cfg.HashMiB, cfg.Log)
		if cfg.Eval != nil {
			e.Eval = cfg.Eval
		}
		e.Tables = cfg.Tables
		return func(ctx context.Context, i int) (played, error) {
			data, sum, err := playOne(ctx, &cfg, e, gameOf(first+i))
			return played{data, sum}, err
		}
	}, func(_ int, d played) error {
		if len(d.data) > 0 {
			if _, err := w.Write(d.data); err != nil {
				return err
			}
		}
		tot.Games++
		tot.Positions += d.sum.Positions
		switch d.sum.Result {
		case game.WhiteWins:
			tot.WhiteWins++
		case game.BlackWins:
			tot.BlackWins++
		default:
			tot.Draws++
		}
		if cfg.OnGame != nil {
			cfg.OnGame(d.sum)
		}
		return nil
	})
	return tot, err
}

// Quiet reports whether neither side of p has a capture: the positions a
// static evaluation is meant for.
func Quiet(v *movegen.Variant, p *movegen.Position) bool {
	if v.HasCapture(p) {
		return false
	}
	q := *p
	q.Side = q.Side.Other()
	return !v.HasCapture(&q)
}

// playOne plays game number idx and returns its records.
func playOne(ctx context.Context, cfg *SelfPlayConfig, e *search.Engine, idx int) ([]byte, GameSummary, error) {
	v := cfg.Variant
	rng := rand.New(rand.NewPCG(cfg.Seed, uint64(idx)))
	sum := GameSummary{Index: idx}
	var buf [movegen.MaxMoves]movegen.Move
	g, first, err := drawStart(ctx, cfg, e, rng, &sum)
	if err != nil {
		return nil, sum, err
	}
	type scored struct {
		pos   movegen.Position
		score int
	}
	var kept []scored
	// judged is how many of kept precede the game's last random move.
	judged := 0
	result, reason := game.Draw, fmt.Sprintf("%d plies", cfg.MaxPlies)
	for g.Ply() < cfg.MaxPlies {
		if o := g.Outcome(); o.Result != game.Ongoing {
			result, reason = o.Result, o.Reason
			break
		}
		var res search.Result
		if first != nil {
			res, first = *first, nil // the start's search, made when it was drawn
		} else {
			res = e.Run(ctx, g, cfg.Limits, search.Options{Threads: 1}, nil)
		}
		if ctx.Err() != nil {
			return nil, sum, ctx.Err()
		}
		p := g.Position()
		if res.Score > tt.MateBound || res.Score < -tt.MateBound {
			// A proven win: the game's end is known.
			result, reason = game.WhiteWins, "proven win"
			if (res.Score > 0) != (p.Side == movegen.White) {
				result = game.BlackWins
			}
			break
		}
		if Quiet(v, &p) {
			kept = append(kept, scored{p, res.Score})
		}
		move := res.Move
		if cfg.RandomMoves > 0 && rng.Float64() < cfg.RandomMoves {
			if moves := v.Generate(&p, buf[:0]); len(moves) > 1 {
				move = moves[rng.IntN(len(moves))]
				judged = len(kept)
				sum.RandomMoves++
			}
		}
		if err := g.Play(move); err != nil {
			return nil, sum, fmt.Errorf("game %d: %w", idx+1, err)
		}
	}
	if g.Ply() >= cfg.MaxPlies {
		if o := g.Outcome(); o.Result != game.Ongoing {
			result, reason = o.Result, o.Reason // the game ended on the last ply
		}
	}
	sum.Plies, sum.Result, sum.Reason, sum.Positions, sum.ScoreOnly = g.Ply(), result, reason, len(kept), judged
	data := make([]byte, 0, len(kept)*RecordSize)
	for i, k := range kept {
		r := Record{Pos: k.pos, Result: result, Score: int16(max(min(k.score, 32767), -32767)), First: i == 0, ScoreOnly: i < judged, GameType: uint8(v.GameType)}
		data = r.Append(data)
	}
	return data, sum, nil
}

// BalanceTries is how many starts a game of SelfPlayConfig.Balanced draws
// at most; the last is played whatever it scores.
const BalanceTries = 50

// drawStart sets up game idx's start: an opening drawn by rng and
// cfg.RandomPlies random legal moves. With cfg.Balanced, the start is
// searched and drawn again while its score is beyond the limit; that
// search is returned, to be the game's first move, so an accepted start
// costs nothing more. The table is cleared once, before the first start
// (every game begins from an empty one): a start drawn again leaves its
// entries, which are as deterministic as the rest, and clearing 16 MiB
// would cost more than the search of a start.
func drawStart(ctx context.Context, cfg *SelfPlayConfig, e *search.Engine, rng *rand.Rand, sum *GameSummary) (*game.Game, *search.Result, error) {
	v := cfg.Variant
	var buf [movegen.MaxMoves]movegen.Move
	e.TT.Clear()
	for try := 1; ; try++ {
		g := game.New(v, cfg.Openings[rng.IntN(len(cfg.Openings))])
		for range cfg.RandomPlies {
			p := g.Position()
			moves := v.Generate(&p, buf[:0])
			if len(moves) == 0 || g.Outcome().Result != game.Ongoing {
				break
			}
			if err := g.Play(moves[rng.IntN(len(moves))]); err != nil {
				return nil, nil, err
			}
		}
		if cfg.Balanced <= 0 || g.Outcome().Result != game.Ongoing {
			return g, nil, nil
		}
		res := e.Run(ctx, g, cfg.Limits, search.Options{Threads: 1}, nil)
		if ctx.Err() != nil {
			return nil, nil, ctx.Err()
		}
		if max(res.Score, -res.Score) <= cfg.Balanced || try == BalanceTries {
			sum.StartScore = res.Score
			return g, &res, nil
		}
		sum.Redrawn++
	}
}
