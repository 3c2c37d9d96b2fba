package cli

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"os"
	"strings"
	"time"

	"github.com/riodraughts/rio/internal/book"
	"github.com/riodraughts/rio/internal/egdb"
	"github.com/riodraughts/rio/internal/game"
	"github.com/riodraughts/rio/internal/match"
	"github.com/riodraughts/rio/internal/movegen"
	"github.com/riodraughts/rio/internal/protocol/dxp"
	"github.com/riodraughts/rio/internal/search"
)

func runDXP(ctx context.Context, env *Env, args []string) error {
	var co common
	fs := newFlags(lookup("dxp"), env, &co)
	listen := fs.String("listen", "", "listen on ADDR (host:port, e.g. :27531) and follow the games peers propose")
	connect := fs.String("connect", "", "connect to ADDR and initiate a match")
	initiator := fs.Bool("initiator", false, "with --listen: initiate the games instead of following")
	follower := fs.Bool("follower", false, "with --connect: follow the peer's games instead of initiating")
	games := fs.Int("games", 2, "initiator: games to play")
	minutes := fs.Int("minutes", 5, "initiator: minutes per player per game (0: play fast)")
	moves := fs.Int("moves", 0, "initiator: moves per time period (0: the whole game)")
	openings := fs.String("openings", "", "initiator: start positions, one per line (each played with both colours)")
	pdnOut := fs.String("pdn", "", "write the games to this PDN file")
	name := fs.String("name", "Rio", "name sent to the peer")
	threads := fs.Int("threads", 1, "search threads")
	hash := fs.Int("hash", 64, "transposition table size in MiB")
	fast := fs.Int("fast-move", 200, "milliseconds per move in games of 0 minutes")
	drawRules := fs.String("draw-rules", "all", "draw rules of the games: "+strings.Join(game.RuleSetNames, ", ")+" (Rio claims a draw only by these)")
	bookFile := fs.String("book", "builtin", "the opening book Rio plays from while the game is in it: builtin, none, or a file made by engine book build")
	bookMargin := fs.Int("book-margin", book.DefaultMargin, "a book move drawn among those within this many hundredths of a man of the best")
	egdbPieces := fs.Int("egdb-pieces", egdb.DefaultPieces, fmt.Sprintf("endgame tables up to this many pieces (0: none; above %d they come from --egdb-path)", egdb.DefaultPieces))
	egdbPath := fs.String("egdb-path", "", "directory of endgame tables made by engine egdb build")
	var ef evalFlags
	addEvalFlags(fs, &ef)
	v, err := parse(fs, args, &co)
	if err != nil {
		return err
	}
	switch {
	case (*listen == "") == (*connect == ""):
		return usagef("give exactly one of --listen ADDR and --connect ADDR")
	case *games < 1 || *games > 100000:
		return usagef("--games %d out of range", *games)
	case *minutes < 0 || *minutes > 999 || *moves < 0 || *moves > 999:
		return usagef("--minutes and --moves must be 0-999")
	case *fast < 1 || *fast > 600000:
		return usagef("--fast-move %d out of range", *fast)
	}
	rules, err := game.ParseRuleSet(*drawRules)
	if err != nil {
		return usagef("--draw-rules: %v", err)
	}
	sf := searchFlags{depth: 1, threads: *threads, hash: *hash}
	if _, err := sf.limits(); err != nil {
		return err
	}
	evalFn, err := ef.evaluator(v)
	if err != nil {
		return err
	}
	engine := search.NewEngine(*hash, env.Log)
	engine.Eval = evalFn
	if engine.Tables, err = openTables(v, *egdbPieces, *egdbPath); err != nil {
		return err
	}
	cfg := &dxp.Config{Variant: v, Name: *name, Engine: engine, Threads: *threads,
		FastMove: time.Duration(*fast) * time.Millisecond, DrawRules: rules, Log: env.Log}
	if cfg.Book, err = loadBook(*bookFile, v); err != nil {
		return err
	}
	if *bookMargin < 0 || *bookMargin > 100 {
		return usagef("--book-margin %d out of range 0-100", *bookMargin)
	}
	cfg.BookMargin, cfg.Rand = *bookMargin, rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 0x647870))
	starts := []match.Opening{{Name: "start", Position: v.Start()}}
	if *openings != "" {
		if starts, err = match.LoadOpenings(*openings, v); err != nil {
			return usageError{err}
		}
	}
	var pdn *os.File
	if *pdnOut != "" {
		if pdn, err = os.Create(*pdnOut); err != nil {
			return usageError{err}
		}
		defer pdn.Close()
	}
	m := &dxpMatch{env: env, cfg: cfg, v: v, games: *games, tc: dxp.TimeControl{Minutes: *minutes, Moves: *moves}, starts: starts, pdn: pdn}

	if *connect != "" {
		conn, err := (&net.Dialer{Timeout: 10 * time.Second}).DialContext(ctx, "tcp", *connect)
		if err != nil {
			return err
		}
		if *follower {
			return dxp.ServeFollower(ctx, conn, cfg, m.followed)
		}
		return m.initiate(ctx, conn)
	}
	ln, err := (&net.ListenConfig{}).Listen(ctx, "tcp", *listen)
	if err != nil {
		return usageError{err}
	}
	defer ln.Close()
	go func() { <-ctx.Done(); ln.Close() }()
	fmt.Fprintf(env.Stderr, "engine dxp: listening on %s\n", ln.Addr())
	for {
		conn, err := ln.Accept()
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			return err
		}
		env.Log.Info().Str("peer", conn.RemoteAddr().String()).Msg("dxp: peer connected")
		if *initiator {
			err = m.initiate(ctx, conn)
		} else {
			err = dxp.ServeFollower(ctx, conn, cfg, m.followed)
		}
		if err != nil && !errors.Is(err, context.Canceled) {
			env.Log.Warn().Err(err).Msg("dxp: session ended")
		}
	}
}

// dxpMatch plays or follows the games of one DXP session and reports them.
type dxpMatch struct {
	env    *Env
	cfg    *dxp.Config
	v      *movegen.Variant
	games  int
	tc     dxp.TimeControl
	starts []match.Opening
	pdn    *os.File
	played int
	score  [3]int // Rio's wins, draws, losses
}

// initiate plays the match as initiator: each opening twice, colours
// swapped.
func (m *dxpMatch) initiate(ctx context.Context, conn net.Conn) error {
	d := dxp.NewPeer(conn, m.v, m.cfg.Name, m.env.Log)
	defer d.Close()
	for i := range m.games {
		op := m.starts[(i/2)%len(m.starts)]
		me := movegen.Color(i % 2)
		r, err := dxp.PlayGame(ctx, d, m.cfg, dxp.GameSpec{Start: op.Position, Me: me, TimeControl: m.tc}, i == m.games-1)
		if err != nil {
			return fmt.Errorf("game %d: %w", i+1, err)
		}
		m.report(r, me, op.Name)
		if r.PeerStops && i < m.games-1 {
			fmt.Fprintln(m.env.Stdout, "peer asked to stop")
			break
		}
	}
	m.summary()
	return nil
}

// followed reports a game played as follower.
func (m *dxpMatch) followed(r dxp.Result) { m.report(r, r.Me, "") }

// report prints one game and appends it to the PDN file.
func (m *dxpMatch) report(r dxp.Result, me movegen.Color, opening string) {
	m.played++
	if r.Game == nil {
		return
	}
	white, black := m.cfg.Name, r.Peer
	if me == movegen.Black {
		white, black = r.Peer, m.cfg.Name
	}
	{
		switch {
		case r.Result == game.Draw:
			m.score[1]++
		case r.Result == game.WhiteWins && me == movegen.White, r.Result == game.BlackWins && me == movegen.Black:
			m.score[0]++
		case r.Result != game.Ongoing:
			m.score[2]++
		}
	}
	fmt.Fprintf(m.env.Stdout, "game=%d white=%q black=%q opening=%q plies=%d result=%s reason=%q\n",
		m.played, white, black, opening, r.Game.Ply(), r.Result.PDN(), r.Reason)
	if m.pdn != nil {
		r.Game.Tags.Set("Event", "DXP match")
		r.Game.Tags.Set("Round", fmt.Sprint(m.played))
		r.Game.Tags.Set("White", white)
		r.Game.Tags.Set("Black", black)
		r.Game.Tags.Set("Date", time.Now().Format("2006.01.02"))
		if err := r.Game.WritePDN(m.pdn, r.Result); err != nil {
			m.env.Log.Error().Err(err).Msg("writing the PDN file")
		}
	}
}

func (m *dxpMatch) summary() {
	fmt.Fprintf(m.env.Stdout, "score %s: +%d =%d -%d\n", m.cfg.Name, m.score[0], m.score[1], m.score[2])
}
