package annotate

import (
	"bufio"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/riodraughts/rio/internal/game"
	"github.com/riodraughts/rio/internal/movegen"
)

// Summary tag names: per side (White, Black) the average loss in men per
// judged move and the count of each NAG.
const (
	tagAverageLoss  = "AverageLoss"
	tagInaccuracies = "Inaccuracies"
	tagMistakes     = "Mistakes"
	tagBlunders     = "Blunders"
)

// SummaryTags returns the tags the annotation adds to a game's own.
func SummaryTags(a *Game) game.Tags {
	var tags game.Tags
	for c, side := range []string{"White", "Black"} {
		s := &a.Sides[c]
		tags = append(tags,
			game.Tag{Name: side + tagAverageLoss, Value: strconv.FormatFloat(s.AverageLoss(), 'f', 2, 64)},
			game.Tag{Name: side + tagInaccuracies, Value: strconv.Itoa(s.NAGs[Inaccuracy])},
			game.Tag{Name: side + tagMistakes, Value: strconv.Itoa(s.NAGs[Mistake])},
			game.Tag{Name: side + tagBlunders, Value: strconv.Itoa(s.NAGs[Blunder])})
	}
	return tags
}

// WritePDN writes the annotated game (see the package doc), followed by a
// blank line; variations show up to pvPlies plies (DefaultPVPlies when
// below 1). A game that could not be read is written as it was.
func WritePDN(w io.Writer, a *Game, pvPlies int) error {
	if pvPlies < 1 {
		pvPlies = DefaultPVPlies
	}
	bw := bufio.NewWriter(w)
	pg := &a.PDN
	if !Analysable(pg) {
		bw.WriteString(pg.Text)
		bw.WriteString("\n\n")
		return bw.Flush()
	}
	src := pg.Game
	v := src.Variant
	tags := slices.Clone(src.Tags)
	if tags.Get("GameType") == "" {
		tags.Set("GameType", strconv.Itoa(v.GameType))
	}
	for _, t := range SummaryTags(a) {
		tags.Set(t.Name, t.Value)
	}
	for _, t := range tags {
		fmt.Fprintf(bw, "[%s %s]\n", t.Name, game.QuoteTag(t.Value))
	}
	bw.WriteString("\n")

	lw := game.NewLineWriter(bw, 80)
	style := game.PDNStyleOf(v)
	comments := src.Comments
	// ownComments writes the game's comments after ply; it reports
	// whether there were any.
	ownComments := func(ply int) bool {
		wrote := false
		for len(comments) > 0 && comments[0].Ply <= ply {
			if text, keep := cleanComment(comments[0].Text); keep && comments[0].Ply == ply {
				lw.Word("{" + game.CommentText(text) + "}")
				wrote = true
			}
			comments = comments[1:]
		}
		return wrote
	}
	start := src.Start()
	interrupted := ownComments(0)
	for i, m := range a.Moves {
		p := src.PositionAt(i)
		if number := moveNumber(start.Side, i); p.Side == movegen.White {
			lw.Word(number + ".")
		} else if i == 0 || interrupted {
			lw.Word(number + "...")
		}
		lw.Word(v.FormatPDN(&p, m.Move, style) + m.NAG.String())
		interrupted = false
		if c := evalComment(&m.After, m.Side.Other()); c != "" {
			lw.Word("{" + c + "}")
			interrupted = true
		}
		if ownComments(i + 1) {
			interrupted = true
		}
		if m.NAG >= Mistake && m.Before.Best != movegen.NoMove {
			line := m.Before.PV
			if len(line) == 0 || line[0] != m.Before.Best {
				line = []movegen.Move{m.Before.Best}
			}
			lw.Word("(" + variation(v, style, start.Side, i, p, line[:min(len(line), pvPlies)]) + ")")
			interrupted = true
		}
	}
	if pg.Rest != "" {
		rest := pg.Rest
		if pg.Truncated {
			rest += closers(rest)
		}
		lw.Raw(rest)
	}
	lw.Word(pg.Declared.PDN())
	bw.WriteString("\n\n")
	return bw.Flush()
}

// moveNumber is the PDN move number of ply i (from 0) of a game that
// began with first to move.
func moveNumber(first movegen.Color, i int) string {
	return strconv.Itoa(1 + (i+int(first))/2)
}

// variation writes line, played from p (ply i of the game), with its move
// numbers.
func variation(v *movegen.Variant, style movegen.PDNStyle, first movegen.Color, i int, p movegen.Position, line []movegen.Move) string {
	var words []string
	for k, m := range line {
		if p.Side == movegen.White {
			words = append(words, moveNumber(first, i+k)+".")
		} else if k == 0 {
			words = append(words, moveNumber(first, i+k)+"...")
		}
		words = append(words, v.FormatPDN(&p, m, style))
		p = p.Play(m)
	}
	return strings.Join(words, " ")
}

// closers returns what closes the comment or variation a movetext cut
// short leaves open (as game.ReadPDN reads them: a comment counts only
// braces, a variation only parentheses), so that what follows it is read.
func closers(text string) string {
	var open, close byte
	depth := 0
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch {
		case depth > 0 && c == open:
			depth++
		case depth > 0 && c == close:
			depth--
		case depth > 0:
		case c == '{':
			open, close, depth = '{', '}', 1
		case c == '(':
			open, close, depth = '(', ')', 1
		case c == ';' || c == '%' && escapeAt(text, i):
			for i < len(text) && text[i] != '\n' {
				i++
			}
		}
	}
	return strings.Repeat(string(close), depth)
}

// escapeAt reports whether the '%' at i begins a line of text (after
// spaces), as a PDN escape line does; the text's own start is not a line
// start (a rest of movetext begins with a word).
func escapeAt(text string, i int) bool {
	for j := i - 1; j >= 0; j-- {
		switch text[j] {
		case '\n':
			return true
		case ' ', '\t', '\r':
		default:
			return false
		}
	}
	return false
}
