package search

import (
	"fmt"
	"reflect"
	"strings"
)

// FeatureNames are the switchable parts of the search, as
// ApplyFeatures names them.
func FeatureNames() []string {
	t := reflect.TypeOf(Features{})
	var names []string
	for i := range t.NumField() {
		if t.Field(i).Type.Kind() == reflect.Bool {
			names = append(names, t.Field(i).Name)
		}
	}
	return names
}

// ApplyFeatures switches features of base on (+Name) and off (-Name), as
// spec lists them separated by spaces or commas: how a match compares one
// part of the search at a real clock with a single binary (Hub's
// features parameter). Names are case-insensitive; an unknown one is an
// error naming the known ones.
func ApplyFeatures(base Features, spec string) (Features, error) {
	out := base
	v := reflect.ValueOf(&out).Elem()
	for _, word := range strings.FieldsFunc(spec, func(r rune) bool { return r == ' ' || r == ',' }) {
		on := true
		switch word[0] {
		case '+':
			word = word[1:]
		case '-':
			on, word = false, word[1:]
		}
		found := false
		for _, name := range FeatureNames() {
			if word != "" && strings.EqualFold(name, word) {
				v.FieldByName(name).SetBool(on)
				found = true
			}
		}
		if !found {
			return base, fmt.Errorf("unknown search feature %q (features: %s)", word, strings.Join(FeatureNames(), " "))
		}
	}
	return out, nil
}
