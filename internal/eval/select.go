package eval

import (
	"embed"
	"fmt"
	"sync"

	"github.com/riodraughts/rio/internal/movegen"
)

// The built-in learned weights, one file per variant, trained by the
// README's recipe (engine selfplay, then engine tune).
//
//go:embed weights/*.rwt
var builtinFiles embed.FS

var builtin sync.Map // *movegen.Variant -> *Model

// Builtin returns the built-in learned model of v.
func Builtin(v *movegen.Variant) *Model {
	if m, ok := builtin.Load(v); ok {
		return m.(*Model)
	}
	data, err := builtinFiles.ReadFile("weights/" + v.Name + ".rwt")
	if err != nil {
		panic("eval: no built-in weights for " + v.Name)
	}
	m, err := Unmarshal(data, v)
	if err != nil {
		panic("eval: built-in weights for " + v.Name + ": " + err.Error())
	}
	actual, _ := builtin.LoadOrStore(v, m)
	return actual.(*Model)
}

// Learned evaluates p with v's built-in learned weights: the default
// evaluation.
func Learned(v *movegen.Variant, p *movegen.Position) int {
	var m *Model
	switch v {
	case movegen.Portuguese:
		m = learnedPortuguese()
	case movegen.Russian:
		m = learnedRussian()
	default:
		m = learnedBrazilian()
	}
	return m.Evaluate(v, p)
}

var (
	learnedBrazilian  = sync.OnceValue(func() *Model { return Builtin(movegen.Brazilian) })
	learnedRussian    = sync.OnceValue(func() *Model { return Builtin(movegen.Russian) })
	learnedPortuguese = sync.OnceValue(func() *Model { return Builtin(movegen.Portuguese) })
)

// Func is an evaluation: the score of a position for the side to move in
// hundredths of a man.
type Func = func(*movegen.Variant, *movegen.Position) int

// Names are the evaluations Select knows, the default first.
var Names = []string{"learned", "classic"}

// Select returns the evaluation named name ("learned" or "classic") for
// variant v; file, if not empty, is a weights file that replaces the
// built-in learned weights (it must be for v).
func Select(v *movegen.Variant, name, file string) (Func, error) {
	switch name {
	case "classic":
		if file != "" {
			return nil, fmt.Errorf("eval-file %s needs eval learned", file)
		}
		return Evaluate, nil
	case "learned", "":
		if file == "" {
			// v's weights are read now, not in the first search, which
			// would pay for it (some 50 ms) on its clock or in its time.
			Builtin(v)
			return Learned, nil
		}
		m, err := LoadModel(file, v)
		if err != nil {
			return nil, err
		}
		return m.Evaluate, nil
	}
	return nil, fmt.Errorf("unknown eval %q (want learned or classic)", name)
}
