package reuse

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/neardup/neardup/transforms/categorize"
)

// Features are what Classify decides a case's kind on (docs/reuse.md,
// "How a case is classified", defines each).
type Features struct {
	NGram2, NGram5, NGram10 float64 // word n-gram Jaccard similarities
	Entities                float64 // named-entity Jaccard similarity (ne_sim)
	SharePage, ShareArticle float64 // shares of the documents inside some passage
	SubjectMissing          bool    // the article's subject is named on its side only
}

// Rule names the rule that decided a case's kind.
type Rule string

// The rules, in the order Classify tries them.
const (
	RuleSubject  Rule = "subject"  // the article's subject is not named on the page → structure
	RuleH1       Rule = "H1"       // entities and long n-grams shared, not most of both → content
	RuleH2       Rule = "H2"       // short n-grams shared, long ones not, entities differ → structure
	RuleEntities Rule = "entities" // entities and long n-grams mostly not shared → structure
	RuleWeb10    Rule = "web10"    // 10-gram similarity > 0.1 → content, else structure
)

// The thresholds of the rules.
const (
	// Similar is the similarity above which H1 and H2 call n-grams or
	// entities shared, and the share above which a document is mostly
	// reused (thesis, equation 4.1).
	Similar = 0.5
	// Web10 is the 10-gram similarity above which the web rule calls a
	// case content reuse (thesis, section 4.2).
	Web10 = 0.1
)

// Classify returns the kind of a case with features f and the rule that
// decided it; every case gets a kind. The rules, and why they are so, are
// in docs/reuse.md, "How a case is classified".
func Classify(f Features) (Kind, Rule) {
	switch {
	case f.SubjectMissing:
		return Structure, RuleSubject
	case f.Entities > Similar && f.NGram10 > Similar && (f.SharePage < Similar || f.ShareArticle < Similar):
		return Content, RuleH1
	case f.NGram2 > Similar && f.NGram5 < Similar && f.Entities < 1:
		return Structure, RuleH2
	case f.Entities <= Similar && f.NGram10 <= Similar:
		return Structure, RuleEntities
	case f.NGram10 > Web10:
		return Content, RuleWeb10
	}
	return Structure, RuleWeb10
}

// features are the evidence's features, with the documents' shares.
func (e *Evidence) features(sharePage, shareArticle float64) Features {
	return Features{
		NGram2: e.NGram2, NGram5: e.NGram5, NGram10: e.NGram10, Entities: e.Entities,
		SharePage: sharePage, ShareArticle: shareArticle, SubjectMissing: e.SubjectMissing,
	}
}

// ngramSizes are the n of the n-gram similarities.
var ngramSizes = [...]int{2, 5, 10}

// side is what the features need of one side's passage texts.
type side struct {
	ngrams   [len(ngramSizes)]map[uint64]bool
	words    map[string]bool // every word, lower-cased
	entities map[string]bool // entity keys
	order    []string        // entities in text order, as first written
}

func newSide() *side {
	s := &side{words: map[string]bool{}, entities: map[string]bool{}}
	for i := range s.ngrams {
		s.ngrams[i] = map[uint64]bool{}
	}
	return s
}

// addPassage adds the words and entities of one passage's sentences.
func (s *side) addPassage(sentences []string) {
	var words []string
	for _, text := range sentences {
		words = s.addSentence(text, words)
	}
	for i, n := range ngramSizes {
		addNgrams(s.ngrams[i], words, n)
	}
}

// addSentence adds a sentence's words to words and its entities to s.
func (s *side) addSentence(text string, words []string) []string {
	start := true
	for _, t := range categorize.Tokenize(text) {
		if t.Kind == categorize.KindPunct {
			start = start || strings.ContainsAny(t.Text, ".!?:")
			continue
		}
		key := strings.ToLower(t.Text)
		words = append(words, key)
		s.words[key] = true
		if isEntity(t.Text, start) && !s.entities[key] {
			s.entities[key] = true
			s.order = append(s.order, t.Text)
		}
		start = false
	}
	return words
}

// isEntity reports whether a word is a named entity: it starts with a
// digit, or with an upper-case letter and does not start its sentence.
func isEntity(word string, sentenceStart bool) bool {
	r, _ := utf8.DecodeRuneInString(word)
	if unicode.IsDigit(r) {
		return true
	}
	return !sentenceStart && (unicode.IsUpper(r) || unicode.IsTitle(r))
}

// addNgrams adds the hashes of the word n-grams of words to set; fewer
// than n words are one n-gram.
func addNgrams(set map[uint64]bool, words []string, n int) {
	if len(words) == 0 {
		return
	}
	n = min(n, len(words))
	for i := 0; i+n <= len(words); i++ {
		set[hashWords(words[i:i+n])] = true
	}
}

// hashWords is the FNV-1a hash of words, each ended by a zero byte.
func hashWords(words []string) uint64 {
	h := uint64(fnvOffset)
	for _, w := range words {
		h = fnv1a(h, w)
		h *= fnvPrime // the zero byte: h ^ 0 = h
	}
	return h
}

// The 64-bit FNV-1a parameters (hash/fnv's).
const (
	fnvOffset = 14695981039346656037
	fnvPrime  = 1099511628211
)

// fnv1a adds the bytes of s to the FNV-1a hash h.
func fnv1a(h uint64, s string) uint64 {
	for i := range len(s) {
		h = (h ^ uint64(s[i])) * fnvPrime
	}
	return h
}

// jaccard is the Jaccard similarity of two sets; two empty sets have 1.
func jaccard[K comparable](a, b map[K]bool) float64 {
	if len(a) == 0 && len(b) == 0 {
		return 1
	}
	if len(a) > len(b) {
		a, b = b, a
	}
	both := 0
	for k := range a {
		if b[k] {
			both++
		}
	}
	return float64(both) / float64(len(a)+len(b)-both)
}

// only returns the entities of s not in o, the first MaxOnly in text
// order; never nil, so that JSON shows [].
func (s *side) only(o *side) []string {
	out := []string{}
	for _, e := range s.order {
		if len(out) == MaxOnly {
			break
		}
		if !o.entities[strings.ToLower(e)] {
			out = append(out, e)
		}
	}
	return out
}

// names reports whether s has every word of words.
func (s *side) names(words []string) bool {
	for _, w := range words {
		if !s.words[w] {
			return false
		}
	}
	return len(words) > 0
}

// evidence computes the features of a case's passages, whose article has
// the given title.
func evidence(passages []Passage, title string) Evidence {
	web, art := newSide(), newSide()
	for _, p := range passages {
		web.addPassage(texts(p.Matches, func(m Match) (int, string) { return m.Web, m.WebText }))
		art.addPassage(texts(p.Matches, func(m Match) (int, string) { return m.Article, m.ArticleText }))
	}
	subject := Subject(title)
	words := subjectWords(subject)
	e := Evidence{
		Entities: round(jaccard(web.entities, art.entities)),
		OnlyWeb:  web.only(art), OnlyArticle: art.only(web),
		Subject: subject, SubjectMissing: art.names(words) && !web.names(words),
	}
	e.NGram2 = round(jaccard(web.ngrams[0], art.ngrams[0]))
	e.NGram5 = round(jaccard(web.ngrams[1], art.ngrams[1]))
	e.NGram10 = round(jaccard(web.ngrams[2], art.ngrams[2]))
	return e
}

// texts returns one side's sentences of a passage's matches, each once, in
// ordinal order (the matches are sorted by the web's ordinal).
func texts(ms []Match, side func(Match) (int, string)) []string {
	byOrd := map[int]string{}
	var ords []int
	for _, m := range ms {
		ord, text := side(m)
		if _, ok := byOrd[ord]; !ok {
			byOrd[ord] = text
			ords = append(ords, ord)
		}
	}
	slices.Sort(ords)
	out := make([]string, len(ords))
	for i, o := range ords {
		out[i] = byOrd[o]
	}
	return out
}

// Subject returns the subject of an article of the given title: the title
// without a parenthesised qualifier and without what follows its first
// comma ("Jaworzno, Opole Voivodeship" and "Jaworzno (Opole)" →
// "Jaworzno").
func Subject(title string) string {
	if i := strings.Index(title, " ("); i > 0 {
		title = title[:i]
	}
	if i := strings.IndexByte(title, ','); i > 0 {
		title = title[:i]
	}
	return strings.TrimSpace(title)
}

// subjectWords are the lower-cased words of a subject.
func subjectWords(subject string) []string {
	var words []string
	for _, t := range categorize.Tokenize(subject) {
		if t.Kind != categorize.KindPunct {
			words = append(words, strings.ToLower(t.Text))
		}
	}
	return words
}
