package train

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/riodraughts/rio/internal/eval"
	"github.com/riodraughts/rio/internal/game"
	"github.com/riodraughts/rio/internal/movegen"
)

// interactionRecords are positions of random games whose results are
// drawn from a score no sum of per-piece terms gives: men count double
// once a king is on the board.
func interactionRecords(n int, seed uint64) []Record {
	v := movegen.Brazilian
	rng := rand.New(rand.NewPCG(seed, 5))
	var out []Record
	for len(out) < n {
		for i, p := range randomPositions(v, rng, 1, 120) {
			if !eval.Trainable(v, &p) || len(out) == n {
				continue
			}
			own, opp := p.Pieces[p.Side], p.Pieces[p.Side^1]
			men := float64((own &^ p.Kings).Count() - (opp &^ p.Kings).Count())
			kings := float64((own & p.Kings).Count() - (opp & p.Kings).Count())
			sc := 60*men + 150*kings
			if p.Kings != 0 {
				sc += 60 * men
			}
			r := Record{Pos: p, Score: int16(sc), First: i == 0, GameType: uint8(v.GameType), Result: game.BlackWins}
			if (rng.Float64() < sigmoid(sc/trueScale)) == (p.Side == movegen.White) {
				r.Result = game.WhiteWins
			}
			out = append(out, r)
		}
	}
	return out
}

// TestTuneNetwork: a network fitted on top of material-only weights learns
// the interaction they miss (a lower validation loss than without it),
// the same for the same seed, and keeps the starting weights.
func TestTuneNetwork(t *testing.T) {
	records := interactionRecords(12000, 1)
	cfg := tuneConfig()
	cfg.LR, cfg.Batch, cfg.Epochs, cfg.Lambda = 0.01, 64, 40, 0
	start := slices.Clone(cfg.Init.Params)
	m, res, err := TuneNetwork(records, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(m.Params, start) || !slices.Equal(cfg.Init.Params, start) || m.Net == nil || cfg.Init.Net != nil {
		t.Fatal("the starting weights changed, or no network")
	}
	trainIdx, valIdx := splitGames(records, cfg.Variant, cfg.Validation, rand.New(rand.NewPCG(cfg.Seed, 0x7475_6e65)))
	if len(trainIdx) != res.Train || len(valIdx) != res.Validation {
		t.Fatalf("split %d/%d, the fit's %d/%d", len(trainIdx), len(valIdx), res.Train, res.Validation)
	}
	va := prepareNet(cfg.Init, records, valIdx, cfg.Lambda, res.Scale, 1)
	zero, _ := eval.NewNetwork(make([]int16, eval.NetParams))
	without := netLoss(va, zero, res.Scale)
	// The targets are the true scores' (lambda 0): the loss cannot go
	// below their own entropy.
	floor := 0.0
	for _, s := range va {
		floor += loss(float64(s.target), float64(s.target)) / float64(len(va))
	}
	if got := netLoss(va, m.Net, res.Scale); math.Abs(got-res.ValLoss) > 1e-12 || res.ValLoss-floor > (without-floor)/2 {
		t.Fatalf("validation loss %.5f (reported %.5f), without the network %.5f, the targets' own %.5f", got, res.ValLoss, without, floor)
	}
	again, _, err := TuneNetwork(records, cfg)
	if err != nil || !slices.Equal(again.Net.Params(), m.Net.Params()) {
		t.Fatalf("a second fit with the same seed differs (%v)", err)
	}
	cfg.Init = nil
	if _, _, err := TuneNetwork(records, cfg); err == nil {
		t.Fatal("a network without starting weights accepted")
	}
}

// randomFloatNet has values of the sizes a fit gives: most units between
// their clips on most positions.
func randomFloatNet(seed uint64) *floatNet {
	rng := rand.New(rand.NewPCG(seed, 4))
	f := new(floatNet)
	for i := range f.w1 {
		f.w1[i] = rng.NormFloat64() * 0.15
	}
	for j := range f.b1 {
		f.b1[j] = 0.2 + 0.4*rng.Float64()
		f.w2[j] = rng.NormFloat64() * 0.5
	}
	f.b2 = 0.3
	return f
}

// TestQuantizedNetwork: the engine's integer network scores as the float
// network of its own values (dequantized) up to the final division's
// truncation, and the rounding moves the float network's score by little.
func TestQuantizedNetwork(t *testing.T) {
	f := randomFloatNet(4)
	q := f.quantize()
	back := new(floatNet)
	for i, x := range q.Params() {
		unit := float64(eval.NetOne)
		if i >= len(back.w1)+len(back.b1) {
			unit = 100 * eval.NetOutUnit
		}
		*back.at(i) = float64(x) / unit
	}
	var acc [eval.NetHidden]float64
	rng := rand.New(rand.NewPCG(4, 5))
	active := 0
	for _, p := range randomPositions(movegen.Russian, rng, 20, 100) {
		var s netSample
		s.n = uint8(eval.NetFeatures(&p, &s.act))
		got := float64(q.Evaluate(&p))
		if want := back.forward(&s, &acc); math.Abs(got-want) > 1+1e-9 {
			t.Fatalf("%s: integer %v, float of the same values %.3f", movegen.Russian.FormatFEN(&p, false), got, want)
		}
		if want := f.forward(&s, &acc); math.Abs(got-want) > 5 {
			t.Fatalf("%s: integer %v, float before rounding %.3f", movegen.Russian.FormatFEN(&p, false), got, want)
		}
		for _, x := range acc {
			if x > 0 && x < 1 {
				active++
			}
		}
	}
	if active == 0 {
		t.Fatal("no unit between its clips: the comparison saw constants only")
	}
}

// TestNetworkGradient: backward's gradient equals the loss's numerical
// derivative by every kind of value (first layer, its biases, output
// weights, output bias).
func TestNetworkGradient(t *testing.T) {
	f := randomFloatNet(6)
	rng := rand.New(rand.NewPCG(6, 6))
	positions := randomPositions(movegen.Brazilian, rng, 3, 60)
	const k = 80.0
	samples := make([]netSample, len(positions))
	for i := range positions {
		s := &samples[i]
		s.n = uint8(eval.NetFeatures(&positions[i], &s.act))
		s.base = float32(rng.NormFloat64() * 50)
		s.target = float32(rng.Float64())
	}
	total := func() float64 {
		var g [netValues]float64
		sum := 0.0
		for i := range samples {
			sum += f.backward(&samples[i], k, &g)
		}
		return sum
	}
	var grad [netValues]float64
	for i := range samples {
		f.backward(&samples[i], k, &grad)
	}
	var checked [4]int
	for i := range netValues {
		part := 0
		switch {
		case i >= len(f.w1)+len(f.b1)+len(f.w2):
			part = 3
		case i >= len(f.w1)+len(f.b1):
			part = 2
		case i >= len(f.w1):
			part = 1
		}
		if grad[i] == 0 && part == 0 {
			continue // an input no sample has
		}
		const h = 1e-6
		x := f.at(i)
		old := *x
		*x = old + h
		up := total()
		*x = old - h
		down := total()
		*x = old
		num := (up - down) / (2 * h)
		if math.Abs(num-grad[i]) > 1e-4*max(1, math.Abs(num)) {
			t.Fatalf("value %d (part %d): gradient %.8f, numerical %.8f", i, part, grad[i], num)
		}
		checked[part]++
	}
	for part, n := range checked {
		if n == 0 {
			t.Fatalf("no value of part %d checked", part)
		}
	}
}

// TestTuneKeepNetwork: patterns fitted under a kept network (the other half
// of fitting both in turn) keep the network as it was, score each position
// as the engine does (the network's output included), and lower the
// validation loss of the model with it; without a network to keep, the
// fit is refused.
func TestTuneKeepNetwork(t *testing.T) {
	records := interactionRecords(12000, 1)
	cfg := tuneConfig()
	cfg.LR, cfg.Batch, cfg.Epochs, cfg.Lambda = 0.01, 64, 5, 0
	withNet, _, err := TuneNetwork(records, cfg)
	if err != nil {
		t.Fatal(err)
	}
	keep := tuneConfig()
	keep.Lambda, keep.Init, keep.KeepNetwork = 0, withNet, true
	m, res, err := Tune(records, keep)
	if err != nil {
		t.Fatal(err)
	}
	if m.Net == nil || !slices.Equal(m.Net.Params(), withNet.Net.Params()) {
		t.Fatal("the kept network changed or was dropped")
	}
	if slices.Equal(m.Params, withNet.Params) {
		t.Fatal("no pattern weight moved")
	}
	// The fit's float score is the engine's, network and all.
	v := keep.Variant
	g := newGeometry(m.Layout)
	theta := make([]float64, len(m.Params))
	for i, x := range m.Params {
		theta[i] = float64(x) / eval.Unit
	}
	idx := allIndices(len(records))
	data := prepare(g, records, idx, 0, res.Scale, m.Net, 1)
	withOutput := 0
	for i := range data {
		p := &records[i].Pos
		if data[i].net != 0 {
			withOutput++
		}
		fit, _ := g.score(&data[i], theta)
		if got := m.Evaluate(v, p); math.Abs(float64(got)-fit) > 2+math.Abs(fit)*0.01 && math.Abs(float64(got)) < eval.KnownWin-1 {
			t.Fatalf("record %d: evaluates %d, the fit scores %.1f", i, got, fit)
		}
	}
	if withOutput < len(data)/2 {
		t.Fatalf("the network gave an output on %d positions of %d", withOutput, len(data))
	}
	// Judged in the engine's arithmetic on the held-out games, the refit
	// patterns do better under the network than the ones it was fitted on.
	_, valIdx := splitGames(records, v, keep.Validation, rand.New(rand.NewPCG(keep.Seed, 0x7475_6e65)))
	engineLoss := func(m *eval.Model) float64 {
		sum := 0.0
		for _, i := range valIdx {
			sum += loss(sigmoid(float64(m.Evaluate(v, &records[i].Pos))/res.Scale), target(&records[i], 0, res.Scale))
		}
		return sum / float64(len(valIdx))
	}
	if before, after := engineLoss(withNet), engineLoss(m); after >= before || math.Abs(after-res.ValLoss) > 0.002 {
		t.Fatalf("validation loss under the network: %.5f before the refit, %.5f after (the fit reported %.5f)", before, after, res.ValLoss)
	}
	keep.Init = tuneConfig().Init
	if _, _, err := Tune(records, keep); err == nil || !strings.Contains(err.Error(), "network") {
		t.Fatalf("a network kept from weights without one: %v", err)
	}
}
