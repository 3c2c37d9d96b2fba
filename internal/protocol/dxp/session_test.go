package dxp

import (
	"context"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/riodraughts/rio/internal/game"
	"github.com/riodraughts/rio/internal/movegen"
	"github.com/riodraughts/rio/internal/search"
	"github.com/rs/zerolog"
)

func testConfig(v *movegen.Variant, name string) *Config {
	return &Config{Variant: v, Name: name, Engine: search.NewEngine(8, zerolog.Nop()), Threads: 1,
		FastMove: 10 * time.Millisecond, Patience: 2 * time.Second, Log: zerolog.Nop()}
}

// TestDXPSelfPlay: Rio against Rio over a connection, Rio initiating, in
// every variant; the games end by the rules with legal moves.
func TestDXPSelfPlay(t *testing.T) {
	for _, v := range movegen.Variants {
		a, b := net.Pipe()
		followerDone := make(chan []Result)
		go func() {
			var seen []Result
			ServeFollower(context.Background(), b, testConfig(v, "follower"), func(r Result) { seen = append(seen, r) })
			followerDone <- seen
		}()
		cfg := testConfig(v, "initiator")
		d := NewPeer(a, v, cfg.Name, zerolog.Nop())
		var results []Result
		for i := range 2 {
			r, err := PlayGame(context.Background(), d, cfg, GameSpec{Start: v.Start(), Me: movegen.Color(i % 2)}, i == 1)
			if err != nil {
				t.Fatalf("%s game %d: %v", v.Name, i+1, err)
			}
			results = append(results, r)
		}
		d.Close()
		seen := <-followerDone
		if len(seen) != 2 {
			t.Fatalf("%s: follower saw %d games", v.Name, len(seen))
		}
		for i, r := range results {
			if r.Result == game.Ongoing || r.Game.Outcome().Result == game.Ongoing && !strings.Contains(r.Reason, "peer") {
				t.Errorf("%s game %d: ended %v (%s) without the rules deciding", v.Name, i+1, r.Result, r.Reason)
			}
			if !equalMoves(r.Game, seen[i].Game) {
				t.Errorf("%s game %d: the two sides recorded different games", v.Name, i+1)
			}
			replay := game.New(v, r.Game.Start())
			for _, m := range r.Game.Moves() {
				if err := replay.Play(m); err != nil {
					t.Fatalf("%s game %d: %v", v.Name, i+1, err)
				}
			}
		}
	}
}

func equalMoves(a, b *game.Game) bool {
	if a == nil || b == nil || a.Ply() != b.Ply() {
		return false
	}
	for i, m := range a.Moves() {
		if b.Moves()[i] != m {
			return false
		}
	}
	return true
}

// peer is a scripted DXP peer on the other end of a pipe.
type peer struct {
	t    *testing.T
	c    net.Conn
	f    *Framer
	done chan error
}

// startFollower serves Rio as follower against a scripted peer.
func startFollower(t *testing.T, v *movegen.Variant) *peer {
	a, b := net.Pipe()
	p := &peer{t: t, c: a, f: NewFramer(a), done: make(chan error, 1)}
	go func() { p.done <- ServeFollower(context.Background(), b, testConfig(v, "Rio"), nil) }()
	return p
}

func (p *peer) write(raw string) {
	p.c.SetWriteDeadline(time.Now().Add(3 * time.Second))
	if _, err := p.c.Write([]byte(raw)); err != nil {
		p.t.Fatalf("write %q: %v", raw, err)
	}
}

func (p *peer) read() string {
	p.c.SetReadDeadline(time.Now().Add(5 * time.Second))
	s, err := p.f.Next()
	if err != nil {
		p.t.Fatalf("read: %v", err)
	}
	return s
}

// finished checks that the follower returned (the listener would take the
// next peer) within a short time.
func (p *peer) finished() {
	p.c.Close()
	select {
	case <-p.done:
	case <-time.After(5 * time.Second):
		p.t.Fatal("follower did not return")
	}
}

func gameReq(minutes int, board string) string {
	r := GameReq{Version: "01", Initiator: "tester", FollowerColour: movegen.Black, Minutes: minutes}
	if board == "" {
		r.Initial = true
	} else {
		r.Side, r.Squares = movegen.White, board
	}
	return r.Format() + "\x00"
}

func TestDXPFollowerRobustness(t *testing.T) {
	v := movegen.Brazilian
	t.Run("split into single bytes and glued", func(t *testing.T) {
		p := startFollower(t, v)
		for _, b := range gameReq(0, "") {
			p.write(string(b))
		}
		if acc := p.read(); !strings.HasPrefix(acc, "A") || acc[len(acc)-1] != '0' {
			t.Fatalf("GAMEACC %q", acc)
		}
		// Our move and a chat in one write.
		p.write(Move{From: 22, To: 17}.Format() + "\x00" + Chat{Text: "hi"}.Format() + "\x00")
		if m := p.read(); m[0] != 'M' {
			t.Fatalf("expected Rio's move, got %q", m)
		}
		p.write(GameEnd{Reason: 1, Stop: 1}.Format() + "\x00")
		if e := p.read(); e != "E01" {
			t.Errorf("GAMEEND acknowledgement %q", e)
		}
		p.finished()
	})
	t.Run("50-square board", func(t *testing.T) {
		p := startFollower(t, v)
		p.write(gameReq(5, strings.Repeat("e", 50)))
		if acc := p.read(); acc[len(acc)-1] != '2' {
			t.Errorf("GAMEACC %q, want code 2", acc)
		}
		p.write(gameReq(5, strings.Repeat("e", 31)+"q"))
		if acc := p.read(); acc[len(acc)-1] != '2' {
			t.Errorf("malformed board: GAMEACC %q, want code 2", acc)
		}
		p.write("R02" + strings.Repeat(" ", 32) + "Z005000A\x00")
		if acc := p.read(); acc[len(acc)-1] != '1' {
			t.Errorf("version 02: GAMEACC %q, want code 1", acc)
		}
		p.finished()
	})
	t.Run("unknown message and garbage are skipped", func(t *testing.T) {
		p := startFollower(t, v)
		p.write("Qwhat\x00Mxx\x00\x00")
		p.write(gameReq(0, ""))
		if acc := p.read(); !strings.HasPrefix(acc, "A") {
			t.Errorf("after garbage: %q", acc)
		}
		p.finished()
	})
	t.Run("10000 bytes without NUL", func(t *testing.T) {
		p := startFollower(t, v)
		go p.c.Write([]byte(strings.Repeat("x", 10000)))
		select {
		case <-p.done:
		case <-time.After(5 * time.Second):
			t.Fatal("follower hung on a frame without end")
		}
		p.c.Close()
	})
	t.Run("illegal move ends the game", func(t *testing.T) {
		p := startFollower(t, v)
		p.write(gameReq(0, ""))
		p.read()
		p.write(Move{From: 22, To: 19}.Format() + "\x00")
		if e := p.read(); e != "E00" {
			t.Errorf("after an illegal move: %q, want E00", e)
		}
		// The follower waits for the next game.
		p.write(gameReq(0, ""))
		if acc := p.read(); !strings.HasPrefix(acc, "A") {
			t.Errorf("next game: %q", acc)
		}
		p.finished()
	})
	t.Run("peer closes mid-game", func(t *testing.T) {
		p := startFollower(t, v)
		p.write(gameReq(1, ""))
		p.read()
		p.finished()
	})
	t.Run("peer never answers", func(t *testing.T) {
		p := startFollower(t, v) // patience 2 s
		p.write(gameReq(0, ""))
		p.read()
		select {
		case <-p.done:
		case <-time.After(10 * time.Second):
			t.Fatal("follower waits forever")
		}
		p.c.Close()
	})
	t.Run("back request and out-of-turn end", func(t *testing.T) {
		p := startFollower(t, v)
		r := GameReq{Version: "01", Initiator: "tester", FollowerColour: movegen.White, Minutes: 0, Initial: true}
		p.write(r.Format() + "\x00")
		p.read()
		if m := p.read(); m[0] != 'M' { // Rio (White) moves first
			t.Fatalf("expected a move, got %q", m)
		}
		p.write(BackReq{Move: 1, Side: movegen.White}.Format() + "\x00")
		if k := p.read(); k != "K0" {
			t.Errorf("BACKREQ answered %q", k)
		}
		// Rio is to move again: it thinks and moves.
		if m := p.read(); m[0] != 'M' {
			t.Fatalf("after going back, expected a move, got %q", m)
		}
		p.write(GameEnd{Reason: 1, Stop: 0}.Format() + "\x00")
		if e := p.read(); e != "E00" {
			t.Errorf("acknowledgement %q", e)
		}
		p.finished()
	})
}

// TestDXPDrawRules: Rio claims a draw (GAMEEND) only by the rules it is
// told the games follow. From a lone king against two kings, with all the
// rules FMJD-64 7.2.8 ends the game after 5 moves; with repetition only,
// the same game goes on until a repetition or a capture ends it.
func TestDXPDrawRules(t *testing.T) {
	v := movegen.Russian
	start, err := v.ParseFEN("W:WK29:BK1,K2")
	if err != nil {
		t.Fatal(err)
	}
	for _, rules := range []game.RuleSet{game.AllRules, game.RepetitionOnly} {
		a, b := net.Pipe()
		follower := testConfig(v, "follower")
		follower.DrawRules = rules
		go ServeFollower(context.Background(), b, follower, func(Result) {})
		cfg := testConfig(v, "initiator")
		cfg.DrawRules = rules
		d := NewPeer(a, v, cfg.Name, zerolog.Nop())
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		r, err := PlayGame(ctx, d, cfg, GameSpec{Start: start, Me: movegen.White}, true)
		cancel()
		d.Close()
		if err != nil {
			t.Fatalf("%s: %v", rules, err)
		}
		by728 := strings.Contains(r.Reason, "7.2.8")
		if rules == game.AllRules && (!by728 || r.Game.Ply() != 10) || rules != game.AllRules && by728 {
			t.Errorf("%s: ended after %d plies: %v (%s)", rules, r.Game.Ply(), r.Result, r.Reason)
		}
		if r.Game.RuleSet() != rules {
			t.Errorf("%s: the game record follows %s", rules, r.Game.RuleSet())
		}
	}
}
