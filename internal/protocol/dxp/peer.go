package dxp

import (
	"context"
	"fmt"
	"net"
	"time"

	"github.com/riodraughts/rio/internal/game"
	"github.com/riodraughts/rio/internal/movegen"
	"github.com/rs/zerolog"
)

// Peer is the initiator's side of a connection to a DXP follower: it
// proposes games (GAMEREQ, GAMEACC). Rio plays them with PlayGame; a
// referee (the match runner) relays another engine's moves with SendMove
// and ReceiveMove, and ends each game with End.
type Peer struct {
	d        *link
	v        *movegen.Variant
	name     string // ours
	Follower string // the peer's name, after Propose
	patience time.Duration
	// answerDue: the follower ended the game in progress (ReceiveMove's
	// ErrPeerEnded) and End has not answered yet.
	answerDue bool
}

// Dial connects to a follower at addr.
func Dial(ctx context.Context, addr string, v *movegen.Variant, name string, log zerolog.Logger) (*Peer, error) {
	c, err := (&net.Dialer{Timeout: 10 * time.Second}).DialContext(ctx, "tcp", addr)
	if err != nil {
		return nil, err
	}
	return NewPeer(c, v, name, log), nil
}

// NewPeer proposes games to the follower at the other end of conn.
func NewPeer(conn net.Conn, v *movegen.Variant, name string, log zerolog.Logger) *Peer {
	return &Peer{d: newLink(conn, log), v: v, name: name, patience: 30 * time.Second}
}

// Propose sends GAMEREQ: the follower plays follower, from start.
func (p *Peer) Propose(ctx context.Context, start movegen.Position, follower movegen.Color, tc TimeControl) error {
	p.answerDue = false
	req := GameReq{Version: Version, Initiator: p.name, FollowerColour: follower, Minutes: tc.Minutes, Moves: tc.Moves}
	if start == p.v.Start() {
		req.Initial = true
	} else {
		req.Side, req.Squares = start.Side, Board(p.v, &start)
	}
	if err := p.d.send(req); err != nil {
		return err
	}
	for {
		m, err := p.d.recv(ctx, p.patience)
		if err != nil {
			return err
		}
		if acc, ok := m.(GameAcc); ok {
			p.Follower = acc.Follower
			if acc.Code != AccAccept {
				return fmt.Errorf("%w: GAMEACC code %d from %q", ErrRefused, acc.Code, acc.Follower)
			}
			return nil
		}
		p.d.log.Warn().Str("frame", m.Format()).Msg("dxp: waiting for GAMEACC")
	}
}

// SendMove tells the follower the move m (legal where it was played).
func (p *Peer) SendMove(m movegen.Move) error {
	return p.d.send(encodeMove(p.v, m, 0))
}

// ErrPeerEnded is a GAMEEND from the follower in place of a move.
type ErrPeerEnded struct{ Reason int }

func (e ErrPeerEnded) Error() string {
	return fmt.Sprintf("the peer ended the game (reason %d)", e.Reason)
}

// ReceiveMove waits up to timeout for the follower's move in g's current
// position and returns it as a legal move; an illegal move is an error, a
// GAMEEND an ErrPeerEnded.
func (p *Peer) ReceiveMove(ctx context.Context, g *game.Game, timeout time.Duration) (movegen.Move, error) {
	for {
		m, err := p.d.recv(ctx, timeout)
		if err != nil {
			return movegen.NoMove, err
		}
		switch m := m.(type) {
		case Move:
			gm := &liveGame{g: g}
			return gm.match(m)
		case GameEnd:
			p.answerDue = true
			return movegen.NoMove, ErrPeerEnded{m.Reason}
		case BackReq:
			p.d.send(BackAcc{Code: 1})
		}
	}
}

// End ends the game from the referee's side, who plays the peer's
// opponent: it sends GAMEEND (reason from the referee's view) and waits
// briefly for the follower's, which closes the game unanswered. When the
// follower ended the game itself (ReceiveMove's ErrPeerEnded), End answers
// that GAMEEND once, with reason 0, and waits for nothing: the answer
// closes the game. Between games, with stop, it asks the follower to end
// the session (the match player's Close).
func (p *Peer) End(ctx context.Context, reason int, stop bool) {
	s := 0
	if stop {
		s = 1
	}
	if p.answerDue {
		p.answerDue = false
		p.d.send(GameEnd{Reason: 0, Stop: s})
		return
	}
	if p.d.send(GameEnd{Reason: reason, Stop: s}) != nil {
		return
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		m, err := p.d.recv(ctx, time.Until(deadline))
		if err != nil {
			return
		}
		if _, ok := m.(GameEnd); ok {
			return
		}
	}
}

// Close ends the connection.
func (p *Peer) Close() { p.d.close() }
