package dxp

import (
	"context"
	"net"
	"testing"

	"github.com/riodraughts/rio/internal/book"
	"github.com/riodraughts/rio/internal/movegen"
	"github.com/rs/zerolog"
)

// With a book, Rio's move in a position of the book is the book's: a
// book that prefers the start's last legal move makes it Rio's first.
func TestDXPBook(t *testing.T) {
	v := movegen.Russian
	start := v.Start()
	var buf [movegen.MaxMoves]movegen.Move
	legal := v.Generate(&start, buf[:0])
	var recs []book.Record
	for i, m := range legal {
		recs = append(recs, book.Record{Key: start.Hash, From: m.From(), To: m.To(), Captured: m.Captured(), Score: int16(i * 10)})
	}
	a, b := net.Pipe()
	go ServeFollower(context.Background(), b, testConfig(v, "follower"), nil)
	cfg := testConfig(v, "initiator")
	cfg.Book = book.New(v, recs)
	d := NewPeer(a, v, cfg.Name, zerolog.Nop())
	defer d.Close()
	r, err := PlayGame(context.Background(), d, cfg, GameSpec{Start: start, Me: movegen.White}, true)
	if err != nil {
		t.Fatal(err)
	}
	if moves := r.Game.Moves(); len(moves) == 0 || moves[0] != legal[len(legal)-1] {
		t.Errorf("first move %v, want the book's %s", moves, v.FormatMove(legal[len(legal)-1]))
	}
}
