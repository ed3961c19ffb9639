package distinct

import (
	"math/rand/v2"
	"runtime"
)

// source hands out the chain's sentences in a fixed order, generated
// ahead on every core: batch i of batchSentences sentences is drawn from
// its own generator, seeded by the seed and i, so the sequence is the same
// whatever the number of cores. Each sentence comes as words, as rendered
// wikitext (with links, escaped) and with its length in characters.
type source struct {
	order chan chan *batch // the batches in order, each as the channel it will arrive on
	done  chan struct{}
	cur   *batch
	i     int // next sentence of cur
}

// batch is batchSentences generated sentences.
type batch struct {
	words    []string
	wordEnds []int32 // sentence k is words[wordEnds[k-1]:wordEnds[k]]
	text     []byte
	textEnds []int32
	runes    []int32
}

const batchSentences = 1024

func newSource(c *chain, seed uint64) *source {
	workers := runtime.GOMAXPROCS(0)
	s := &source{order: make(chan chan *batch, 2*workers), done: make(chan struct{})}
	type job struct {
		i   uint64
		out chan *batch
	}
	jobs := make(chan job)
	go func() {
		defer close(jobs)
		for i := uint64(0); ; i++ {
			out := make(chan *batch, 1)
			select {
			case s.order <- out:
			case <-s.done:
				return
			}
			select {
			case jobs <- job{i, out}:
			case <-s.done:
				return
			}
		}
	}()
	for range workers {
		go func() {
			for j := range jobs {
				j.out <- generateBatch(c, rand.New(rand.NewPCG(seed, j.i)))
			}
		}()
	}
	return s
}

func generateBatch(c *chain, rng *rand.Rand) *batch {
	b := &batch{
		words:    make([]string, 0, 24*batchSentences),
		wordEnds: make([]int32, 0, batchSentences),
		text:     make([]byte, 0, 160*batchSentences),
		textEnds: make([]int32, 0, batchSentences),
		runes:    make([]int32, 0, batchSentences),
	}
	for range batchSentences {
		start := len(b.words)
		b.words = c.appendSentence(b.words, rng)
		w := b.words[start:]
		b.wordEnds = append(b.wordEnds, int32(len(b.words)))
		b.text = appendWiki(b.text, w, rng)
		b.textEnds = append(b.textEnds, int32(len(b.text)))
		b.runes = append(b.runes, int32(runes(w)))
	}
	return b
}

// next returns the next sentence: its words and its wikitext, which the
// caller must not change, and its length in characters.
func (s *source) next() (words []string, text []byte, n int) {
	if s.cur == nil || s.i == batchSentences {
		s.cur, s.i = <-<-s.order, 0
	}
	b, k := s.cur, s.i
	s.i++
	w0, t0 := int32(0), int32(0)
	if k > 0 {
		w0, t0 = b.wordEnds[k-1], b.textEnds[k-1]
	}
	return b.words[w0:b.wordEnds[k]:b.wordEnds[k]], b.text[t0:b.textEnds[k]], int(b.runes[k])
}

// close stops the generators.
func (s *source) close() { close(s.done) }
