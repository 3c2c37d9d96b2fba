package cli

import (
	"github.com/riodraughts/rio/internal/eval"
	"github.com/riodraughts/rio/internal/movegen"
)

// evalFlags are --eval and --eval-file, taken by the commands that search.
type evalFlags struct {
	name, file string
}

func addEvalFlags(fs *cmdFlags, ef *evalFlags) {
	fs.StringVar(&ef.name, "eval", "learned", "evaluation: learned (pattern weights) or classic (hand-made)")
	fs.StringVar(&ef.file, "eval-file", "", "weights file to use instead of the built-in one (with --eval learned)")
}

// evaluator returns the evaluation the flags choose for v.
func (ef *evalFlags) evaluator(v *movegen.Variant) (func(*movegen.Variant, *movegen.Position) int, error) {
	fn, err := eval.Select(v, ef.name, ef.file)
	if err != nil {
		return nil, usageError{err}
	}
	return fn, nil
}
