package dxp

import (
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/riodraughts/rio/internal/movegen"
)

func TestDXPMessages(t *testing.T) {
	name := "Rio" + strings.Repeat(" ", 29)
	start := "zzzzzzzzzzzzeeeeeeeewwwwwwwwwwww"
	cases := []struct {
		text string
		msg  Message
	}{
		// The spec's layouts: GAMEREQ with the initial position and with a
		// set-up one, GAMEACC, MOVE quiet and capturing, GAMEEND, CHAT,
		// BACKREQ, BACKACC.
		{"R01" + name + "Z005000A", GameReq{Version: "01", Initiator: "Rio", FollowerColour: movegen.Black, Minutes: 5, Moves: 0, Initial: true}},
		{"R01" + name + "W120040BZ" + start, GameReq{Version: "01", Initiator: "Rio", FollowerColour: movegen.White, Minutes: 120, Moves: 40, Side: movegen.Black, Squares: start}},
		{"A" + name + "0", GameAcc{Follower: "Rio", Code: 0}},
		{"A" + name + "2", GameAcc{Follower: "Rio", Code: 2}},
		{"M0012221700", Move{Seconds: 12, From: 22, To: 17}},
		{"M0003281902" + "23" + "24", Move{Seconds: 3, From: 28, To: 19, Captured: []int{23, 24}}},
		{"E10", GameEnd{Reason: 1, Stop: 0}},
		{"E21", GameEnd{Reason: 2, Stop: 1}},
		{"Chello there", Chat{Text: "hello there"}},
		{"B012W", BackReq{Move: 12, Side: movegen.White}},
		{"K1", BackAcc{Code: 1}},
	}
	for _, c := range cases {
		if got := c.msg.Format(); got != c.text {
			t.Errorf("%#v formats as %q, want %q", c.msg, got, c.text)
		}
		m, err := Parse(c.text)
		if err != nil {
			t.Errorf("%q: %v", c.text, err)
			continue
		}
		if m.Format() != c.text {
			t.Errorf("%q parses to %#v", c.text, m)
		}
	}
}

func TestDXPBadMessages(t *testing.T) {
	name := strings.Repeat(" ", 32)
	for _, s := range []string{
		"", "X", "Q123", "R01", "R01" + name + "Q005000A", "R01" + name + "Wabc000A", "R01" + name + "W005000C",
		"R01" + name + "W005000B", "R01" + name + "W005000AX", "A" + name, "A" + name + "7", "M00122217", "M001222170",
		"M0012221701", "M00122217012", "Mabcd221700", "E", "E1", "E19", "E40", "B01W", "B012Q", "K", "K5",
		strings.Repeat("C", 200), "C\x01",
	} {
		if m, err := Parse(s); err == nil {
			t.Errorf("%q accepted as %#v", s, m)
		}
	}
}

func TestFramer(t *testing.T) {
	msgs := []string{"E10", "Chi", "M0012221700"}
	stream := strings.Join(msgs, "\x00") + "\x00"
	for name, r := range map[string]io.Reader{
		"whole":        strings.NewReader(stream),
		"byte by byte": iotest.OneByteReader(strings.NewReader(stream)),
		"half reads":   iotest.HalfReader(strings.NewReader(stream)),
	} {
		f := NewFramer(r)
		for _, want := range msgs {
			got, err := f.Next()
			if err != nil || got != want {
				t.Fatalf("%s: got %q, %v; want %q", name, got, err, want)
			}
		}
		if _, err := f.Next(); err != io.EOF {
			t.Errorf("%s: at the end: %v", name, err)
		}
	}
	// 10 000 bytes without a NUL: refused after 127, not buffered.
	f := NewFramer(strings.NewReader(strings.Repeat("x", 10000)))
	if _, err := f.Next(); !errors.Is(err, errFrameTooLong) {
		t.Errorf("long frame: %v", err)
	}
	// A message cut by the end of the stream.
	f = NewFramer(strings.NewReader("E1"))
	if _, err := f.Next(); err != io.ErrUnexpectedEOF {
		t.Errorf("cut frame: %v", err)
	}
}

func TestDXPBoard(t *testing.T) {
	for _, v := range movegen.Variants {
		p := v.Start()
		b := Board(v, &p)
		if len(b) != 32 {
			t.Fatalf("%s: board %q", v.Name, b)
		}
		q, err := ParseBoard(v, p.Side, b)
		if err != nil || q != p {
			t.Errorf("%s: board %q does not read back: %v", v.Name, b, err)
		}
	}
	if _, err := ParseBoard(movegen.Brazilian, movegen.White, strings.Repeat("e", 50)); err == nil {
		t.Error("a 50-square board accepted")
	}
	if _, err := ParseBoard(movegen.Brazilian, movegen.White, strings.Repeat("e", 31)+"x"); err == nil {
		t.Error("a bad board character accepted")
	}
}

func FuzzParseDXP(f *testing.F) {
	for _, s := range []string{"E10", "M0003281902" + "2324", "R01Rio                             Z005000A", "B012W", "K1", "Chi"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		m, err := Parse(s)
		if err != nil {
			return
		}
		again, err := Parse(m.Format())
		if err != nil || again.Format() != m.Format() {
			t.Fatalf("%q -> %q does not read back: %v", s, m.Format(), err)
		}
	})
}
