package train

import (
	"errors"
	"math"

	"github.com/riodraughts/rio/internal/eval"
)

// DefaultNetTune are engine tune --network's own step and batch: the
// network's values are of order 1, where a pattern weight is of order a
// hundredth of a man.
var DefaultNetTune = struct {
	LR    float64
	Batch int
}{LR: 0.003, Batch: 1024}

// netSample is one training position for the network: its inputs, the
// frozen pattern score and the target.
type netSample struct {
	act    [32]uint8
	n      uint8
	base   float32 // the pattern evaluation, hundredths of a man for the mover
	target float32
}

// floatNet is the network in float64 while it is fitted: the same
// arithmetic as eval.Network with NetOne = 1 and the output in men.
type floatNet struct {
	w1 [eval.NetInputs * eval.NetHidden]float64
	b1 [eval.NetHidden]float64
	w2 [eval.NetHidden]float64
	b2 float64
}

// netValues is the count of a floatNet's values, in the order w1, b1, w2,
// b2: eval.NetParams, the engine's network's.
const netValues = eval.NetParams

// forward returns the network's output in hundredths of a man and leaves
// the hidden units' sums in acc.
func (f *floatNet) forward(s *netSample, acc *[eval.NetHidden]float64) float64 {
	*acc = f.b1
	for _, a := range s.act[:s.n] {
		row := f.w1[int(a)*eval.NetHidden:]
		for j := range acc {
			acc[j] += row[j]
		}
	}
	out := f.b2
	for j, x := range acc {
		out += f.w2[j] * min(max(x, 0), 1)
	}
	return 100 * out
}

// backward adds the gradient of s's loss by each value (in the order of
// at) to grad and returns the loss.
func (f *floatNet) backward(s *netSample, k float64, grad *[netValues]float64) float64 {
	var acc, dh [eval.NetHidden]float64
	p := sigmoid((float64(s.base) + f.forward(s, &acc)) / k)
	t := float64(s.target)
	// d is the loss's derivative by the output in men (the output is 100
	// times the network's sum, in hundredths).
	d := (p - t) / k * 100
	nb := len(f.w1) + len(f.b1)
	grad[netValues-1] += d
	for j, x := range acc {
		grad[nb+j] += d * min(max(x, 0), 1)
		if x > 0 && x < 1 {
			dh[j] = d * f.w2[j]
		}
		grad[len(f.w1)+j] += dh[j]
	}
	for _, a := range s.act[:s.n] {
		row := grad[int(a)*eval.NetHidden:]
		for j := range dh {
			row[j] += dh[j]
		}
	}
	return loss(p, t)
}

// at is the address of value i in the stored order.
func (f *floatNet) at(i int) *float64 {
	switch n1, n2 := len(f.w1), len(f.w1)+len(f.b1); {
	case i < n1:
		return &f.w1[i]
	case i < n2:
		return &f.b1[i-n1]
	case i < n2+len(f.w2):
		return &f.w2[i-n2]
	}
	return &f.b2
}

// quantize rounds the network to eval.Network's integers (the first
// layer within ±eval.NetMaxW1).
func (f *floatNet) quantize() *eval.Network {
	q := func(x, unit, limit float64) int16 { return int16(max(min(math.Round(x*unit), limit), -limit)) }
	params := make([]int16, 0, eval.NetParams)
	for _, x := range f.w1 {
		params = append(params, q(x, eval.NetOne, eval.NetMaxW1))
	}
	for _, x := range f.b1 {
		params = append(params, q(x, eval.NetOne, 32767))
	}
	for _, x := range f.w2 {
		params = append(params, q(x, 100*eval.NetOutUnit, 32767))
	}
	params = append(params, q(f.b2, 100*eval.NetOutUnit, 32767))
	n, err := eval.NewNetwork(params)
	if err != nil {
		panic("train: a quantized network out of range: " + err.Error())
	}
	return n
}

// TuneNetwork fits an eval.Network on top of cfg.Init's pattern weights,
// which stay as they are (the network learns what they miss; cfg.OnEpoch
// hears of their losses alone as epoch 0): the same
// target, scale and validation split by games as Tune, Adam over
// mini-batches of cfg.Batch positions at step cfg.LR, one thread, so the
// fit depends on the seed alone. It returns cfg.Init's weights with the
// network of the epoch with the lowest validation loss. The validation
// losses are the network's in the engine's integer arithmetic; a training
// loss is the float network's, as it stood at each position of its epoch.
func TuneNetwork(records []Record, cfg TuneConfig) (*eval.Model, TuneResult, error) {
	var res TuneResult
	v := cfg.Variant
	if cfg.Init == nil {
		return nil, res, errors.New("a network is fitted on top of starting weights (--init)")
	}
	if cfg.Init.Variant != v {
		return nil, res, errors.New("starting weights of another variant")
	}
	base := *cfg.Init
	base.Net = nil
	rng, trainIdx, valIdx, err := cfg.split(records, &res)
	if err != nil {
		return nil, res, err
	}
	shared := len(valIdx) == 0
	k := res.Scale
	threads := max(cfg.Threads, 1)
	tr := prepareNet(&base, records, trainIdx, cfg.Lambda, k, threads)
	va := prepareNet(&base, records, valIdx, cfg.Lambda, k, threads)
	judged := va
	if shared {
		judged = tr
	}

	// Epoch 0 is the starting point: the patterns alone.
	zero, _ := eval.NewNetwork(make([]int16, eval.NetParams))
	if cfg.OnEpoch != nil {
		cfg.OnEpoch(0, netLoss(tr, zero, k), netLoss(judged, zero, k))
	}
	// Small random first-layer weights and biases that leave most units
	// active; the output starts at 0, so the fit starts from the patterns.
	net := new(floatNet)
	for i := range net.w1 {
		net.w1[i] = rng.NormFloat64() * 0.15
	}
	for j := range net.b1 {
		net.b1[j] = 0.2 + 0.2*rng.Float64()
	}
	var grad, adamM, adamV [netValues]float64
	var best *eval.Network
	bestVal, bestTrain, stale, step := math.Inf(1), 0.0, 0, 0
	order := make([]int32, len(tr))
	for i := range order {
		order[i] = int32(i)
	}
	const beta1, beta2, eps = 0.9, 0.999, 1e-8
	maxW1 := float64(eval.NetMaxW1) / eval.NetOne
	for epoch := 1; epoch <= cfg.Epochs; epoch++ {
		rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		lossSum := 0.0
		for start := 0; start < len(order); start += cfg.Batch {
			batch := order[start:min(start+cfg.Batch, len(order))]
			for _, i := range batch {
				lossSum += net.backward(&tr[i], k, &grad)
			}
			step++
			n := float64(len(batch))
			c1 := 1 - math.Pow(beta1, float64(step))
			c2 := 1 - math.Pow(beta2, float64(step))
			for i := range grad {
				g := grad[i] / n
				grad[i] = 0
				adamM[i] = beta1*adamM[i] + (1-beta1)*g
				adamV[i] = beta2*adamV[i] + (1-beta2)*g*g
				*net.at(i) -= cfg.LR * (adamM[i] / c1) / (math.Sqrt(adamV[i]/c2) + eps)
			}
			// The engine's first layer holds ±NetMaxW1/NetOne at most.
			for i, x := range net.w1 {
				net.w1[i] = max(min(x, maxW1), -maxW1)
			}
		}
		q := net.quantize()
		valLoss := netLoss(judged, q, k)
		trainLoss := lossSum / float64(len(tr))
		if math.IsNaN(trainLoss) || math.IsInf(trainLoss, 0) {
			break
		}
		res.Epochs = epoch
		if cfg.OnEpoch != nil {
			cfg.OnEpoch(epoch, trainLoss, valLoss)
		}
		if !math.IsNaN(valLoss) && valLoss < bestVal-1e-7 {
			bestVal, bestTrain, stale, best = valLoss, trainLoss, 0, q
		} else if stale++; cfg.Patience > 0 && stale >= cfg.Patience {
			break
		}
	}
	if best == nil {
		return nil, res, errors.New("the fit diverged: no epoch gave a finite loss (try a smaller --lr)")
	}
	res.Loss, res.ValLoss = bestTrain, bestVal
	m := base
	m.Net = best
	return &m, res, nil
}

// prepareNet computes the inputs, the pattern score under base and the
// target (as prepare's) of records[idx].
func prepareNet(base *eval.Model, records []Record, idx []int, lambda, k float64, threads int) []netSample {
	v := base.Variant
	out := make([]netSample, len(idx))
	parallel(threads, len(idx), func(_, lo, hi int) {
		for j := lo; j < hi; j++ {
			r := &records[idx[j]]
			s := &out[j]
			s.n = uint8(eval.NetFeatures(&r.Pos, &s.act))
			s.base = float32(base.Evaluate(v, &r.Pos))
			s.target = float32(target(r, lambda, k))
		}
	})
	return out
}

// netLoss is the mean loss over data of the pattern scores plus the
// network's, in the engine's integer arithmetic.
func netLoss(data []netSample, n *eval.Network, k float64) float64 {
	if len(data) == 0 {
		return 0
	}
	total := 0.0
	for i := range data {
		s := &data[i]
		out := n.EvaluateInputs(s.act[:s.n])
		total += loss(sigmoid((float64(s.base)+float64(out))/k), float64(s.target))
	}
	return total / float64(len(data))
}
