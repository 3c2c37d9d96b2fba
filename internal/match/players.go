package match

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"github.com/riodraughts/rio/internal/game"
	"github.com/riodraughts/rio/internal/movegen"
	"github.com/riodraughts/rio/internal/protocol/dxp"
	"github.com/riodraughts/rio/internal/protocol/hub"
	"github.com/rs/zerolog"
)

// A Player is one engine as the referee sees it.
type Player interface {
	Name() string
	// NewGame prepares for a game of variant v from start, the player
	// having colour me.
	NewGame(ctx context.Context, start movegen.Position, me movegen.Color, tc TimeControl) error
	// Move asks for a move in g's current position; the player learns the
	// opponent's moves from g. left is the player's clock before the
	// increment of this move is credited (TimeControl with a clock).
	Move(ctx context.Context, g *game.Game, left time.Duration) (MoveReply, error)
	// GameOver tells the player the game ended with r.
	GameOver(ctx context.Context, g *game.Game, r game.Result)
	Close() error
}

// MoveReply is a move with the engine's last score for it (hundredths of
// a man from its side; ok false when it gave none).
type MoveReply struct {
	Move    movegen.Move
	Score   int
	ScoreOK bool
}

// Failure kinds the referee counts per engine.
var (
	ErrCrash   = errors.New("engine crashed or closed its connection")
	ErrIllegal = errors.New("illegal move")
	ErrTimeout = errors.New("time forfeit")
)

// NewPlayer makes the player an engine spec names: "dxp:HOST:PORT" for a
// DXP follower, anything else a command line starting a Hub engine.
func NewPlayer(ctx context.Context, spec, name string, v *movegen.Variant, params []string, log zerolog.Logger) (Player, error) {
	if addr, ok := strings.CutPrefix(spec, "dxp:"); ok {
		p, err := dxp.Dial(ctx, addr, v, "Rio match", log)
		if err != nil {
			return nil, err
		}
		return &dxpPlayer{p: p, v: v, name: name}, nil
	}
	return startHubPlayer(ctx, spec, name, v, params, log)
}

// splitCommand splits a command line on spaces, keeping "quoted parts".
func splitCommand(s string) ([]string, error) {
	var out []string
	var cur strings.Builder
	inQuote, have := false, false
	for _, r := range s {
		switch {
		case r == '"':
			inQuote, have = !inQuote, true
		case r == ' ' && !inQuote:
			if have {
				out = append(out, cur.String())
				cur.Reset()
				have = false
			}
		default:
			cur.WriteRune(r)
			have = true
		}
	}
	if inQuote {
		return nil, fmt.Errorf("unterminated quote in %q", s)
	}
	if have {
		out = append(out, cur.String())
	}
	if len(out) == 0 {
		return nil, errors.New("empty engine command")
	}
	return out, nil
}

// hubPlayer is a Hub engine process.
type hubPlayer struct {
	name  string
	v     *movegen.Variant
	cmd   *exec.Cmd
	in    io.WriteCloser
	lines chan string
	start movegen.Position
	tc    TimeControl
	log   zerolog.Logger
}

func startHubPlayer(ctx context.Context, command, name string, v *movegen.Variant, params []string, log zerolog.Logger) (*hubPlayer, error) {
	argv, err := splitCommand(command)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting %q: %w", command, err)
	}
	h := &hubPlayer{name: name, v: v, cmd: cmd, in: in, lines: make(chan string, 256), log: log}
	go func() {
		sc := bufio.NewScanner(out)
		sc.Buffer(make([]byte, 1<<16), 1<<20)
		for sc.Scan() {
			h.lines <- sc.Text()
		}
		close(h.lines)
	}()
	if err := h.send("hub"); err != nil {
		return nil, err
	}
	id, err := h.expect(ctx, "wait", 30*time.Second)
	if err != nil {
		h.Close()
		return nil, fmt.Errorf("%q: %w", command, err)
	}
	for _, l := range id {
		if rest, ok := strings.CutPrefix(l, "id "); ok && h.name == "" {
			if line, err := hub.ParseLine("id " + rest); err == nil {
				h.name, _ = line.Get("name")
			}
		}
	}
	if h.name == "" {
		h.name = argv[0]
	}
	cmds := append([]string{"set-param name=variant value=" + v.Name}, params...)
	for _, c := range append(cmds, "init") {
		if err := h.send(c); err != nil {
			return nil, err
		}
	}
	if _, err := h.expect(ctx, "ready", 60*time.Second); err != nil {
		h.Close()
		return nil, err
	}
	return h, nil
}

func (h *hubPlayer) Name() string { return h.name }

func (h *hubPlayer) send(line string) error {
	h.log.Debug().Str("engine", h.name).Str("line", line).Msg("match >")
	if _, err := io.WriteString(h.in, line+"\n"); err != nil {
		return fmt.Errorf("%w: %v", ErrCrash, err)
	}
	return nil
}

// expect reads lines until one starting with prefix; it returns the lines
// before it.
func (h *hubPlayer) expect(ctx context.Context, prefix string, timeout time.Duration) ([]string, error) {
	var seen []string
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	for {
		select {
		case l, ok := <-h.lines:
			if !ok {
				return seen, ErrCrash
			}
			if strings.HasPrefix(l, prefix) {
				return append(seen, l), nil
			}
			seen = append(seen, l)
		case <-timer.C:
			return seen, ErrTimeout
		case <-ctx.Done():
			return seen, ctx.Err()
		}
	}
}

func (h *hubPlayer) NewGame(_ context.Context, start movegen.Position, _ movegen.Color, tc TimeControl) error {
	h.start, h.tc = start, tc
	return h.send("new-game")
}

func (h *hubPlayer) Move(ctx context.Context, g *game.Game, left time.Duration) (MoveReply, error) {
	moves := make([]string, g.Ply())
	for i, m := range g.Moves() {
		moves[i] = h.v.FormatMove(m)
	}
	pos := fmt.Sprintf("pos pos=%s", h.v.FormatHub(&h.start))
	if len(moves) > 0 {
		pos += fmt.Sprintf(` moves="%s"`, strings.Join(moves, " "))
	}
	level := h.tc.hubLevel(left)
	for _, l := range []string{pos, level, "go think"} {
		if err := h.send(l); err != nil {
			return MoveReply{}, err
		}
	}
	wait := h.tc.wait(left)
	lines, err := h.expect(ctx, "done", wait)
	if err != nil {
		return MoveReply{}, err
	}
	var reply MoveReply
	for _, l := range lines {
		if strings.HasPrefix(l, "info ") {
			if line, err := hub.ParseLine(l); err == nil {
				if s, ok := line.Get("score"); ok {
					if f, err := strconv.ParseFloat(s, 64); err == nil {
						reply.Score, reply.ScoreOK = int(f*100), true
					}
				}
			}
		}
	}
	done, err := hub.ParseLine(lines[len(lines)-1])
	text, _ := done.Get("move")
	if err != nil || text == "" {
		return reply, fmt.Errorf("%w: unreadable answer %q", ErrIllegal, lines[len(lines)-1])
	}
	p := g.Position()
	if reply.Move, err = h.v.ParseMove(&p, text); err != nil {
		return reply, fmt.Errorf("%w: %v", ErrIllegal, err)
	}
	return reply, nil
}

func (h *hubPlayer) GameOver(context.Context, *game.Game, game.Result) {}

func (h *hubPlayer) Close() error {
	h.send("quit")
	h.in.Close()
	done := make(chan error, 1)
	go func() { done <- h.cmd.Wait() }()
	select {
	case err := <-done:
		return err
	case <-time.After(3 * time.Second):
		h.cmd.Process.Kill()
		return <-done
	}
}

// dxpPlayer is a DXP follower reached over TCP; the referee plays its
// opponent's side of the protocol.
type dxpPlayer struct {
	p    *dxp.Peer
	v    *movegen.Variant
	name string
	me   movegen.Color
	tc   TimeControl
	sent int // plies of the game the peer knows
}

func (d *dxpPlayer) Name() string {
	if d.name != "" {
		return d.name
	}
	if d.p.Follower != "" {
		return d.p.Follower
	}
	return "dxp"
}

func (d *dxpPlayer) NewGame(ctx context.Context, start movegen.Position, me movegen.Color, tc TimeControl) error {
	d.me, d.tc, d.sent = me, tc, 0
	if err := d.p.Propose(ctx, start, me, tc.dxp()); err != nil {
		if errors.Is(err, dxp.ErrRefused) {
			return err
		}
		return fmt.Errorf("%w: %v", ErrCrash, err)
	}
	return nil
}

func (d *dxpPlayer) Move(ctx context.Context, g *game.Game, left time.Duration) (MoveReply, error) {
	// Tell the follower the opponent's moves it has not seen.
	for _, m := range g.Moves()[d.sent:] {
		if err := d.p.SendMove(m); err != nil {
			return MoveReply{}, fmt.Errorf("%w: %v", ErrCrash, err)
		}
	}
	d.sent = g.Ply()
	m, err := d.p.ReceiveMove(ctx, g, d.tc.wait(left))
	if err != nil {
		var ended dxp.ErrPeerEnded
		switch {
		case errors.As(err, &ended):
			return MoveReply{}, fmt.Errorf("%w: %v", ErrIllegal, err)
		case errors.Is(err, dxp.ErrPeerSilent):
			return MoveReply{}, fmt.Errorf("%w: %v", ErrTimeout, err)
		case errors.Is(err, dxp.ErrPeerGone):
			return MoveReply{}, fmt.Errorf("%w: %v", ErrCrash, err)
		}
		return MoveReply{}, fmt.Errorf("%w: %v", ErrIllegal, err)
	}
	d.sent = g.Ply() + 1
	return MoveReply{Move: m}, nil
}

func (d *dxpPlayer) GameOver(ctx context.Context, g *game.Game, r game.Result) {
	// The referee speaks as the follower's opponent.
	reason := 2
	switch {
	case r == game.Ongoing:
		reason = 0
	case r == game.WhiteWins && d.me == movegen.Black, r == game.BlackWins && d.me == movegen.White:
		reason = 3
	case r != game.Draw:
		reason = 1
	}
	d.p.End(ctx, reason, false)
}

func (d *dxpPlayer) Close() error {
	d.p.End(context.Background(), 0, true)
	d.p.Close()
	return nil
}
