package game

import "strings"

// Tag is one PDN tag pair.
type Tag struct{ Name, Value string }

// Tags are a game's tag pairs in order.
type Tags []Tag

// Get returns the value of the tag name (case-insensitive), or "".
func (t Tags) Get(name string) string {
	for _, tag := range t {
		if strings.EqualFold(tag.Name, name) {
			return tag.Value
		}
	}
	return ""
}

// Set sets tag name to value, replacing an earlier value.
func (t *Tags) Set(name, value string) {
	for i, tag := range *t {
		if strings.EqualFold(tag.Name, name) {
			(*t)[i].Value = value
			return
		}
	}
	*t = append(*t, Tag{name, value})
}
