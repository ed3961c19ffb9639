package distinct

import (
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// chain is a word-level Markov chain of order 2 over the sentences it was
// trained on, kept as the training text itself: a random successor of a
// state (the last two words) is the word after a random occurrence of the
// state in the text, so that successors come with their counts' odds.
//
// Sampled freely, an order-2 chain trained on a few tens of thousands of
// sentences repeats them: most states of a small corpus have one
// successor, so a sentence that starts with a rare pair of words is copied
// whole, and millions of sentences would hold each such one hundreds of
// times. The chain therefore never writes a run of ngram words (counting
// the start of the sentence as a word) that the training text holds: a
// successor that would complete one is drawn again, from the state's
// other occurrences, then from the last word's alone (order 1), and if the
// last word occurs nowhere else, the text goes on after a random word of
// the training text. A sentence is then a mosaic of real runs of up to
// ngram−1 words joined where the training text branches.
//
// That is still not enough for millions of sentences: where the training
// text branches little (rare words, figures, the ends of sentences),
// paths meet and run together, and chance near-duplicates grow with the
// corpus (0.87% of the in-window sentences of 8,000 pages were in
// clusters). So each content word written (four letters or more, not a
// function word) is, with probability substRate, replaced by a word of
// the same shape drawn from the training text by frequency: capitalised or
// not, with the same last two letters (a rough part of speech: -ed, -ly,
// -on, -es…) and the same trailing punctuation; and the numbers of a word
// with digits are, with probability numberRate, replaced by others of as
// many digits (a year by a year up to 20 years away). Vocabulary, lengths
// and punctuation stay those of real text, and two sentences that follow
// one path differ in a few words: 0.01% of the in-window sentences of
// 16,000 pages are then in chance clusters.
type chain struct {
	words   []string     // token id → word; ids 0 and 1 are bos and eos
	text    []int32      // the training sentences as token ids, each bos w… eos
	state2  []int32      // per position p: the id of its order-2 state (text[p-1], text[p])
	pos     []tokenState // per position: its token and its order-2 state
	spans2  []span       // per order-2 state: its occurrences, a span of occ2
	occ2    []occurrence // the positions of the text, grouped by order-2 state
	spans1  []span       // per token id: its occurrences, a span of occ1
	occ1    []occurrence // the positions of the text, grouped by token
	starts  []int32      // positions of bos
	lengths []int32      // the words of each training sentence
	ngrams  hashSet      // the hashes of the training text's runs of ngram words
	// shape is, per token id, the index of its shape class in shapes, or
	// -1 for a word never replaced; shapes hold each class's tokens with
	// their counts' repetitions.
	shape  []int32
	shapes [][]int32
	// numeric says, per token id, whether the word holds a digit, and
	// final whether it ends a training sentence.
	numeric, final []bool
	// leads are positions of "is", "was", "are" or "were" right after a
	// sentence's opening run of capitalised words ("The Foo River is"),
	// from which a lead sentence "'''Title''' is …" continues.
	leads []int32
	// names are the capitalised words of ASCII letters met inside
	// sentences (proper nouns, mostly), each once, for titles, templates
	// and citations.
	names []string
}

// tokenState is a position's token and order-2 state, side by side for
// the generator, which needs both.
type tokenState struct{ tok, state int32 }

// occurrence is a position of the text and what follows it, kept
// together so that drawing a successor reads one place of memory.
type occurrence struct {
	pos  int32
	next tokenState // pos[pos+1]
}

// span is a range of an occurrence list.
type span struct{ start, n int32 }

const (
	bos = 0
	eos = 1
	// ngram is the length of the runs of words (the start of a sentence
	// counting as one) that a generated sentence never shares with the
	// training text.
	ngram = 6
	// maxWords bounds a generated sentence; a longer one is drawn again.
	maxWords = 90
	// substRate is the probability that a content word is replaced by
	// another of its shape, and numberRate that the numbers of a word with
	// digits are replaced by others.
	substRate  = 0.45
	numberRate = 0.5
)

// newChain trains a chain on sentences (words separated by single spaces).
func newChain(sentences []string) *chain {
	c := &chain{words: []string{"<s>", "</s>"}}
	ids := map[string]int32{}
	id := func(w string) int32 {
		if i, ok := ids[w]; ok {
			return i
		}
		i := int32(len(c.words))
		ids[w] = i
		c.words = append(c.words, w)
		return i
	}
	seenName := map[string]bool{}
	for _, s := range sentences {
		start := int32(len(c.text))
		c.starts = append(c.starts, start)
		c.text = append(c.text, bos)
		lead := true
		for k, w := range strings.Split(s, " ") {
			c.text = append(c.text, id(w))
			switch {
			case lead && k > 0 && (w == "is" || w == "was" || w == "are" || w == "were"):
				c.leads = append(c.leads, int32(len(c.text)-1))
				lead = false
			case !capitalised(w):
				lead = false
			}
			if k > 0 && isName(w) && !seenName[w] {
				seenName[w] = true
				c.names = append(c.names, w)
			}
		}
		c.text = append(c.text, eos)
		c.lengths = append(c.lengths, int32(len(c.text))-start-2)
	}
	// Order-2 states: the pair (text[p-1], text[p]), with (bos, bos) for
	// every sentence start. eos has no state: nothing follows it.
	keys := make(map[uint64]int32)
	c.state2 = make([]int32, len(c.text))
	var counts2 []int32
	for p, t := range c.text {
		if t == eos {
			c.state2[p] = -1
			continue
		}
		prev := int32(bos)
		if t != bos {
			prev = c.text[p-1]
		}
		k := uint64(prev)<<32 | uint64(t)
		s, ok := keys[k]
		if !ok {
			s = int32(len(counts2))
			keys[k] = s
			counts2 = append(counts2, 0)
		}
		c.state2[p] = s
		counts2[s]++
	}
	c.pos = make([]tokenState, len(c.text))
	for p, t := range c.text {
		c.pos[p] = tokenState{t, c.state2[p]}
	}
	c.spans2, c.occ2 = c.groupBy(c.state2, counts2)
	counts1 := make([]int32, len(c.words))
	for _, t := range c.text {
		counts1[t]++
	}
	c.spans1, c.occ1 = c.groupBy(c.text, counts1)
	c.shapes, c.shape = shapeClasses(c.words, c.text)
	c.final = make([]bool, len(c.words))
	for p, t := range c.text {
		if t == eos {
			c.final[c.text[p-1]] = true
		}
	}
	c.numeric = make([]bool, len(c.words))
	for id, w := range c.words {
		c.numeric[id] = strings.ContainsAny(w, "0123456789")
	}
	c.ngrams = newHashSet(len(c.text))
	for p := range c.text {
		// The run of ngram tokens ending at p, within one sentence.
		if p < ngram-1 || c.text[p] == bos {
			continue
		}
		run := c.text[p-ngram+1 : p+1]
		if slices.Contains(run[1:], bos) || slices.Contains(run[:ngram-1], eos) || c.text[p] == eos {
			continue
		}
		c.ngrams.add(extend(hashIDs(run[:ngram-1]), run[ngram-1]))
	}
	return c
}

// newNumbers returns w with each run of digits replaced: a year
// (1500–2030) by another up to 20 years away, another number by one of as
// many digits, with a leading zero only where it had one.
func newNumbers(w string, rng *rand.Rand) string {
	b := []byte(w)
	for i := 0; i < len(b); {
		if b[i] < '0' || b[i] > '9' {
			i++
			continue
		}
		j := i
		for j < len(b) && b[j] >= '0' && b[j] <= '9' {
			j++
		}
		if year, err := strconv.Atoi(string(b[i:j])); err == nil && j-i == 4 && year >= 1500 && year <= 2030 {
			year = min(year-20+rng.IntN(41), 2030)
			copy(b[i:j], strconv.Itoa(year))
		} else {
			zero := b[i] == '0'
			for k := i; k < j; k++ {
				b[k] = byte('0' + rng.IntN(10))
			}
			if !zero && j-i > 1 && b[i] == '0' {
				b[i] = byte('1' + rng.IntN(9))
			}
		}
		i = j
	}
	return string(b)
}

// shapeClasses sorts the content words into classes by shape, and
// returns the classes (tokens with their repetitions in the text) and each
// token's class.
func shapeClasses(words []string, text []int32) ([][]int32, []int32) {
	shape := make([]int32, len(words))
	index := map[string]int32{}
	var classes [][]int32
	for id, w := range words {
		shape[id] = -1
		key, ok := shapeKey(w)
		if !ok {
			continue
		}
		k, seen := index[key]
		if !seen {
			k = int32(len(classes))
			index[key] = k
			classes = append(classes, nil)
		}
		shape[id] = k
	}
	for _, t := range text {
		if k := shape[t]; k >= 0 {
			classes[k] = append(classes[k], t)
		}
	}
	return classes, shape
}

// shapeKey returns the shape class of a content word: four ASCII letters
// or more, then at most one of ",.;:", not a function word.
func shapeKey(w string) (string, bool) {
	stem := strings.TrimRight(w, ",.;:")
	if len(w)-len(stem) > 1 || len(stem) < 4 || functionWords[strings.ToLower(stem)] {
		return "", false
	}
	for i := 0; i < len(stem); i++ {
		if c := stem[i] | 0x20; c < 'a' || c > 'z' {
			return "", false
		}
	}
	return string([]byte{stem[0] & 0x20, stem[len(stem)-2] | 0x20, stem[len(stem)-1] | 0x20}) + w[len(stem):], true
}

// functionWords are words of four letters or more that hold a sentence
// together and are never replaced.
var functionWords = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`also been being both does down each even ever from have having here into just like more most
		much must only once over same some such than that them then there these they this those very were what when where which
		while whom whose will with would about above after again against along although among another around because before
		behind below beneath beside besides between beyond could during either every first further however itself later
		least less might neither other others rather several should since still their theirs though through throughout
		thus under unless until upon whether within without`) {
		functionWords[w] = true
	}
}

// hashIDs hashes a run of token ids; extend(hashIDs(a), t) hashes a
// followed by t.
func hashIDs(ids []int32) uint64 {
	h := uint64(1)
	for _, t := range ids[1:] {
		h = h*0x100000001b3 + uint64(t)
	}
	return h*0x9e3779b97f4a7c15 ^ uint64(ids[0])
}

func extend(h uint64, t int32) uint64 {
	h ^= uint64(t) * 0xff51afd7ed558ccd
	h ^= h >> 33
	h *= 0xc4ceb9fe1a85ec53
	h ^= h >> 29
	return h
}

// hashSet is a set of 64-bit hashes, kept as a bitmap of one bit per
// hash (a Bloom filter with one hash function) of at least 16 bits per
// member, small enough to stay in the processor's caches: a hash that is
// not a member is taken for one 1 time in 16 or less, which only makes the
// chain branch off one word earlier.
type hashSet struct {
	bits []uint64
	mask uint64
}

func newHashSet(n int) hashSet {
	size := 64
	for size < 16*n {
		size <<= 1
	}
	return hashSet{bits: make([]uint64, size/64), mask: uint64(size - 1)}
}

func (s *hashSet) add(h uint64) {
	i := h & s.mask
	s.bits[i/64] |= 1 << (i % 64)
}

func (s *hashSet) has(h uint64) bool {
	i := h & s.mask
	return s.bits[i/64]&(1<<(i%64)) != 0
}

// groupBy returns, for keys 0…len(counts)-1, the positions p with
// keyOf[p] == key as spans of one array (a counting sort); keyOf[p] < 0 is
// left out.
func (c *chain) groupBy(keyOf []int32, counts []int32) ([]span, []occurrence) {
	spans := make([]span, len(counts))
	var total int32
	for k, n := range counts {
		spans[k] = span{total, 0}
		total += n
	}
	occ := make([]occurrence, total)
	for p, k := range keyOf {
		if k < 0 {
			continue
		}
		s := &spans[k]
		o := occurrence{pos: int32(p)}
		if p+1 < len(c.pos) {
			o.next = c.pos[p+1]
		}
		occ[s.start+s.n] = o
		s.n++
	}
	return spans, occ
}

// next returns the occurrence whose following word the generated
// sentence takes after a word whose token and state are cur, given the
// hash of the last ngram−1 words written (0 while there are fewer) and
// whether the sentence may end there (end < 0: not yet; end > 0: it should
// if it can).
func (c *chain) next(rng *rand.Rand, cur tokenState, h uint64, end int) occurrence {
	ok := func(o occurrence) bool {
		t := o.next.tok
		if t == eos {
			return end >= 0
		}
		return h == 0 || !c.ngrams.has(extend(h, t))
	}
	s := c.spans2[cur.state]
	if end > 0 {
		for range min(s.n, 8) {
			if o := c.occ2[s.start+rng.Int32N(s.n)]; o.next.tok == eos {
				return o
			}
		}
		s1 := c.spans1[cur.tok]
		for range min(s1.n, 8) {
			if o := c.occ1[s1.start+rng.Int32N(s1.n)]; o.next.tok == eos {
				return o
			}
		}
		// Else a word that can end a sentence, to end at the next step.
		for range min(s.n, 8) {
			if o := c.occ2[s.start+rng.Int32N(s.n)]; c.final[o.next.tok] && ok(o) {
				return o
			}
		}
	}
	for range min(s.n, 8) {
		if o := c.occ2[s.start+rng.Int32N(s.n)]; ok(o) {
			return o
		}
	}
	s = c.spans1[cur.tok]
	for range min(s.n, 8) {
		if o := c.occ1[s.start+rng.Int32N(s.n)]; ok(o) {
			return o
		}
	}
	for {
		q := rng.Int32N(int32(len(c.pos)))
		if t := c.pos[q].tok; t != bos && t != eos {
			if o := (occurrence{q, c.pos[q+1]}); ok(o) {
				return o
			}
		}
	}
}

// appendSentence appends a generated sentence's words to dst.
func (c *chain) appendSentence(dst []string, rng *rand.Rand) []string {
	return c.appendFrom(dst, rng, c.starts[rng.IntN(len(c.starts))])
}

// appendFrom appends the words generated after position p (a bos, or a
// word whose sentence the caller has begun) up to the end of the
// sentence. A sentence takes the length (in words) of a random training
// sentence: it ends where the chain can end it once it is that long, and
// not before three quarters of it. A sentence longer than maxWords is drawn
// again, after three tries from a random start.
func (c *chain) appendFrom(dst []string, rng *rand.Rand, p int32) []string {
	n0 := len(dst)
	var ids [ngram - 1]int32
	for try := 1; ; try++ {
		// The length of a random training sentence, which this one should
		// not fall short of by more than a quarter, nor much exceed.
		length := min(int(c.lengths[rng.IntN(len(c.lengths))]), maxWords/2)
		// The window of the last ngram−1 words written, with the start of
		// the sentence (or the words before p, for a begun sentence).
		n := 0
		for k := p; k >= 0 && n < ngram-1; k-- {
			n++
			if c.text[k] == bos {
				break
			}
		}
		copy(ids[:], c.text[p-int32(n)+1:p+1])
		cur := c.pos[p]
		for len(dst)-n0 < maxWords {
			h := uint64(0)
			if n == ngram-1 {
				h = hashIDs(ids[:])
			}
			end := 0
			switch written := len(dst) - n0; {
			case 2*written < length:
				end = -1
			case written >= length:
				end = 1
			}
			cur = c.next(rng, cur, h, end).next
			t := cur.tok
			if t == eos {
				return dst
			}
			w := c.words[t]
			if k := c.shape[t]; k >= 0 && rng.Float64() < substRate {
				class := c.shapes[k]
				w = c.words[class[rng.IntN(len(class))]]
			} else if c.numeric[t] && rng.Float64() < numberRate {
				w = newNumbers(w, rng)
			}
			dst = append(dst, w)
			if n < ngram-1 {
				ids[n] = t
				n++
			} else {
				copy(ids[:], ids[1:])
				ids[ngram-2] = t
			}
		}
		dst = dst[:n0]
		if try >= 3 {
			p = c.starts[rng.IntN(len(c.starts))]
		}
	}
}

// name returns a random proper noun of the training text.
func (c *chain) name(rng *rand.Rand) string {
	return c.names[rng.IntN(len(c.names))]
}

// capitalised reports whether w starts with an upper-case letter.
func capitalised(w string) bool {
	r, _ := utf8.DecodeRuneInString(w)
	return unicode.IsUpper(r)
}

// isName reports whether w is a capitalised word of ASCII letters, at
// least three, with no other capital: a likely proper noun.
func isName(w string) bool {
	if len(w) < 3 || w[0] < 'A' || w[0] > 'Z' {
		return false
	}
	for i := 1; i < len(w); i++ {
		if w[i] < 'a' || w[i] > 'z' {
			return false
		}
	}
	return true
}

// trainingSentence reports whether a clean sentence may train the chain:
// it starts with a capital letter, a digit or a quotation mark, ends with
// a terminator (before closing quotes or brackets), has at least four
// words, and holds nothing that wikitext or XML would read as markup.
func trainingSentence(s string) bool {
	if strings.Count(s, " ") < 3 || strings.ContainsAny(s, "<>|{}[]\t\n") ||
		strings.Contains(s, "''") || strings.Contains(s, "__") || strings.Contains(s, "~~~") ||
		strings.Contains(s, "  ") || strings.Contains(s, "://") {
		return false
	}
	r, _ := utf8.DecodeRuneInString(s)
	if !unicode.IsUpper(r) && !unicode.IsDigit(r) && r != '"' && r != '\u201c' {
		return false
	}
	end := strings.TrimRight(s, "\"')\u201d\u2019")
	last, _ := utf8.DecodeLastRuneInString(end)
	return last == '.' || last == '!' || last == '?'
}

// dedupe returns the distinct strings of xs in their first order.
func dedupe(xs []string) []string {
	seen := make(map[string]bool, len(xs))
	out := xs[:0:0]
	for _, x := range xs {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return slices.Clip(out)
}
