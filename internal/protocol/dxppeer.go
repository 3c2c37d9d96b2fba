package protocol

import (
	"context"
	"fmt"
	"net"
	"time"

	"github.com/riodraughts/rio/internal/game"
	"github.com/riodraughts/rio/internal/movegen"
	"github.com/rs/zerolog"
)

// DXPPeer is the initiator's view of a DXP follower for a referee (the
// match runner): it proposes games and relays moves, keeping no board of
// its own beyond the game it is given.
type DXPPeer struct {
	d        *dxpConn
	v        *movegen.Variant
	name     string // ours
	Follower string // the peer's name, after Propose
	patience time.Duration
}

// DialDXP connects to a follower at addr.
func DialDXP(ctx context.Context, addr string, v *movegen.Variant, name string, log zerolog.Logger) (*DXPPeer, error) {
	c, err := (&net.Dialer{Timeout: 10 * time.Second}).DialContext(ctx, "tcp", addr)
	if err != nil {
		return nil, err
	}
	return &DXPPeer{d: newDXPConn(c, log), v: v, name: name, patience: 30 * time.Second}, nil
}

// Propose sends GAMEREQ: the follower plays follower, from start.
func (p *DXPPeer) Propose(ctx context.Context, start movegen.Position, follower movegen.Color, tc DXPTimeControl) error {
	req := GameReq{Version: DXPVersion, Initiator: p.name, FollowerColour: follower, Minutes: tc.Minutes, Moves: tc.Moves}
	if start == p.v.Start() {
		req.Initial = true
	} else {
		req.Side, req.Squares = start.Side, DXPBoard(p.v, &start)
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
				return fmt.Errorf("%w: GAMEACC code %d", ErrRefused, acc.Code)
			}
			return nil
		}
	}
}

// SendMove tells the follower the move m played in g's current position
// (before it is played).
func (p *DXPPeer) SendMove(g *game.Game, m movegen.Move) error {
	gm := &dxpGame{g: g}
	return p.d.send(gm.encode(m, 0))
}

// ErrPeerEnded is a GAMEEND from the follower in place of a move.
type ErrPeerEnded struct{ Reason int }

func (e ErrPeerEnded) Error() string {
	return fmt.Sprintf("the peer ended the game (reason %d)", e.Reason)
}

// ReceiveMove waits up to timeout for the follower's move in g's current
// position and returns it as a legal move; an illegal move is an error, a
// GAMEEND an ErrPeerEnded.
func (p *DXPPeer) ReceiveMove(ctx context.Context, g *game.Game, timeout time.Duration) (movegen.Move, error) {
	for {
		m, err := p.d.recv(ctx, timeout)
		if err != nil {
			return movegen.NoMove, err
		}
		switch m := m.(type) {
		case DXPMove:
			gm := &dxpGame{g: g}
			return gm.match(m)
		case GameEnd:
			return movegen.NoMove, ErrPeerEnded{m.Reason}
		case BackReq:
			p.d.send(BackAcc{Code: 1})
		}
	}
}

// End sends GAMEEND (reason from the referee's side, who plays the peer's
// opponent) and waits briefly for the acknowledgement.
func (p *DXPPeer) End(ctx context.Context, reason int, stop bool) {
	s := 0
	if stop {
		s = 1
	}
	if p.d.send(GameEnd{Reason: reason, Stop: s}) != nil {
		return
	}
	for {
		m, err := p.d.recv(ctx, 5*time.Second)
		if err != nil {
			return
		}
		if _, ok := m.(GameEnd); ok {
			return
		}
	}
}

// Close ends the connection.
func (p *DXPPeer) Close() { p.d.close() }
