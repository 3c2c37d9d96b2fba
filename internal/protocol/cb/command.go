package cb

import (
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/riodraughts/rio/internal/book"
	"github.com/riodraughts/rio/internal/egdb"
	"github.com/riodraughts/rio/internal/eval"
	"github.com/riodraughts/rio/internal/game"
	"github.com/riodraughts/rio/internal/movegen"
	"github.com/riodraughts/rio/internal/text"
)

// MaxCommand is the longest command Command reads (the exports cut the C
// string there); longer ones are refused. A set gamehist of the longest
// reversible run the draw rules allow fits many times over.
const MaxCommand = 64 << 10

// maxListedMoves is the most moves a get movelist reply lists: the GUI's
// own list holds 28. A position with more legal moves (only kings-heavy
// ones have them) is answered with an error and 0, so the GUI falls back to
// its own move generator, rather than with a list cut short.
const maxListedMoves = 28

// unknown is the reply to a command Rio does not handle: with the 0
// return, CheckerBoard greys the option out.
const unknown = "?"

// Command handles one enginecommand: it returns the reply (at most
// ReplySize-1 bytes) and whether the command was handled (1) or unknown
// or refused (0).
func (e *Engine) Command(command string) (reply string, ok bool) {
	reply, ok = e.command(command)
	return clipReply(reply), ok
}

func (e *Engine) command(command string) (string, bool) {
	if len(command) > MaxCommand {
		return fmt.Sprintf("error: command of %d bytes (at most %d)", len(command), MaxCommand), false
	}
	command, _, _ = strings.Cut(command, "\x00") // a C string ends there
	fields := strings.Fields(command)
	if len(fields) == 0 {
		return unknown, false
	}
	verb := strings.ToLower(fields[0])
	switch verb {
	case "name":
		return "Rio", true
	case "about":
		return "Rio draughts engine\nRussian (game type 25) and Brazilian (26)\n" +
			"Alpha-beta search, learned evaluation, endgame tables\n" +
			"github.com/riodraughts/rio", true
	case "help":
		return "rio-cb.htm", true
	case "get", "set":
	default:
		return unknown, false
	}
	if len(fields) < 2 {
		return unknown, false
	}
	key := strings.ToLower(fields[1])
	// arg is the rest of the command after the key, as sent.
	arg := ""
	if i := strings.Index(command, fields[1]); i >= 0 {
		arg = strings.TrimSpace(command[i+len(fields[1]):])
	}
	if verb == "get" {
		return e.get(key, arg)
	}
	return e.set(key, arg)
}

func (e *Engine) get(key, arg string) (string, bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	switch key {
	case "protocolversion":
		return "2", true
	case "gametype":
		return strconv.Itoa(e.variant.GameType), true
	case "movelist":
		return moveList(e.variant, arg)
	case "hashsize":
		return strconv.Itoa(e.hashMiB), true
	case "searchthreads":
		return strconv.Itoa(e.threads), true
	case "book":
		return strconv.Itoa(e.book), true
	case "bookfile":
		if e.bookFile == "" {
			return "builtin", true
		}
		return e.bookFile, true
	case "dbpath":
		return e.dbPath, true
	case "enable_wld":
		return boolText(e.wld), true
	case "max_dbpieces":
		return strconv.Itoa(e.maxDBPieces), true
	case "drawrules":
		return e.drawRules.String(), true
	}
	return unknown, false
}

func boolText(b bool) string {
	if b {
		return "1"
	}
	return "0"
}

// intArg reads arg as a whole number in [lo, hi].
func intArg(key, arg string, lo, hi int) (int, string, bool) {
	n, err := strconv.Atoi(strings.TrimSpace(arg))
	if err != nil || n < lo || n > hi {
		return 0, fmt.Sprintf("error: %s %q: expected a whole number from %d to %d", key, text.Clip(arg, 60), lo, hi), false
	}
	return n, "", true
}

func (e *Engine) set(key, arg string) (string, bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	switch key {
	case "gametype":
		n, msg, ok := intArg(key, arg, 0, 1<<30)
		if !ok {
			return msg, false
		}
		v := variantOf(n)
		if v == nil {
			return fmt.Sprintf("error: game type %d: Rio plays 25 (russian) and 26 (brazilian)", n), false
		}
		if v != e.variant {
			e.variant = v
			e.hist = nil // a game of the other variant
			if e.openingBook != nil && e.openingBook.Variant != v {
				e.bookFile, e.openingBook = "", nil // a book of the other variant: the built-in one
			}
			eval.Builtin(v) // its weights are read now, not on the next getmove's clock
		}
		return "gametype " + strconv.Itoa(n), true
	case "gamehist":
		return e.setGameHist(arg)
	case "hashsize":
		n, msg, ok := intArg(key, arg, 1, maxHashMiB)
		if !ok {
			return msg, false
		}
		e.hashMiB = n
		return "hashsize " + strconv.Itoa(n), true
	case "searchthreads":
		n, msg, ok := intArg(key, arg, 1, maxThreads)
		if !ok {
			return msg, false
		}
		e.threads = min(n, cpuThreads())
		return "searchthreads " + strconv.Itoa(e.threads), true
	case "book":
		n, msg, ok := intArg(key, arg, 0, 3)
		if !ok {
			return msg, false
		}
		e.book = n
		return "book " + strconv.Itoa(n), true
	case "bookfile":
		path := strings.Trim(arg, `"`)
		if path == "" || path == "builtin" {
			e.bookFile, e.openingBook = "", nil
			return fmt.Sprintf("bookfile: the built-in book, %d positions", book.Builtin(e.variant).Positions()), true
		}
		bk, err := book.Load(path, e.variant)
		if err != nil {
			return "error: set bookfile: " + err.Error() + "; the previous book stays", false
		}
		e.bookFile, e.openingBook = path, bk
		return fmt.Sprintf("bookfile %s: %d positions", path, bk.Positions()), true
	case "dbpath":
		path := strings.Trim(arg, `"`)
		if path != "" {
			if st, err := os.Stat(path); err != nil || !st.IsDir() {
				return fmt.Sprintf("error: dbpath %q is not a directory; the tables stay as they were", text.Clip(path, 60)), false
			}
		}
		e.dbPath = path
		e.tablesGen++
		if path == "" {
			return "dbpath: built-in tables", true
		}
		return "dbpath " + path, true
	case "enable_wld":
		n, msg, ok := intArg(key, arg, 0, 1)
		if !ok {
			return msg, false
		}
		e.wld = n == 1
		e.tablesGen++
		return "enable_wld " + boolText(e.wld), true
	case "max_dbpieces":
		n, msg, ok := intArg(key, arg, 0, 32)
		if !ok {
			return msg, false
		}
		e.maxDBPieces = min(n, egdb.MaxPieces)
		e.tablesGen++
		return "max_dbpieces " + strconv.Itoa(e.maxDBPieces), true
	case "drawrules":
		set, err := game.ParseRuleSet(arg)
		if err != nil {
			return "error: set " + err.Error(), false
		}
		e.drawRules = set
		if e.hist != nil {
			e.hist = e.hist.WithRules(set)
		}
		return "drawrules " + set.String(), true
	case "dbmbytes":
		if _, msg, ok := intArg(key, arg, 0, 1<<30); !ok {
			return msg, false
		}
		return "dbmbytes: Rio holds its tables whole in memory; no cache to size", true
	}
	return unknown, false
}

// setGameHist reads "<fen> [moves...]" into the game record the next
// getmove continues (e.mu held). On any error the history is dropped, so
// that getmove searches its board alone.
func (e *Engine) setGameHist(arg string) (string, bool) {
	e.hist = nil
	fields := strings.Fields(arg)
	if len(fields) == 0 {
		return "error: set gamehist: expected a FEN and moves", false
	}
	p, err := e.variant.ParseFEN(fields[0])
	if err != nil {
		return "error: set gamehist: " + err.Error(), false
	}
	g := game.NewRules(e.variant, p, e.drawRules)
	for i, m := range fields[1:] {
		if _, err := g.PlayText(m); err != nil {
			return fmt.Sprintf("error: set gamehist: move %d (%s): %v", i+1, text.Clip(m, 60), err), false
		}
	}
	e.hist = g
	return fmt.Sprintf("gamehist %d moves", g.Ply()), true
}

// moveList answers get movelist <fen>.
func moveList(v *movegen.Variant, fen string) (string, bool) {
	fen = strings.TrimSpace(fen)
	p, err := v.ParseFEN(fen)
	if err != nil {
		// The GUI's start-up probe (B:W1:B) has a man on its promotion
		// row, which Rio refuses; a position whose side to move has no
		// piece has no move whatever else it holds.
		if sideHasNoPiece(fen) {
			return "movelist 0", true
		}
		return "error: get movelist: " + err.Error(), false
	}
	var buf [movegen.MaxMoves]movegen.Move
	legal := v.Generate(&p, buf[:0])
	if len(legal) == 0 {
		return "movelist 0", true
	}
	if len(legal) > maxListedMoves {
		return fmt.Sprintf("error: get movelist: %d legal moves, more than the %d CheckerBoard lists", len(legal), maxListedMoves), false
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "movelist %d,", len(legal))
	var mv CBMove
	for _, m := range legal {
		describe(v, &p, m, &mv)
		n := func(c Coor) int { return coorSquare(int(c.X), int(c.Y)) }
		fmt.Fprintf(&sb, "%d,%d,%d,%d,%d", mv.jumps, mv.oldPiece, mv.newPiece, n(mv.from), n(mv.to))
		route := capturePath(v, &p, m)
		if !m.IsCapture() {
			route = nil
		}
		for i, s := range route {
			fmt.Fprintf(&sb, ",%d", movegen.STD.Number(s))
			if i < len(mv.del) && i < int(mv.jumps) {
				fmt.Fprintf(&sb, ",%d,%d", n(mv.del[i]), mv.delPiece[i])
			}
		}
		sb.WriteByte(';')
	}
	if sb.Len() > ReplySize-1 {
		return fmt.Sprintf("error: get movelist: the %d moves take %d bytes, more than the reply holds", len(legal), sb.Len()), false
	}
	return sb.String(), true
}

// sideHasNoPiece reports whether the FEN's side to move has no piece
// listed: its colour's field is absent or holds no square.
func sideHasNoPiece(fen string) bool {
	fen = strings.TrimSuffix(strings.Trim(strings.TrimSpace(fen), `"`), ".")
	fields := strings.Split(fen, ":")
	if len(fields) < 2 {
		return false
	}
	side := strings.ToUpper(strings.TrimSpace(fields[0]))
	if side != "W" && side != "B" {
		return false
	}
	for _, f := range fields[1:] {
		f = strings.TrimSpace(f)
		if f == "" || strings.ToUpper(f[:1]) != side {
			continue
		}
		for item := range strings.SplitSeq(f[1:], ",") {
			if strings.TrimSpace(item) != "" {
				return false
			}
		}
	}
	return true
}

// clipReply cuts s to what the GUI's buffer holds (ReplySize-1 bytes).
func clipReply(s string) string {
	if len(s) > ReplySize-1 {
		return s[:ReplySize-1]
	}
	return s
}
