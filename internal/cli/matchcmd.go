package cli

import (
	"context"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/riodraughts/rio/internal/game"
	"github.com/riodraughts/rio/internal/match"
	"github.com/riodraughts/rio/internal/movegen"
)

// listFlag collects a repeatable flag.
type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, ", ") }
func (l *listFlag) Set(s string) error { *l = append(*l, s); return nil }

func runMatch(ctx context.Context, env *Env, args []string) error {
	var co common
	fs := newFlags(lookup("match"), env, &co)
	self, _ := os.Executable()
	defaultEngine := fmt.Sprintf("%q hub", self)
	e1 := fs.String("engine1", defaultEngine, "first engine: a Hub command line, or dxp:HOST:PORT")
	e2 := fs.String("engine2", defaultEngine, "second engine, as --engine1")
	n1 := fs.String("name1", "", "display name of the first engine (default: what it says)")
	n2 := fs.String("name2", "", "display name of the second engine")
	var params listFlag
	fs.Var(&params, "param", "Hub parameter for both engines, name=value (repeatable)")
	var params1, params2 listFlag
	fs.Var(&params1, "param1", "Hub parameter for the first engine only, name=value (repeatable)")
	fs.Var(&params2, "param2", "Hub parameter for the second engine only, name=value (repeatable)")
	endgames := fs.Int("endgames", 0, "start from generated balanced endgames of at most this many pieces (5-12) instead of openings")
	games := fs.Int("games", 100, "games to play (each opening twice, colours swapped)")
	openings := fs.String("openings", "", "start positions, one FEN per line (default: the built-in ballots; generated for portuguese)")
	tcFlag := fs.String("tc", "", "clock per player: BASE+INC in seconds (e.g. 10+0.1)")
	tc2Flag := fs.String("tc2", "", "with --tc: the second engine's own clock, BASE+INC (a time-odds match)")
	movetime := fs.Float64("movetime", 0, "seconds per move instead of a clock")
	depth := fs.Int("depth", 0, "fixed depth per move instead of a clock")
	nodes := fs.Int64("nodes", 0, "fixed nodes per move instead of a clock")
	concurrency := fs.Int("concurrency", 1, "games played at once")
	pdnOut := fs.String("pdn", "", "write every game to this PDN file")
	sprt := fs.String("sprt", "", `stop when decided: "elo0=0 elo1=5 alpha=0.05 beta=0.05"`)
	playOn := fs.Bool("sprt-play-on", false, "with --sprt: play all --games and report the test's state, instead of stopping when it decides")
	adjScore := fs.Float64("adjudicate-score", 0, "adjudicate a win when both engines agree one side is this many men up...")
	adjMoves := fs.Int("adjudicate-moves", 0, "...for this many moves each (0: no score adjudication)")
	maxPlies := fs.Int("max-plies", 400, "a game still going after this many plies is a draw")
	margin := fs.Int("time-margin", 100, "milliseconds of lateness tolerated before a time forfeit")
	drawRules := fs.String("draw-rules", "all", "draw rules the referee applies: "+strings.Join(game.RuleSetNames, ", "))
	v, err := parse(fs, args, &co)
	if err != nil {
		return err
	}
	rules, err := game.ParseRuleSet(*drawRules)
	if err != nil {
		return usagef("--draw-rules: %v", err)
	}
	cfg := match.Config{Variant: v, Games: *games, Concurrency: *concurrency, MaxPlies: *maxPlies,
		TimeMargin: time.Duration(*margin) * time.Millisecond, Log: env.Log,
		AdjudicateScore: int(*adjScore * 100), AdjudicateMoves: *adjMoves, DrawRules: rules}
	switch {
	case *games < 1 || *games > 1000000:
		return usagef("--games %d out of range", *games)
	case *concurrency < 1 || *concurrency > 256:
		return usagef("--concurrency %d out of range 1-256", *concurrency)
	case *maxPlies < 10:
		return usagef("--max-plies %d is too small", *maxPlies)
	case *adjScore < 0 || *adjMoves < 0 || (*adjScore > 0) != (*adjMoves > 0):
		return usagef("--adjudicate-score and --adjudicate-moves go together, both positive")
	case *margin < 0:
		return usagef("--time-margin must be >= 0")
	}
	limits := 0
	if *tcFlag != "" {
		limits++
		if cfg.TC, err = match.ParseTimeControl(*tcFlag); err != nil {
			return usageError{err}
		}
	}
	if *movetime > 0 {
		limits++
		cfg.TC.MoveTime = time.Duration(*movetime * float64(time.Second))
	}
	if *depth > 0 {
		limits++
		cfg.TC.Depth = *depth
	}
	if *nodes > 0 {
		limits++
		cfg.TC.Nodes = *nodes
	}
	switch {
	case limits == 0:
		cfg.TC, _ = match.ParseTimeControl("10+0.1")
	case limits > 1:
		return usagef("give one of --tc, --movetime, --depth, --nodes")
	case *movetime < 0 || *depth < 0 || *nodes < 0:
		return usagef("limits must be positive")
	}
	if *tc2Flag != "" {
		if *tcFlag == "" {
			return usagef("--tc2 needs --tc")
		}
		tc2, err := match.ParseTimeControl(*tc2Flag)
		if err != nil {
			return usagef("--tc2: %v", err)
		}
		cfg.Engines[1].TC = &tc2
	}
	for k, list := range [][]string{params, params1, params2} {
		for _, p := range list {
			name, value, ok := strings.Cut(p, "=")
			if !ok || name == "" {
				return usagef("--param %q: want name=value", p)
			}
			set := fmt.Sprintf("set-param name=%s value=%s", name, value)
			for e := range cfg.Engines {
				if k == 0 || k == e+1 {
					cfg.Engines[e].Params = append(cfg.Engines[e].Params, set)
				}
			}
		}
	}
	cfg.Engines[0].Spec, cfg.Engines[0].Name = *e1, *n1
	cfg.Engines[1].Spec, cfg.Engines[1].Name = *e2, *n2
	if *playOn && *sprt == "" {
		return usagef("--sprt-play-on needs --sprt")
	}
	if *sprt != "" {
		t, err := match.ParseSPRT(*sprt)
		if err != nil {
			return usageError{err}
		}
		cfg.SPRT = &t
		cfg.SPRTPlayOn = *playOn
	}
	switch {
	case *endgames != 0 && *openings != "":
		return usagef("give --openings or --endgames, not both")
	case *endgames != 0:
		if *endgames < 5 || *endgames > 12 {
			return usagef("--endgames %d out of range 5-12", *endgames)
		}
		cfg.Openings = match.GenerateEndgames(v, (*games+1)/2, *endgames, 1)
	case *openings != "":
		if cfg.Openings, err = match.LoadOpenings(*openings, v); err != nil {
			return usageError{err}
		}
	case v == movegen.Portuguese:
		cfg.Openings = match.GenerateOpenings(v, (*games+1)/2, 6, 30, 1)
	default:
		cfg.Openings = match.Ballots(v)
	}
	if *pdnOut != "" {
		f, err := os.Create(*pdnOut)
		if err != nil {
			return usageError{err}
		}
		defer f.Close()
		cfg.PDN = f
	}
	live := isTerminal(env.Stderr)
	// Games the referee let go on past a draw of the variant's full rules,
	// and each engine's losses among them.
	pastDraw, lostPast := 0, [2]int{}
	cfg.OnGame = func(rec match.GameRecord, st match.Status) {
		white, black := st.Names[rec.White], st.Names[1-rec.White]
		past := ""
		if rec.RuleDraw >= 0 {
			past = fmt.Sprintf(" rule-draw=%d", rec.RuleDraw)
			pastDraw++
			switch rec.Result {
			case game.WhiteWins:
				lostPast[1-rec.White]++
			case game.BlackWins:
				lostPast[rec.White]++
			}
		}
		fmt.Fprintf(env.Stdout, "game=%d white=%q black=%q opening=%q plies=%d result=%s reason=%q%s\n",
			rec.Number, white, black, rec.Opening, rec.Game.Ply(), rec.Result.PDN(), rec.Reason, past)
		if live {
			line := fmt.Sprintf("%d/%d %s", st.Played, st.Total, st.Score)
			if cfg.SPRT != nil {
				line += " | " + cfg.SPRT.String(st.Score)
			}
			fmt.Fprintf(env.Stderr, "\r\033[K%s", line)
		}
	}
	env.Log.Info().Str("engine1", *e1).Str("engine2", *e2).Int("games", *games).Str("tc", cfg.TC.String()).Str("tc2", *tc2Flag).Msg("match")
	st, err := match.Run(ctx, cfg)
	if live {
		fmt.Fprintln(env.Stderr)
	}
	if err != nil {
		return err
	}
	tcs := cfg.TC.String()
	if cfg.Engines[1].TC != nil {
		tcs += " against " + cfg.Engines[1].TC.String()
	}
	fmt.Fprintf(env.Stdout, "match %s: %d of %d games, %s, %s\n", v.Name, st.Played, st.Total, tcs, strings.Join(st.Names[:], " vs "))
	for k := range 2 {
		fmt.Fprintf(env.Stdout, "engine%d %s: %s\n", k+1, st.Names[k], st.Fails[k])
	}
	for k := range 2 {
		fmt.Fprintf(env.Stdout, "time engine%d %s: %s\n", k+1, st.Names[k], st.Clock[k])
	}
	if rules != game.AllRules {
		fmt.Fprintf(env.Stdout, "past a rule draw (referee: %s): %d games; lost after it: engine1 %d, engine2 %d\n", rules, pastDraw, lostPast[0], lostPast[1])
	}
	fmt.Fprintf(env.Stdout, "score %s: %s\n", st.Names[0], st.Score)
	if cfg.SPRT != nil {
		fmt.Fprintln(env.Stdout, cfg.SPRT.String(st.Score))
	}
	return nil
}
