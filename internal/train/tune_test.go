package train

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/riodraughts/rio/internal/eval"
	"github.com/riodraughts/rio/internal/game"
	"github.com/riodraughts/rio/internal/movegen"
)

// The tests fit a synthetic data set: positions of random games whose
// results are drawn from a known logistic model, and check that Tune
// finds the model again.

// trueScore is the score for the side to move of features f under weights
// theta (hundredths of a man), by the formula documented on eval.Features.
func trueScore(theta []float64, f *eval.Features) float64 {
	open := float64(f.Pieces) / eval.MaxPhase
	mix := [2]float64{open, 1 - open}
	total := 0.0
	for ph := range 2 {
		base := theta[ph*eval.PhaseParams : (ph+1)*eval.PhaseParams]
		sum := 0.0
		for w := range eval.Windows {
			sum += base[w*eval.Configs+int(f.Own[w])] - base[w*eval.Configs+int(f.Turned[w])]
		}
		for s, x := range f.Scalar {
			sum += float64(x) * base[eval.PatternParams+s]
		}
		total += mix[ph] * (float64(f.Sign)*sum + base[eval.PatternParams+eval.ScSideToMove])
	}
	return total
}

// turned is the window that window w becomes on the turned board, and
// mirrored the configuration c becomes there (digits reversed, colours
// swapped), from the layout's description; TestSyntheticModel checks them
// against eval.Extract.
func turned(w int) int { return (4-w/3)*3 + 2 - w%3 }

func mirrored(c int) int {
	m := 0
	for range 8 {
		d := c % 3
		c /= 3
		if d != 0 {
			d = 3 - d
		}
		m = m*3 + d
	}
	return m
}

// folded is the identifiable part of pattern weight (w, c) in phase ph:
// a white configuration c in window w scores theta[w][c] less the weight
// Black's twin of it has, theta[turned(w)][mirrored(c)].
func folded(theta []float64, ph, w, c int) float64 {
	base := theta[ph*eval.PhaseParams:]
	return base[w*eval.Configs+c] - base[turned(w)*eval.Configs+mirrored(c)]
}

// synthetic is a data set drawn from a known model.
type synthetic struct {
	records []Record
	theta   []float64 // the true weights, hundredths of a man
	// weighted are the pattern weights given a true value: window and
	// configuration.
	weighted [][2]int
	// meanPieces and meanKingPieces are the mean phase of the positions
	// and of those with kings.
	meanPieces, meanKingPieces float64
}

const (
	trueMan, trueKing = 100, 250
	trueScale         = 100
)

// makeSynthetic draws n brazilian positions of random games, every one its
// own game, with results drawn from a model of material and random
// weights for the commonest configurations of a few windows.
func makeSynthetic(t *testing.T, n int, seed uint64) *synthetic {
	t.Helper()
	v := movegen.Brazilian
	rng := rand.New(rand.NewPCG(seed, 99))
	var positions []movegen.Position
	for len(positions) < n {
		for _, p := range randomPositions(v, rng, 1, 160) {
			// A third of each game's positions: more games, less alike.
			if rng.IntN(3) == 0 && eval.Trainable(v, &p) && len(positions) < n {
				positions = append(positions, p)
			}
		}
	}
	feats := make([]eval.Features, n)
	counts := map[[2]int]int{}
	s := &synthetic{theta: make([]float64, eval.Params)}
	kingPositions := 0
	for i := range positions {
		eval.Extract(&positions[i], &feats[i])
		f := &feats[i]
		for w := range eval.Windows {
			counts[[2]int{w, int(f.Own[w])}]++
			counts[[2]int{w, int(f.Turned[w])}]++
		}
		s.meanPieces += float64(f.Pieces)
		if positions[i].Kings != 0 {
			s.meanKingPieces += float64(f.Pieces)
			kingPositions++
		}
	}
	s.meanPieces /= float64(n)
	s.meanKingPieces /= float64(max(kingPositions, 1))
	for ph := range 2 {
		s.theta[ph*eval.PhaseParams+eval.PatternParams+eval.ScMen] = trueMan
		s.theta[ph*eval.PhaseParams+eval.PatternParams+eval.ScKings] = trueKing
	}
	// The commonest configurations (in one position of 25 or more) of nine
	// windows, not the empty window, get a weight of either sign.
	for _, w := range []int{0, 1, 2, 4, 7, 10, 12, 13, 14} {
		var cs []int
		for k, c := range counts {
			if k[0] == w && k[1] != 0 && c >= n/25 {
				cs = append(cs, k[1])
			}
		}
		sort.Ints(cs)
		for _, c := range cs {
			x := math.Round(rng.NormFloat64() * 30)
			for ph := range 2 {
				s.theta[ph*eval.PhaseParams+w*eval.Configs+c] = x
			}
			s.weighted = append(s.weighted, [2]int{w, c})
		}
	}
	for i, p := range positions {
		sc := trueScore(s.theta, &feats[i])
		moverWins := rng.Float64() < sigmoid(sc/trueScale)
		r := Record{Pos: p, Score: int16(math.Round(sc)), First: true, GameType: uint8(v.GameType)}
		if moverWins == (p.Side == movegen.White) {
			r.Result = game.WhiteWins
		} else {
			r.Result = game.BlackWins
		}
		s.records = append(s.records, r)
	}
	return s
}

// loss is the mean cross-entropy of the weights theta over the data set,
// against the targets Tune fits with lambda.
func (s *synthetic) loss(theta []float64, lambda float64) float64 {
	sum := 0.0
	for i := range s.records {
		r := &s.records[i]
		var f eval.Features
		eval.Extract(&r.Pos, &f)
		won := 0.0
		if (r.Result == game.WhiteWins) == (r.Pos.Side == movegen.White) {
			won = 1
		}
		target := lambda*won + (1-lambda)*sigmoid(float64(r.Score)/trueScale)
		sum += loss(sigmoid(trueScore(theta, &f)/trueScale), target)
	}
	return sum / float64(len(s.records))
}

// scoreFit compares the scores of theta with the true ones over the
// positions with kings or without: their correlation, and the slope of
// theta's on the true ones.
func (s *synthetic) scoreFit(theta []float64, kings bool) (r, slope float64) {
	var x, y []float64
	for i := range s.records {
		p := &s.records[i].Pos
		if (p.Kings != 0) != kings {
			continue
		}
		var f eval.Features
		eval.Extract(p, &f)
		x = append(x, trueScore(s.theta, &f))
		y = append(y, trueScore(theta, &f))
	}
	var mx, my float64
	for i := range x {
		mx += x[i]
		my += y[i]
	}
	mx, my = mx/float64(len(x)), my/float64(len(x))
	var sxy, sxx float64
	for i := range x {
		sxy += (x[i] - mx) * (y[i] - my)
		sxx += (x[i] - mx) * (x[i] - mx)
	}
	return correlation(x, y), sxy / sxx
}

// params returns theta in float hundredths of a man.
func params(m *eval.Model) []float64 {
	out := make([]float64, len(m.Params))
	for i, x := range m.Params {
		out[i] = float64(x) / eval.Unit
	}
	return out
}

// mixed is parameter i's weight at a phase of pieces pieces.
func mixed(theta []float64, i int, pieces float64) float64 {
	return (pieces*theta[i] + (eval.MaxPhase-pieces)*theta[eval.PhaseParams+i]) / eval.MaxPhase
}

func correlation(x, y []float64) float64 {
	n := float64(len(x))
	var mx, my float64
	for i := range x {
		mx += x[i]
		my += y[i]
	}
	mx, my = mx/n, my/n
	var sxy, sxx, syy float64
	for i := range x {
		sxy += (x[i] - mx) * (y[i] - my)
		sxx += (x[i] - mx) * (x[i] - mx)
		syy += (y[i] - my) * (y[i] - my)
	}
	return sxy / math.Sqrt(sxx*syy)
}

// startModel is material only, and off the truth.
func startModel() *eval.Model {
	p := make([]int16, eval.Params)
	for ph := range 2 {
		p[ph*eval.PhaseParams+eval.PatternParams+eval.ScMen] = 60 * eval.Unit
		p[ph*eval.PhaseParams+eval.PatternParams+eval.ScKings] = 150 * eval.Unit
	}
	return eval.NewModel(movegen.Brazilian, p)
}

func tuneConfig() TuneConfig {
	return TuneConfig{
		Variant: movegen.Brazilian, Epochs: 30, Patience: 3, L2: 1e-7, Lambda: 0.5,
		Scale: trueScale, LR: 3, Batch: 512, Validation: 0.1, Seed: 1, Threads: 1,
		Init: startModel(),
	}
}

// TestSyntheticModel checks the test's own model against the package's:
// the layout's symmetry as this file reads it, and Tune's float score.
func TestSyntheticModel(t *testing.T) {
	s := makeSynthetic(t, 500, 1)
	for i := range s.records {
		var f eval.Features
		eval.Extract(&s.records[i].Pos, &f)
		for w := range eval.Windows {
			if got, want := int(f.Turned[turned(w)]), mirrored(int(f.Own[w])); got != want {
				t.Fatalf("window %d config %d: turned window %d has config %d, want %d", w, f.Own[w], turned(w), got, want)
			}
		}
	}
	idx := allIndices(len(s.records))
	g1 := newGeometry(eval.Layout1)
	data := prepare(g1, s.records, idx, 1, trueScale, nil, 1)
	// Weights unlike in every phase and parameter.
	rng := rand.New(rand.NewPCG(1, 2))
	theta := make([]float64, eval.Params)
	for i := range theta {
		theta[i] = rng.NormFloat64() * 50
	}
	for i := range data {
		var f eval.Features
		eval.Extract(&s.records[i].Pos, &f)
		got, _ := g1.score(&data[i], theta)
		if want := trueScore(theta, &f); math.Abs(got-want) > 1e-9*max(1, math.Abs(want)) {
			t.Fatalf("record %d: Tune scores %g, the documented formula %g", i, got, want)
		}
	}
	if len(s.weighted) < 20 {
		t.Errorf("only %d pattern weights in the true model", len(s.weighted))
	}
}

// totalLoss is the summed loss of data under theta at the tests' scale,
// computed sample by sample from score (what the gradients are held to).
func (g geometry) totalLoss(data []sample, theta []float64) float64 {
	sum := 0.0
	for i := range data {
		sc, _ := g.score(&data[i], theta)
		sum += loss(sigmoid(sc/trueScale), float64(data[i].target))
	}
	return sum
}

// TestGradient holds accumulate to numerical derivatives of the loss.
func TestGradient(t *testing.T) {
	s := makeSynthetic(t, 60, 2)
	idx := allIndices(len(s.records))
	g1 := newGeometry(eval.Layout1)
	data := prepare(g1, s.records, idx, 0.7, trueScale, nil, 1)
	batch := make([]int32, len(data))
	for i := range batch {
		batch[i] = int32(i)
	}
	rng := rand.New(rand.NewPCG(3, 3))
	theta := slices.Clone(s.theta)
	for i := range theta {
		if theta[i] != 0 || i%eval.PhaseParams >= eval.PatternParams {
			theta[i] += rng.NormFloat64() * 20
		}
	}
	// Weights the batch touches: its first sample's, and the scalars.
	check := []int{}
	for ph := range 2 {
		base := ph * eval.PhaseParams
		for j := range eval.ScalarParams {
			check = append(check, base+eval.PatternParams+j)
		}
		for w := range eval.Windows {
			check = append(check, base+w*eval.Configs+int(data[0].own[w]), base+w*eval.Configs+int(data[0].turned[w]))
		}
	}
	grad := make([]float64, eval.Params)
	total := g1.accumulate(data, batch, theta, trueScale, grad)
	lossAt := func(th []float64) float64 { return g1.totalLoss(data, th) }
	if l := lossAt(theta); math.Abs(l-total) > 1e-9*l {
		t.Errorf("accumulate's loss %g, recomputed %g", total, l)
	}
	if m := g1.meanLoss(data, theta, trueScale, 2); math.Abs(m*float64(len(data))-total) > 1e-9*total {
		t.Errorf("meanLoss %g, accumulate's loss over %d samples %g", m, len(data), total)
	}
	nonzero := 0
	for _, i := range check {
		const h = 1e-3
		th := slices.Clone(theta)
		th[i] += h
		up := lossAt(th)
		th[i] -= 2 * h
		down := lossAt(th)
		num := (up - down) / (2 * h)
		if math.Abs(num-grad[i]) > 1e-6+1e-4*math.Abs(num) {
			t.Errorf("weight %d (phase %d, index %d): gradient %g, numerically %g", i, i/eval.PhaseParams, i%eval.PhaseParams, grad[i], num)
		}
		if num != 0 {
			nonzero++
		}
	}
	if nonzero < len(check)/2 {
		t.Errorf("only %d of %d checked gradients nonzero", nonzero, len(check))
	}
}

func TestTuneRecoversModel(t *testing.T) {
	n := 8000
	if testing.Short() {
		n = 4000
	}
	s := makeSynthetic(t, n, 1)
	cfg := tuneConfig()
	var trainLosses, valLosses []float64
	var epochs []int
	cfg.OnEpoch = func(e int, tr, va float64) {
		epochs = append(epochs, e)
		trainLosses = append(trainLosses, tr)
		valLosses = append(valLosses, va)
	}
	m, res, err := Tune(s.records, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%v; train losses %.4f", res, trainLosses)
	if m.Variant != cfg.Variant || len(m.Params) != eval.Params {
		t.Fatalf("model of %v with %d weights", m.Variant, len(m.Params))
	}

	// The bookkeeping.
	if res.Train+res.Validation != len(s.records) {
		t.Errorf("%d training and %d validation positions of %d", res.Train, res.Validation, len(s.records))
	}
	if share := float64(res.Validation) / float64(len(s.records)); share < 0.06 || share > 0.14 {
		t.Errorf("validation share %.3f, want about %.1f", share, cfg.Validation)
	}
	if res.Scale != trueScale {
		t.Errorf("scale %g, configured %d", res.Scale, trueScale)
	}
	want := make([]int, res.Epochs)
	for i := range want {
		want[i] = i + 1
	}
	if !slices.Equal(epochs, want) || res.Epochs > cfg.Epochs {
		t.Errorf("OnEpoch heard of epochs %v, result says %d", epochs, res.Epochs)
	}
	best := slices.Index(valLosses, slices.Min(valLosses))
	if res.ValLoss != valLosses[best] || res.Loss != trainLosses[best] {
		t.Errorf("result losses %g/%g, the best epoch's %g/%g", res.Loss, res.ValLoss, trainLosses[best], valLosses[best])
	}
	if res.Epochs < cfg.Epochs && best != res.Epochs-1-cfg.Patience {
		t.Errorf("stopped at epoch %d with the best at %d and patience %d", res.Epochs, best+1, cfg.Patience)
	}

	// The fit: the loss fell, over the epochs and against the start.
	last := len(trainLosses) - 1
	if !(trainLosses[last] < trainLosses[0]-0.002) {
		t.Errorf("training loss did not fall: %.5f -> %.5f", trainLosses[0], trainLosses[last])
	}
	fit := params(m)
	start := params(cfg.Init)
	if before, after := s.loss(start, cfg.Lambda), s.loss(fit, cfg.Lambda); !(after < before-0.01) {
		t.Errorf("loss over the data set %.5f at the start, %.5f fitted", before, after)
	}
	// Material. The kings' scalar shares its part with the king table and
	// king mobility, which the data cannot tell apart from it: it need only
	// move the right way, while the scores of positions with kings must
	// come out right.
	man := mixed(fit, eval.PatternParams+eval.ScMen, s.meanPieces)
	king := mixed(fit, eval.PatternParams+eval.ScKings, s.meanKingPieces)
	t.Logf("man %.1f (opening %.1f, endgame %.1f), king %.1f (%.1f, %.1f)", man,
		fit[eval.PatternParams+eval.ScMen], fit[eval.PhaseParams+eval.PatternParams+eval.ScMen], king,
		fit[eval.PatternParams+eval.ScKings], fit[eval.PhaseParams+eval.PatternParams+eval.ScKings])
	if man < 0.8*trueMan || man > 1.2*trueMan {
		t.Errorf("a man is worth %.1f, truly %d", man, trueMan)
	}
	if startKing := mixed(start, eval.PatternParams+eval.ScKings, s.meanKingPieces); king < startKing+5 || king > 1.2*trueKing {
		t.Errorf("a king is worth %.1f, %.1f at the start, truly %d", king, startKing, trueKing)
	}
	for _, kings := range []bool{false, true} {
		r, slope := s.scoreFit(fit, kings)
		r0, slope0 := s.scoreFit(start, kings)
		t.Logf("positions with kings %v: fitted scores against true ones: correlation %.4f, slope %.3f (at the start %.4f, %.3f)", kings, r, slope, r0, slope0)
		if r < 0.98 || slope < 0.85 || slope > 1.15 {
			t.Errorf("positions with kings %v: fitted scores against true ones: correlation %.4f, slope %.3f", kings, r, slope)
		}
	}
	// The pattern weights given a value, the commonest.
	var x, y []float64
	for _, k := range s.weighted {
		x = append(x, folded(s.theta, 0, k[0], k[1]))
		y = append(y, (folded(fit, 0, k[0], k[1])+folded(fit, 1, k[0], k[1]))/2)
	}
	r := correlation(x, y)
	t.Logf("correlation of %d fitted pattern weights with the truth: %.3f", len(x), r)
	if r < 0.7 {
		t.Errorf("fitted pattern weights correlate %.3f with the true ones", r)
	}

	// The model evaluates as the fit scored: Evaluate truncates the float
	// score of the stored weights.
	for i := range s.records {
		p := &s.records[i].Pos
		var f eval.Features
		eval.Extract(p, &f)
		want := trueScore(fit, &f)
		if got := m.Evaluate(cfg.Variant, p); math.Abs(float64(got)-want) > 1.0001 {
			t.Fatalf("%s: Evaluate %d, the fitted weights score %.3f", cfg.Variant.FormatFEN(p, false), got, want)
		}
	}
}

// TestTuneScale: with no scale set, Tune fits the one under which the
// scores predict the results: the synthetic data's.
func TestTuneScale(t *testing.T) {
	s := makeSynthetic(t, 3000, 4)
	cfg := tuneConfig()
	cfg.Scale, cfg.Epochs = 0, 1
	_, res, err := Tune(s.records, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("fitted scale %g (true %d)", res.Scale, trueScale)
	if res.Scale < 0.8*trueScale || res.Scale > 1.25*trueScale {
		t.Errorf("fitted scale %g, the data's is %d", res.Scale, trueScale)
	}
}

func TestTuneDeterministic(t *testing.T) {
	s := makeSynthetic(t, 2000, 5)
	run := func(threads int, seed uint64) *eval.Model {
		cfg := tuneConfig()
		cfg.Epochs, cfg.Threads, cfg.Seed = 4, threads, seed
		cfg.Init = nil // the default start, material only
		m, _, err := Tune(s.records, cfg)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	a, b := run(1, 1), run(1, 1)
	if !slices.Equal(a.Params, b.Params) {
		t.Error("two runs with one thread and the same seed differ")
	}
	c, d := run(2, 1), run(2, 1)
	if !slices.Equal(c.Params, d.Params) {
		t.Error("two runs with two threads and the same seed differ")
	}
	// One thread or two: the same fit but for rounding.
	worst := 0
	for i := range a.Params {
		worst = max(worst, abs(int(a.Params[i])-int(c.Params[i])))
	}
	t.Logf("largest difference between one and two threads: %d/%d hundredths", worst, eval.Unit)
	if worst > eval.Unit {
		t.Errorf("one and two threads differ by up to %d/%d hundredths of a man", worst, eval.Unit)
	}
	if e := run(1, 2); slices.Equal(a.Params, e.Params) {
		t.Error("seeds 1 and 2 give the same fit")
	}
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// TestTuneHoldsOutGames: the validation split takes whole games.
func TestTuneHoldsOutGames(t *testing.T) {
	s := makeSynthetic(t, 2000, 6)
	for i := range s.records {
		s.records[i].First = i%10 == 0 // games of ten positions
	}
	cfg := tuneConfig()
	cfg.Epochs, cfg.Validation = 1, 0.3
	_, res, err := Tune(s.records, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if res.Validation%10 != 0 || res.Train%10 != 0 || res.Validation == 0 {
		t.Errorf("games of 10 positions split into %d training and %d validation positions", res.Train, res.Validation)
	}
}

func TestTuneRefuses(t *testing.T) {
	s := makeSynthetic(t, 50, 7)
	bad := []func(*TuneConfig){
		func(c *TuneConfig) { c.Batch = 0 },
		func(c *TuneConfig) { c.LR = 0 },
		func(c *TuneConfig) { c.Epochs = 0 },
		func(c *TuneConfig) { c.Lambda = -0.1 },
		func(c *TuneConfig) { c.Lambda = 1.1 },
		func(c *TuneConfig) { c.L2 = -1 },
		func(c *TuneConfig) { c.Validation = -0.1 },
		func(c *TuneConfig) { c.Validation = 1 },
	}
	for i, spoil := range bad {
		cfg := tuneConfig()
		spoil(&cfg)
		if _, _, err := Tune(s.records, cfg); err == nil {
			t.Errorf("bad setting %d accepted", i)
		}
	}
	if _, _, err := Tune(nil, tuneConfig()); err == nil {
		t.Error("no records accepted")
	}
	// Positions the endgame knowledge decides are not trained on.
	v := movegen.Brazilian
	p, err := v.ParseFEN("W:WK1,K2:BK5")
	if err != nil {
		t.Fatal(err)
	}
	r := Record{Pos: p, Result: game.Draw, First: true, GameType: 26}
	if _, _, err := Tune([]Record{r, r, r}, tuneConfig()); err == nil {
		t.Error("a set of untrainable positions accepted")
	}
}

// TestTuneDegenerateSplits: a fit whose validation share is 0, or whose
// one game falls on either side of the split, trains on the training set
// and judges its epochs by it.
func TestTuneDegenerateSplits(t *testing.T) {
	s := makeSynthetic(t, 300, 8)
	t.Run("no validation", func(t *testing.T) {
		cfg := tuneConfig()
		cfg.Validation, cfg.Epochs, cfg.Patience = 0, 8, 2
		var first float64
		cfg.OnEpoch = func(e int, tr, va float64) {
			if e == 1 {
				first = tr
			}
		}
		_, res, err := Tune(s.records, cfg)
		if err != nil {
			t.Fatal(err)
		}
		if res.Epochs <= cfg.Patience+1 || !(res.Loss < first) || res.Train != len(s.records) || res.Validation != 0 {
			t.Errorf("validation 0: %v; the first epoch's training loss was %.5f", res, first)
		}
	})
	t.Run("one game", func(t *testing.T) {
		one := slices.Clone(s.records)
		for i := range one {
			one[i].First = i == 0
		}
		for seed := uint64(1); seed <= 10; seed++ {
			cfg := tuneConfig()
			cfg.Epochs, cfg.Validation, cfg.Seed = 1, 0.5, seed
			if _, res, err := Tune(one, cfg); err != nil || res.Train != len(one) || res.Validation != 0 {
				t.Errorf("seed %d: one game of %d positions: %v, %v", seed, len(one), res, err)
			}
		}
	})
}

// TestTuneLayouts: a fit of layout 2, 3 or 4 gives a model of that layout
// whose fast evaluation is the fit's own score of each position (to the
// rounding of the stored weights), and starting weights of another layout
// are refused.
func TestTuneLayouts(t *testing.T) {
	s := makeSynthetic(t, 200, 5)
	for _, l := range []*eval.FeatureLayout{eval.Layout2, eval.Layout3, eval.Layout4} {
		cfg := DefaultTune
		cfg.Variant, cfg.Epochs, cfg.Layout, cfg.Validation = movegen.Brazilian, 3, l, 0.2
		m, res, err := Tune(s.records, cfg)
		if err != nil {
			t.Fatal(err)
		}
		if m.Layout != l || len(m.Params) != l.Params() || res.Epochs == 0 {
			t.Fatalf("layout %d: got layout %d, %d weights, %d epochs", l.ID, m.Layout.ID, len(m.Params), res.Epochs)
		}
		g := newGeometry(l)
		theta := make([]float64, len(m.Params))
		for i, x := range m.Params {
			theta[i] = float64(x) / eval.Unit
		}
		idx := allIndices(len(s.records))
		data := prepare(g, s.records, idx, 1, trueScale, nil, 1)
		withKings := 0
		for i := range data {
			p := &s.records[i].Pos
			if !eval.Trainable(cfg.Variant, p) {
				continue
			}
			if p.Kings != 0 {
				withKings++
			}
			fit, _ := g.score(&data[i], theta)
			if got := m.Evaluate(cfg.Variant, p); math.Abs(float64(got)-fit) > 2+math.Abs(fit)*0.01 && math.Abs(float64(got)) < eval.KnownWin-1 {
				t.Fatalf("layout %d record %d: evaluates %d, the fit scores %.1f", l.ID, i, got, fit)
			}
		}
		if l.Kings {
			moved := 0
			for ph := range 2 {
				for _, x := range m.Params[ph*l.PhaseParams()+l.KingParamsAt() : ph*l.PhaseParams()+l.MaterialParamsAt()] {
					if x != 0 {
						moved++
					}
				}
			}
			if withKings < 20 || moved < 10 {
				t.Errorf("layout %d: %d positions with kings, %d king-square weights fitted", l.ID, withKings, moved)
			}
		}
		cfg.Init = eval.NewModel(movegen.Brazilian, make([]int16, eval.Params))
		if _, _, err := Tune(s.records, cfg); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("layout 1 for a fit of layout %d", l.ID)) {
			t.Errorf("layout-1 starting weights for a layout-%d fit: %v", l.ID, err)
		}
	}
}

// TestTuneExtendsAndFreezes: a layout-4 fit starts from layout-3 weights
// (the material table from 0); with FreezePatterns the pattern weights
// stay exactly the starting ones while the rest moves; starting weights
// of a layout the fitted one does not extend are refused, and so are
// frozen patterns without starting weights.
func TestTuneExtendsAndFreezes(t *testing.T) {
	s := makeSynthetic(t, 200, 7)
	v := movegen.Brazilian
	init3, _, err := Tune(s.records, TuneConfig{Variant: v, Epochs: 2, Layout: eval.Layout3, LR: 2, Batch: 4096, Lambda: 0.7, Seed: 1, Threads: 1})
	if err != nil {
		t.Fatal(err)
	}
	l3, l4 := eval.Layout3, eval.Layout4
	cfg := TuneConfig{Variant: v, Epochs: 3, Layout: l4, Init: init3, FreezePatterns: true, LR: 2, Batch: 4096, Lambda: 0.7, Seed: 2, Threads: 1}
	m, _, err := Tune(s.records, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if m.Layout != l4 {
		t.Fatalf("got layout %d", m.Layout.ID)
	}
	movedScalars, movedMaterial := 0, 0
	for ph := range 2 {
		for i := range l3.PatternParams() {
			if a, b := m.Params[ph*l4.PhaseParams()+i], init3.Params[ph*l3.PhaseParams()+i]; a != b {
				t.Fatalf("phase %d pattern weight %d: %d, started at %d", ph, i, a, b)
			}
		}
		for i := l3.PatternParams(); i < l3.PhaseParams(); i++ {
			if m.Params[ph*l4.PhaseParams()+i] != init3.Params[ph*l3.PhaseParams()+i] {
				movedScalars++
			}
		}
		for i := range eval.MaterialParams {
			if m.Params[ph*l4.PhaseParams()+l4.MaterialParamsAt()+i] != 0 {
				movedMaterial++
			}
		}
	}
	if movedScalars < 5 || movedMaterial < 5 {
		t.Errorf("frozen patterns: %d scalar and king-square weights and %d material weights moved", movedScalars, movedMaterial)
	}
	// Unfrozen, one epoch moves patterns too.
	cfg.FreezePatterns, cfg.Epochs = false, 1
	if m, _, err = Tune(s.records, cfg); err != nil {
		t.Fatal(err)
	}
	movedPatterns := 0
	for i := range l3.PatternParams() {
		if m.Params[i] != init3.Params[i] {
			movedPatterns++
		}
	}
	if movedPatterns == 0 {
		t.Error("an unfrozen fit moved no pattern weight")
	}
	for _, c := range []struct{ base, l *eval.FeatureLayout }{{eval.Layout1, l4}, {eval.Layout4, l3}, {eval.Layout3, eval.Layout2}, {eval.Layout1, eval.Layout2}} {
		cfg.Init, cfg.Layout = eval.NewLayoutModel(v, c.base, make([]int16, c.base.Params())), c.l
		if _, _, err := Tune(s.records, cfg); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("layout %d for a fit of layout %d", c.base.ID, c.l.ID)) {
			t.Errorf("layout-%d starting weights for a layout-%d fit: %v", c.base.ID, c.l.ID, err)
		}
	}
	// Layout 2 (no king squares) starts layouts 3 and 4: its weights
	// first in each phase, the rest from 0.
	init2 := eval.NewLayoutModel(v, eval.Layout2, make([]int16, eval.Layout2.Params()))
	for i := range init2.Params {
		init2.Params[i] = int16(i%7 - 3)
	}
	for _, l := range []*eval.FeatureLayout{l3, l4} {
		cfg.Init, cfg.Layout, cfg.FreezePatterns = init2, l, true
		m, _, err := Tune(s.records, cfg)
		if err != nil {
			t.Fatalf("layout-2 starting weights for a layout-%d fit: %v", l.ID, err)
		}
		for ph := range 2 {
			for i := range eval.Layout2.PatternParams() {
				if a, b := m.Params[ph*l.PhaseParams()+i], init2.Params[ph*eval.Layout2.PhaseParams()+i]; a != b {
					t.Fatalf("layout %d from layout 2, phase %d pattern weight %d: %d, started at %d", l.ID, ph, i, a, b)
				}
			}
		}
	}
	cfg.FreezePatterns = false
	cfg.Init, cfg.Layout = init3, l3
	if _, _, err := Tune(s.records, cfg); err != nil {
		t.Errorf("layout-3 starting weights for a layout-3 fit: %v", err)
	}
	cfg.Init, cfg.FreezePatterns = nil, true
	if _, _, err := Tune(s.records, cfg); err == nil || !strings.Contains(err.Error(), "starting weights") {
		t.Errorf("frozen patterns without starting weights: %v", err)
	}
}

// TestGradientMaterialTable holds accumulate's material-table gradients
// (layout 4) to numerical derivatives of the loss.
func TestGradientMaterialTable(t *testing.T) {
	s := makeSynthetic(t, 200, 8)
	idx := allIndices(len(s.records))
	l := eval.Layout4
	checkBlockGradients(t, l, s.records, idx, 5, l.MaterialParamsAt(), eval.MaterialParams, "material index", 20)
}

// TestGradientKingSquares holds accumulate's king-square gradients (layout
// 3) to numerical derivatives of the loss.
func TestGradientKingSquares(t *testing.T) {
	s := makeSynthetic(t, 200, 6)
	var idx []int
	for i := range s.records {
		if s.records[i].Pos.Kings != 0 {
			idx = append(idx, i)
		}
	}
	if len(idx) < 20 {
		t.Fatalf("only %d positions with kings", len(idx))
	}
	l := eval.Layout3
	checkBlockGradients(t, l, s.records, idx, 4, l.KingParamsAt(), eval.KingSquares, "king square", 32)
}

// checkBlockGradients compares accumulate's gradients of the n weights
// from at in each phase of layout l with the loss's numerical
// derivatives over records[idx], the block's weights drawn at random
// (seed), the men and kings valued; at least minNonzero of the 2n must
// be nonzero, so that the data exercises the block.
func checkBlockGradients(t *testing.T, l *eval.FeatureLayout, records []Record, idx []int, seed uint64, at, n int, what string, minNonzero int) {
	t.Helper()
	g := newGeometry(l)
	data := prepare(g, records, idx, 0.7, trueScale, nil, 1)
	batch := make([]int32, len(data))
	for i := range batch {
		batch[i] = int32(i)
	}
	rng := rand.New(rand.NewPCG(seed, seed))
	theta := make([]float64, l.Params())
	for ph := range 2 {
		base := ph * l.PhaseParams()
		theta[base+l.PatternParams()+eval.ScMen] = 100
		theta[base+l.PatternParams()+eval.ScKings] = 250
		for j := range n {
			theta[base+at+j] = rng.NormFloat64() * 20
		}
	}
	grad := make([]float64, l.Params())
	g.accumulate(data, batch, theta, trueScale, grad)
	nonzero := 0
	for ph := range 2 {
		for j := range n {
			i := ph*l.PhaseParams() + at + j
			const h = 1e-3
			th := slices.Clone(theta)
			th[i] += h
			up := g.totalLoss(data, th)
			th[i] -= 2 * h
			num := (up - g.totalLoss(data, th)) / (2 * h)
			if math.Abs(num-grad[i]) > 1e-6+1e-4*math.Abs(num) {
				t.Errorf("%s %d, phase %d: gradient %g, numerically %g", what, j, ph, grad[i], num)
			}
			if num != 0 {
				nonzero++
			}
		}
	}
	if nonzero < minNonzero {
		t.Errorf("only %d of %d %s gradients nonzero", nonzero, 2*n, what)
	}
}

// TestScoreOnlyTarget: a score-only record's target is its score's, the
// result left out at any lambda; other records mix the two; and
// score-only records do not set the sigmoid's scale.
func TestScoreOnlyTarget(t *testing.T) {
	s := makeSynthetic(t, 400, 5)
	idx := allIndices(len(s.records))
	g := newGeometry(eval.Layout1)
	for _, lambda := range []float64{0, 0.7, 1} {
		plain := prepare(g, s.records, idx, lambda, trueScale, nil, 1)
		only := slices.Clone(s.records)
		for i := range only {
			only[i].ScoreOnly = true
		}
		marked := prepare(g, only, idx, lambda, trueScale, nil, 1)
		mixed := 0
		for i := range marked {
			want := sigmoid(float64(s.records[i].Score) / trueScale)
			if got := float64(marked[i].target); math.Abs(got-want) > 1e-6 {
				t.Fatalf("lambda %g, record %d score-only: target %g, want the score's %g", lambda, i, got, want)
			}
			if math.Abs(float64(plain[i].target)-want) > 1e-3 {
				mixed++
			}
		}
		if lambda > 0 && mixed == 0 {
			t.Errorf("lambda %g: no plain record's target differs from its score's: the test sees nothing", lambda)
		}
	}
	// Results that contradict every score, marked score-only, leave the
	// fitted scale where the honest records put it.
	honest := fitScale(s.records, idx)
	spoiled := slices.Clone(s.records)
	for i := range spoiled {
		if i%2 == 0 {
			continue
		}
		spoiled[i].ScoreOnly = true
		if spoiled[i].Result == game.WhiteWins {
			spoiled[i].Result = game.BlackWins
		} else {
			spoiled[i].Result = game.WhiteWins
		}
	}
	var even []int
	for i := 0; i < len(idx); i += 2 {
		even = append(even, i)
	}
	if got, want := fitScale(spoiled, idx), fitScale(s.records, even); got != want {
		t.Errorf("scale %g with spoiled score-only records, %g from the others alone (all honest: %g)", got, want, honest)
	}
}

// allIndices is 0, 1, ..., n-1: every record of a set.
func allIndices(n int) []int {
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	return idx
}
