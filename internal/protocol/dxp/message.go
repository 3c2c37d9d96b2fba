package dxp

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/riodraughts/rio/internal/movegen"
)

// DXP (DamExchange) messages, as shared/spec/dxp.md lays them out on 8x8:
// one letter, fixed-width fields, one NUL at the end. Each type parses and
// formats itself; Parse reads any.

// Version is the protocol version sent in GAMEREQ.
const Version = "01"

// Message is one DXP message.
type Message interface {
	// Format returns the message without its terminating NUL.
	Format() string
}

// GameReq (R) proposes a game.
type GameReq struct {
	Version        string
	Initiator      string // name, up to 32 characters
	FollowerColour movegen.Color
	Minutes        int // per player for the game
	Moves          int // per time period; 0: the whole game
	// Board is 'A' for the initial position with White to move; otherwise
	// Side and Squares (one character per square, square-number order)
	// give the position.
	Initial bool
	Side    movegen.Color
	Squares string
}

// GameAcc (A) answers a GameReq.
type GameAcc struct {
	Follower string
	Code     int // 0 accept, 1 wrong version, 2 not this game, 3 not at all
}

// Move (M) is a move with the seconds its sender used.
type Move struct {
	Seconds  int
	From, To int
	Captured []int
}

// GameEnd (E) ends a game.
type GameEnd struct {
	Reason int // 0 none, 1 I lose, 2 draw, 3 I win
	Stop   int // 0 play on with another game, 1 stop
}

// Chat (C) is free text.
type Chat struct{ Text string }

// BackReq (B) asks to go back to a side's n-th move.
type BackReq struct {
	Move int
	Side movegen.Color
}

// BackAcc (K) answers a BackReq: 0 accepted, 1 not supported, 2 refused.
type BackAcc struct{ Code int }

// DXP game-acceptance codes.
const (
	AccAccept       = 0
	AccWrongVersion = 1
	AccNotThisGame  = 2
	AccNotAtAll     = 3
)

func colourChar(c movegen.Color) byte {
	if c == movegen.White {
		return 'W'
	}
	return 'Z'
}

func parseColour(b byte) (movegen.Color, error) {
	switch b {
	case 'W':
		return movegen.White, nil
	case 'Z':
		return movegen.Black, nil
	}
	return 0, fmt.Errorf("colour %q is not W or Z", b)
}

func pad(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s + strings.Repeat(" ", n-len(s))
}

func num(n, width int) string {
	s := strconv.Itoa(n)
	if len(s) > width {
		s = s[len(s)-width:]
	}
	return strings.Repeat("0", width-len(s)) + s
}

func (m GameReq) Format() string {
	var sb strings.Builder
	sb.WriteString("R")
	sb.WriteString(pad(m.Version, 2))
	sb.WriteString(pad(m.Initiator, 32))
	sb.WriteByte(colourChar(m.FollowerColour))
	sb.WriteString(num(m.Minutes, 3))
	sb.WriteString(num(m.Moves, 3))
	if m.Initial {
		sb.WriteByte('A')
	} else {
		sb.WriteByte('B')
		sb.WriteByte(colourChar(m.Side))
		sb.WriteString(m.Squares)
	}
	return sb.String()
}

func (m GameAcc) Format() string { return "A" + pad(m.Follower, 32) + strconv.Itoa(m.Code) }

func (m Move) Format() string {
	var sb strings.Builder
	sb.WriteString("M")
	sb.WriteString(num(m.Seconds, 4))
	sb.WriteString(num(m.From, 2))
	sb.WriteString(num(m.To, 2))
	sb.WriteString(num(len(m.Captured), 2))
	for _, c := range m.Captured {
		sb.WriteString(num(c, 2))
	}
	return sb.String()
}

func (m GameEnd) Format() string { return "E" + strconv.Itoa(m.Reason) + strconv.Itoa(m.Stop) }
func (m Chat) Format() string    { return "C" + m.Text }
func (m BackReq) Format() string { return "B" + num(m.Move, 3) + string(colourChar(m.Side)) }
func (m BackAcc) Format() string { return "K" + strconv.Itoa(m.Code) }

// digits reads a fixed-width decimal field.
func digits(s string, field string) (int, error) {
	if s == "" {
		return 0, fmt.Errorf("%s missing", field)
	}
	for i := range len(s) {
		if s[i] < '0' || s[i] > '9' {
			return 0, fmt.Errorf("%s %q is not a number", field, s)
		}
	}
	n, _ := strconv.Atoi(s)
	return n, nil
}

// Parse reads one message (without its NUL).
func Parse(s string) (Message, error) {
	if s == "" {
		return nil, errors.New("empty message")
	}
	if len(s) > 127 {
		return nil, fmt.Errorf("message of %d bytes (at most 127)", len(s))
	}
	for i := range len(s) {
		if s[i] < 32 || s[i] > 126 {
			return nil, fmt.Errorf("byte %#x in a message", s[i])
		}
	}
	body := s[1:]
	need := func(n int) error {
		if len(body) < n {
			return fmt.Errorf("%c message too short (%d bytes)", s[0], len(s))
		}
		return nil
	}
	switch s[0] {
	case 'R':
		if err := need(2 + 32 + 1 + 3 + 3 + 1); err != nil {
			return nil, err
		}
		m := GameReq{Version: body[0:2], Initiator: strings.TrimRight(body[2:34], " ")}
		var err error
		if m.FollowerColour, err = parseColour(body[34]); err != nil {
			return nil, err
		}
		if m.Minutes, err = digits(body[35:38], "minutes"); err != nil {
			return nil, err
		}
		if m.Moves, err = digits(body[38:41], "moves"); err != nil {
			return nil, err
		}
		switch body[41] {
		case 'A':
			m.Initial = true
			if len(body) != 42 {
				return nil, errors.New("GAMEREQ with the initial position has trailing bytes")
			}
		case 'B':
			if len(body) < 43 {
				return nil, errors.New("GAMEREQ position without side to move")
			}
			if m.Side, err = parseColour(body[42]); err != nil {
				return nil, err
			}
			m.Squares = body[43:]
		default:
			return nil, fmt.Errorf("GAMEREQ start %q is not A or B", body[41])
		}
		return m, nil
	case 'A':
		if len(body) != 33 {
			return nil, fmt.Errorf("GAMEACC of %d bytes (want 34)", len(s))
		}
		code, err := digits(body[32:33], "code")
		if err != nil || code > 3 {
			return nil, fmt.Errorf("GAMEACC code %q", body[32:33])
		}
		return GameAcc{Follower: strings.TrimRight(body[:32], " "), Code: code}, nil
	case 'M':
		if err := need(10); err != nil {
			return nil, err
		}
		var m Move
		var err error
		if m.Seconds, err = digits(body[0:4], "time"); err != nil {
			return nil, err
		}
		if m.From, err = digits(body[4:6], "from"); err != nil {
			return nil, err
		}
		if m.To, err = digits(body[6:8], "to"); err != nil {
			return nil, err
		}
		n, err := digits(body[8:10], "capture count")
		if err != nil {
			return nil, err
		}
		if len(body) != 10+2*n {
			return nil, fmt.Errorf("MOVE announces %d captures but holds %d bytes", n, len(body))
		}
		for i := range n {
			c, err := digits(body[10+2*i:12+2*i], "captured square")
			if err != nil {
				return nil, err
			}
			m.Captured = append(m.Captured, c)
		}
		return m, nil
	case 'E':
		if len(body) != 2 {
			return nil, fmt.Errorf("GAMEEND of %d bytes (want 3)", len(s))
		}
		r, err1 := digits(body[0:1], "reason")
		st, err2 := digits(body[1:2], "stop code")
		if err1 != nil || err2 != nil || r > 3 || st > 1 {
			return nil, fmt.Errorf("GAMEEND %q", s)
		}
		return GameEnd{Reason: r, Stop: st}, nil
	case 'C':
		return Chat{Text: body}, nil
	case 'B':
		if len(body) != 4 {
			return nil, fmt.Errorf("BACKREQ of %d bytes (want 5)", len(s))
		}
		n, err := digits(body[0:3], "move number")
		if err != nil {
			return nil, err
		}
		c, err := parseColour(body[3])
		if err != nil {
			return nil, err
		}
		return BackReq{Move: n, Side: c}, nil
	case 'K':
		if len(body) != 1 {
			return nil, fmt.Errorf("BACKACC of %d bytes (want 2)", len(s))
		}
		code, err := digits(body, "code")
		if err != nil || code > 2 {
			return nil, fmt.Errorf("BACKACC code %q", body)
		}
		return BackAcc{Code: code}, nil
	}
	return nil, fmt.Errorf("unknown message type %q", s[0])
}

// maxFrame bounds a frame: a DXP message is at most 127 bytes.
const maxFrame = 127

// errFrameTooLong is returned when more than maxFrame bytes come without a
// NUL; the connection cannot be trusted after it.
var errFrameTooLong = errors.New("more than 127 bytes without a NUL")

// Framer reads NUL-terminated messages from a stream, whatever the
// network does to them (split or glued reads), holding at most one
// message's bytes.
type Framer struct {
	r *bufio.Reader
}

// NewFramer reads frames from r.
func NewFramer(r io.Reader) *Framer { return &Framer{r: bufio.NewReaderSize(r, 512)} }

// Next returns the next message's text (without the NUL).
func (f *Framer) Next() (string, error) {
	var buf []byte
	for {
		b, err := f.r.ReadByte()
		if err != nil {
			if err == io.EOF && len(buf) > 0 {
				return "", io.ErrUnexpectedEOF
			}
			return "", err
		}
		if b == 0 {
			return string(buf), nil
		}
		if len(buf) == maxFrame {
			return "", errFrameTooLong
		}
		buf = append(buf, b)
	}
}

// Write writes one message and its NUL.
func Write(w io.Writer, m Message) error {
	_, err := io.WriteString(w, m.Format()+"\x00")
	return err
}

// Board writes p as GAMEREQ's board field: 32 characters in the
// variant's square order, e empty, w/z men, W/Z kings.
func Board(v *movegen.Variant, p *movegen.Position) string {
	hub := v.FormatHub(p) // W/B + w b W B e
	return strings.NewReplacer("b", "z", "B", "Z").Replace(hub[1:])
}

// ParseBoard reads a GAMEREQ board for variant v; a board of another
// length (a 10x10 game) is an error.
func ParseBoard(v *movegen.Variant, side movegen.Color, squares string) (movegen.Position, error) {
	if len(squares) != 32 {
		return movegen.Position{}, fmt.Errorf("board of %d squares (Rio plays 8x8: 32)", len(squares))
	}
	hub := []byte("WB")[side:][:1]
	for i := range len(squares) {
		switch c := squares[i]; c {
		case 'e', 'w', 'W':
			hub = append(hub, c)
		case 'z':
			hub = append(hub, 'b')
		case 'Z':
			hub = append(hub, 'B')
		default:
			return movegen.Position{}, fmt.Errorf("board character %q at square %d", c, i+1)
		}
	}
	return v.ParseHub(string(hub))
}
