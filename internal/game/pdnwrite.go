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
		fmt.Fprintf(bw, "[%s %s]\n", t.Name, quote(t.Value))
	}
	bw.WriteString("\n")

	lw := lineWriter{w: bw, width: 80}
	style := PDNStyleOf(g.Variant)
	comments := g.Comments
	writeComments := func(ply int) {
		for len(comments) > 0 && comments[0].Ply <= ply {
			if comments[0].Ply == ply {
				lw.word("{" + commentText(comments[0].Text) + "}")
			}
			comments = comments[1:]
		}
	}
	writeComments(0)
	for i, m := range g.Moves() {
		p := g.PositionAt(i)
		if p.Side == movegen.White {
			lw.word(strconv.Itoa(1+i/2+int(start.Side)) + ".")
		} else if i == 0 {
			lw.word("1...")
		}
		lw.word(g.Variant.FormatPDN(&p, m, style))
		writeComments(i + 1)
	}
	lw.word(result.PDN())
	bw.WriteString("\n\n")
	return bw.Flush()
}

// quote writes a tag value with PDN's escapes.
func quote(s string) string {
	s = strings.ReplaceAll(s, `\`, `\\`)
	s = strings.ReplaceAll(s, `"`, `\"`)
	s = strings.ReplaceAll(s, "\n", " ")
	return `"` + s + `"`
}

// lineWriter writes words separated by spaces, wrapping lines.
type lineWriter struct {
	w     *bufio.Writer
	width int
	col   int
}

func (lw *lineWriter) word(s string) {
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

// commentText makes text safe inside a {comment}: braces become
// parentheses, since readers (Rio's among them) nest or end comments at
// them.
func commentText(text string) string {
	return strings.NewReplacer("{", "(", "}", ")").Replace(text)
}
