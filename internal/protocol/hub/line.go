package hub

import (
	"errors"
	"strings"
)

// Arg is one argument of a Hub line: key=value, or a bare flag (HasValue
// false). Quote forces quotes around the value when writing.
type Arg struct {
	Key, Value string
	HasValue   bool
	Quote      bool
}

// Line is a parsed Hub line.
type Line struct {
	Command string
	Args    []Arg
}

// Get returns the value of key and whether it is present.
func (l Line) Get(key string) (string, bool) {
	for _, a := range l.Args {
		if a.Key == key {
			return a.Value, true
		}
	}
	return "", false
}

// Has reports whether key is present, as a flag or with a value.
func (l Line) Has(key string) bool {
	_, ok := l.Get(key)
	return ok
}

// errUnterminated is returned for a value whose closing quote is missing.
var errUnterminated = errors.New("unterminated quoted value")

// ParseLine splits a Hub line: a command, then arguments separated by
// spaces, each key=value, key="quoted value" or a bare flag. An empty line
// gives an empty command.
func ParseLine(s string) (Line, error) {
	var l Line
	i := 0
	// Line ends (a stray \r from a Windows host) separate like spaces.
	space := func(b byte) bool { return b == ' ' || b == '\t' || b == '\r' || b == '\n' }
	skip := func() {
		for i < len(s) && space(s[i]) {
			i++
		}
	}
	word := func() string {
		start := i
		for i < len(s) && !space(s[i]) && s[i] != '=' {
			i++
		}
		return s[start:i]
	}
	skip()
	l.Command = word()
	if i < len(s) && s[i] == '=' {
		return Line{}, errors.New("a line must start with a command")
	}
	for {
		skip()
		if i >= len(s) {
			return l, nil
		}
		key := word()
		if key == "" {
			return Line{}, errors.New("argument without a name")
		}
		if i >= len(s) || s[i] != '=' {
			l.Args = append(l.Args, Arg{Key: key})
			continue
		}
		i++ // '='
		var value string
		if i < len(s) && s[i] == '"' {
			end := strings.IndexByte(s[i+1:], '"')
			if end < 0 {
				return Line{}, errUnterminated
			}
			value = s[i+1 : i+1+end]
			i += end + 2
		} else {
			start := i
			for i < len(s) && !space(s[i]) {
				i++
			}
			value = s[start:i]
		}
		l.Args = append(l.Args, Arg{Key: key, Value: value, HasValue: true})
	}
}

// Format writes a Hub line. Values are quoted when they are empty or hold
// a space or '='; a double quote inside a value becomes a single quote (the
// syntax has no escape).
func Format(command string, args ...Arg) string {
	var sb strings.Builder
	sb.WriteString(command)
	for _, a := range args {
		sb.WriteByte(' ')
		sb.WriteString(a.Key)
		if !a.HasValue {
			continue
		}
		sb.WriteByte('=')
		v := strings.ReplaceAll(a.Value, `"`, "'")
		if a.Quote || v == "" || strings.ContainsAny(v, " =\t\r\n") {
			sb.WriteByte('"')
			sb.WriteString(v)
			sb.WriteByte('"')
		} else {
			sb.WriteString(v)
		}
	}
	return sb.String()
}

// KV is a key=value argument.
func KV(key, value string) Arg { return Arg{Key: key, Value: value, HasValue: true} }

// Quoted is a key="value" argument that is always quoted (pv: some hosts
// strip its first and last character).
func Quoted(key, value string) Arg { return Arg{Key: key, Value: value, HasValue: true, Quote: true} }
