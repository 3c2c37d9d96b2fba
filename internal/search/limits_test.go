package search

import (
	"context"
	"testing"
	"time"

	"github.com/riodraughts/rio/internal/movegen"
	"github.com/rs/zerolog"
)

func TestBudget(t *testing.T) {
	ms := time.Millisecond
	cases := []struct {
		name       string
		lim        Limits
		soft, hard time.Duration // expected bounds: soft <= max soft, hard <= max hard
		minHard    time.Duration
	}{
		{"move-time", Limits{MoveTime: time.Second}, time.Second, time.Second - Safety + ms, 900 * ms},
		{"tiny move-time", Limits{MoveTime: 10 * ms}, 10 * ms, 10 * ms, 8500 * time.Microsecond}, // 15% margin
		{"short move-time", Limits{MoveTime: 200 * ms}, 200 * ms, 200 * ms, 170 * ms},
		{"0.1 s move-time", Limits{MoveTime: 100 * ms}, 100 * ms, 100 * ms, 85 * ms},
		{"sudden death", Limits{HasClock: true, Time: 60 * time.Second}, 4 * time.Second, 16 * time.Second, time.Second},
		{"increment", Limits{HasClock: true, Time: 10 * time.Second, Inc: 100 * ms}, 750 * ms, 3 * time.Second, 100 * ms},
		{"negative time, increment", Limits{HasClock: true, Time: -50 * ms, Inc: 100 * ms}, 50 * ms, 50 * ms, ms},
		{"last move before control", Limits{HasClock: true, Time: 2 * time.Second, MovesToGo: 1}, 2 * time.Second, 2 * time.Second, time.Second},
		{"float noise", Limits{HasClock: true, Time: 10200 * ms, Inc: 0}, time.Second, 4 * time.Second, 100 * ms},
	}
	for _, c := range cases {
		soft, hard := c.lim.budget()
		if soft < 0 || soft == 0 && c.lim.MoveTime == 0 || hard <= 0 || soft > c.soft || hard > c.hard || hard < c.minHard || soft > hard {
			t.Errorf("%s: soft %v hard %v (want soft <= %v, %v <= hard <= %v)", c.name, soft, hard, c.soft, c.minHard, c.hard)
		}
		if c.lim.HasClock && hard > c.lim.Time+c.lim.Inc-Safety && c.lim.Time+c.lim.Inc > Safety {
			t.Errorf("%s: hard %v oversteps the clock", c.name, hard)
		}
	}
	if s, h := (Limits{Depth: 5}).budget(); s != 0 || h != 0 {
		t.Error("a depth limit has no time budget")
	}
	if s, h := (Limits{Infinite: true, MoveTime: time.Second}).budget(); s != 0 || h != 0 {
		t.Error("infinite wins over move-time")
	}
}

// TestSuddenDeathBudget: 60 moves at time=1 inc=0 never flag, even if
// every move spends its whole hard limit and the host's delays add 10 ms
// to each; with an increment the clock is used, not hoarded.
func TestSuddenDeathBudget(t *testing.T) {
	ms := time.Millisecond
	left := time.Second
	for move := 1; move <= 60; move++ {
		_, hard := Limits{HasClock: true, Time: left}.budget()
		if left -= hard + 10*ms; left < 0 {
			t.Fatalf("move %d: the flag fell", move)
		}
	}
	t.Logf("1 s, 60 moves of hard limit + 10 ms: %v left", left)
	// An increment pays the overhead: nothing more is kept back.
	soft, _ := Limits{HasClock: true, Time: 10 * time.Second, Inc: 100 * ms}.budget()
	if want := (10*time.Second+100*ms-Safety)/(clockMoves+1) + 75*ms; soft != want {
		t.Errorf("10+0.1: soft %v, want %v", soft, want)
	}
}

// TestBudgetFrom: a budget counted from the host's start of the move pays
// for what happened before the search started.
func TestBudgetFrom(t *testing.T) {
	e := NewEngine(1, zerolog.Nop())
	g := newGame(t, movegen.Brazilian, "startpos")
	from := time.Now().Add(-150 * time.Millisecond)
	s := e.Start(context.Background(), g, Limits{MoveTime: 200 * time.Millisecond, From: from}, Options{}, nil)
	deadline, ok := s.Deadline()
	s.Stop()
	s.Wait()
	if want := from.Add(200*time.Millisecond - (Limits{MoveTime: 200 * time.Millisecond}).Margin()); !ok || deadline.Sub(want).Abs() > time.Millisecond {
		t.Errorf("deadline %v after the host's start, want %v", deadline.Sub(from), want.Sub(from))
	}
	if r, ok := s.Latest(); !ok || r.Move == movegen.NoMove {
		t.Errorf("no latest move after a stopped search: %+v", r)
	}
}
