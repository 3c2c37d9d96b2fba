package gui

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"

	"github.com/riodraughts/rio/internal/game"
	"github.com/riodraughts/rio/internal/movegen"
	"github.com/riodraughts/rio/internal/text"
)

// maxImportGames bounds the games one import lists.
const maxImportGames = 5000

// importedGame is one game of an imported PDN file, ready to load: its
// start and moves as the page sends them back in a gameRequest.
type importedGame struct {
	Number  int               `json:"number"`
	Variant string            `json:"variant"`
	FEN     string            `json:"fen"`
	Moves   []string          `json:"moves"`
	Tags    map[string]string `json:"tags"`
	Result  string            `json:"result"` // as the file declares it
	// Error says why the game could not be read whole; Moves then holds
	// those before the problem.
	Error string `json:"error,omitempty"`
}

// handleImport reads a PDN file (the request body, ?variant= for games
// without a GameType tag) and lists its games.
func (s *Server) handleImport(w http.ResponseWriter, r *http.Request) {
	def := s.cfg.Variant
	if name := r.URL.Query().Get("variant"); name != "" {
		if def = movegen.VariantByName(name); def == nil {
			fail(w, badf("unsupported variant %q (Rio plays %s)", text.Clip(name, 80), movegen.VariantNames()))
			return
		}
	}
	data, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxPDNBody))
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			fail(w, err)
		} else {
			fail(w, badf("reading the PDN: %v", err))
		}
		return
	}
	if len(bytes.TrimSpace(data)) == 0 {
		fail(w, badf("the PDN is empty"))
		return
	}
	games, err := game.ReadPDN(bytes.NewReader(data), def)
	if err != nil {
		fail(w, badf("reading the PDN: %v", err))
		return
	}
	if len(games) == 0 {
		fail(w, badf("no game found in the PDN"))
		return
	}
	out := struct {
		Games []importedGame `json:"games"`
		// More counts the games left out past maxImportGames.
		More int `json:"more,omitempty"`
	}{Games: []importedGame{}}
	for i, pg := range games {
		if i == maxImportGames {
			out.More = len(games) - i
			break
		}
		out.Games = append(out.Games, importOne(pg))
	}
	writeJSON(w, out)
}

func importOne(pg game.PDNGame) importedGame {
	ig := importedGame{Number: pg.Number, Tags: map[string]string{}, Moves: []string{}, Result: pg.Declared.PDN()}
	if pg.Err != nil {
		ig.Error = pg.Err.Error()
	}
	g := pg.Game
	if g == nil {
		return ig
	}
	v := g.Variant
	ig.Variant = v.Name
	start := g.Start()
	ig.FEN = v.FormatFEN(&start, false)
	// Only the moves up to the end the rules give (a record may go on past
	// a draw by a move-count rule) and that the board can load.
	moves := g.Moves()
	replay := game.New(v, start)
	for i, m := range moves {
		if o := replay.Outcome(); o.Result != game.Ongoing {
			moves = moves[:i]
			ig.Error = cmp.Or(ig.Error, fmt.Sprintf("move %d: the game was over (%s)", i+1, o.Reason))
			break
		}
		if i == maxGameMoves {
			moves = moves[:i]
			ig.Error = cmp.Or(ig.Error, fmt.Sprintf("more than %d moves: the first %d are loaded", maxGameMoves, maxGameMoves))
			break
		}
		replay.Play(m)
	}
	ig.Moves = v.FormatMoves(moves)
	for _, t := range g.Tags {
		ig.Tags[t.Name] = t.Value
	}
	return ig
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
