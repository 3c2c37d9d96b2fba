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

// DXPPeer is the initiator's side of a connection to a DXP follower: it
// proposes games (GAMEREQ, GAMEACC). Rio plays them with PlayDXPGame; a
// referee (the match runner) relays another engine's moves with SendMove
// and ReceiveMove.
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
	return NewDXPPeer(c, v, name, log), nil
}

// NewDXPPeer proposes games to the follower at the other end of conn.
func NewDXPPeer(conn net.Conn, v *movegen.Variant, name string, log zerolog.Logger) *DXPPeer {
	return &DXPPeer{d: newDXPConn(conn, log), v: v, name: name, patience: 30 * time.Second}
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
				return fmt.Errorf("%w: GAMEACC code %d from %q", ErrRefused, acc.Code, acc.Follower)
			}
			return nil
		}
		p.d.log.Warn().Str("frame", m.Format()).Msg("dxp: waiting for GAMEACC")
	}
}

// SendMove tells the follower the move m (legal where it was played).
func (p *DXPPeer) SendMove(m movegen.Move) error {
	return p.d.send(encodeDXPMove(p.v, m, 0))
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
