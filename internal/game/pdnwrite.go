package game

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/riodraughts/rio/internal/movegen"
)

// sevenTags are written first, in this order, with PDN's defaults.
var sevenTags = []Tag{
	{"Event", "?"}, {"Site", "?"}, {"Date", "????.??.??"}, {"Round", "?"},
	{"White", "?"}, {"Black", "?"}, {"Result", "*"},
}

// PDNStyleOf returns how moves of v are written in PDN: brazilian and
// russian with algebraic squares (russian captures with ':'), portuguese
// with numbers, as their GameType standards say.
func PDNStyleOf(v *movegen.Variant) movegen.PDNStyle {
	switch v {
	case movegen.Russian:
		return movegen.PDNStyle{Algebraic: true, CaptureSep: ':'}
	case movegen.Brazilian:
		return movegen.PDNStyle{Algebraic: true}
	}
	return movegen.PDNStyle{}
}

// WritePDN writes the game as PDN 3.0 with the given result: the seven
// standard tags, GameType, FEN when the game did not begin from the start
// position, the other tags, then the moves, comments and the result.
func (g *Game) WritePDN(w io.Writer, result Result) error {
	bw := bufio.NewWriter(w)
	tags := Tags{}
	for _, t := range sevenTags {
		v := g.Tags.Get(t.Name)
		if v == "" {
			v = t.Value
		}
		tags = append(tags, Tag{t.Name, v})
	}
	tags.Set("Result", result.PDN())
	tags.Set("GameType", strconv.Itoa(g.Variant.GameType))
	start := g.Start()
	if start != g.Variant.Start() {
		tags.Set("FEN", g.Variant.FormatFEN(&start, false))
	}
	for _, t := range g.Tags {
		if tags.Get(t.Name) == "" && !strings.EqualFold(t.Name, "FEN") {
			tags = append(tags, t)
		}
	}
	for _, t := range tags {
		fmt.Fprintf(bw, "[%s %s]\n", t.Name, QuoteTag(t.Value))
	}
	bw.WriteString("\n")

	lw := NewLineWriter(bw, 80)
	style := PDNStyleOf(g.Variant)
	comments := g.Comments
	writeComments := func(ply int) {
		for len(comments) > 0 && comments[0].Ply <= ply {
			if comments[0].Ply == ply {
				lw.Word("{" + CommentText(comments[0].Text) + "}")
			}
			comments = comments[1:]
		}
	}
	writeComments(0)
	for i, m := range g.Moves() {
		p := g.PositionAt(i)
		if p.Side == movegen.White {
			lw.Word(strconv.Itoa(1+i/2+int(start.Side)) + ".")
		} else if i == 0 {
			lw.Word("1...")
		}
		lw.Word(g.Variant.FormatPDN(&p, m, style))
		writeComments(i + 1)
	}
	lw.Word(result.PDN())
	bw.WriteString("\n\n")
	return bw.Flush()
}

// QuoteTag writes a tag value with PDN's escapes.
func QuoteTag(s string) string {
	s = strings.ReplaceAll(s, `\`, `\\`)
	s = strings.ReplaceAll(s, `"`, `\"`)
	s = strings.ReplaceAll(s, "\n", " ")
	return `"` + s + `"`
}

// LineWriter writes PDN movetext: words separated by spaces, lines
// wrapped at a width.
type LineWriter struct {
	w     *bufio.Writer
	width int
	col   int
}

// NewLineWriter returns a LineWriter on w wrapping at width columns.
func NewLineWriter(w *bufio.Writer, width int) *LineWriter {
	return &LineWriter{w: w, width: width}
}

// Word writes s after a space, or on a new line if it would pass the width.
func (lw *LineWriter) Word(s string) {
	if lw.col > 0 && lw.col+1+len(s) > lw.width {
		lw.w.WriteString("\n")
		lw.col = 0
	}
	if lw.col > 0 {
		lw.w.WriteString(" ")
		lw.col++
	}
	lw.w.WriteString(s)
	lw.col += len(s)
}

// CommentText makes text safe inside a {comment}: braces become
// parentheses, since readers (Rio's among them) nest or end comments at
// them.
func CommentText(text string) string {
	return strings.NewReplacer("{", "(", "}", ")").Replace(text)
}

// Raw writes text as it is, on the current line (a line break before it
// could make a first '%' an escape line); what follows goes on the same
// line unless the text's last line may hold a ';' comment (which runs to
// the end of the line) or a '%' escape.
func (lw *LineWriter) Raw(text string) {
	switch {
	case lw.col > 0:
		lw.w.WriteString(" ")
	case strings.HasPrefix(text, "%"):
		lw.w.WriteString("{} ") // something before it on its line
	}
	lw.w.WriteString(text)
	lastLine := text[strings.LastIndexByte(text, '\n')+1:]
	lw.col += len(lastLine) + 1
	if i := strings.LastIndexByte(text, '\n'); i >= 0 {
		lw.col = len(lastLine)
	}
	if strings.ContainsRune(lastLine, ';') || strings.HasPrefix(strings.TrimSpace(lastLine), "%") {
		lw.w.WriteString("\n")
		lw.col = 0
	}
}
