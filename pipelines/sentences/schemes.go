package main

import (
	"github.com/apache/beam/sdks/v2/go/pkg/beam"

	"github.com/neardup/neardup/internal/shuffle"
	"github.com/neardup/neardup/transforms/bucket"
	"github.com/neardup/neardup/transforms/exactjoin"
	"github.com/neardup/neardup/transforms/simhash"
)

// findCandidates is the candidate stage of the run's scheme: the MinHash
// schemes' band keys linked by buckets, or simhash's sorted windows, or the
// exact join, each from what minhash.Sign gave (its band-key entries, or
// the in-window sentences' records). Every scheme's candidates have the
// same form, and verification, components, categories and outputs follow
// them unchanged.
func findCandidates(s beam.Scope, opts Options, entries shuffle.Entries, records shuffle.Sentences) (shuffle.Candidates, beam.PCollection) {
	switch opts.Scheme {
	case "simhash":
		return simhash.Candidates(s, records, opts.simhashConfig())
	case "exact":
		return exactjoin.Candidates(s, records, opts.setjoinConfig())
	}
	return bucket.Candidates(s, entries, opts.Shards, opts.Workers())
}

// simhashConfig is the part of the options the simhash scheme needs. Each
// permutation is a sorted order of its own, so --shards is shared among
// them: the permutations × range shards groups are about --shards.
func (o Options) simhashConfig() simhash.Config {
	h := o.Simhash
	return simhash.Config{
		Features: h.Features, Bits: h.Bits, Permutations: h.Permutations, Window: h.Window, MaxHamming: h.MaxHamming,
		Seed: o.Seed, ShingleLength: o.ShingleLength, Norm: o.norm(),
		Shards: max(1, o.Shards/h.Permutations), RecordShards: o.Shards, Workers: o.Workers(),
	}
}

// setjoinConfig is the part of the options the exact scheme needs.
func (o Options) setjoinConfig() exactjoin.Config {
	return exactjoin.Config{
		Threshold: o.Threshold, ShingleLength: o.ShingleLength,
		Norm:   o.norm(),
		Shards: o.Shards, RecordShards: o.Shards, Workers: o.Workers(),
	}
}
