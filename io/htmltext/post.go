package htmltext

// trimHeaderFooter is Algorithm 4 of Alshomary (2019) and its mirror for
// footers: it returns the bounds [first, last) of the paragraphs from the
// first to the last one that isMain accepts (first == last if none). (The paper's pseudo-code returns paras[idx:]
// after incrementing idx past the first main paragraph, dropping it; we
// keep it, as its text says.)
func trimHeaderFooter(paras []string, isMain func(string) bool) (first, last int) {
	first = 0
	for first < len(paras) && !isMain(paras[first]) {
		first++
	}
	last = len(paras)
	for last > first && !isMain(paras[last-1]) {
		last--
	}
	return first, last
}

// mainTest returns Algorithm 4's test of main content: more than minTokens
// words, a sentence's final punctuation, and more than minStopwords
// stopwords of the language lang (or, for a language without a stopword
// list, more than fallbackFactor×minTokens words: characters, for CJK).
func mainTest(lang stopLang, known bool, minTokens, minStopwords int) func(string) bool {
	t := stopwords()
	return func(p string) bool {
		n := countWords(p)
		if !hasSentenceEnd(p) {
			return false
		}
		if !known {
			return n > fallbackFactor*minTokens
		}
		return n > minTokens && t.count(p, lang) > minStopwords
	}
}

// fallbackFactor multiplies Algorithm 4's minimum length for pages in a
// language without a stopword list, which the length and punctuation alone
// must tell from a menu.
const fallbackFactor = 2

// mergeShort is Algorithm 1 of Alshomary (2019), "balance paragraph
// lengths": a paragraph of at most minTokens words is merged into its
// neighbour. The paper merges it into the previous paragraph; we do that
// too, but a short paragraph without a sentence's final punctuation that
// precedes a long one (a heading) is merged into that one instead, and
// short paragraphs at the start, which have no previous one, are carried
// into the next. (The paper's pseudo-code also merges a long paragraph
// into its predecessor when the next one is short; we read that as a slip
// and do not.)
func mergeShort(paras []string, minTokens int) []string {
	var out []string
	pending := "" // short paragraphs waiting for the next one
	for i, p := range paras {
		if pending != "" {
			p = pending + " " + p
			pending = ""
		}
		short := countWords(p) <= minTokens
		heading := short && !hasSentenceEnd(p) && i+1 < len(paras) &&
			countWords(paras[i+1]) > minTokens
		switch {
		case short && (len(out) == 0 || heading) && i+1 < len(paras):
			pending = p
		case short && len(out) > 0:
			out[len(out)-1] += " " + p
		default:
			out = append(out, p)
		}
	}
	return out
}
