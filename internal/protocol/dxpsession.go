package protocol

import (
	"context"
	"errors"
	"fmt"
	"net"
	"slices"
	"sync"
	"time"

	"github.com/riodraughts/rio/internal/game"
	"github.com/riodraughts/rio/internal/movegen"
	"github.com/riodraughts/rio/internal/search"
	"github.com/rs/zerolog"
)

// DXPConfig configures Rio as a DXP player.
type DXPConfig struct {
	Variant *movegen.Variant
	Name    string
	Engine  *search.Engine
	Threads int
	// FastMove is the time per move in games announced with 0 minutes
	// (hosts round short games down to 0).
	FastMove time.Duration
	// Patience is how long to wait for the peer beyond its clock before
	// giving the game up (a peer that never answers).
	Patience time.Duration
	Log      zerolog.Logger
}

func (c *DXPConfig) fastMove() time.Duration {
	if c.FastMove > 0 {
		return c.FastMove
	}
	return 200 * time.Millisecond
}

func (c *DXPConfig) patience() time.Duration {
	if c.Patience > 0 {
		return c.Patience
	}
	return 60 * time.Second
}

// dxpIn is one frame read: a message, or why it is not one.
type dxpIn struct {
	msg  DXPMessage
	text string
	err  error // a bad message (the connection goes on) or, with eof, the end
	eof  bool
}

// dxpConn is one DXP connection: a goroutine turns frames into messages,
// and writes go through send.
type dxpConn struct {
	c    net.Conn
	in   chan dxpIn
	log  zerolog.Logger
	wmu  sync.Mutex
	done chan struct{}
}

func newDXPConn(c net.Conn, log zerolog.Logger) *dxpConn {
	d := &dxpConn{c: c, in: make(chan dxpIn, 16), log: log, done: make(chan struct{})}
	go func() {
		defer close(d.in)
		f := NewFramer(c)
		for {
			text, err := f.Next()
			if err != nil {
				select {
				case d.in <- dxpIn{err: err, eof: true}:
				case <-d.done:
				}
				return
			}
			m, err := ParseDXP(text)
			select {
			case d.in <- dxpIn{msg: m, text: text, err: err}:
			case <-d.done:
				return
			}
		}
	}()
	return d
}

// close ends the connection and its reader.
func (d *dxpConn) close() {
	select {
	case <-d.done:
	default:
		close(d.done)
	}
	d.c.Close()
}

func (d *dxpConn) send(m DXPMessage) error {
	d.wmu.Lock()
	defer d.wmu.Unlock()
	d.log.Debug().Str("frame", m.Format()).Msg("dxp >")
	d.c.SetWriteDeadline(time.Now().Add(30 * time.Second))
	return WriteDXP(d.c, m)
}

// ErrPeerGone is the peer closing the connection; ErrPeerSilent is the
// peer not answering in time.
var (
	ErrPeerGone   = errors.New("peer gone")
	ErrPeerSilent = errors.New("peer silent")
)

// recv waits up to timeout for the next message; unreadable messages are
// logged and skipped.
func (d *dxpConn) recv(ctx context.Context, timeout time.Duration) (DXPMessage, error) {
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	for {
		select {
		case in, ok := <-d.in:
			if !ok || in.eof {
				if in.err != nil && !errors.Is(in.err, net.ErrClosed) {
					return nil, fmt.Errorf("%w: %v", ErrPeerGone, in.err)
				}
				return nil, ErrPeerGone
			}
			if in.err != nil {
				d.log.Warn().Err(in.err).Str("frame", clip(in.text)).Msg("dxp: message ignored")
				continue
			}
			d.log.Debug().Str("frame", in.text).Msg("dxp <")
			return in.msg, nil
		case <-timer.C:
			return nil, fmt.Errorf("%w: no message for %v", ErrPeerSilent, timeout)
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

// DXPTimeControl is a game's clock: minutes per player and moves per
// period (0: the whole game).
type DXPTimeControl struct{ Minutes, Moves int }

// dxpGame is one game in progress.
type dxpGame struct {
	cfg   *DXPConfig
	d     *dxpConn
	g     *game.Game
	me    movegen.Color
	tc    DXPTimeControl
	clock time.Duration
	moves int // moves I played
}

// DXPResult is how a game ended.
type DXPResult struct {
	Game   *game.Game
	Result game.Result
	Reason string
	// PeerStops: the peer asked to stop after this game.
	PeerStops bool
	// Peer is the other program's name from GAMEREQ or GAMEACC.
	Peer string
	// Me is the colour Rio played.
	Me movegen.Color
}

func (gm *dxpGame) limits() search.Limits {
	if gm.tc.Minutes == 0 {
		return search.Limits{MoveTime: gm.cfg.fastMove()}
	}
	lim := search.Limits{HasClock: true, Time: gm.clock}
	if gm.tc.Moves > 0 {
		lim.MovesToGo = gm.tc.Moves - gm.moves%gm.tc.Moves
	}
	return lim
}

// resultFromMyView turns a GAMEEND reason sent by side who into a result.
func resultFromView(reason int, who movegen.Color) game.Result {
	switch reason {
	case 1: // who loses
		if who == movegen.White {
			return game.BlackWins
		}
		return game.WhiteWins
	case 2:
		return game.Draw
	case 3:
		if who == movegen.White {
			return game.WhiteWins
		}
		return game.BlackWins
	}
	return game.Ongoing
}

// reasonFor is the GAMEEND reason side who sends for result r.
func reasonFor(r game.Result, who movegen.Color) int {
	switch {
	case r == game.Draw:
		return 2
	case r == game.WhiteWins && who == movegen.White, r == game.BlackWins && who == movegen.Black:
		return 3
	case r == game.Ongoing:
		return 0
	}
	return 1
}

// play plays a game to its end; stop is the stop code this side sends or
// answers with when the game ends.
func (gm *dxpGame) play(ctx context.Context, stop int) (DXPResult, error) {
	log := gm.cfg.Log
	gm.clock = time.Duration(gm.tc.Minutes) * time.Minute
	for {
		pos := gm.g.Position()
		if pos.Side == gm.me {
			if o := gm.g.Outcome(); o.Result != game.Ongoing {
				// Over by the rules on my turn: I say so and wait for the
				// acknowledgement.
				if err := gm.d.send(GameEnd{Reason: reasonFor(o.Result, gm.me), Stop: stop}); err != nil {
					return DXPResult{Game: gm.g, Result: o.Result, Reason: o.Reason}, err
				}
				ack, err := gm.waitEnd(ctx)
				return DXPResult{Game: gm.g, Result: o.Result, Reason: o.Reason, PeerStops: ack}, err
			}
			r, ended, err := gm.myMove(ctx, stop)
			if ended || err != nil {
				return r, err
			}
			continue
		}
		timeout := gm.cfg.patience()
		if gm.tc.Minutes > 0 {
			timeout += time.Duration(gm.tc.Minutes) * time.Minute
		}
		m, err := gm.d.recv(ctx, timeout)
		if err != nil {
			return DXPResult{Game: gm.g, Reason: err.Error()}, err
		}
		switch m := m.(type) {
		case DXPMove:
			mv, err := gm.match(m)
			if err != nil {
				log.Error().Err(err).Str("move", m.Format()).Msg("dxp: illegal move from the peer")
				gm.d.send(GameEnd{Reason: 0, Stop: stop})
				return DXPResult{Game: gm.g, Result: game.Ongoing, Reason: "illegal move from the peer: " + err.Error()}, nil
			}
			gm.g.Play(mv)
		case GameEnd:
			r := gm.peerEnded(m, stop)
			return r, nil
		case BackReq:
			gm.back(m)
		case Chat:
			log.Info().Str("text", m.Text).Msg("dxp chat")
		default:
			log.Warn().Str("frame", m.Format()).Msg("dxp: unexpected message during a game")
		}
	}
}

// myMove searches and sends a move; messages that arrive meanwhile are
// handled (a GAMEEND out of turn stops the search and ends the game).
func (gm *dxpGame) myMove(ctx context.Context, stop int) (DXPResult, bool, error) {
	t0 := time.Now()
	s := gm.cfg.Engine.Start(ctx, gm.g, gm.limits(), search.Options{Threads: gm.cfg.Threads}, nil)
	for {
		select {
		case <-s.Done():
			res := s.Wait()
			used := time.Since(t0)
			gm.clock -= used
			gm.moves++
			if gm.tc.Moves > 0 && gm.moves%gm.tc.Moves == 0 {
				gm.clock += time.Duration(gm.tc.Minutes) * time.Minute
			}
			if err := gm.d.send(gm.encode(res.Move, used)); err != nil {
				return DXPResult{Game: gm.g}, true, err
			}
			gm.g.Play(res.Move)
			return DXPResult{}, false, nil
		case in, ok := <-gm.d.in:
			if !ok || in.eof {
				s.Stop()
				s.Wait()
				return DXPResult{Game: gm.g, Reason: "peer gone"}, true, ErrPeerGone
			}
			if in.err != nil {
				gm.cfg.Log.Warn().Err(in.err).Msg("dxp: message ignored")
				continue
			}
			switch m := in.msg.(type) {
			case GameEnd:
				s.Stop()
				s.Wait()
				return gm.peerEnded(m, stop), true, nil
			case Chat:
				gm.cfg.Log.Info().Str("text", m.Text).Msg("dxp chat")
			case BackReq:
				gm.d.send(BackAcc{Code: 2}) // not while thinking
			default:
				gm.cfg.Log.Warn().Str("frame", in.text).Msg("dxp: unexpected message while thinking")
			}
		}
	}
}

// peerEnded answers a GAMEEND from the peer (agreeing to stop when it
// asks to).
func (gm *dxpGame) peerEnded(m GameEnd, stop int) DXPResult {
	gm.d.send(GameEnd{Reason: 0, Stop: max(stop, m.Stop)})
	peer := gm.me.Other()
	r := DXPResult{Game: gm.g, Result: resultFromView(m.Reason, peer), PeerStops: m.Stop == 1}
	r.Reason = fmt.Sprintf("the peer ended the game (reason %d)", m.Reason)
	if o := gm.g.Outcome(); o.Result != game.Ongoing {
		r.Result, r.Reason = o.Result, o.Reason // the rules decide
	}
	return r
}

// waitEnd waits for the peer's acknowledgement of our GAMEEND and reports
// whether it asks to stop.
func (gm *dxpGame) waitEnd(ctx context.Context) (bool, error) {
	for {
		m, err := gm.d.recv(ctx, gm.cfg.patience())
		if err != nil {
			return false, err
		}
		if e, ok := m.(GameEnd); ok {
			return e.Stop == 1, nil
		}
	}
}

// encode writes a legal move of the current position as a DXP MOVE.
func (gm *dxpGame) encode(m movegen.Move, used time.Duration) DXPMove {
	return encodeDXPMove(gm.g.Variant, m, used)
}

// encodeDXPMove writes m, played with used time, as a DXP MOVE in v's
// numbering, captured squares ascending.
func encodeDXPMove(v *movegen.Variant, m movegen.Move, used time.Duration) DXPMove {
	out := DXPMove{Seconds: min(int(used/time.Second), 9999), From: v.Numbering.Number(m.From()), To: v.Numbering.Number(m.To())}
	for b := m.Captured(); b != 0; b &= b - 1 {
		out.Captured = append(out.Captured, v.Numbering.Number(b.First()))
	}
	slices.Sort(out.Captured)
	return out
}

// match finds the legal move a DXP MOVE names (from, to, set of captured).
func (gm *dxpGame) match(m DXPMove) (movegen.Move, error) {
	v := gm.g.Variant
	from, to := v.Numbering.Square(m.From), v.Numbering.Square(m.To)
	if from == movegen.NoSquare || to == movegen.NoSquare {
		return movegen.NoMove, fmt.Errorf("square out of range in %s", m.Format())
	}
	var captured movegen.Bitboard
	for _, c := range m.Captured {
		s := v.Numbering.Square(c)
		if s == movegen.NoSquare {
			return movegen.NoMove, fmt.Errorf("captured square %d out of range", c)
		}
		captured |= s.Bit()
	}
	pos := gm.g.Position()
	var buf [movegen.MaxMoves]movegen.Move
	for _, l := range v.Generate(&pos, buf[:0]) {
		if l.From() == from && l.To() == to && l.Captured() == captured && captured.Count() == len(m.Captured) {
			return l, nil
		}
	}
	return movegen.NoMove, fmt.Errorf("no legal move %d-%d taking %v", m.From, m.To, m.Captured)
}

// back takes moves back to the position before side's n-th move.
func (gm *dxpGame) back(m BackReq) {
	start := gm.g.Start()
	target := 2*(m.Move-1) + int(m.Side) - int(start.Side)
	if m.Move < 1 || target < 0 || target > gm.g.Ply() {
		gm.d.send(BackAcc{Code: 2})
		return
	}
	for gm.g.Ply() > target {
		gm.g.Undo()
	}
	gm.d.send(BackAcc{Code: 0})
}

// acceptGame decides on a GAMEREQ: the start position, or a refusal code.
func (c *DXPConfig) acceptGame(req GameReq) (movegen.Position, int) {
	if req.Version != DXPVersion {
		return movegen.Position{}, AccWrongVersion
	}
	if req.Initial {
		return c.Variant.Start(), AccAccept
	}
	p, err := ParseDXPBoard(c.Variant, req.Side, req.Squares)
	if err != nil {
		c.Log.Warn().Err(err).Msg("dxp: game refused")
		return movegen.Position{}, AccNotThisGame
	}
	return p, AccAccept
}

// ServeDXPFollower plays, as follower, every game the peer proposes on
// conn until it asks to stop or goes away; onGame hears of each game.
func ServeDXPFollower(ctx context.Context, conn net.Conn, cfg *DXPConfig, onGame func(DXPResult)) error {
	d := newDXPConn(conn, cfg.Log)
	defer d.close()
	for {
		m, err := d.recv(ctx, cfg.patience()*5)
		if errors.Is(err, ErrPeerGone) || errors.Is(err, ErrPeerSilent) {
			return nil // the peer left: the listener takes the next one
		}
		if err != nil {
			return err
		}
		switch m := m.(type) {
		case GameReq:
			start, code := cfg.acceptGame(m)
			if err := d.send(GameAcc{Follower: cfg.Name, Code: code}); err != nil {
				return nil
			}
			if code != AccAccept {
				continue
			}
			gm := &dxpGame{cfg: cfg, d: d, g: game.New(cfg.Variant, start), me: m.FollowerColour, tc: DXPTimeControl{m.Minutes, m.Moves}}
			r, err := gm.play(ctx, 0)
			r.Peer, r.Me = m.Initiator, gm.me
			if onGame != nil {
				onGame(r)
			}
			if err != nil || r.PeerStops {
				return nil
			}
		case GameEnd: // out of a game: acknowledge
			d.send(GameEnd{Reason: 0, Stop: m.Stop})
			if m.Stop == 1 {
				return nil
			}
		case BackReq:
			d.send(BackAcc{Code: 1})
		case Chat:
			cfg.Log.Info().Str("text", m.Text).Msg("dxp chat")
		default:
			cfg.Log.Warn().Str("frame", m.Format()).Msg("dxp: unexpected message between games")
		}
	}
}

// DXPGameSpec is one game an initiator proposes.
type DXPGameSpec struct {
	Start       movegen.Position
	Me          movegen.Color // the initiator's colour
	TimeControl DXPTimeControl
}

// ErrRefused is a GAMEACC other than accept.
var ErrRefused = errors.New("game refused")

// PlayDXPGame proposes and plays one game as initiator over p; last says
// whether it is the last game (the stop code sent at its end).
func PlayDXPGame(ctx context.Context, p *DXPPeer, cfg *DXPConfig, spec DXPGameSpec, last bool) (DXPResult, error) {
	if err := p.Propose(ctx, spec.Start, spec.Me.Other(), spec.TimeControl); err != nil {
		return DXPResult{}, err
	}
	stop := 0
	if last {
		stop = 1
	}
	gm := &dxpGame{cfg: cfg, d: p.d, g: game.New(cfg.Variant, spec.Start), me: spec.Me, tc: spec.TimeControl}
	r, err := gm.play(ctx, stop)
	r.Peer, r.Me = p.Follower, gm.me
	if r.Peer == "" {
		r.Peer = "peer"
	}
	return r, err
}
