package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"regexp"
	"strconv"
	"strings"

	"github.com/riodraughts/rio/internal/train"
)

// runProgress is the checkpoint of a self-play run, kept beside its output
// as OUT.progress and replaced (write, then rename) after every game
// appended: the run's settings, the games of the shard written, and the
// output's size after them. A run killed at any moment loses only the
// games in progress; --resume cuts off a game half written and goes on
// from the next one.
type runProgress struct {
	// Run names the settings that decide the games (variant, games, shard,
	// seed, limits, openings, evaluation): a resumed run must have the same.
	Run string
	// Next is the number of the shard's games written (its next game's
	// index in the shard); Bytes the output's size after them.
	Next  int
	Bytes int64
}

const progressMagic = "rio-selfplay-progress 1"

func progressPath(out string) string { return out + ".progress" }

func (p runProgress) write(out string) error {
	tmp := progressPath(out) + ".tmp"
	text := fmt.Sprintf("%s\nrun %s\nnext %d\nbytes %d\n", progressMagic, p.Run, p.Next, p.Bytes)
	if err := os.WriteFile(tmp, []byte(text), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, progressPath(out))
}

// gameWritten checkpoints a game of positions records just written to out.
func (p *runProgress) gameWritten(out string, positions int) error {
	p.Next++
	p.Bytes += int64(positions * train.RecordSize)
	return p.write(out)
}

// readProgress reads OUT.progress; ok is false when there is none.
func readProgress(out string) (p runProgress, ok bool, err error) {
	data, err := os.ReadFile(progressPath(out))
	if errors.Is(err, fs.ErrNotExist) {
		return p, false, nil
	} else if err != nil {
		return p, false, err
	}
	bad := func(why string) error { return fmt.Errorf("%s: %s", progressPath(out), why) }
	lines := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
	if len(lines) != 4 || lines[0] != progressMagic {
		return p, false, bad("not a self-play checkpoint")
	}
	var found [3]bool
	for _, l := range lines[1:] {
		key, val, _ := strings.Cut(l, " ")
		switch key {
		case "run":
			p.Run, found[0] = val, true
		case "next":
			n, err := strconv.Atoi(val)
			if err != nil || n < 0 {
				return p, false, bad("bad game count " + strconv.Quote(val))
			}
			p.Next, found[1] = n, true
		case "bytes":
			n, err := strconv.ParseInt(val, 10, 64)
			if err != nil || n < 0 {
				return p, false, bad("bad size " + strconv.Quote(val))
			}
			p.Bytes, found[2] = n, true
		}
	}
	if found != [3]bool{true, true, true} {
		return p, false, bad("incomplete")
	}
	return p, true, nil
}

// resumeRun picks up the interrupted run of out whose settings are run:
// its checkpoint must name the same settings, and out is cut back to the
// checkpoint's size (a game half written when the run stopped goes; a
// file shorter than its checkpoint is not this run's output).
func resumeRun(out, run string) (runProgress, error) {
	old, ok, err := readProgress(out)
	switch {
	case err != nil:
		return old, usageError{err}
	case !ok:
		return old, usagef("--resume: no checkpoint %s", progressPath(out))
	case old.Run != run:
		return old, usagef("--resume: %s is of another run (%s), not %s", progressPath(out), old.Run, run)
	}
	if fi, err := os.Stat(out); err != nil || fi.Size() < old.Bytes {
		return old, usagef("--resume: %s is shorter than its checkpoint says (%d bytes): not this run's output", out, old.Bytes)
	}
	if err := os.Truncate(out, old.Bytes); err != nil {
		return old, usageError{fmt.Errorf("--resume: %w", err)}
	}
	return old, nil
}

// checkNotRerun refuses to start, without --resume, the run whose games out
// already holds: selfplay appends, so the same settings again would write
// the same games a second time, and the fit would count them twice (and
// could hold out one copy for validation while training on the other).
// Only --games may differ: game k of a run depends on the seed and k alone,
// so a run for more (or fewer) games starts with the same ones. Another
// run's checkpoint (another seed, say) is no objection: appending other
// games is what selfplay without --resume is for.
func checkNotRerun(out, run string) error {
	old, ok, err := readProgress(out)
	if err != nil || !ok || old.Next == 0 || gamesField.ReplaceAllString(old.Run, "") != gamesField.ReplaceAllString(run, "") {
		return nil
	}
	if fi, err := os.Stat(out); err != nil || fi.Size() < old.Bytes {
		// The checkpoint is not of this file's contents: nothing to repeat.
		return nil
	}
	return usagef("--out %s already holds %d games of this run (%s): --resume goes on with them, or choose another --seed or --out", out, old.Next, progressPath(out))
}

// gamesField is the game count in a run's settings (runProgress.Run).
var gamesField = regexp.MustCompile(`(^| )games=\d+`)
