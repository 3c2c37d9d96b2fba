package dxp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/riodraughts/rio/internal/game"
	"github.com/riodraughts/rio/internal/movegen"
	"github.com/rs/zerolog"
)

// The GAMEEND exchange: a game ends with one GAMEEND from each side, and
// the answer to a GAMEEND is never answered (issue 14).

// loneWhiteMan is a board with a single white man (on 22): Black, to
// move, has no legal move.
var loneWhiteMan = strings.Repeat("e", 21) + "w" + strings.Repeat("e", 10)

// illegal is a well-formed MOVE that no position allows (from 1 to 1,
// nothing taken).
var illegal = Move{From: 1, To: 1}.Format() + "\x00"

// closedByRio checks that the next thing on the connection is its end:
// Rio sent nothing more and closed it.
func (p *peer) closedByRio() {
	p.t.Helper()
	p.c.SetReadDeadline(time.Now().Add(5 * time.Second))
	if s, err := p.f.Next(); err != io.EOF {
		p.t.Fatalf("expected the end of the connection, got %q, %v", s, err)
	}
}

// accepted checks that the next message is GAMEACC with code 0.
func (p *peer) accepted() {
	p.t.Helper()
	if acc := p.read(); !strings.HasPrefix(acc, "A") || !strings.HasSuffix(acc, "0") {
		p.t.Fatalf("expected GAMEACC code 0, got %q", acc)
	}
}

// TestFollowerGameEndAnswered: Rio, following, ends a game (an illegal move
// from the peer; the rules, with no move on its turn); the peer's
// acknowledgement closes it, Rio sends nothing more, and the next GAMEREQ
// (in its own write, glued to the acknowledgement, glued to a CHAT too) is
// accepted at once. An acknowledgement with stop 1 ends the session.
func TestFollowerGameEndAnswered(t *testing.T) {
	v := movegen.Brazilian
	ends := []struct {
		name string
		// start proposes the game and makes Rio end it; want is Rio's
		// GAMEEND.
		start func(p *peer)
		want  string
	}{
		{"illegal move", func(p *peer) {
			p.write(gameReq(0, "")) // Rio is Black: the peer moves first
			p.accepted()
			p.write(illegal)
		}, "E00"},
		{"no legal move", func(p *peer) {
			r := GameReq{Version: "01", Initiator: "tester", FollowerColour: movegen.Black, Side: movegen.Black, Squares: loneWhiteMan}
			p.write(r.Format() + "\x00")
			p.accepted()
		}, "E10"},
	}
	nexts := []struct {
		name string
		ack  string // the peer's acknowledgement and what it glues to it
	}{
		{"apart", "E00\x00"},
		{"glued", "E00\x00" + gameReq(0, "")},
		{"glued to a chat", "E00\x00Cwell played\x00" + gameReq(0, "")},
	}
	for _, e := range ends {
		for _, n := range nexts {
			t.Run(e.name+"/"+n.name, func(t *testing.T) {
				p := startFollower(t, v)
				e.start(p)
				if got := p.read(); got != e.want {
					t.Fatalf("Rio ended the game with %q, want %q", got, e.want)
				}
				p.write(n.ack)
				if !strings.HasSuffix(n.ack, gameReq(0, "")) {
					p.write(gameReq(0, ""))
				}
				// An answer to the acknowledgement would come first.
				p.accepted()
				// The second game: the peer quits out of turn and asks to
				// stop; Rio answers once and closes.
				p.write(GameEnd{Reason: 1, Stop: 1}.Format() + "\x00")
				if got := p.read(); got != "E01" {
					t.Errorf("answer to a GAMEEND in a game: %q, want E01", got)
				}
				p.closedByRio()
				p.finished()
			})
		}
		t.Run(e.name+"/stop", func(t *testing.T) {
			p := startFollower(t, v)
			e.start(p)
			if got := p.read(); got != e.want {
				t.Fatalf("Rio ended the game with %q, want %q", got, e.want)
			}
			p.write("E01\x00")
			p.closedByRio()
			p.finished()
		})
	}
}

// TestFollowerAnswerNotAnswered: the peer ends a game and then answers
// Rio's answer, as a peer that answers every GAMEEND does; Rio does not
// answer that, and accepts the next game. Stop 1 in it ends the session.
func TestFollowerAnswerNotAnswered(t *testing.T) {
	v := movegen.Brazilian
	for _, stop := range []int{0, 1} {
		t.Run(fmt.Sprint("stop ", stop), func(t *testing.T) {
			p := startFollower(t, v)
			p.write(gameReq(0, ""))
			p.accepted()
			p.write("E10\x00") // the peer resigns in place of its first move
			if got := p.read(); got != "E00" {
				t.Fatalf("answer %q, want E00", got)
			}
			p.write(GameEnd{Reason: 0, Stop: stop}.Format() + "\x00")
			if stop == 1 {
				p.closedByRio()
				p.finished()
				return
			}
			p.write(gameReq(0, ""))
			p.accepted()
			p.finished()
		})
	}
	// Between games, a GAMEEND that answers nothing is still answered.
	t.Run("first message", func(t *testing.T) {
		p := startFollower(t, v)
		p.write("E00\x00")
		if got := p.read(); got != "E00" {
			t.Errorf("GAMEEND before any game answered %q, want E00", got)
		}
		p.write(gameReq(0, ""))
		p.accepted()
		p.finished()
	})
}

// TestFollowerCloseBounded: after Rio's GAMEEND, a peer that chats on and
// never sends its own keeps Rio no longer than the patience (2 s here).
func TestFollowerCloseBounded(t *testing.T) {
	p := startFollower(t, movegen.Brazilian)
	p.write(gameReq(0, ""))
	p.accepted()
	p.write(illegal)
	if got := p.read(); got != "E00" {
		t.Fatalf("Rio ended the game with %q, want E00", got)
	}
	go func() {
		for {
			p.c.SetWriteDeadline(time.Now().Add(time.Second))
			if _, err := p.c.Write([]byte("Cstill here\x00")); err != nil {
				return // Rio closed the connection
			}
			time.Sleep(50 * time.Millisecond)
		}
	}()
	select {
	case <-p.done:
	case <-time.After(8 * time.Second):
		t.Fatal("a chatting peer keeps Rio waiting for its GAMEEND")
	}
	p.c.Close()
}

// scriptedFollower is a scripted follower facing Rio's Peer.
func scriptedFollower(t *testing.T) (*peer, *Peer) {
	a, b := net.Pipe()
	p := &peer{t: t, c: a, f: NewFramer(a)}
	t.Cleanup(func() { a.Close(); b.Close() })
	return p, NewPeer(b, movegen.Brazilian, "Rio", zerolog.Nop())
}

// played is what PlayGame returned.
type played struct {
	r   Result
	err error
}

func playGame(cfg *Config, d *Peer, spec GameSpec, last bool) chan played {
	out := make(chan played, 1)
	go func() {
		r, err := PlayGame(context.Background(), d, cfg, spec, last)
		out <- played{r, err}
	}()
	return out
}

func wait(t *testing.T, c chan played) played {
	t.Helper()
	select {
	case g := <-c:
		return g
	case <-time.After(10 * time.Second):
		t.Fatal("PlayGame did not return")
	}
	return played{}
}

// TestInitiatorGameEndAnswered: Rio, initiating, ends a game (an illegal
// move from the follower; the rules); the follower's acknowledgement closes
// it within the game, its stop code reaches the result, and the next thing
// Rio sends is the next GAMEREQ.
func TestInitiatorGameEndAnswered(t *testing.T) {
	v := movegen.Brazilian
	cfg := testConfig(v, "Rio")
	t.Run("illegal move", func(t *testing.T) {
		p, d := scriptedFollower(t)
		res := playGame(cfg, d, GameSpec{Start: v.Start(), Me: movegen.White}, false)
		if req := p.read(); req[0] != 'R' {
			t.Fatalf("expected GAMEREQ, got %q", req)
		}
		p.write(GameAcc{Follower: "tester"}.Format() + "\x00")
		if m := p.read(); m[0] != 'M' {
			t.Fatalf("expected Rio's first move, got %q", m)
		}
		p.write(illegal)
		if e := p.read(); e != "E00" {
			t.Fatalf("after an illegal move: %q, want E00", e)
		}
		p.write("E01\x00") // acknowledged, asking to stop
		g := wait(t, res)
		if g.err != nil || !g.r.PeerStops || g.r.Result != game.Ongoing || !strings.Contains(g.r.Reason, "illegal move") {
			t.Fatalf("game ended %+v, %v; want no result, the peer stopping", g.r, g.err)
		}
		// The acknowledgement with stop 0: the next game follows.
		res = playGame(cfg, d, GameSpec{Start: v.Start(), Me: movegen.White}, true)
		if req := p.read(); req[0] != 'R' {
			t.Fatalf("expected the next GAMEREQ, got %q", req)
		}
		p.write(GameAcc{Follower: "tester"}.Format() + "\x00")
		p.read() // Rio's move
		p.write(illegal)
		if e := p.read(); e != "E01" {
			t.Fatalf("after an illegal move in the last game: %q, want E01", e)
		}
		p.write("E00\x00")
		if g := wait(t, res); g.err != nil || g.r.PeerStops {
			t.Fatalf("last game ended %+v, %v", g.r, g.err)
		}
		d.Close()
		p.closedByRio()
	})
	t.Run("no legal move", func(t *testing.T) {
		p, d := scriptedFollower(t)
		start, err := ParseBoard(v, movegen.Black, loneWhiteMan)
		if err != nil {
			t.Fatal(err)
		}
		res := playGame(cfg, d, GameSpec{Start: start, Me: movegen.Black}, false)
		p.read()
		p.write(GameAcc{Follower: "tester"}.Format() + "\x00")
		if e := p.read(); e != "E10" {
			t.Fatalf("Rio without a move sent %q, want E10", e)
		}
		p.write("E00\x00")
		if g := wait(t, res); g.err != nil || g.r.Result != game.WhiteWins || g.r.PeerStops {
			t.Fatalf("game ended %+v, %v", g.r, g.err)
		}
		d.Close()
		p.closedByRio()
	})
	t.Run("follower leaves", func(t *testing.T) {
		p, d := scriptedFollower(t)
		res := playGame(cfg, d, GameSpec{Start: v.Start(), Me: movegen.White}, false)
		p.read()
		p.write(GameAcc{Follower: "tester"}.Format() + "\x00")
		p.read()
		p.write(illegal)
		p.read() // E00
		p.c.Close()
		if g := wait(t, res); g.err != nil || !g.r.PeerStops {
			t.Fatalf("a follower gone after Rio's GAMEEND: %+v, %v; want the game over, the session too", g.r, g.err)
		}
	})
}

// TestPeerEnd: the referee's side of a connection answers a follower's
// GAMEEND once and waits for nothing more; when it ends the game itself,
// the follower's acknowledgement closes it.
func TestPeerEnd(t *testing.T) {
	v := movegen.Brazilian
	ctx := context.Background()
	p, d := scriptedFollower(t)
	errc := make(chan error, 1)
	go func() { errc <- d.Propose(ctx, v.Start(), movegen.White, TimeControl{}) }()
	p.read()
	p.write(GameAcc{Follower: "tester"}.Format() + "\x00")
	if err := <-errc; err != nil {
		t.Fatal(err)
	}
	// The follower (White, to move) resigns in place of a move.
	p.write("E10\x00")
	g := game.New(v, v.Start())
	_, err := d.ReceiveMove(ctx, g, 5*time.Second)
	var ended ErrPeerEnded
	if !errors.As(err, &ended) || ended.Reason != 1 {
		t.Fatalf("ReceiveMove: %v", err)
	}
	done := make(chan struct{})
	go func() { d.End(ctx, 3, false); close(done) }()
	if e := p.read(); e != "E00" {
		t.Fatalf("the referee answered %q, want E00", e)
	}
	select {
	case <-done:
	case <-time.After(2 * time.Second): // End waits 5 s for a GAMEEND
		t.Fatal("End waits for an answer to its answer")
	}
	// The next game, ended by the referee: the acknowledgement closes it.
	go func() { errc <- d.Propose(ctx, v.Start(), movegen.White, TimeControl{}) }()
	if req := p.read(); req[0] != 'R' {
		t.Fatalf("expected GAMEREQ, got %q", req)
	}
	p.write(GameAcc{Follower: "tester"}.Format() + "\x00")
	if err := <-errc; err != nil {
		t.Fatal(err)
	}
	done = make(chan struct{})
	go func() { d.End(ctx, 1, false); close(done) }()
	if e := p.read(); e != "E10" {
		t.Fatalf("the referee ended with %q, want E10", e)
	}
	p.write("E00\x00")
	select {
	case <-done:
	case <-time.After(2 * time.Second):
		t.Fatal("End did not take the acknowledgement")
	}
	// Between games (the match player's Close): a request to stop, which
	// the follower answers.
	done = make(chan struct{})
	go func() { d.End(ctx, 0, true); close(done) }()
	if e := p.read(); e != "E01" {
		t.Fatalf("the stop request is %q, want E01", e)
	}
	p.write("E01\x00")
	select {
	case <-done:
	case <-time.After(2 * time.Second):
		t.Fatal("End did not take the answer")
	}
	d.Close()
	p.closedByRio()
}

// tapConn records the frames a side writes, rewriting them first if asked:
// what it records is what goes on the wire.
type tapConn struct {
	net.Conn
	rewrite func(frame string) string
	mu      sync.Mutex
	frames  []string
	bad     []string // writes that are not one whole frame
}

func (c *tapConn) Write(b []byte) (int, error) {
	s := string(b)
	if strings.IndexByte(s, 0) != len(s)-1 {
		c.mu.Lock()
		c.bad = append(c.bad, s)
		c.mu.Unlock()
		return c.Conn.Write(b)
	}
	f := s[:len(s)-1]
	if c.rewrite != nil {
		f = c.rewrite(f)
	}
	c.mu.Lock()
	c.frames = append(c.frames, f)
	c.mu.Unlock()
	if _, err := c.Conn.Write([]byte(f + "\x00")); err != nil {
		return 0, err
	}
	return len(b), nil
}

func (c *tapConn) recorded() ([]string, []string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]string(nil), c.frames...), append([]string(nil), c.bad...)
}

// TestGameEndRioAgainstRio: Rio against Rio over TCP, the initiator
// listening or connecting, each side in turn ending a game early (an
// illegal move, a resignation, a draw claim): every game ends with exactly
// two GAMEENDs on the wire, one from each side, the ender's reason and the
// answer's 0, and both sides record the same result.
func TestGameEndRioAgainstRio(t *testing.T) {
	const initiator, follower = 0, 1
	type ending struct {
		by     int // initiator or follower
		how    string
		reason int // the ender's GAMEEND reason
	}
	plan := []ending{
		{initiator, "illegal", 0}, {follower, "illegal", 0},
		{initiator, "resign", 1}, {follower, "resign", 1},
		{initiator, "draw", 2}, {follower, "draw", 2},
	}
	v := movegen.Brazilian
	for _, initiatorListens := range []bool{false, true} {
		name := "follower listens"
		if initiatorListens {
			name = "initiator listens"
		}
		t.Run(name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			var cur atomic.Int32 // the game in progress
			// The ender of an "illegal" game is the side that receives the
			// bad move: the other side's second move is spoilt on its way.
			enderOf := func(e ending) int {
				if e.how == "illegal" {
					return 1 - e.by
				}
				return e.by
			}
			spoil := func(side int) func(string) string {
				moves := 0
				return func(f string) string {
					switch f[0] {
					case 'R', 'A':
						moves = 0
					case 'M':
						moves++
						if e := plan[cur.Load()]; e.by == side && e.how == "illegal" && moves == 2 {
							return illegal[:len(illegal)-1]
						}
					}
					return f
				}
			}
			early := func(side int) func(*game.Game) (int, bool) {
				return func(g *game.Game) (int, bool) {
					if e := plan[cur.Load()]; e.by == side && e.how != "illegal" && g.Ply() >= 4 {
						return e.reason, true
					}
					return 0, false
				}
			}

			ln, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			defer ln.Close()
			acc := make(chan net.Conn, 1)
			go func() {
				c, err := ln.Accept()
				if err != nil {
					c = nil
				}
				acc <- c
			}()
			dialed, err := net.Dial("tcp", ln.Addr().String())
			if err != nil {
				t.Fatal(err)
			}
			accepted := <-acc
			if accepted == nil {
				t.Fatal("accept failed")
			}
			ic, fc := dialed, accepted
			if initiatorListens {
				ic, fc = accepted, dialed
			}
			itap := &tapConn{Conn: ic, rewrite: spoil(initiator)}
			ftap := &tapConn{Conn: fc, rewrite: spoil(follower)}
			icfg, fcfg := testConfig(v, "initiator"), testConfig(v, "follower")
			icfg.endEarly, fcfg.endEarly = early(initiator), early(follower)

			followed := make(chan []Result, 1)
			go func() {
				var seen []Result
				ServeFollower(ctx, ftap, fcfg, func(r Result) { seen = append(seen, r) })
				followed <- seen
			}()
			d := NewPeer(itap, v, icfg.Name, zerolog.Nop())
			var results []Result
			for i := range plan {
				cur.Store(int32(i))
				r, err := PlayGame(ctx, d, icfg, GameSpec{Start: v.Start(), Me: movegen.Color(i % 2)}, i == len(plan)-1)
				if err != nil {
					t.Fatalf("game %d: %v", i+1, err)
				}
				results = append(results, r)
			}
			var seen []Result
			select {
			case seen = <-followed:
			case <-time.After(10 * time.Second):
				t.Fatal("the follower did not end the session after the last game")
			}
			d.Close()

			if len(seen) != len(plan) {
				t.Fatalf("the follower saw %d games, want %d", len(seen), len(plan))
			}
			for i, e := range plan {
				ender := movegen.Color(i % 2) // the initiator's colour
				if enderOf(e) == follower {
					ender = ender.Other()
				}
				want := game.Ongoing
				switch e.how {
				case "resign":
					want = game.WhiteWins
					if ender == movegen.White {
						want = game.BlackWins
					}
				case "draw":
					want = game.Draw
				}
				if results[i].Result != want || seen[i].Result != want {
					t.Errorf("game %d (%s by side %d): results %v (initiator), %v (follower), want %v",
						i+1, e.how, e.by, results[i].Result, seen[i].Result, want)
				}
			}

			// One GAMEEND from each side in each game: the initiator's
			// stream cut at its GAMEREQs, the follower's at its GAMEACCs.
			for side, tap := range []*tapConn{itap, ftap} {
				frames, bad := tap.recorded()
				if len(bad) > 0 {
					t.Errorf("side %d wrote %q, not one frame per write", side, bad)
				}
				var games [][]string
				for _, f := range frames {
					switch {
					case f[0] == 'R' && side == initiator, f[0] == 'A' && side == follower:
						games = append(games, nil)
					case len(games) == 0:
						t.Errorf("side %d sent %q before the first game", side, f)
						continue
					}
					if f[0] == 'E' {
						games[len(games)-1] = append(games[len(games)-1], f)
					}
				}
				if len(games) != len(plan) {
					t.Fatalf("side %d took part in %d games, want %d", side, len(games), len(plan))
				}
				for i, ends := range games {
					e := plan[i]
					reason := 0 // an answer
					if enderOf(e) == side {
						reason = e.reason
					}
					if len(ends) != 1 || ends[0][1] != byte('0'+reason) {
						t.Errorf("game %d (%s by side %d): side %d sent GAMEENDs %q, want one of reason %d",
							i+1, e.how, e.by, side, ends, reason)
					}
				}
			}
		})
	}
}
