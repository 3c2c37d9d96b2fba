package train

import (
	"errors"
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"sync"

	"github.com/riodraughts/rio/internal/eval"
	"github.com/riodraughts/rio/internal/game"
	"github.com/riodraughts/rio/internal/movegen"
)

// TuneConfig sets up a fit of the learned weights.
type TuneConfig struct {
	Variant *movegen.Variant
	// Epochs is the most passes over the training set; training stops
	// earlier when the validation loss has not improved for Patience epochs.
	Epochs, Patience int
	// L2 is the ridge penalty on the pattern weights (per weight, in
	// hundredths of a man squared, added to the mean loss).
	L2 float64
	// Lambda is the weight of the game result in the target; the rest is
	// the search score through the same sigmoid (1: results only).
	Lambda float64
	// Scale is the sigmoid's scale in hundredths of a man: p(win) =
	// 1/(1+exp(-score/Scale)). 0: fitted to the data's search scores, so
	// the learned scores keep the scale of the evaluation that played.
	Scale float64
	// LR is Adam's step in hundredths of a man; Batch the positions per step.
	LR    float64
	Batch int
	// Validation is the share of games held out to judge the fit.
	Validation float64
	Seed       uint64
	Threads    int
	// Init, if set, are the starting weights (else material only): of
	// the layout fitted, or of one it extends (eval.FeatureLayout.Extends:
	// the added weights start at 0).
	Init *eval.Model
	// FreezePatterns keeps the pattern weights at Init's and fits the
	// rest: a few hundred weights on top of a generation's patterns,
	// which take far fewer positions than the patterns themselves.
	FreezePatterns bool
	// KeepNetwork fits the pattern weights under Init's network, which
	// stays as it is and is part of the fitted model: its output is added
	// to each position's score, so the patterns learn what the network
	// does not already give (the fit tune --network makes, the other way
	// round; the two in turn fit both).
	KeepNetwork bool
	// Layout is the feature layout fitted (nil: Init's, else layout 1).
	Layout *eval.FeatureLayout
	// OnEpoch hears of each epoch's losses.
	OnEpoch func(epoch int, train, val float64)
}

// TuneResult describes a finished fit.
type TuneResult struct {
	Train, Validation int // positions used
	Epochs            int
	Loss, ValLoss     float64 // of the kept (best) epoch
	Scale             float64
}

// sample is one training position, its features precomputed (the
// windows of the layout fitted; every layout's configurations fit 16 bits).
type sample struct {
	own, turned [eval.MaxWindows]uint16
	scalar      [eval.Scalars]int16
	// kings are White's king squares and Black's on the turned board, as
	// masks of eval.KingIndex (layouts with king squares only).
	kings [2]uint32
	// mat are White's and Black's material-table indices (layouts with
	// the table only).
	mat    [2]uint8
	pieces int8
	sign   int8
	// factor scales the weighted sum (1/eval.Damping).
	factor float32
	// net is the kept network's output (KeepNetwork), hundredths of a man
	// for the mover, added after the damping as the engine adds it.
	net    float32
	target float32
}

// DefaultTune are the settings engine tune starts from.
var DefaultTune = TuneConfig{Epochs: 100, Patience: 3, L2: 0, Lambda: 0.7, LR: 2, Batch: 16384, Validation: 0.1, Seed: 1, Threads: 1}

// Tune fits the learned weights to records by logistic regression (Adam
// over mini-batches, deterministic for a seed and a thread count) and
// returns the model of the epoch with the lowest validation loss.
func Tune(records []Record, cfg TuneConfig) (*eval.Model, TuneResult, error) {
	var res TuneResult
	v := cfg.Variant
	threads := max(cfg.Threads, 1)
	rng, trainIdx, valIdx, err := cfg.split(records, &res)
	if err != nil {
		return nil, res, err
	}
	// Without held-out games (--validation 0, or too few games), epochs
	// are judged by the loss over the training set.
	shared := len(valIdx) == 0
	k := res.Scale
	l := cfg.Layout
	switch {
	case l == nil && cfg.Init != nil:
		l = cfg.Init.Layout
	case l == nil:
		l = eval.Layout1
	case cfg.Init != nil && cfg.Init.Layout != l && !l.Extends(cfg.Init.Layout):
		return nil, res, fmt.Errorf("starting weights of layout %d for a fit of layout %d", cfg.Init.Layout.ID, l.ID)
	}
	if cfg.FreezePatterns && cfg.Init == nil {
		return nil, res, errors.New("frozen patterns need starting weights")
	}
	var net *eval.Network
	if cfg.KeepNetwork {
		if cfg.Init == nil || cfg.Init.Net == nil {
			return nil, res, errors.New("keeping a network needs starting weights that have one")
		}
		net = cfg.Init.Net
	}
	g := newGeometry(l)
	tr := prepare(g, records, trainIdx, cfg.Lambda, k, net, threads)
	va := prepare(g, records, valIdx, cfg.Lambda, k, net, threads)

	theta := make([]float64, l.Params())
	if cfg.Init != nil {
		// Each phase's weights start where Init's do (the same layout,
		// or one this layout extends).
		ip := cfg.Init.Layout.PhaseParams()
		for i, x := range cfg.Init.Params {
			theta[i/ip*g.phase+i%ip] = float64(x) / eval.Unit
		}
	} else {
		w := eval.WeightsOf(v)
		for ph := range 2 {
			theta[ph*g.phase+g.pattern+eval.ScMen] = float64(w.Man)
			theta[ph*g.phase+g.pattern+eval.ScKings] = float64(w.King)
		}
	}
	adamM := make([]float64, l.Params())
	adamV := make([]float64, l.Params())
	grads := make([][]float64, threads)
	for t := range grads {
		grads[t] = make([]float64, l.Params())
	}
	best := append([]float64(nil), theta...)
	bestVal, bestTrain := math.Inf(1), 0.0
	order := make([]int32, len(tr))
	for i := range order {
		order[i] = int32(i)
	}
	step := 0
	stale := 0
	const beta1, beta2 = 0.9, 0.999
	// eps damps the steps of rarely seen weights: below about one position
	// in 200 their gradients stay under it and they move like plain
	// gradient descent instead of at Adam's full step.
	const eps = 1e-5
	for epoch := 1; epoch <= cfg.Epochs; epoch++ {
		rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		var lossSum float64
		for start := 0; start < len(order); start += cfg.Batch {
			batch := order[start:min(start+cfg.Batch, len(order))]
			losses := make([]float64, threads)
			parallel(threads, len(batch), func(t, lo, hi int) {
				losses[t] = g.accumulate(tr, batch[lo:hi], theta, k, grads[t])
			})
			for _, l := range losses {
				lossSum += l
			}
			step++
			n := float64(len(batch))
			c1 := 1 - math.Pow(beta1, float64(step))
			c2 := 1 - math.Pow(beta2, float64(step))
			parallel(threads, l.Params(), func(_, lo, hi int) {
				for i := lo; i < hi; i++ {
					d := 0.0
					for t := range grads {
						d += grads[t][i]
						grads[t][i] = 0
					}
					if cfg.FreezePatterns && i%g.phase < g.pattern {
						continue
					}
					d /= n
					if i%g.phase < g.pattern {
						d += 2 * cfg.L2 * theta[i]
					}
					adamM[i] = beta1*adamM[i] + (1-beta1)*d
					adamV[i] = beta2*adamV[i] + (1-beta2)*d*d
					theta[i] -= cfg.LR * (adamM[i] / c1) / (math.Sqrt(adamV[i]/c2) + eps)
				}
			})
		}
		trainLoss := lossSum / float64(len(tr))
		judged := va
		if shared {
			judged = tr
		}
		valLoss := g.meanLoss(judged, theta, k, threads)
		res.Epochs = epoch
		if cfg.OnEpoch != nil {
			cfg.OnEpoch(epoch, trainLoss, valLoss)
		}
		if !math.IsNaN(valLoss) && valLoss < bestVal-1e-7 {
			bestVal, bestTrain, stale = valLoss, trainLoss, 0
			copy(best, theta)
		} else if stale++; cfg.Patience > 0 && stale >= cfg.Patience {
			break
		}
	}
	if math.IsInf(bestVal, 1) {
		return nil, res, errors.New("the fit diverged: no epoch gave a finite loss (try a smaller --lr)")
	}
	res.Loss, res.ValLoss = bestTrain, bestVal
	params := make([]int16, l.Params())
	for i, x := range best {
		params[i] = int16(max(min(math.Round(x*eval.Unit), 32767), -32767))
	}
	m := eval.NewLayoutModel(v, l, params)
	m.Net = net
	return m, res, nil
}

// split checks cfg's settings and holds out its validation games:
// records' trainable indices, the random generator of the fit (seeded by
// cfg.Seed, drawn from for the split first), and res's counts and scale
// (cfg.Scale, or fitted to the training records' scores).
func (cfg *TuneConfig) split(records []Record, res *TuneResult) (*rand.Rand, []int, []int, error) {
	for _, x := range []float64{cfg.LR, cfg.Lambda, cfg.L2, cfg.Validation, cfg.Scale} {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return nil, nil, nil, errors.New("bad tuning settings: not a finite number")
		}
	}
	if cfg.Batch <= 0 || cfg.LR <= 0 || cfg.Epochs <= 0 || cfg.Lambda < 0 || cfg.Lambda > 1 || cfg.L2 < 0 || cfg.Validation < 0 || cfg.Validation >= 1 {
		return nil, nil, nil, errors.New("bad tuning settings")
	}
	rng := rand.New(rand.NewPCG(cfg.Seed, 0x7475_6e65))
	trainIdx, valIdx := splitGames(records, cfg.Variant, cfg.Validation, rng)
	if len(trainIdx) == 0 {
		return nil, nil, nil, errors.New("no trainable positions")
	}
	res.Train, res.Validation = len(trainIdx), len(valIdx)
	res.Scale = cfg.Scale
	if res.Scale <= 0 {
		res.Scale = fitScale(records, trainIdx)
	}
	return rng, trainIdx, valIdx, nil
}

// splitGames returns the indices of the trainable records, held out whole
// games at a time (positions of one game are alike) with chance
// validation each. If every game was held out (a tiny file), they train
// instead.
func splitGames(records []Record, v *movegen.Variant, validation float64, rng *rand.Rand) (trainIdx, valIdx []int) {
	inVal := false
	for i := range records {
		if records[i].First || i == 0 {
			inVal = rng.Float64() < validation
		}
		if !eval.Trainable(v, &records[i].Pos) {
			continue
		}
		if inVal {
			valIdx = append(valIdx, i)
		} else {
			trainIdx = append(trainIdx, i)
		}
	}
	if len(trainIdx) == 0 {
		trainIdx, valIdx = valIdx, nil
	}
	return trainIdx, valIdx
}

// geometry is where a layout's weights sit in theta.
type geometry struct {
	layout           *eval.FeatureLayout
	windows, configs int
	// pattern and phase are the layout's PatternParams and PhaseParams;
	// kings is where the king-square weights start, mat the material
	// table (0: none).
	pattern, phase, kings, mat int
}

func newGeometry(l *eval.FeatureLayout) geometry {
	g := geometry{layout: l, windows: l.Windows(), configs: l.Configs(), pattern: l.PatternParams(), phase: l.PhaseParams()}
	if l.Kings {
		g.kings = l.KingParamsAt()
	}
	if l.Material {
		g.mat = l.MaterialParamsAt()
	}
	return g
}

// kingMask is b's squares as a mask of eval.KingIndex.
func kingMask(b movegen.Bitboard) uint32 {
	var m uint32
	for ; b != 0; b &= b - 1 {
		m |= 1 << eval.KingIndex(b.First())
	}
	return m
}

// parallel splits [0, n) into threads contiguous ranges and runs f on
// each; the split depends only on n and threads.
func parallel(threads, n int, f func(t, lo, hi int)) {
	if threads == 1 {
		f(0, 0, n)
		return
	}
	var wg sync.WaitGroup
	for t := range threads {
		lo, hi := n*t/threads, n*(t+1)/threads
		wg.Add(1)
		go func() { defer wg.Done(); f(t, lo, hi) }()
	}
	wg.Wait()
}

// prepare computes the features (in g's layout) and targets of
// records[idx], and net's output if net is not nil.
func prepare(g geometry, records []Record, idx []int, lambda, k float64, net *eval.Network, threads int) []sample {
	out := make([]sample, len(idx))
	parallel(threads, len(idx), func(_, lo, hi int) {
		var f eval.Features
		for j := lo; j < hi; j++ {
			r := &records[idx[j]]
			g.layout.Extract(&r.Pos, &f)
			s := &out[j]
			for w := range g.windows {
				s.own[w], s.turned[w] = uint16(f.Own[w]), uint16(f.Turned[w])
			}
			for i, x := range f.Scalar {
				s.scalar[i] = int16(x)
			}
			if g.kings != 0 {
				s.kings = [2]uint32{kingMask(f.Kings[0]), kingMask(f.Kings[1])}
			}
			if g.mat != 0 {
				s.mat = [2]uint8{uint8(f.Material[0]), uint8(f.Material[1])}
			}
			s.pieces, s.sign = int8(f.Pieces), int8(f.Sign)
			s.factor = 1 / float32(eval.Damping(&r.Pos))
			if net != nil {
				s.net = float32(net.Evaluate(&r.Pos))
			}
			s.target = float32(target(r, lambda, k))
		}
	})
	return out
}

// target is what a fit predicts for r: its result for the mover mixed
// with its search score through the sigmoid of scale k (lambda: the
// result's share); a score-only record's target is its score's alone.
func target(r *Record, lambda, k float64) float64 {
	score := sigmoid(float64(r.Score) / k)
	result, judged := moverResult(r)
	if !judged {
		result = score
	}
	return lambda*result + (1-lambda)*score
}

func sigmoid(x float64) float64 { return 1 / (1 + math.Exp(-x)) }

// score is the model's score of s for the side to move, in hundredths of
// a man, the float twin of eval.Model.Evaluate (a kept network's output
// included), and the weight of each phase's sum in it.
func (g geometry) score(s *sample, theta []float64) (float64, [2]float64) {
	mixOpen := float64(s.pieces) / eval.MaxPhase
	mix := [2]float64{mixOpen, 1 - mixOpen}
	total := 0.0
	for ph := range 2 {
		base := theta[ph*g.phase : (ph+1)*g.phase]
		sum := 0.0
		for w := range g.windows {
			sum += base[w*g.configs+int(s.own[w])] - base[w*g.configs+int(s.turned[w])]
		}
		for i, x := range s.scalar {
			if x != 0 {
				sum += float64(x) * base[g.pattern+i]
			}
		}
		for b := s.kings[0]; b != 0; b &= b - 1 {
			sum += base[g.kings+bits.TrailingZeros32(b)]
		}
		for b := s.kings[1]; b != 0; b &= b - 1 {
			sum -= base[g.kings+bits.TrailingZeros32(b)]
		}
		if g.mat != 0 {
			sum += base[g.mat+int(s.mat[0])] - base[g.mat+int(s.mat[1])]
		}
		total += mix[ph] * (float64(s.sign)*sum + base[g.pattern+eval.ScSideToMove])
	}
	f := float64(s.factor)
	return total*f + float64(s.net), [2]float64{mix[0] * f, mix[1] * f}
}

// loss is the cross-entropy of a prediction p against target t.
func loss(p, t float64) float64 {
	const tiny = 1e-12
	return -(t*math.Log(max(p, tiny)) + (1-t)*math.Log(max(1-p, tiny)))
}

// accumulate adds the loss gradient of the samples in batch to grad and
// returns their summed loss.
func (g geometry) accumulate(data []sample, batch []int32, theta []float64, k float64, grad []float64) float64 {
	total := 0.0
	for _, i := range batch {
		s := &data[i]
		sc, mix := g.score(s, theta)
		p := sigmoid(sc / k)
		t := float64(s.target)
		total += loss(p, t)
		d := (p - t) / k
		for ph := range 2 {
			gr := d * mix[ph]
			base := grad[ph*g.phase : (ph+1)*g.phase]
			base[g.pattern+eval.ScSideToMove] += gr
			gr *= float64(s.sign)
			for w := range g.windows {
				base[w*g.configs+int(s.own[w])] += gr
				base[w*g.configs+int(s.turned[w])] -= gr
			}
			for j, x := range s.scalar {
				if x != 0 {
					base[g.pattern+j] += gr * float64(x)
				}
			}
			for b := s.kings[0]; b != 0; b &= b - 1 {
				base[g.kings+bits.TrailingZeros32(b)] += gr
			}
			for b := s.kings[1]; b != 0; b &= b - 1 {
				base[g.kings+bits.TrailingZeros32(b)] -= gr
			}
			if g.mat != 0 {
				base[g.mat+int(s.mat[0])] += gr
				base[g.mat+int(s.mat[1])] -= gr
			}
		}
	}
	return total
}

// meanLoss is the mean loss of the model over data.
func (g geometry) meanLoss(data []sample, theta []float64, k float64, threads int) float64 {
	if len(data) == 0 {
		return 0
	}
	sums := make([]float64, threads)
	parallel(threads, len(data), func(t, lo, hi int) {
		for i := lo; i < hi; i++ {
			sc, _ := g.score(&data[i], theta)
			sums[t] += loss(sigmoid(sc/k), float64(data[i].target))
		}
	})
	total := 0.0
	for _, s := range sums {
		total += s
	}
	return total / float64(len(data))
}

// moverResult is r's game result for the side to move (1 win, 0.5 draw,
// 0 loss), and false for a score-only record, whose result judges a
// random move played later rather than this position.
func moverResult(r *Record) (float64, bool) {
	if r.ScoreOnly {
		return 0, false
	}
	result := 0.5
	switch r.Result {
	case game.WhiteWins:
		result = 1
	case game.BlackWins:
		result = 0
	}
	if r.Pos.Side == movegen.Black {
		result = 1 - result
	}
	return result, true
}

// fitScale finds the sigmoid scale under which the recorded search
// scores best predict the results (golden-section search over 20-2000).
func fitScale(records []Record, idx []int) float64 {
	f := func(k float64) float64 {
		total := 0.0
		for _, i := range idx {
			r := &records[i]
			if result, judged := moverResult(r); judged {
				total += loss(sigmoid(float64(r.Score)/k), result)
			}
		}
		return total
	}
	lo, hi := 20.0, 2000.0
	g := (math.Sqrt(5) - 1) / 2
	a, b := hi-g*(hi-lo), lo+g*(hi-lo)
	fa, fb := f(a), f(b)
	for hi-lo > 1 {
		if fa < fb {
			hi, b, fb = b, a, fa
			a = hi - g*(hi-lo)
			fa = f(a)
		} else {
			lo, a, fa = a, b, fb
			b = lo + g*(hi-lo)
			fb = f(b)
		}
	}
	return math.Round((lo + hi) / 2)
}

// String describes a result.
func (r TuneResult) String() string {
	return fmt.Sprintf("positions=%d validation=%d epochs=%d loss=%.6f val-loss=%.6f scale=%.0f", r.Train, r.Validation, r.Epochs, r.Loss, r.ValLoss, r.Scale)
}
