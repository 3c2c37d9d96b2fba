package annotate

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/riodraughts/rio/internal/egdb"
	"github.com/riodraughts/rio/internal/movegen"
	"github.com/riodraughts/rio/internal/search"
)

// WhiteScore returns e's score from White's view, e being a position with
// side to move.
func WhiteScore(e *Eval, side movegen.Color) int {
	if side == movegen.Black {
		return -e.Score
	}
	return e.Score
}

// FormatScore writes a score from White's view as [%eval] does: men with
// two decimals, or #n / #-n for a win / loss in n plies (search.MateIn).
func FormatScore(white int) string {
	if n, ok := search.MateIn(white); ok {
		return "#" + strconv.Itoa(n)
	}
	return men(white)
}

// TableNote describes a table value of a position with side to move, from
// White's view: "draw", "white wins in 21".
func TableNote(val egdb.Value, side movegen.Color) string {
	winner := side
	switch val.WDL {
	case egdb.Draw:
		return "draw"
	case egdb.Loss:
		winner = side.Other()
	}
	return fmt.Sprintf("%s wins in %d", winner, val.Dist)
}

// evalComment is the comment after a move: the value of the position it
// reached (side to move), or "" when the game is over there.
func evalComment(e *Eval, side movegen.Color) string {
	switch e.Source {
	case GameOver:
		return ""
	case FromTable:
		return fmt.Sprintf("[%%eval %s] egdb: %s", FormatScore(WhiteScore(e, side)), TableNote(e.Table, side))
	}
	if e.Depth == 0 { // a forced move into the tables
		return fmt.Sprintf("[%%eval %s]", FormatScore(WhiteScore(e, side)))
	}
	return fmt.Sprintf("[%%eval %s,%d]", FormatScore(WhiteScore(e, side)), e.Depth)
}

var (
	// ownEval is a whole comment as evalComment writes it.
	ownEval = regexp.MustCompile(`^\[%eval [^\]]*\]( egdb: (draw|(white|black) wins in \d+))?$`)
	// anyEval is an [%eval] command inside another comment.
	anyEval = regexp.MustCompile(`\s*\[%eval\b[^\]]*\]`)
)

// cleanComment removes earlier evaluations from a comment read back: it
// returns what is left and whether to keep the comment.
func cleanComment(text string) (string, bool) {
	if ownEval.MatchString(text) {
		return "", false
	}
	if strings.Contains(text, "[%eval") {
		text = strings.TrimSpace(anyEval.ReplaceAllString(text, ""))
		return text, text != ""
	}
	return text, true
}
