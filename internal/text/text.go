// Package text holds small string helpers shared by packages that must not
// import one another.
package text

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Clip makes s fit to be quoted in an error message: every non-printable
// rune becomes '?' (no control characters reach a terminal or a log), and
// when more than n bytes remain it keeps at most the first n, cut at a rune
// boundary, followed by "...". A negative n counts as 0.
func Clip(s string, n int) string {
	s = strings.Map(func(r rune) rune {
		if unicode.IsPrint(r) {
			return r
		}
		return '?'
	}, s)
	if len(s) <= n {
		return s
	}
	n = max(n, 0)
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "..."
}
