package text

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestClip(t *testing.T) {
	for _, c := range []struct {
		s    string
		n    int
		want string
	}{
		{"", 5, ""},
		{"short", 5, "short"},
		{"longer", 5, "longe..."},
		{"a\x00b\nc\x1b[2J", 60, "a?b?c?[2J"},
		{"\tx", 1, "?..."},
		{"éé", 3, "é..."}, // no half rune
		{"éé", 2, "é..."},
		{"éé", 1, "..."},
		{"abc", 0, "..."},
		{"abc", -1, "..."},
		{"ab\xffcd", 60, "ab\uFFFDcd"}, // invalid UTF-8 shows as the replacement rune
	} {
		if got := Clip(c.s, c.n); got != c.want {
			t.Errorf("Clip(%q, %d) = %q, want %q", c.s, c.n, got, c.want)
		}
	}
	long := strings.Repeat("ж", 100)
	for n := range 12 {
		got := Clip(long, n)
		if !utf8.ValidString(got) || len(strings.TrimSuffix(got, "...")) > n {
			t.Errorf("Clip(long, %d) = %q: not valid UTF-8 of at most %d bytes plus ...", n, got, n)
		}
	}
}
