package train

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/riodraughts/rio/internal/eval"
	"github.com/riodraughts/rio/internal/game"
	"github.com/riodraughts/rio/internal/match"
	"github.com/riodraughts/rio/internal/movegen"
	"github.com/riodraughts/rio/internal/search"
	"github.com/riodraughts/rio/internal/tt"
	"github.com/rs/zerolog"
)

// openingsOf returns start positions for v: the built-in ballots, or the
// start position for portuguese, which has none.
func openingsOf(v *movegen.Variant) []movegen.Position {
	var out []movegen.Position
	for _, o := range match.Ballots(v) {
		out = append(out, o.Position)
	}
	if len(out) == 0 {
		out = []movegen.Position{v.Start()}
	}
	return out
}

// tinyConfig is a quick self-play run of v.
func tinyConfig(v *movegen.Variant, games int) SelfPlayConfig {
	return SelfPlayConfig{
		Variant: v, Games: games, Shard: 1, Shards: 1,
		Limits:      search.Limits{Nodes: 300},
		Openings:    openingsOf(v),
		RandomPlies: 4,
		Threads:     1,
		Seed:        1,
		HashMiB:     1,
	}
}

// selfPlay runs cfg and returns its output, totals and game summaries.
func selfPlay(t *testing.T, cfg SelfPlayConfig) ([]byte, Totals, []GameSummary) {
	t.Helper()
	var sums []GameSummary
	cfg.OnGame = func(s GameSummary) { sums = append(sums, s) }
	var buf bytes.Buffer
	tot, err := SelfPlay(context.Background(), cfg, &buf)
	if err != nil {
		t.Fatalf("%s shard %d/%d: %v", cfg.Variant.Name, cfg.Shard, cfg.Shards, err)
	}
	return buf.Bytes(), tot, sums
}

// splitByFirst splits records into games at their First flags.
func splitByFirst(t *testing.T, recs []Record) [][]Record {
	t.Helper()
	games, err := Games(recs)
	if err != nil {
		t.Fatal(err)
	}
	return games
}

// gamesByIndex splits data into the byte runs of each game, keyed by the
// game's index, using the summaries' position counts; it checks that the
// runs are also where the First flags split the records.
func gamesByIndex(t *testing.T, v *movegen.Variant, data []byte, sums []GameSummary) map[int][]byte {
	t.Helper()
	out := map[int][]byte{}
	off := 0
	for _, s := range sums {
		n := s.Positions * RecordSize
		if off+n > len(data) {
			t.Fatalf("game %d: %d positions, past the output's end", s.Index, s.Positions)
		}
		game := data[off : off+n]
		off += n
		if s.Positions == 0 {
			continue
		}
		for i := 0; i < s.Positions; i++ {
			r, err := Decode(game[i*RecordSize:])
			if err != nil {
				t.Fatalf("game %d record %d: %v", s.Index, i, err)
			}
			if r.First != (i == 0) {
				t.Fatalf("game %d record %d: First %v", s.Index, i, r.First)
			}
		}
		out[s.Index] = game
	}
	if off != len(data) {
		t.Fatalf("the summaries account for %d bytes of %d", off, len(data))
	}
	return out
}

// checkRun checks the output of a self-play run against its summaries and
// totals, and every record for plausibility.
func checkRun(t *testing.T, cfg SelfPlayConfig, data []byte, tot Totals, sums []GameSummary) {
	t.Helper()
	v := cfg.Variant
	recs, err := ReadAll(bytes.NewReader(data), v)
	if err != nil {
		t.Fatalf("%s: reading the output back: %v", v.Name, err)
	}
	// The summaries: the shard's games, in order.
	var want []int
	for i := cfg.Shard - 1; i < cfg.Games; i += cfg.Shards {
		want = append(want, i)
	}
	var got []int
	var w, d, b, positions, withPositions int
	for _, s := range sums {
		got = append(got, s.Index)
		switch s.Result {
		case game.WhiteWins:
			w++
		case game.BlackWins:
			b++
		case game.Draw:
			d++
		default:
			t.Errorf("%s game %d: result %v", v.Name, s.Index, s.Result)
		}
		if s.Reason == "" {
			t.Errorf("%s game %d: no reason", v.Name, s.Index)
		}
		positions += s.Positions
		if s.Positions > 0 {
			withPositions++
		}
		if maxPlies := cmp.Or(cfg.MaxPlies, 400); s.Plies > maxPlies {
			t.Errorf("%s game %d: %d plies, more than allowed", v.Name, s.Index, s.Plies)
		}
		// Only searched plies are written: not the random ones.
		if s.Positions > s.Plies-min(cfg.RandomPlies, s.Plies) {
			t.Errorf("%s game %d: %d positions of %d plies, %d of them random", v.Name, s.Index, s.Positions, s.Plies, cfg.RandomPlies)
		}
	}
	if !slices.Equal(got, want) {
		t.Fatalf("%s shard %d/%d: games %v reported, want %v", v.Name, cfg.Shard, cfg.Shards, got, want)
	}
	if tot != (Totals{Games: len(want), Positions: positions, WhiteWins: w, Draws: d, BlackWins: b}) {
		t.Errorf("%s: totals %+v; the games add up to %d games, %d positions, %d-%d-%d", v.Name, tot, len(want), positions, w, d, b)
	}
	if len(recs) != tot.Positions {
		t.Errorf("%s: %d records read, totals say %d", v.Name, len(recs), tot.Positions)
	}
	games := splitByFirst(t, recs)
	if len(games) != withPositions {
		t.Errorf("%s: %d games by First flags, %d games wrote positions", v.Name, len(games), withPositions)
	}
	byIndex := gamesByIndex(t, v, data, sums)
	var buf [movegen.MaxMoves]movegen.Move
	gi := 0
	for _, s := range sums {
		if s.Positions == 0 {
			continue
		}
		if gi >= len(games) {
			break
		}
		g := games[gi]
		gi++
		if !bytes.Equal(encodeAll(g), byIndex[s.Index]) {
			t.Fatalf("%s game %d: the First flags and the summaries split the output differently", v.Name, s.Index)
		}
		for i := range g {
			r := &g[i]
			p := &r.Pos
			where := fmt.Sprintf("%s game %d record %d (%s)", v.Name, s.Index, i, v.FormatFEN(p, false))
			if int(r.GameType) != v.GameType {
				t.Fatalf("%s: GameType %d", where, r.GameType)
			}
			if r.Result != s.Result {
				t.Fatalf("%s: result %v, the game's is %v", where, r.Result, s.Result)
			}
			if !Quiet(v, p) {
				t.Fatalf("%s: not quiet", where)
			}
			if p.Pieces[movegen.White].Count() > 12 || p.Pieces[movegen.Black].Count() > 12 {
				t.Fatalf("%s: more than 12 pieces a side", where)
			}
			if p.Pieces[movegen.White] == 0 || p.Pieces[movegen.Black] == 0 {
				t.Fatalf("%s: a side has no pieces", where)
			}
			if len(v.Generate(p, buf[:0])) == 0 {
				t.Fatalf("%s: the side to move cannot move, yet the game went on", where)
			}
			if r.Score > tt.MateBound || r.Score < -tt.MateBound {
				t.Fatalf("%s: score %d is a proven result, after which nothing is written", where, r.Score)
			}
			if i == 0 {
				continue
			}
			// Later positions of a game: no colour gains pieces or men.
			q := &g[i-1].Pos
			for c := movegen.White; c <= movegen.Black; c++ {
				if p.Pieces[c].Count() > q.Pieces[c].Count() || p.Men(c).Count() > q.Men(c).Count() {
					t.Fatalf("%s: %v has more pieces or men than in the game's record before (%s)", where, c, v.FormatFEN(q, false))
				}
			}
			// (The same position may come back two plies on, past a
			// capture position not written: kings shuffle.)
		}
	}
}

func TestSelfPlayRecords(t *testing.T) {
	for _, v := range movegen.Variants {
		cfg := tinyConfig(v, 7)
		cfg.Threads = 2
		data, tot, sums := selfPlay(t, cfg)
		checkRun(t, cfg, data, tot, sums)
		// The scores and results say the same: in decisive games, where one
		// side is clearly ahead it is mostly the winner, and the last
		// position before the end favours the winner.
		recs, err := ReadAll(bytes.NewReader(data), v)
		if err != nil {
			t.Fatal(err)
		}
		agree, clear, lastAgree, decisive := 0, 0, 0, 0
		for _, g := range splitByFirst(t, recs) {
			if g[0].Result == game.Draw {
				continue
			}
			decisive++
			winner := 1
			if g[0].Result == game.BlackWins {
				winner = -1
			}
			for i, r := range g {
				white := int(r.Score) // for White
				if r.Pos.Side == movegen.Black {
					white = -white
				}
				if i == len(g)-1 && white*winner > 0 {
					lastAgree++
				}
				if abs(white) >= 100 {
					clear++
					if white*winner > 0 {
						agree++
					}
				}
			}
		}
		t.Logf("%s: %d of %d clear scores of decisive games favour the winner, %d of %d last ones", v.Name, agree, clear, lastAgree, decisive)
		if decisive == 0 || clear == 0 || float64(agree) < 0.75*float64(clear) || float64(lastAgree) < 0.75*float64(decisive) {
			t.Errorf("%s: %d of %d clear scores of decisive games favour the winner, %d of %d last ones", v.Name, agree, clear, lastAgree, decisive)
		}
		if tot.Positions < 50 {
			t.Errorf("%s: only %d positions from %d games", v.Name, tot.Positions, tot.Games)
		}
		t.Logf("%s: %+v", v.Name, tot)
	}
}

// TestSelfPlayShards: the shards of a run are together exactly its games,
// each game the same bytes whoever plays it.
func TestSelfPlayShards(t *testing.T) {
	variants := movegen.Variants
	if testing.Short() {
		variants = variants[:1]
	}
	for _, v := range variants {
		const games, shards = 8, 3
		cfg := tinyConfig(v, games)
		cfg.Threads = 2
		whole, _, wholeSums := selfPlay(t, cfg)
		wholeGames := gamesByIndex(t, v, whole, wholeSums)
		seen := map[int]int{}
		var shardGames [][]byte
		for s := 1; s <= shards; s++ {
			c := cfg
			c.Shard, c.Shards, c.Threads = s, shards, 1
			data, tot, sums := selfPlay(t, c)
			checkRun(t, c, data, tot, sums)
			for _, sum := range sums {
				if sum.Index%shards != s-1 {
					t.Errorf("%s shard %d/%d played game %d", v.Name, s, shards, sum.Index)
				}
				if prev, ok := seen[sum.Index]; ok {
					t.Errorf("%s: game %d in shards %d and %d", v.Name, sum.Index, prev, s)
				}
				seen[sum.Index] = s
				i := slices.IndexFunc(wholeSums, func(w GameSummary) bool { return w.Index == sum.Index })
				if i < 0 || wholeSums[i] != sum {
					t.Errorf("%s game %d: summary %+v in shard %d, the whole run's differs", v.Name, sum.Index, sum, s)
				}
			}
			for idx, g := range gamesByIndex(t, v, data, sums) {
				if !bytes.Equal(g, wholeGames[idx]) {
					t.Errorf("%s game %d: shard %d wrote other records than the whole run", v.Name, idx, s)
				}
			}
			recs, err := ReadAll(bytes.NewReader(data), v)
			if err != nil {
				t.Fatal(err)
			}
			for _, g := range splitByFirst(t, recs) {
				shardGames = append(shardGames, encodeAll(g))
			}
		}
		// Every game has its own generator: no two alike (with a choice of
		// openings to make that sure).
		if len(cfg.Openings) > 1 {
			distinct := map[string]int{}
			for idx, g := range wholeGames {
				if prev, ok := distinct[string(g)]; ok {
					t.Errorf("%s: games %d and %d are the same", v.Name, prev, idx)
				}
				distinct[string(g)] = idx
			}
		}
		if len(seen) != games {
			t.Errorf("%s: the shards played %d games of %d", v.Name, len(seen), games)
		}
		// As multisets, by the First flags alone.
		recs, err := ReadAll(bytes.NewReader(whole), v)
		if err != nil {
			t.Fatal(err)
		}
		var wholeSplit [][]byte
		for _, g := range splitByFirst(t, recs) {
			wholeSplit = append(wholeSplit, encodeAll(g))
		}
		key := func(gs [][]byte) []string {
			var out []string
			for _, g := range gs {
				out = append(out, string(g))
			}
			sort.Strings(out)
			return out
		}
		if !slices.Equal(key(shardGames), key(wholeSplit)) {
			t.Errorf("%s: the shards' games (%d) are not the whole run's (%d)", v.Name, len(shardGames), len(wholeSplit))
		}
	}
}

// TestSelfPlayDeterministic: the output depends on the configuration, not
// on the threads; a nil Eval is the engine's default, a given one is used;
// another seed gives other games.
func TestSelfPlayDeterministic(t *testing.T) {
	for _, lim := range []search.Limits{{Nodes: 300}, {Depth: 2}} {
		v := movegen.Russian
		cfg := tinyConfig(v, 6)
		cfg.Limits = lim
		one, tot1, _ := selfPlay(t, cfg)
		cfg.Threads = 2
		two, tot2, _ := selfPlay(t, cfg)
		if !bytes.Equal(one, two) || tot1 != tot2 {
			t.Errorf("%v: threads 1 wrote %d bytes %+v, threads 2 %d bytes %+v, or other bytes", lim, len(one), tot1, len(two), tot2)
		}
		// A nil Eval is the engine's default: wrapping that changes nothing.
		def := search.NewEngine(1, zerolog.Nop()).Eval
		var calls atomic.Int64
		cfg.Eval = func(v *movegen.Variant, p *movegen.Position) int {
			calls.Add(1)
			return def(v, p)
		}
		wrapped, _, _ := selfPlay(t, cfg)
		if calls.Load() == 0 {
			t.Errorf("%v: the configured Eval was never called", lim)
		}
		if !bytes.Equal(one, wrapped) {
			t.Errorf("%v: a nil Eval plays otherwise than the engine's default evaluation", lim)
		}
		// The classic evaluation plays valid games too.
		calls.Store(0)
		cfg.Eval = func(v *movegen.Variant, p *movegen.Position) int {
			calls.Add(1)
			return eval.Evaluate(v, p)
		}
		data, tot, sums := selfPlay(t, cfg)
		checkRun(t, cfg, data, tot, sums)
		if calls.Load() == 0 {
			t.Errorf("%v: the classic Eval was never called", lim)
		}
		cfg.Eval = nil
		cfg.Seed = 2
		other, _, _ := selfPlay(t, cfg)
		if bytes.Equal(one, other) {
			t.Errorf("%v: seeds 1 and 2 wrote the same games", lim)
		}
	}
}

// TestSelfPlayFreshTable: each game starts from an empty table, so games
// from one start without random moves are all the same, whichever engine
// played what before.
func TestSelfPlayFreshTable(t *testing.T) {
	v := movegen.Brazilian
	cfg := tinyConfig(v, 3)
	cfg.Openings, cfg.RandomPlies = []movegen.Position{v.Start()}, 0
	data, tot, sums := selfPlay(t, cfg)
	checkRun(t, cfg, data, tot, sums)
	games := gamesByIndex(t, v, data, sums)
	if len(games) != 3 || !bytes.Equal(games[0], games[1]) || !bytes.Equal(games[0], games[2]) {
		t.Errorf("three games from the start position without random moves: %d, %d, %d bytes, not all the same", len(games[0]), len(games[1]), len(games[2]))
	}
}

func TestSelfPlayMaxPlies(t *testing.T) {
	v := movegen.Brazilian
	cfg := tinyConfig(v, 5)
	cfg.MaxPlies = 12
	data, tot, sums := selfPlay(t, cfg)
	checkRun(t, cfg, data, tot, sums)
	for _, s := range sums {
		if s.Plies == 12 && s.Result != game.Draw || s.Reason == "12 plies" && s.Result != game.Draw {
			t.Errorf("game %d: %d plies, %v (%s): a game cut short is a draw", s.Index, s.Plies, s.Result, s.Reason)
		}
		if s.Positions > 12-cfg.RandomPlies {
			t.Errorf("game %d: %d positions from %d searched plies", s.Index, s.Positions, 12-cfg.RandomPlies)
		}
	}
	if tot.Draws != tot.Games {
		t.Errorf("12-ply games: %+v, want all drawn", tot)
	}
}

type failWriter struct{ n int }

func (w *failWriter) Write(b []byte) (int, error) {
	w.n++
	return 0, errors.New("disk full")
}

func TestSelfPlayErrors(t *testing.T) {
	v := movegen.Brazilian
	for _, sh := range [][2]int{{0, 3}, {4, 3}, {1, 0}, {-1, -1}} {
		cfg := tinyConfig(v, 3)
		cfg.Shard, cfg.Shards = sh[0], sh[1]
		if _, err := SelfPlay(context.Background(), cfg, new(bytes.Buffer)); err == nil {
			t.Errorf("shard %d/%d accepted", sh[0], sh[1])
		}
	}
	cfg := tinyConfig(v, 3)
	cfg.Openings = nil
	if _, err := SelfPlay(context.Background(), cfg, new(bytes.Buffer)); err == nil {
		t.Error("no openings accepted")
	}

	cfg = tinyConfig(v, 4)
	cfg.Threads = 2
	w := new(failWriter)
	if _, err := SelfPlay(context.Background(), cfg, w); err == nil || !strings.Contains(err.Error(), "disk full") {
		t.Errorf("failing writer: error %v", err)
	}
	if w.n != 1 {
		t.Errorf("%d writes to a failed writer", w.n)
	}

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var buf bytes.Buffer
	tot, err := SelfPlay(ctx, tinyConfig(v, 4), &buf)
	if !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled run: %+v, error %v", tot, err)
	}
	if _, err := ReadAll(&buf, v); err != nil {
		t.Errorf("cancelled run wrote an unreadable file: %v", err)
	}
}

// TestQuiet holds Quiet to its definition through the move generator.
func TestQuiet(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	var buf [movegen.MaxMoves]movegen.Move
	captures := func(v *movegen.Variant, p *movegen.Position) bool {
		for _, m := range v.Generate(p, buf[:0]) {
			if m.IsCapture() {
				return true
			}
		}
		return false
	}
	for _, v := range movegen.Variants {
		quiet, loud := 0, 0
		for _, p := range randomPositions(v, rng, 20, 150) {
			q := p
			q.Side = q.Side.Other()
			want := !captures(v, &p) && !captures(v, &q)
			if got := Quiet(v, &p); got != want {
				t.Fatalf("%s %s: Quiet %v, want %v", v.Name, v.FormatFEN(&p, false), got, want)
			}
			if want {
				quiet++
			} else {
				loud++
			}
		}
		if quiet == 0 || loud == 0 {
			t.Errorf("%s: %d quiet positions, %d not", v.Name, quiet, loud)
		}
	}
}

// TestSelfPlayRandomMoves: random moves make other games, as
// deterministically as searched ones, and exactly the positions before a
// game's last random move are written score-only.
func TestSelfPlayRandomMoves(t *testing.T) {
	for _, v := range movegen.Variants {
		cfg := tinyConfig(v, 8)
		plain, _, plainSums := selfPlay(t, cfg)
		cfg.RandomMoves = 0.1
		one, tot, sums := selfPlay(t, cfg)
		checkRun(t, cfg, one, tot, sums)
		cfg.Threads = 2
		if two, _, _ := selfPlay(t, cfg); !bytes.Equal(one, two) {
			t.Errorf("%s: random moves: threads 1 and 2 wrote other games", v.Name)
		}
		if bytes.Equal(one, plain) {
			t.Errorf("%s: random moves changed no game", v.Name)
		}
		for _, s := range plainSums {
			if s.RandomMoves != 0 || s.ScoreOnly != 0 {
				t.Errorf("%s game %d: %d random moves, %d score-only records without --random-moves", v.Name, s.Index, s.RandomMoves, s.ScoreOnly)
			}
		}
		recs, err := ReadAll(bytes.NewReader(one), v)
		if err != nil {
			t.Fatal(err)
		}
		var games [][]Record
		for _, s := range sums {
			games = append(games, recs[:s.Positions])
			recs = recs[s.Positions:]
		}
		randomGames, marked, unmarked := 0, 0, 0
		for i, s := range sums {
			g := games[i]
			if s.RandomMoves > 0 {
				randomGames++
			}
			if s.RandomMoves == 0 && s.ScoreOnly != 0 {
				t.Errorf("%s game %d: %d score-only records without a random move", v.Name, s.Index, s.ScoreOnly)
			}
			// The score-only records are the game's first s.ScoreOnly ones.
			for j, r := range g {
				if r.ScoreOnly != (j < s.ScoreOnly) {
					t.Fatalf("%s game %d: record %d of %d score-only %v; the first %d should be", v.Name, s.Index, j, len(g), r.ScoreOnly, s.ScoreOnly)
				}
				if r.ScoreOnly {
					marked++
				} else {
					unmarked++
				}
			}
		}
		t.Logf("%s: %d of %d games with random moves, %d records score-only, %d judged by the result", v.Name, randomGames, len(sums), marked, unmarked)
		if randomGames == 0 || marked == 0 || unmarked == 0 {
			t.Errorf("%s: %d of %d games with random moves, %d records score-only, %d judged by the result: the test saw too little", v.Name, randomGames, len(sums), marked, unmarked)
		}
	}
}

// TestSelfPlayBalanced: with Balanced, each game starts from a start whose
// search scores within the limit (or from its last try), starts beyond it
// are drawn again, and the start's search is the game's first move: with
// a limit no start exceeds, the games are those of a run without it.
func TestSelfPlayBalanced(t *testing.T) {
	for _, v := range []*movegen.Variant{movegen.Brazilian, movegen.Portuguese} {
		cfg := tinyConfig(v, 10)
		cfg.RandomPlies = 8 // lopsided starts, so that some are drawn again
		plain, plainTot, _ := selfPlay(t, cfg)
		cfg.Balanced = 32000
		all, allTot, allSums := selfPlay(t, cfg)
		if !bytes.Equal(plain, all) || plainTot != allTot {
			t.Errorf("%s: a limit no start exceeds plays other games than no limit", v.Name)
		}
		for _, s := range allSums {
			if s.Redrawn != 0 {
				t.Errorf("%s game %d: %d starts drawn again under a limit of 32000", v.Name, s.Index, s.Redrawn)
			}
		}
		cfg.Balanced = 30
		data, tot, sums := selfPlay(t, cfg)
		checkRun(t, cfg, data, tot, sums)
		redrawn := 0
		for _, s := range sums {
			redrawn += s.Redrawn
			if s.Redrawn < BalanceTries-1 && max(s.StartScore, -s.StartScore) > cfg.Balanced {
				t.Errorf("%s game %d: start scored %d after %d draws, beyond the limit %d", v.Name, s.Index, s.StartScore, s.Redrawn, cfg.Balanced)
			}
		}
		if redrawn == 0 {
			t.Errorf("%s: no start of 8 random plies drawn again under a limit of 0.30 men", v.Name)
		}
		cfg.Threads = 2
		two, tot2, _ := selfPlay(t, cfg)
		if !bytes.Equal(data, two) || tot != tot2 {
			t.Errorf("%s: balanced starts differ between 1 and 2 threads", v.Name)
		}
	}
}
