package main

import (
	"encoding/json"
	"math"

	"github.com/neardup/neardup/transforms/minhash"
)

// candidateCurve is summary.json's collision_curve: how likely a pair of
// a given similarity is to become a candidate. For the MinHash schemes it
// is the banding's 1-(1-s^rows)^bands; for simhash, the chance that two
// vectors of cosine similarity s have signatures at most max_hamming bits
// apart (an upper bound: the window may not bring them together); for
// exact, a step at the threshold.
func candidateCurve(opts Options, scheme *minhash.Scheme) (json.RawMessage, error) {
	switch opts.Scheme {
	case "simhash":
		h := opts.Simhash
		return json.Marshal(struct {
			Formula    string          `json:"formula"`
			Bits       int             `json:"bits"`
			MaxHamming int             `json:"max_hamming"`
			Points     []minhash.Point `json:"points"`
		}{"P(Binomial(bits, acos(s)/π) ≤ max_hamming), s the cosine similarity", h.Bits, h.MaxHamming,
			curvePoints(func(s float64) float64 { return hammingWithin(s, h.Bits, h.MaxHamming) })})
	case "exact":
		return json.Marshal(struct {
			Formula string          `json:"formula"`
			Points  []minhash.Point `json:"points"`
		}{"1 if s ≥ threshold, s the Jaccard similarity", curvePoints(func(s float64) float64 {
			if s >= opts.Threshold-1e-9 {
				return 1
			}
			return 0
		})})
	}
	return json.Marshal(struct {
		Formula string          `json:"formula"`
		Bands   int             `json:"bands"`
		Rows    int             `json:"rows"`
		Family  int             `json:"hash_functions"`
		Points  []minhash.Point `json:"points"`
	}{"1-(1-s^rows)^bands", scheme.Bands, scheme.Rows, scheme.Family(), scheme.Curve()})
}

// curvePoints evaluates p at s = 0.50, 0.55, … 1.00, as minhash's Curve.
func curvePoints(p func(s float64) float64) []minhash.Point {
	var pts []minhash.Point
	for i := 10; i <= 20; i++ {
		s := float64(i) / 20
		pts = append(pts, minhash.Point{Similarity: s, Probability: math.Round(p(s)*1e6) / 1e6})
	}
	return pts
}

// hammingWithin is the probability that two random-hyperplane signatures
// of bits bits of vectors of cosine similarity s differ in at most limit
// bits: each bit differs with probability acos(s)/π, independently.
func hammingWithin(s float64, bits, limit int) float64 {
	q := math.Acos(max(-1, min(1, s))) / math.Pi
	if q == 0 {
		return 1
	}
	total := 0.0
	for k := 0; k <= limit && k <= bits; k++ {
		lg, _ := math.Lgamma(float64(bits + 1))
		lk, _ := math.Lgamma(float64(k + 1))
		ln, _ := math.Lgamma(float64(bits - k + 1))
		total += math.Exp(lg - lk - ln + float64(k)*math.Log(q) + float64(bits-k)*math.Log1p(-q))
	}
	return min(1, total)
}
