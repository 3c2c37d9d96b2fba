// Package match holds the statistics of an engine-versus-engine match:
// the score, the Elo difference with its confidence interval, the
// likelihood of superiority and a sequential probability ratio test
// (SPRT) that can stop a match as soon as it is decided.
//
// All results are counted from the first engine's (engine A's) side.
// Draughts has many draws, so every formula here uses the trinomial
// model (win = 1, draw = 1/2, loss = 0 points per game) rather than
// a binomial one that would ignore draws.
package match

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Result is the outcome of one game from the first engine's side.
type Result int

// The possible game results. The zero value is deliberately not a
// valid result so that a forgotten assignment is caught by Score.Add.
const (
	Win Result = iota + 1
	Draw
	Loss
)

// Score counts game results from the first engine's side.
type Score struct{ Wins, Draws, Losses int }

// Games returns the number of games played.
func (s Score) Games() int { return s.Wins + s.Draws + s.Losses }

// Add counts one more game. It panics on a value that is not Win,
// Draw or Loss, since that can only be a programming error.
func (s *Score) Add(r Result) {
	switch r {
	case Win:
		s.Wins++
	case Draw:
		s.Draws++
	case Loss:
		s.Losses++
	default:
		panic(fmt.Sprintf("match: invalid Result %d", int(r)))
	}
}

// Points returns the first engine's points: one per win, half per draw.
func (s Score) Points() float64 { return float64(s.Wins) + float64(s.Draws)/2 }

// Ratio returns the mean score per game, Points()/Games(), in [0, 1];
// 0.5 (an even score) when no games have been played.
func (s Score) Ratio() float64 {
	n := s.Games()
	if n == 0 {
		return 0.5
	}
	return s.Points() / float64(n)
}

// DrawRatio returns the fraction of games drawn; 0 when no games have
// been played.
func (s Score) DrawRatio() float64 {
	n := s.Games()
	if n == 0 {
		return 0
	}
	return float64(s.Draws) / float64(n)
}

// variance returns the per-game variance of the score, i.e. the
// variance of the empirical trinomial distribution over the points
// {1, 1/2, 0} with frequencies W/N, D/N, L/N:
//
//	σ² = w·(1-x)² + d·(1/2-x)² + l·(0-x)²,  x = w + d/2.
//
// It is 0 when no games have been played.
func (s Score) variance() float64 {
	n := float64(s.Games())
	if n == 0 {
		return 0
	}
	x := s.Ratio()
	w, d, l := float64(s.Wins)/n, float64(s.Draws)/n, float64(s.Losses)/n
	return w*(1-x)*(1-x) + d*(0.5-x)*(0.5-x) + l*x*x
}

// maxElo is the clamp applied to every Elo value returned by this
// package. It corresponds to a score of about 99.9%
// (1/(1+10^-3) ≈ 0.999001); scores of exactly 0 or 1, which would map
// to -Inf or +Inf, are reported as -maxElo or +maxElo instead.
const maxElo = 1200

// z95 is the two-sided 97.5% quantile of the standard normal
// distribution, giving a 95% confidence interval.
const z95 = 1.959963984540054

// eloFromScore converts an expected score into an Elo difference with
// the logistic Elo model, elo = -400·log10(1/x - 1), written in the
// equivalent form 400·log10(x/(1-x)) (which gives +0, not -0, at
// x = 0.5). The result is clamped to [-maxElo, +maxElo]; x <= 0 and
// x >= 1 give the clamp values.
func eloFromScore(x float64) float64 {
	switch {
	case x <= 0:
		return -maxElo
	case x >= 1:
		return maxElo
	}
	return max(-maxElo, min(maxElo, 400*math.Log10(x/(1-x))))
}

// scoreFromElo is the inverse of the logistic Elo model: the expected
// score of a player who is elo points stronger, 1/(1+10^(-elo/400)).
func scoreFromElo(elo float64) float64 { return 1 / (1 + math.Pow(10, -elo/400)) }

// Elo returns the Elo difference implied by the score and the bounds
// of its 95% confidence interval.
//
// The point estimate is the logistic Elo model applied to the mean
// score x = Ratio(): elo = -400·log10(1/x - 1). The interval uses the
// normal approximation for the mean score: with the per-game
// trinomial variance σ² = w(1-x)² + d(1/2-x)² + l·x² (w, d, l the
// observed win, draw and loss fractions), the mean of N games has
// standard error σ/√N, so x ± 1.96·σ/√N is a 95% interval for the
// expected score; since the Elo model is monotone its end points map
// to the Elo interval (the same computation cutechess-cli uses for its
// ± error margin; see also the Chess Programming Wiki's "Match
// Statistics" page).
//
// Clamp: every returned value lies in [-1200, +1200] (a score of about
// 0.1% / 99.9%); a score or bound <= 0 or >= 1 maps to -1200 or +1200
// instead of an infinity. With no games Elo returns 0, -1200, +1200
// (nothing is known). A score of exactly 0 or 1 has zero variance, so
// its interval collapses onto the clamped point estimate.
func (s Score) Elo() (elo, lo, hi float64) {
	n := s.Games()
	if n == 0 {
		return 0, -maxElo, maxElo
	}
	x := s.Ratio()
	margin := z95 * math.Sqrt(s.variance()/float64(n))
	return eloFromScore(x), eloFromScore(x - margin), eloFromScore(x + margin)
}

// LOS returns the likelihood of superiority, the probability that the
// first engine is the stronger one given the result:
//
//	LOS = 1/2·(1 + erf((W-L)/√(2(W+L)))).
//
// It is the normal approximation of the binomial distribution of the
// decisive games (draws carry no information about which side is
// stronger), as given on the Chess Programming Wiki's "Match
// Statistics" page. It is 0.5 when W+L == 0.
func (s Score) LOS() float64 {
	decisive := s.Wins + s.Losses
	if decisive == 0 {
		return 0.5
	}
	return 0.5 * (1 + math.Erf(float64(s.Wins-s.Losses)/math.Sqrt(2*float64(decisive))))
}

// String summarises the score, e.g.
//
//	+12 =70 -8 (52.2%) Elo +15.5 [-18.3, +49.5] LOS 81.4% draws 77.8%
//
// giving wins, draws and losses, the score percentage, the Elo
// difference with its 95% confidence interval, the LOS and the draw
// ratio.
func (s Score) String() string {
	elo, lo, hi := s.Elo()
	return fmt.Sprintf("+%d =%d -%d (%.1f%%) Elo %+.1f [%+.1f, %+.1f] LOS %.1f%% draws %.1f%%",
		s.Wins, s.Draws, s.Losses, 100*s.Ratio(), elo, lo, hi, 100*s.LOS(), 100*s.DrawRatio())
}

// SPRT is a sequential probability ratio test of H0: elo = Elo0 against
// H1: elo = Elo1 (logistic Elo, first engine's side), with a type I
// error rate (accepting H1 when H0 holds) of Alpha and a type II error
// rate (accepting H0 when H1 holds) of Beta. Use ParseSPRT to build one
// from a command line and have its fields checked.
type SPRT struct{ Elo0, Elo1, Alpha, Beta float64 }

// ParseSPRT parses a specification such as
//
//	elo0=0 elo1=5 alpha=0.05 beta=0.05
//
// The key=value fields may come in any order, separated by spaces,
// tabs or commas; keys are case-insensitive. elo0 and elo1 are
// required and elo0 < elo1 must hold; alpha and beta default to 0.05
// and must lie strictly between 0 and 0.5. Errors name the bad field.
func ParseSPRT(s string) (SPRT, error) {
	t := SPRT{Alpha: 0.05, Beta: 0.05}
	seen := map[string]bool{}
	fields := strings.FieldsFunc(s, func(r rune) bool {
		return r == ',' || r == ' ' || r == '\t' || r == '\n' || r == '\r'
	})
	for _, f := range fields {
		key, val, ok := strings.Cut(f, "=")
		key = strings.ToLower(key)
		if !ok || key == "" {
			return SPRT{}, fmt.Errorf("sprt: %q is not of the form key=value (keys: elo0, elo1, alpha, beta)", f)
		}
		var dst *float64
		switch key {
		case "elo0":
			dst = &t.Elo0
		case "elo1":
			dst = &t.Elo1
		case "alpha":
			dst = &t.Alpha
		case "beta":
			dst = &t.Beta
		default:
			return SPRT{}, fmt.Errorf("sprt: unknown field %q (want elo0, elo1, alpha or beta)", key)
		}
		if seen[key] {
			return SPRT{}, fmt.Errorf("sprt: %s given more than once", key)
		}
		seen[key] = true
		v, err := strconv.ParseFloat(val, 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
			return SPRT{}, fmt.Errorf("sprt: %s: %q is not a finite number", key, val)
		}
		*dst = v
	}
	for _, key := range []string{"elo0", "elo1"} {
		if !seen[key] {
			return SPRT{}, fmt.Errorf("sprt: missing %s", key)
		}
	}
	if !(t.Elo0 < t.Elo1) {
		return SPRT{}, fmt.Errorf("sprt: elo0 (%g) must be less than elo1 (%g)", t.Elo0, t.Elo1)
	}
	if !(t.Alpha > 0 && t.Alpha < 0.5) {
		return SPRT{}, fmt.Errorf("sprt: alpha (%g) must be between 0 and 0.5, exclusive", t.Alpha)
	}
	if !(t.Beta > 0 && t.Beta < 0.5) {
		return SPRT{}, fmt.Errorf("sprt: beta (%g) must be between 0 and 0.5, exclusive", t.Beta)
	}
	return t, nil
}

// Bounds returns Wald's stopping bounds for the log-likelihood ratio:
// lower = log(β/(1-α)) and upper = log((1-β)/α). The test accepts H0
// when the LLR falls to lower and H1 when it rises to upper; for
// α = β = 0.05 they are ∓2.944.
func (t SPRT) Bounds() (lower, upper float64) {
	return math.Log(t.Beta / (1 - t.Alpha)), math.Log((1 - t.Beta) / t.Alpha)
}

// LLR returns the generalized (GSPRT) log-likelihood ratio of H1
// against H0 for the trinomial results in s, in its normal
// approximation:
//
//	LLR = N·(s1 - s0)·(2x - s0 - s1) / (2σ²)
//
// where N is the number of games, x the mean score per game, σ² the
// observed per-game score variance (see Score.Elo) and s0, s1 the
// expected scores under H0 and H1, s_i = 1/(1+10^(-elo_i/400)).
//
// Derivation: by the central limit theorem the mean score is
// approximately normal, x ~ N(s, σ²/N), with σ² replaced by its
// estimate from the data. The log of the ratio of the two normal
// densities at x is
//
//	N/(2σ²)·[(x-s0)² - (x-s1)²] = N·(s1-s0)·(2x-s0-s1)/(2σ²).
//
// This is the trinomial approximation used by fishtest (LLR_alt2 in
// its LLRcalc.py, after M. Van den Bergh, "A note on the GSPRT
// approximation", http://hardy.uhasselt.be/Fishtest/GSPRT_approximation.pdf)
// and given on the Chess Programming Wiki's "Match Statistics" page.
// For results near s0 and s1 it agrees closely with the exact GSPRT
// (maximum-likelihood trinomial under each hypothesis).
//
// LLR returns 0 (no decisive information) with fewer than 2 games or
// when the variance is zero, i.e. all games so far had the same result.
func (t SPRT) LLR(s Score) float64 {
	n := s.Games()
	if n < 2 {
		return 0
	}
	v := s.variance()
	if !(v > 0) {
		return 0
	}
	s0, s1 := scoreFromElo(t.Elo0), scoreFromElo(t.Elo1)
	x := s.Ratio()
	return float64(n) * (s1 - s0) * (2*x - s0 - s1) / (2 * v)
}

// Decision is the state of an SPRT.
type Decision int

// The possible SPRT decisions.
const (
	Continue Decision = iota // keep playing
	AcceptH0                 // LLR reached the lower bound: elo0 holds
	AcceptH1                 // LLR reached the upper bound: elo1 holds
)

// String returns "continue", "H0 accepted" or "H1 accepted".
func (d Decision) String() string {
	switch d {
	case Continue:
		return "continue"
	case AcceptH0:
		return "H0 accepted"
	case AcceptH1:
		return "H1 accepted"
	}
	return fmt.Sprintf("Decision(%d)", int(d))
}

// Decide compares LLR(s) with Bounds: AcceptH1 when it is at or above
// the upper bound, AcceptH0 when it is at or below the lower bound,
// Continue otherwise.
func (t SPRT) Decide(s Score) Decision {
	llr := t.LLR(s)
	lower, upper := t.Bounds()
	switch {
	case llr >= upper:
		return AcceptH1
	case llr <= lower:
		return AcceptH0
	}
	return Continue
}

// String reports the state of the test for the score s, e.g.
//
//	SPRT elo0=0 elo1=5: LLR 1.23 [-2.94, 2.94] continue
func (t SPRT) String(s Score) string {
	lower, upper := t.Bounds()
	return fmt.Sprintf("SPRT elo0=%g elo1=%g: LLR %.2f [%.2f, %.2f] %s",
		t.Elo0, t.Elo1, t.LLR(s), lower, upper, t.Decide(s))
}
