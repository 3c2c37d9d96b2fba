package game

import (
	"bytes"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode"

	"github.com/riodraughts/rio/internal/movegen"
	"github.com/riodraughts/rio/internal/text"
)

// PDNGame is one game read from a PDN file. Err is set when the game could
// not be replayed (its Game then holds the moves before the problem).
type PDNGame struct {
	// Number is the game's position in the file, from 1.
	Number int
	Game   *Game
	// Declared is the result the file gives (Result tag or the result
	// token ending the moves).
	Declared Result
	Err      error
	// Text is the game as written in the file, from its first tag (or
	// first move) to its end, for a copy that keeps what could not be
	// read.
	Text string
	// Rest is, when a move could not be played (Err is a *MoveError), the
	// movetext as written from that move up to the result token.
	Rest string
	// Truncated reports that the game's text ends inside a comment or a
	// variation: the file was likely cut short.
	Truncated bool
}

// MoveError reports a move that could not be played.
type MoveError struct {
	Ply  int    // the ply it would have been, from 1
	Text string // the move as written
	Err  error
}

func (e *MoveError) Error() string {
	return fmt.Sprintf("ply %d: %q: %v", e.Ply, e.Text, e.Err)
}

func (e *MoveError) Unwrap() error { return e.Err }

// maxPDNSize bounds what ReadPDN reads, so a hostile input cannot exhaust
// memory.
const maxPDNSize = 256 << 20

// ReadPDN reads every game of a PDN 3.0 file. Games without a GameType tag
// are read as variant def. A broken game (bad tag, unsupported variant,
// bad FEN, illegal move) is returned with its Err set and the rest of the
// file is still read. Only a failure to read r is returned as an error.
func ReadPDN(r io.Reader, def *movegen.Variant) ([]PDNGame, error) {
	data, err := io.ReadAll(io.LimitReader(r, maxPDNSize+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxPDNSize {
		return nil, fmt.Errorf("PDN input larger than %d MiB", maxPDNSize>>20)
	}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	lx := &lexer{src: data}
	var games []PDNGame
	for {
		raw, ok := lx.nextGame()
		if !ok {
			return games, nil
		}
		games = append(games, raw.replay(len(games)+1, def))
	}
}

// rawGame is a game as read, before its moves are played.
type rawGame struct {
	tags     Tags
	tagErr   error
	moves    []moveToken
	result   string // the result token ending the moves, if any
	comments []Comment
	// text is the game's source; movesEnd is where its movetext ends in
	// it (the result token's start, or the end).
	text      string
	movesEnd  int
	truncated bool
}

type moveToken struct {
	text string
	// start is where the move (or its move number) begins in the game's
	// text.
	start int
}

// Comment is a {comment} of the movetext, placed after ply Ply (0: before
// the first move).
type Comment struct {
	Ply  int
	Text string
}

// lexer splits PDN text into games.
type lexer struct {
	src []byte
	i   int
	// unterminated is set when a comment or variation runs to the end.
	unterminated bool
}

func (lx *lexer) eof() bool { return lx.i >= len(lx.src) }

func (lx *lexer) skipSpace() {
	for !lx.eof() && isSpace(lx.src[lx.i]) {
		lx.i++
	}
}

func isSpace(b byte) bool {
	return b == ' ' || b == '\t' || b == '\n' || b == '\r' || b == '\f' || b == '\v'
}

// atLineStart reports whether position i begins a line (after spaces).
func (lx *lexer) atLineStart(i int) bool {
	for j := i - 1; j >= 0; j-- {
		switch lx.src[j] {
		case '\n':
			return true
		case ' ', '\t', '\r':
			continue
		default:
			return false
		}
	}
	return true
}

// skipGarbage moves to the next line that starts a game: a tag ('[') or a
// first move number ("1."). It reports false at the end of the input.
func (lx *lexer) skipGarbage() bool {
	for {
		lx.skipSpace()
		if lx.eof() {
			return false
		}
		if lx.atLineStart(lx.i) && (lx.src[lx.i] == '[' || startsMoveNumber(lx.src[lx.i:])) {
			return true
		}
		// Drop the rest of this line.
		for !lx.eof() && lx.src[lx.i] != '\n' {
			lx.i++
		}
	}
}

func startsMoveNumber(b []byte) bool {
	j := 0
	for j < len(b) && b[j] >= '0' && b[j] <= '9' {
		j++
	}
	return j > 0 && j < len(b) && b[j] == '.'
}

// nextGame reads the next game: tags, then movetext up to a result token,
// the next tag section or the end.
func (lx *lexer) nextGame() (rawGame, bool) {
	var g rawGame
	if !lx.skipGarbage() {
		return g, false
	}
	start := lx.i
	lx.unterminated = false
	// finish records the game's text, its movetext ending at movesEnd.
	finish := func(movesEnd int) (rawGame, bool) {
		g.text = string(bytes.TrimRightFunc(lx.src[start:lx.i], unicode.IsSpace))
		g.movesEnd = min(movesEnd-start, len(g.text))
		g.truncated = lx.unterminated
		return g, true
	}
	// Tag section.
	for {
		lx.skipSpace()
		if lx.eof() || lx.src[lx.i] != '[' {
			break
		}
		tag, err := lx.readTag()
		if err != nil && g.tagErr == nil {
			g.tagErr = err
		}
		if err == nil {
			g.tags = append(g.tags, tag)
		}
	}
	// Movetext. numberAt is where a move number waiting for its move
	// begins (-1: none).
	numberAt := -1
	for {
		lx.skipSpace()
		if lx.eof() {
			return finish(lx.i)
		}
		c := lx.src[lx.i]
		switch {
		case c == '[':
			return finish(lx.i) // the next game's tags: this one had no result
		case c == '{':
			text := lx.readDelimited('{', '}')
			g.comments = append(g.comments, Comment{len(g.moves), strings.TrimSpace(text)})
			numberAt = -1
		case c == '(':
			lx.readDelimited('(', ')') // variations are skipped
			numberAt = -1
		case c == ';':
			for !lx.eof() && lx.src[lx.i] != '\n' {
				lx.i++
			}
		case c == '%' && lx.atLineStart(lx.i):
			for !lx.eof() && lx.src[lx.i] != '\n' {
				lx.i++
			}
		default:
			at := lx.i
			word := lx.readWord()
			if isResult(word) {
				g.result = word
				return finish(at)
			}
			parts := splitMoveWord(word)
			if numberAt < 0 {
				numberAt = at
			}
			for _, part := range parts {
				g.moves = append(g.moves, moveToken{part, numberAt - start})
			}
			if len(parts) > 0 || !startsMoveNumber([]byte(word)) {
				numberAt = -1
			}
		}
	}
}

// readTag reads [Name "Value"].
func (lx *lexer) readTag() (Tag, error) {
	start := lx.i
	lx.i++ // '['
	end := lx.i
	for end < len(lx.src) && lx.src[end] != ']' && lx.src[end] != '\n' {
		if lx.src[end] == '"' { // skip the quoted value, which may hold ']'
			end++
			for end < len(lx.src) && lx.src[end] != '"' && lx.src[end] != '\n' {
				if lx.src[end] == '\\' {
					end++
				}
				end++
			}
		}
		if end < len(lx.src) && lx.src[end] != '\n' {
			end++
		}
	}
	body := string(lx.src[lx.i:min(end, len(lx.src))])
	if end < len(lx.src) && lx.src[end] == ']' {
		end++
	}
	lx.i = end
	body = strings.TrimSuffix(strings.TrimSpace(body), "]")
	name, value, ok := strings.Cut(strings.TrimSpace(body), " ")
	value = strings.TrimSpace(value)
	if !ok || name == "" || len(value) < 2 || value[0] != '"' || value[len(value)-1] != '"' {
		return Tag{}, fmt.Errorf("bad tag %q", text.Clip(string(lx.src[start:end]), 60))
	}
	return Tag{name, unescape(value[1 : len(value)-1])}, nil
}

// unescape undoes PDN's two escapes in a tag value, \" and \\; any other
// backslash is kept as written, and the bytes need not be UTF-8 (files in
// Latin-1 are common), so that a value written back with them reads the
// same.
func unescape(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) && (s[i+1] == '"' || s[i+1] == '\\') {
			i++
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// readDelimited reads a balanced {...} or (...) and returns its inside.
func (lx *lexer) readDelimited(open, close byte) string {
	depth := 0
	start := lx.i + 1
	for ; !lx.eof(); lx.i++ {
		switch lx.src[lx.i] {
		case open:
			depth++
		case close:
			depth--
			if depth == 0 {
				lx.i++
				return string(lx.src[start : lx.i-1])
			}
		}
	}
	lx.unterminated = true
	return string(lx.src[min(start, len(lx.src)):])
}

// readWord reads up to the next space or delimiter.
func (lx *lexer) readWord() string {
	start := lx.i
	for !lx.eof() && !isSpace(lx.src[lx.i]) && !strings.ContainsRune("{}()[];", rune(lx.src[lx.i])) {
		lx.i++
	}
	if lx.i == start { // a stray closing delimiter
		lx.i++
	}
	return string(lx.src[start:lx.i])
}

func isResult(w string) bool {
	switch w {
	case "2-0", "0-2", "1-1", "1-0", "0-1", "1/2-1/2", "*", "0-0":
		return true
	}
	return false
}

// parseResult maps a result string to a Result.
func parseResult(s string) Result {
	switch strings.TrimSpace(s) {
	case "2-0", "1-0":
		return WhiteWins
	case "0-2", "0-1":
		return BlackWins
	case "1-1", "1/2-1/2":
		return Draw
	}
	return Ongoing
}

// splitMoveWord removes move numbers ("12.", "12..." also glued to the
// move), NAGs ($3) and annotation marks (! ?) from a movetext word and
// returns what is left: zero or one move.
func splitMoveWord(w string) []string {
	if strings.HasPrefix(w, "$") {
		return nil
	}
	// A leading move number.
	j := 0
	for j < len(w) && w[j] >= '0' && w[j] <= '9' {
		j++
	}
	if j > 0 && j < len(w) && w[j] == '.' {
		for j < len(w) && w[j] == '.' {
			j++
		}
		w = w[j:]
	}
	w = strings.TrimRightFunc(w, func(r rune) bool { return r == '!' || r == '?' || r == '+' || r == '#' })
	if w == "" || strings.Trim(w, ".") == "" {
		return nil
	}
	return []string{w}
}

// variantOf reads the GameType tag ("26", or the full form "26,W,8,8,A0,0").
func variantOf(tags Tags, def *movegen.Variant) (*movegen.Variant, error) {
	gt := strings.TrimSpace(tags.Get("GameType"))
	if gt == "" {
		return def, nil
	}
	num, _, _ := strings.Cut(gt, ",")
	n, err := strconv.Atoi(strings.TrimSpace(num))
	if err != nil {
		return nil, fmt.Errorf("bad GameType %q", text.Clip(gt, 60))
	}
	for _, v := range movegen.Variants {
		if v.GameType == n {
			return v, nil
		}
	}
	return nil, fmt.Errorf("GameType %d is not a variant Rio plays (26 brazilian, 25 russian, 28 portuguese)", n)
}

// replay builds the Game of a raw game.
func (raw *rawGame) replay(number int, def *movegen.Variant) PDNGame {
	out := PDNGame{Number: number, Declared: parseResult(raw.tags.Get("Result")), Text: raw.text, Truncated: raw.truncated}
	if raw.result != "" && raw.result != "*" {
		out.Declared = parseResult(raw.result)
	}
	v, err := variantOf(raw.tags, def)
	if err != nil {
		out.Err = err
		return out
	}
	start := v.Start()
	if fen := raw.tags.Get("FEN"); fen != "" {
		if start, err = v.ParseFEN(fen); err != nil {
			out.Err = fmt.Errorf("FEN tag: %w", err)
			return out
		}
	}
	g := New(v, start)
	g.Tags = raw.tags
	out.Game = g
	if raw.tagErr != nil {
		out.Err = raw.tagErr
		return out
	}
	for i, tok := range raw.moves {
		if _, err := g.PlayText(tok.text); err != nil {
			out.Err = &MoveError{Ply: i + 1, Text: text.Clip(tok.text, 60), Err: err}
			out.Rest = strings.TrimSpace(raw.text[tok.start:max(raw.movesEnd, tok.start)])
			break
		}
	}
	for _, c := range raw.comments {
		if c.Ply <= g.Ply() {
			g.Comments = append(g.Comments, c)
		}
	}
	return out
}
