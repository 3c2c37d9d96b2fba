package cli

import (
	"context"
	"fmt"
	"strconv"

	"github.com/riodraughts/rio/internal/game"
)

func runPDN(_ context.Context, env *Env, args []string) error {
	var co common
	fs := newFlags(lookup("pdn"), env, &co)
	v, file, err := parseFileArg(fs, args, &co, "pdn")
	if err != nil {
		return err
	}
	r, closeInput, err := openInput(env, file)
	if err != nil {
		return err
	}
	defer closeInput()
	games, err := game.ReadPDN(r, v)
	if err != nil {
		return usagef("%s: %v", file, err)
	}
	broken := 0
	for _, g := range games {
		fmt.Fprintln(env.Stdout, pdnLine(g))
		if g.Err != nil {
			broken++
		}
	}
	env.Log.Info().Int("games", len(games)).Int("broken", broken).Str("file", file).Msg("pdn replayed")
	if broken > 0 {
		return usagef("%d of %d games in %s could not be replayed", broken, len(games), file)
	}
	return nil
}

// pdnLine describes one game: its number and tags, then what the rules
// make of the final position, or the first problem.
func pdnLine(g game.PDNGame) string {
	line := "game=" + strconv.Itoa(g.Number)
	if g.Game != nil {
		line += " variant=" + g.Game.Variant.Name
		for _, tag := range []string{"Event", "Date", "White", "Black"} {
			if v := g.Game.Tags.Get(tag); v != "" {
				line += fmt.Sprintf(" %s=%s", lower(tag), strconv.Quote(v))
			}
		}
	}
	line += " declared=" + g.Declared.PDN()
	if g.Err != nil {
		return line + " error=" + strconv.Quote(g.Err.Error())
	}
	// The rules' first ending decides; moves played past a draw (a host
	// that applies fewer rules went on) are counted, not adjudicated.
	o := g.Game.Outcome()
	reason := o.Reason
	if o.Result == game.Ongoing {
		reason = "game not finished by the rules"
	}
	line += fmt.Sprintf(" plies=%d result=%s reason=%s", g.Game.Ply(), o.Result.PDN(), strconv.Quote(reason))
	if end := g.Game.EndPly(); end >= 0 && o.Result == game.Draw {
		line += fmt.Sprintf(" ply=%d after=%d", end, g.Game.Ply()-end)
	}
	return line
}

func lower(s string) string {
	b := []byte(s)
	if len(b) > 0 && b[0] >= 'A' && b[0] <= 'Z' {
		b[0] += 'a' - 'A'
	}
	return string(b)
}
