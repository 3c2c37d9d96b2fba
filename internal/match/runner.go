// Package match runs engine-against-engine matches and says what they
// prove: a referee plays each game between two engines (Hub processes or
// DXP followers), keeps the clocks, adjudicates by the game record's rules
// (and, if asked, by the engines' agreed scores), and turns the results
// into Elo with a confidence interval, LOS and an SPRT decision
// (stats.go). Games run in parallel, each worker with its own pair of
// engines; engines that crash are restarted.
package match

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/riodraughts/rio/internal/game"
	"github.com/riodraughts/rio/internal/movegen"
	"github.com/riodraughts/rio/internal/protocol/dxp"
	"github.com/rs/zerolog"
)

// TimeControl is how long engines may think: a clock (Base per player,
// Inc credited before each move), or a fixed move-time, depth or nodes.
type TimeControl struct {
	Base, Inc time.Duration
	MoveTime  time.Duration
	Depth     int
	Nodes     int64
}

// ParseTimeControl reads "BASE+INC" or "BASE" in seconds (10+0.1, 60).
func ParseTimeControl(s string) (TimeControl, error) {
	base, inc, _ := strings.Cut(s, "+")
	b, err := strconv.ParseFloat(base, 64)
	if err != nil || b <= 0 || b > 1e6 || math.IsNaN(b) {
		return TimeControl{}, fmt.Errorf("time control %q: base must be a positive number of seconds", s)
	}
	tc := TimeControl{Base: time.Duration(b * float64(time.Second))}
	if inc != "" {
		i, err := strconv.ParseFloat(inc, 64)
		if err != nil || i < 0 || i > 1e4 || math.IsNaN(i) {
			return TimeControl{}, fmt.Errorf("time control %q: increment must be seconds >= 0", s)
		}
		tc.Inc = time.Duration(i * float64(time.Second))
	}
	return tc, nil
}

// HasClock reports whether the control is a clock.
func (tc TimeControl) HasClock() bool { return tc.Base > 0 }

func (tc TimeControl) String() string {
	switch {
	case tc.HasClock():
		return fmt.Sprintf("%g+%g", tc.Base.Seconds(), tc.Inc.Seconds())
	case tc.MoveTime > 0:
		return fmt.Sprintf("move-time %g s", tc.MoveTime.Seconds())
	case tc.Depth > 0:
		return fmt.Sprintf("depth %d", tc.Depth)
	}
	return fmt.Sprintf("%d nodes", tc.Nodes)
}

// hubLevel is the Hub level line for a move with left on the clock.
func (tc TimeControl) hubLevel(left time.Duration) string {
	switch {
	case tc.HasClock():
		return fmt.Sprintf("level time=%.3f inc=%.3f", left.Seconds(), tc.Inc.Seconds())
	case tc.MoveTime > 0:
		return fmt.Sprintf("level move-time=%.3f", tc.MoveTime.Seconds())
	case tc.Depth > 0:
		return fmt.Sprintf("level depth=%d", tc.Depth)
	}
	return fmt.Sprintf("level nodes=%d", tc.Nodes)
}

// wait is how long the referee waits for a move before calling it a
// forfeit.
func (tc TimeControl) wait(left time.Duration) time.Duration {
	switch {
	case tc.HasClock():
		return max(left+tc.Inc, 0) + 2*time.Second
	case tc.MoveTime > 0:
		return 2*tc.MoveTime + 2*time.Second
	}
	return 5 * time.Minute
}

// dxp is the control announced in GAMEREQ: whole minutes, 0 (play fast)
// under a minute, as hosts do.
func (tc TimeControl) dxp() dxp.TimeControl {
	if !tc.HasClock() || tc.Base < time.Minute {
		return dxp.TimeControl{}
	}
	return dxp.TimeControl{Minutes: min(int(tc.Base/time.Minute), 999)}
}

// TCOf is engine k's control: its own (EngineSpec.TC) or the match's.
func (c *Config) TCOf(k int) TimeControl {
	if t := c.Engines[k].TC; t != nil {
		return *t
	}
	return c.TC
}

// EngineSpec names an engine: a Hub command line or dxp:HOST:PORT, an
// optional display name, and Hub set-param lines.
type EngineSpec struct {
	Spec   string
	Name   string
	Params []string
	// TC, if set, is this engine's own control instead of Config.TC: a
	// time-odds match (how much a longer clock is worth, in Elo).
	TC *TimeControl
}

// Config is a match.
type Config struct {
	Variant  *movegen.Variant
	Engines  [2]EngineSpec
	Openings []Opening
	// Games is the number of games; each opening is played twice, the
	// first engine White, then Black.
	Games       int
	TC          TimeControl
	Concurrency int
	// TimeMargin is the lateness tolerated before a time forfeit.
	TimeMargin time.Duration
	// MaxPlies ends a game as a draw (default 400).
	MaxPlies int
	// DrawRules are the draw rules the referee applies (default: all of
	// the variant's). With fewer, games go on past the others' draws;
	// GameRecord.RuleDraw says where all the rules would have drawn.
	DrawRules game.RuleSet
	// AdjudicateScore and AdjudicateMoves: when both engines' scores agree
	// the same side is at least AdjudicateScore (hundredths of a man) up
	// for AdjudicateMoves moves each, that side wins. 0: never.
	AdjudicateScore, AdjudicateMoves int
	SPRT                             *SPRT
	// SPRTPlayOn reports the SPRT's state but plays every game (a match of
	// a fixed length that also says what the test decided).
	SPRTPlayOn bool
	// PDN receives every game; may be nil.
	PDN io.Writer
	// OnGame hears of each finished game (from one goroutine at a time).
	OnGame func(GameRecord, Status)
	Log    zerolog.Logger
}

// Failures counts an engine's faults.
type Failures struct{ Crashes, Illegal, Forfeits int }

func (f Failures) String() string {
	return fmt.Sprintf("crashes %d, illegal moves %d, time forfeits %d", f.Crashes, f.Illegal, f.Forfeits)
}

// Status is the match so far.
type Status struct {
	Played, Total int
	Score         Score // the first engine's
	Fails         [2]Failures
	// Clock is each engine's use of its time over the games played.
	Clock    [2]ClockUse
	Names    [2]string
	Decision Decision
}

// GameRecord is one finished game.
type GameRecord struct {
	Number  int
	Opening string
	White   int // index of the engine playing White
	Game    *game.Game
	Result  game.Result
	Reason  string
	// RuleDraw is the ply at which all of the variant's draw rules drew
	// the game when the referee applied fewer and play went on past it;
	// -1 otherwise.
	RuleDraw int
	// Clock is each engine's (by index, not colour) use of its time.
	Clock [2]ClockUse
}

// Run plays the match and returns its final status.
func Run(ctx context.Context, cfg Config) (Status, error) {
	if cfg.Concurrency < 1 {
		cfg.Concurrency = 1
	}
	if cfg.MaxPlies <= 0 {
		cfg.MaxPlies = 400
	}
	if len(cfg.Openings) == 0 {
		cfg.Openings = []Opening{{"start", cfg.Variant.Start()}}
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	jobs := make(chan int)
	var mu sync.Mutex
	st := Status{Total: cfg.Games}
	var firstErr error
	var wg sync.WaitGroup
	for w := range min(cfg.Concurrency, cfg.Games) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ref := &referee{cfg: &cfg, log: cfg.Log.With().Int("worker", w).Logger()}
			defer ref.close()
			for i := range jobs {
				rec, fails, err := ref.play(ctx, i)
				mu.Lock()
				if err != nil {
					if firstErr == nil && ctx.Err() == nil {
						firstErr = err
					}
					mu.Unlock()
					cancel()
					return
				}
				st.Played++
				for k := range 2 {
					st.Fails[k].Crashes += fails[k].Crashes
					st.Fails[k].Illegal += fails[k].Illegal
					st.Fails[k].Forfeits += fails[k].Forfeits
					st.Clock[k].merge(rec.Clock[k])
				}
				st.Names = ref.names()
				st.Score.Add(resultFor(rec, 0))
				if cfg.SPRT != nil {
					st.Decision = cfg.SPRT.Decide(st.Score)
					if st.Decision != Continue && !cfg.SPRTPlayOn {
						cancel()
					}
				}
				if cfg.PDN != nil {
					rec.Game.WritePDN(cfg.PDN, rec.Result)
				}
				if cfg.OnGame != nil {
					cfg.OnGame(rec, st)
				}
				mu.Unlock()
			}
		}()
	}
feed:
	for i := range cfg.Games {
		select {
		case jobs <- i:
		case <-ctx.Done():
			break feed
		}
	}
	close(jobs)
	wg.Wait()
	return st, firstErr
}

// resultFor scores a game for engine k.
func resultFor(rec GameRecord, k int) Result {
	switch {
	case rec.Result == game.Draw || rec.Result == game.Ongoing:
		return Draw
	case (rec.Result == game.WhiteWins) == (rec.White == k):
		return Win
	}
	return Loss
}

// referee owns one worker's pair of engines.
type referee struct {
	cfg     *Config
	log     zerolog.Logger
	players [2]Player
}

func (r *referee) names() [2]string {
	var n [2]string
	for k, p := range r.players {
		if p != nil {
			n[k] = p.Name()
		}
	}
	return n
}

func (r *referee) ensure(ctx context.Context, k int) error {
	if r.players[k] != nil {
		return nil
	}
	e := r.cfg.Engines[k]
	p, err := NewPlayer(ctx, e.Spec, e.Name, r.cfg.Variant, e.Params, r.log)
	if err != nil {
		return fmt.Errorf("engine %d (%s): %w", k+1, e.Spec, err)
	}
	r.players[k] = p
	return nil
}

// drop closes engine k after a fault; it is started again for the next
// game.
func (r *referee) drop(k int) {
	if r.players[k] != nil {
		r.players[k].Close()
		r.players[k] = nil
	}
}

func (r *referee) close() {
	r.drop(0)
	r.drop(1)
}

// play plays game number i (0-based).
func (r *referee) play(ctx context.Context, i int) (GameRecord, [2]Failures, error) {
	var fails [2]Failures
	op := r.cfg.Openings[(i/2)%len(r.cfg.Openings)]
	white := i % 2 // engine 0 is White in even games
	rec := GameRecord{Number: i + 1, Opening: op.Name, White: white, RuleDraw: -1}
	for k := range 2 {
		if err := r.ensure(ctx, k); err != nil {
			return rec, fails, err
		}
	}
	g := game.NewRules(r.cfg.Variant, op.Position, r.cfg.DrawRules)
	rec.Game = g
	engineOf := func(c movegen.Color) int {
		if c == movegen.White {
			return white
		}
		return 1 - white
	}
	for c := movegen.White; c <= movegen.Black; c++ {
		k := engineOf(c)
		if err := r.players[k].NewGame(ctx, op.Position, c, r.cfg.TCOf(k)); err != nil {
			if errors.Is(err, dxp.ErrRefused) {
				return rec, fails, fmt.Errorf("engine %d refused the game: %w", k+1, err)
			}
			fails[k].Crashes++
			r.drop(k)
			return r.forfeit(rec, c, "engine "+strconv.Itoa(k+1)+" crashed at the start"), fails, nil
		}
	}
	// clocks are by colour; each starts at its engine's base.
	clocks := [2]time.Duration{r.cfg.TCOf(engineOf(movegen.White)).Base, r.cfg.TCOf(engineOf(movegen.Black)).Base}
	var agree [2]int // consecutive moves each side's engine claimed a win
	for {
		if ctx.Err() != nil {
			return rec, fails, ctx.Err()
		}
		if o := g.Outcome(); o.Result != game.Ongoing {
			rec.Result, rec.Reason = o.Result, o.Reason
			break
		}
		if g.Ply() >= r.cfg.MaxPlies {
			rec.Result, rec.Reason = game.Draw, fmt.Sprintf("adjudicated: %d plies", r.cfg.MaxPlies)
			break
		}
		side := g.Position().Side
		k := engineOf(side)
		t0 := time.Now()
		reply, err := r.players[k].Move(ctx, g, clocks[side])
		used := time.Since(t0)
		if err != nil {
			if ctx.Err() != nil {
				return rec, fails, ctx.Err()
			}
			switch {
			case errors.Is(err, ErrIllegal):
				fails[k].Illegal++
			case errors.Is(err, ErrTimeout):
				fails[k].Forfeits++
			default:
				fails[k].Crashes++
			}
			r.log.Warn().Err(err).Int("engine", k+1).Int("game", i+1).Msg("engine fault")
			r.drop(k)
			rec = r.forfeit(rec, side, fmt.Sprintf("engine %d: %v", k+1, err))
			break
		}
		// A DXP engine told "0 minutes" (games under a minute) plays at its
		// own fast pace: only the wait for its move bounds it.
		_, overDXP := r.players[k].(*dxpPlayer)
		tc := r.cfg.TCOf(k)
		clocked := tc.HasClock() && !(overDXP && tc.dxp().Minutes == 0)
		if clocked {
			clocks[side] += tc.Inc - used
		}
		rec.Clock[k].add(used, clocked, clocks[side])
		if clocked && clocks[side] < -r.cfg.TimeMargin {
			fails[k].Forfeits++
			g.Play(reply.Move)
			rec = r.forfeit(rec, side, fmt.Sprintf("engine %d lost on time", k+1))
			break
		}
		g.Play(reply.Move)
		if r.adjudicate(&agree, side, reply, &rec) {
			break
		}
	}
	for c := movegen.White; c <= movegen.Black; c++ {
		if p := r.players[engineOf(c)]; p != nil {
			p.GameOver(ctx, g, rec.Result)
		}
	}
	names := r.names()
	g.Tags.Set("Event", "Rio match")
	g.Tags.Set("Round", strconv.Itoa(i+1))
	g.Tags.Set("White", names[white])
	g.Tags.Set("Black", names[1-white])
	g.Tags.Set("Date", time.Now().Format("2006.01.02"))
	if rec.Reason != "" {
		g.Tags.Set("Termination", rec.Reason)
	}
	g.Tags.Set("DrawRules", r.cfg.DrawRules.String())
	if r.cfg.DrawRules != game.AllRules {
		if end := g.WithRules(game.AllRules).EndPly(); end >= 0 && end < g.Ply() {
			rec.RuleDraw = end
		}
	}
	return rec, fails, nil
}

// forfeit scores the game for the opponent of side.
func (r *referee) forfeit(rec GameRecord, side movegen.Color, reason string) GameRecord {
	rec.Result, rec.Reason = game.WhiteWins, reason
	if side == movegen.White {
		rec.Result = game.BlackWins
	}
	return rec
}

// adjudicate applies score adjudication after side's move; it reports true
// when it ended the game.
func (r *referee) adjudicate(agree *[2]int, side movegen.Color, reply MoveReply, rec *GameRecord) bool {
	s, n := r.cfg.AdjudicateScore, r.cfg.AdjudicateMoves
	if s <= 0 || n <= 0 {
		return false
	}
	// agree[c] counts side c's consecutive claims that White is winning
	// (positive) or losing (negative), from White's point of view.
	claim := 0
	if reply.ScoreOK && abs(reply.Score) >= s {
		claim = 1
		if (reply.Score > 0) != (side == movegen.White) {
			claim = -1
		}
	}
	switch {
	case claim == 0:
		agree[side] = 0
	case agree[side]*claim > 0:
		agree[side] += claim
	default:
		agree[side] = claim
	}
	a, b := agree[0], agree[1]
	if abs(a) >= n && abs(b) >= n && a*b > 0 {
		rec.Result = game.WhiteWins
		if a < 0 {
			rec.Result = game.BlackWins
		}
		rec.Reason = fmt.Sprintf("adjudicated: both engines agree for %d moves", n)
		return true
	}
	return false
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
