package dxp

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"slices"
	"sync"
	"time"

	"github.com/riodraughts/rio/internal/book"
	"github.com/riodraughts/rio/internal/game"
	"github.com/riodraughts/rio/internal/movegen"
	"github.com/riodraughts/rio/internal/search"
	"github.com/riodraughts/rio/internal/text"
	"github.com/rs/zerolog"
)

// Config configures Rio as a DXP player.
type Config struct {
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
	// DrawRules are the draw rules Rio's games follow: Rio ends a game by
	// a draw (GAMEEND 2) only where they draw it, and searches by them.
	DrawRules game.RuleSet
	// Book, when set, gives Rio's moves while the game is in it: one drawn
	// among those within BookMargin (hundredths of a man) of the best,
	// by Rand (the best when nil).
	Book       *book.Book
	BookMargin int
	Rand       *rand.Rand
	Log        zerolog.Logger

	// endEarly, set by tests only, is asked on each of Rio's turns before
	// it searches: ok ends the game there with a GAMEEND of that reason
	// (1 a resignation, 2 a draw claim) in place of a move.
	endEarly func(g *game.Game) (reason int, ok bool)
}

func (c *Config) fastMove() time.Duration {
	if c.FastMove > 0 {
		return c.FastMove
	}
	return 200 * time.Millisecond
}

func (c *Config) patience() time.Duration {
	if c.Patience > 0 {
		return c.Patience
	}
	return 60 * time.Second
}

// frame is one frame read: a message, or why it is not one.
type frame struct {
	msg  Message
	text string
	err  error // a bad message (the connection goes on) or, with eof, the end
	eof  bool
}

// link is one DXP connection: a goroutine turns frames into messages,
// and writes go through send.
type link struct {
	c    net.Conn
	in   chan frame
	log  zerolog.Logger
	wmu  sync.Mutex
	done chan struct{}
}

func newLink(c net.Conn, log zerolog.Logger) *link {
	d := &link{c: c, in: make(chan frame, 16), log: log, done: make(chan struct{})}
	go func() {
		defer close(d.in)
		f := NewFramer(c)
		for {
			text, err := f.Next()
			if err != nil {
				select {
				case d.in <- frame{err: err, eof: true}:
				case <-d.done:
				}
				return
			}
			m, err := Parse(text)
			select {
			case d.in <- frame{msg: m, text: text, err: err}:
			case <-d.done:
				return
			}
		}
	}()
	return d
}

// close ends the connection and its reader.
func (d *link) close() {
	select {
	case <-d.done:
	default:
		close(d.done)
	}
	d.c.Close()
}

func (d *link) send(m Message) error {
	d.wmu.Lock()
	defer d.wmu.Unlock()
	d.log.Debug().Str("frame", m.Format()).Msg("dxp >")
	d.c.SetWriteDeadline(time.Now().Add(30 * time.Second))
	return Write(d.c, m)
}

// ErrPeerGone is the peer closing the connection; ErrPeerSilent is the
// peer not answering in time.
var (
	ErrPeerGone   = errors.New("peer gone")
	ErrPeerSilent = errors.New("peer silent")
)

// recv waits up to timeout for the next message; unreadable messages are
// logged and skipped.
func (d *link) recv(ctx context.Context, timeout time.Duration) (Message, error) {
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
				d.log.Warn().Err(in.err).Str("frame", text.Clip(in.text, 60)).Msg("dxp: message ignored")
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

// TimeControl is a game's clock: minutes per player and moves per
// period (0: the whole game).
type TimeControl struct{ Minutes, Moves int }

// liveGame is one game in progress.
type liveGame struct {
	cfg   *Config
	d     *link
	g     *game.Game
	me    movegen.Color
	tc    TimeControl
	clock time.Duration
	moves int // moves I played
	// follower: Rio follows (the peer may propose the next game).
	follower bool

	// How the game closed, for the session that goes on after it:
	// answered, Rio answered the peer's GAMEEND; next, a message read
	// while closing that belongs to the session (a GAMEREQ in place of the
	// follower's acknowledgement).
	answered bool
	next     Message
}

// Result is how a game ended.
type Result struct {
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

func (gm *liveGame) limits() search.Limits {
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
//
// A game ends with two GAMEENDs, one from each side, and no more. When Rio
// ends it (over by the rules on its turn, an illegal move from the peer,
// endEarly), Rio sends GAMEEND and the peer's next GAMEEND closes the game
// unanswered (end). When the peer ends it, in place of a move or out of
// turn, Rio answers once (peerEnded). Both sides ending at once cross: each
// GAMEEND closes the other's, and neither is answered.
func (gm *liveGame) play(ctx context.Context, stop int) (Result, error) {
	log := gm.cfg.Log
	gm.clock = time.Duration(gm.tc.Minutes) * time.Minute
	for {
		pos := gm.g.Position()
		if pos.Side == gm.me {
			if o := gm.g.Outcome(); o.Result != game.Ongoing {
				// Over by the rules on my turn: I say so.
				return gm.end(ctx, reasonFor(o.Result, gm.me), stop, Result{Game: gm.g, Result: o.Result, Reason: o.Reason})
			}
			if gm.cfg.endEarly != nil {
				if reason, ok := gm.cfg.endEarly(gm.g); ok {
					r := Result{Game: gm.g, Result: resultFromView(reason, gm.me), Reason: fmt.Sprintf("Rio ended the game (reason %d)", reason)}
					return gm.end(ctx, reason, stop, r)
				}
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
			return Result{Game: gm.g, Reason: err.Error()}, err
		}
		switch m := m.(type) {
		case Move:
			mv, err := gm.match(m)
			if err != nil {
				log.Error().Err(err).Str("move", m.Format()).Msg("dxp: illegal move from the peer")
				return gm.end(ctx, 0, stop, Result{Game: gm.g, Result: game.Ongoing, Reason: "illegal move from the peer: " + err.Error()})
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
func (gm *liveGame) myMove(ctx context.Context, stop int) (Result, bool, error) {
	t0 := time.Now()
	// played charges the clock and sends the move.
	played := func(m movegen.Move) (Result, bool, error) {
		used := time.Since(t0)
		gm.clock -= used
		gm.moves++
		if gm.tc.Moves > 0 && gm.moves%gm.tc.Moves == 0 {
			gm.clock += time.Duration(gm.tc.Minutes) * time.Minute
		}
		if err := gm.d.send(gm.encode(m, used)); err != nil {
			return Result{Game: gm.g}, true, err
		}
		gm.g.Play(m)
		return Result{}, false, nil
	}
	if c, ok := gm.cfg.Book.Play(gm.g, gm.cfg.BookMargin, gm.cfg.Rand); ok {
		return played(c.Move)
	}
	s := gm.cfg.Engine.Start(ctx, gm.g, gm.limits(), search.Options{Threads: gm.cfg.Threads}, nil)
	for {
		select {
		case <-s.Done():
			return played(s.Wait().Move)
		case in, ok := <-gm.d.in:
			if !ok || in.eof {
				s.Stop()
				s.Wait()
				return Result{Game: gm.g, Reason: "peer gone"}, true, ErrPeerGone
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

// peerEnded answers, once, a GAMEEND from the peer in a game Rio has not
// ended (agreeing to stop when it asks to); the answer closes the game.
func (gm *liveGame) peerEnded(m GameEnd, stop int) Result {
	gm.d.send(GameEnd{Reason: 0, Stop: max(stop, m.Stop)})
	gm.answered = true
	peer := gm.me.Other()
	r := Result{Game: gm.g, Result: resultFromView(m.Reason, peer), PeerStops: m.Stop == 1}
	r.Reason = fmt.Sprintf("the peer ended the game (reason %d)", m.Reason)
	if o := gm.g.Outcome(); o.Result != game.Ongoing {
		r.Result, r.Reason = o.Result, o.Reason // the rules decide
	}
	return r
}

// end sends Rio's GAMEEND (reason from Rio's view, Rio's stop code) for a
// game whose result is r, and waits for the peer's GAMEEND, which closes
// the game: it is not answered, and its stop code becomes r.PeerStops.
// Answering it would be a third GAMEEND, which a peer that answers every
// GAMEEND answers in turn, without end; and a host that proposes the next
// game at once would read it in place of the next GAMEACC.
//
// While Rio waits, a follower takes a GAMEREQ as the close too (a peer
// that moves on without acknowledging): the request is kept in gm.next
// for the session. A peer that leaves closes the game and the session
// (PeerStops); one that sends no GAMEEND within the patience (silent, or
// sending anything else) is an error.
func (gm *liveGame) end(ctx context.Context, reason, stop int, r Result) (Result, error) {
	if err := gm.d.send(GameEnd{Reason: reason, Stop: stop}); err != nil {
		return r, err
	}
	deadline := time.Now().Add(gm.cfg.patience())
	for {
		m, err := gm.d.recv(ctx, time.Until(deadline))
		if errors.Is(err, ErrPeerGone) {
			r.PeerStops = true
			return r, nil
		}
		if err != nil {
			return r, err
		}
		switch m := m.(type) {
		case GameEnd:
			r.PeerStops = m.Stop == 1
			return r, nil
		case GameReq:
			if gm.follower {
				gm.next = m
				return r, nil
			}
			gm.cfg.Log.Warn().Str("frame", m.Format()).Msg("dxp: GAMEREQ from the follower ignored")
		case Chat:
			gm.cfg.Log.Info().Str("text", m.Text).Msg("dxp chat")
		case BackReq:
			gm.d.send(BackAcc{Code: 1}) // the game is over
		default:
			// A move that crossed our GAMEEND, or nonsense.
			gm.cfg.Log.Warn().Str("frame", m.Format()).Msg("dxp: waiting for the peer's GAMEEND")
		}
	}
}

// encode writes a legal move of the current position as a DXP MOVE.
func (gm *liveGame) encode(m movegen.Move, used time.Duration) Move {
	return encodeMove(gm.g.Variant, m, used)
}

// encodeMove writes m, played with used time, as a DXP MOVE in v's
// numbering, captured squares ascending.
func encodeMove(v *movegen.Variant, m movegen.Move, used time.Duration) Move {
	out := Move{Seconds: min(int(used/time.Second), 9999), From: v.Numbering.Number(m.From()), To: v.Numbering.Number(m.To())}
	for b := m.Captured(); b != 0; b &= b - 1 {
		out.Captured = append(out.Captured, v.Numbering.Number(b.First()))
	}
	slices.Sort(out.Captured)
	return out
}

// match finds the legal move a DXP MOVE names (from, to, set of captured).
func (gm *liveGame) match(m Move) (movegen.Move, error) {
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
func (gm *liveGame) back(m BackReq) {
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
func (c *Config) acceptGame(req GameReq) (movegen.Position, int) {
	if req.Version != Version {
		return movegen.Position{}, AccWrongVersion
	}
	if req.Initial {
		return c.Variant.Start(), AccAccept
	}
	p, err := ParseBoard(c.Variant, req.Side, req.Squares)
	if err != nil {
		c.Log.Warn().Err(err).Msg("dxp: game refused")
		return movegen.Position{}, AccNotThisGame
	}
	return p, AccAccept
}

// ServeFollower plays, as follower, every game the peer proposes on
// conn until it asks to stop or goes away; onGame hears of each game.
//
// Between games a GAMEEND is answered (the peer quits, perhaps before any
// game), except the first one after a game that closed with Rio's answer
// to the peer's GAMEEND: that one is the peer answering Rio's answer, and
// answering it again would go on for ever with a peer that answers every
// GAMEEND. Its stop code 1 still ends the session.
func ServeFollower(ctx context.Context, conn net.Conn, cfg *Config, onGame func(Result)) error {
	d := newLink(conn, cfg.Log)
	defer d.close()
	var next Message // read while the last game closed, not yet handled
	answered := false
	for {
		m := next
		next = nil
		if m == nil {
			var err error
			m, err = d.recv(ctx, cfg.patience()*5)
			if errors.Is(err, ErrPeerGone) || errors.Is(err, ErrPeerSilent) {
				return nil // the peer left: the listener takes the next one
			}
			if err != nil {
				return err
			}
		}
		switch m := m.(type) {
		case GameReq:
			answered = false
			start, code := cfg.acceptGame(m)
			if err := d.send(GameAcc{Follower: cfg.Name, Code: code}); err != nil {
				return nil
			}
			if code != AccAccept {
				continue
			}
			gm := &liveGame{cfg: cfg, d: d, g: game.NewRules(cfg.Variant, start, cfg.DrawRules), me: m.FollowerColour, tc: TimeControl{m.Minutes, m.Moves}, follower: true}
			r, err := gm.play(ctx, 0)
			r.Peer, r.Me = m.Initiator, gm.me
			if onGame != nil {
				onGame(r)
			}
			if err != nil || r.PeerStops {
				return nil
			}
			next, answered = gm.next, gm.answered
		case GameEnd:
			if answered {
				// The peer answering Rio's answer: not answered again.
				answered = false
				if m.Stop == 1 {
					return nil
				}
				continue
			}
			// Out of a game: acknowledge.
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

// GameSpec is one game an initiator proposes.
type GameSpec struct {
	Start       movegen.Position
	Me          movegen.Color // the initiator's colour
	TimeControl TimeControl
}

// ErrRefused is a GAMEACC other than accept.
var ErrRefused = errors.New("game refused")

// PlayGame proposes and plays one game as initiator over p; last says
// whether it is the last game (the stop code sent at its end).
func PlayGame(ctx context.Context, p *Peer, cfg *Config, spec GameSpec, last bool) (Result, error) {
	if err := p.Propose(ctx, spec.Start, spec.Me.Other(), spec.TimeControl); err != nil {
		return Result{}, err
	}
	stop := 0
	if last {
		stop = 1
	}
	gm := &liveGame{cfg: cfg, d: p.d, g: game.NewRules(cfg.Variant, spec.Start, cfg.DrawRules), me: spec.Me, tc: spec.TimeControl}
	r, err := gm.play(ctx, stop)
	r.Peer, r.Me = p.Follower, gm.me
	if r.Peer == "" {
		r.Peer = "peer"
	}
	return r, err
}
