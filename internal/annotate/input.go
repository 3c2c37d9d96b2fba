package annotate

import (
	"bytes"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/riodraughts/rio/internal/game"
	"github.com/riodraughts/rio/internal/movegen"
)

// maxInput bounds what Read reads (as game.ReadPDN does).
const maxInput = 256 << 20

// Read reads the games of a PDN file, games without GameType being of
// variant def. Data that is not PDN text is refused: a NUL byte (binary
// data), or text without a single game.
func Read(r io.Reader, def *movegen.Variant) ([]game.PDNGame, error) {
	data, err := io.ReadAll(io.LimitReader(r, maxInput+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxInput {
		return nil, fmt.Errorf("larger than %d MiB", maxInput>>20)
	}
	if i := bytes.IndexByte(data, 0); i >= 0 {
		return nil, fmt.Errorf("binary data (a NUL byte at offset %d), not a PDN file", i)
	}
	games, err := game.ReadPDN(bytes.NewReader(data), def)
	if err != nil {
		return nil, err
	}
	if len(games) == 0 {
		if len(bytes.TrimSpace(data)) == 0 {
			return nil, fmt.Errorf("empty: no PDN game")
		}
		return nil, fmt.Errorf("no PDN game found (no tag pair, no numbered move at the start of a line)")
	}
	return games, nil
}

// Selection is a set of game numbers, as --games gives it ("3,7-9"); the
// zero Selection is every game.
type Selection struct {
	ranges [][2]int
}

// ParseSelection reads a list of game numbers and ranges: "3,7-9".
func ParseSelection(s string) (Selection, error) {
	var sel Selection
	if strings.TrimSpace(s) == "" {
		return sel, nil
	}
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		a, b, isRange := strings.Cut(part, "-")
		lo, err1 := strconv.Atoi(strings.TrimSpace(a))
		hi, err2 := lo, error(nil)
		if isRange {
			hi, err2 = strconv.Atoi(strings.TrimSpace(b))
		}
		if err1 != nil || err2 != nil || lo < 1 || hi < lo {
			return Selection{}, fmt.Errorf("games %q: %q is not a game number or a range like 7-9 (games count from 1)", s, part)
		}
		sel.ranges = append(sel.ranges, [2]int{lo, hi})
	}
	return sel, nil
}

// Pick returns the games selected, in the file's order, then of those
// every n-th from the i-th (shard i of n, 1 <= i <= n). A number beyond
// the file's games is an error.
func (sel Selection) Pick(games []game.PDNGame, i, n int) ([]game.PDNGame, error) {
	if n < 1 || i < 1 || i > n {
		return nil, fmt.Errorf("shard %d/%d: want i/n with 1 <= i <= n", i, n)
	}
	for _, r := range sel.ranges {
		if r[1] > len(games) {
			return nil, fmt.Errorf("game %d asked for, but the file has %d games", r[1], len(games))
		}
	}
	var picked []game.PDNGame
	for _, g := range games {
		if sel.has(g.Number) {
			picked = append(picked, g)
		}
	}
	var shard []game.PDNGame
	for k, g := range picked {
		if k%n == i-1 {
			shard = append(shard, g)
		}
	}
	return shard, nil
}

func (sel Selection) has(number int) bool {
	if len(sel.ranges) == 0 {
		return true
	}
	for _, r := range sel.ranges {
		if number >= r[0] && number <= r[1] {
			return true
		}
	}
	return false
}
