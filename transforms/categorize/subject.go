package categorize

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// MaxSubjectTitles bounds the distinct page titles whose words the subject
// rule compares, so a cluster spread over thousands of pages costs little:
// beyond it, the members are taken to speak of different subjects unless
// the first titles share a word.
const MaxSubjectTitles = 64

// oneSubject reports whether the members speak of one subject, and how
// that was decided, for the Mechanisms of the evidence. A figure changed
// in sentences about one subject is factual drift; the same sentence shape
// on pages about different subjects (villages, films, years) is a
// template, even when one of its values is shared. The members speak of
// one subject when they are all on one page (of one wiki, at any date),
// when every page's title shares a word with the others' (Hurricane
// Katrina; Effects of Hurricane Katrina), or when every compared text
// names a word of one member's page title (the Chicago page and the
// Illinois page, both saying "Chicago has…"). Members of a text corpus or
// a web crawl (Knowledge.Corpora) are taken to speak of one subject: their
// titles say nothing of it.
func (c *group) oneSubject(pairs []pair) (bool, string) {
	var titles []string
	for _, m := range c.members {
		t := m.Wiki + "\x00" + m.Title
		if !slices.Contains(titles, t) {
			titles = append(titles, t)
			if len(titles) > MaxSubjectTitles {
				break
			}
		}
	}
	if len(titles) == 1 {
		return true, MechanismSubject + ": one page, " + quoteTitle(c.members[0].Title)
	}
	if i := slices.IndexFunc(c.members, func(m Member) bool { return c.know.Corpora[m.Wiki] }); i >= 0 {
		// Paths, URLs and headlines name no subject: the figures changed
		// between documents are read as drift, as they would be on one page.
		return true, MechanismSubject + ": " + quoteTitle(c.members[i].Wiki) + " is a text corpus, whose titles name no subject"
	}
	if w, ok := c.sharedTitleWord(titles); ok {
		return true, MechanismSubject + ": every page's title holds " + quoteTitle(w)
	}
	if w, ok := c.namedTitleWord(titles, pairs); ok {
		return true, MechanismSubject + ": every text names " + quoteTitle(w)
	}
	names := make([]string, 0, 3)
	for _, t := range titles[:min(len(titles), 3)] {
		_, title, _ := strings.Cut(t, "\x00")
		names = append(names, quoteTitle(title))
	}
	return false, MechanismSubject + ": different pages, " + strings.Join(names, ", ")
}

// sharedTitleWord returns the title, among the members', whose subject
// words every other title holds: "Hurricane Katrina" in "Effects of
// Hurricane Katrina in Mississippi", a page and its subtopic. Titles that
// share only a frame ("1990 Ice Hockey World Championships", "1994 …") or
// a disambiguator ("Kőröshegy, Hungary", "Balatonföldvár, Hungary") name
// different subjects.
func (c *group) sharedTitleWord(titles []string) (string, bool) {
	if len(titles) > MaxSubjectTitles {
		return "", false
	}
	for _, t := range titles {
		_, title, _ := strings.Cut(t, "\x00")
		words := c.subjectWords(title)
		if len(words) == 0 {
			continue
		}
		inAll := true
		for _, u := range titles {
			_, other, _ := strings.Cut(u, "\x00")
			others := c.titleWords(other)
			inAll = inAll && !slices.ContainsFunc(words, func(k string) bool { return !slices.Contains(others, k) })
		}
		if inAll {
			return title, true
		}
	}
	return "", false
}

// subjectWords returns the title words of title before a disambiguator
// (a comma or a bracket): "Kőröshegy" of "Kőröshegy, Hungary".
func (c *group) subjectWords(title string) []string {
	if i := strings.IndexAny(title, ",(（"); i > 0 {
		title = title[:i]
	}
	return c.titleWords(title)
}

// namedTitleWord returns a word of a member's page title that every text
// compared (the reference and the others of substantive pairs) holds.
func (c *group) namedTitleWord(titles []string, pairs []pair) (string, bool) {
	if len(titles) > MaxSubjectTitles {
		return "", false
	}
	texts := []*text{c.texts[c.ref]}
	for _, p := range pairs {
		if p.kind == substantive {
			texts = append(texts, p.other)
		}
	}
	for _, t := range titles {
		_, title, _ := strings.Cut(t, "\x00")
		for _, k := range c.subjectWords(title) {
			if isNumeralKey(k) || lowerInTitle(title, k) {
				continue
			}
			if !slices.ContainsFunc(texts, func(x *text) bool { return !holdsKey(x.toks, k) }) {
				return asWritten(texts[0].toks, k), true
			}
		}
	}
	return "", false
}

// lowerInTitle reports whether the title writes the word of key k in lower
// case: in a script with case a title's names are capitalised, and a word
// it writes in lower case ("και" of "Τρινιντάντ και Τομπάγκο", "of") is a
// common word that names no subject. Words of scripts without case never
// are.
func lowerInTitle(title, k string) bool {
	for _, w := range Tokenize(title) {
		if w.key() == k {
			r, _ := utf8.DecodeRuneInString(w.Text)
			return unicode.IsLower(r)
		}
	}
	return false
}

// holdsKey reports whether a token of toks has key k.
func holdsKey(toks []Token, k string) bool {
	return slices.ContainsFunc(toks, func(t Token) bool { return t.Kind != KindPunct && t.key() == k })
}

// isNumeralKey reports whether a title word is written in digits.
func isNumeralKey(k string) bool {
	return k != "" && strings.IndexFunc(k, func(r rune) bool { return !isDigit(r) }) < 0
}

// quoteTitle quotes a title or a word of one for the evidence.
func quoteTitle(s string) string { return "\"" + s + "\"" }

// titlesCrossed reports whether a hunk replaces, in a text on one page,
// the title of the other text's page by the title of its own: a year page
// lists "1 January – Air India Flight 855 crashes" and the page of 1
// January lists "1978 – Air India Flight 855 crashes". Each names the
// other page where its own title goes without saying; the date is the
// same. It returns the mechanism that says so.
func (c *group) titlesCrossed(a *text, rem []int, b *text, add []int) (string, bool) {
	if len(rem) == 0 || len(add) == 0 {
		return "", false
	}
	from, to := wordKeys(a.toks, rem), wordKeys(b.toks, add)
	if !c.isTitleOf(b, from) || !c.isTitleOf(a, to) {
		return "", false
	}
	return MechanismSubject + ": each text names the other's page, " + quoteTitle(phrase(pick(a.toks, rem))) + " and " + quoteTitle(phrase(pick(b.toks, add))), true
}

// isTitleOf reports whether keys are the words of the page title of one
// of t's members.
func (c *group) isTitleOf(t *text, keys []string) bool {
	for _, i := range t.members {
		if slices.Equal(wordKeys(Tokenize(c.members[i].Title), nil), keys) {
			return true
		}
	}
	return false
}

// wordKeys returns the keys of the tokens toks[idx] (of all toks if idx is
// nil) that are not punctuation.
func wordKeys(toks []Token, idx []int) []string {
	var keys []string
	add := func(t Token) {
		if t.Kind != KindPunct {
			keys = append(keys, t.key())
		}
	}
	if idx == nil {
		for _, t := range toks {
			add(t)
		}
	}
	for _, i := range idx {
		add(toks[i])
	}
	return keys
}

// frameRefilled is the rule of a pair whose texts share little but their
// frame: each names its own people, places or figures.
const frameRefilled = "frame_refilled"

// MinFrameWords is the fewest content words two texts must share, in
// order, for a frame filled for two subjects (rule frameRefilled).
const MinFrameWords = 3

// refilled reports whether two texts too different to be versions of one
// statement are one sentence frame filled for two subjects: they share at
// least MinFrameWords content words, and a slot of the frame holds a name
// or a figure on each side ("Honda donated $5,000,000 to the American Red
// Cross", "Hewlett-Packard donated $1,000,000 to the American Red Cross").
// Texts that share a phrase and nothing in its slots stay unrelated. It
// returns the first such slot.
func refilled(a, b []Token, hunks []hunk, rems, adds [][]int) (Change, bool) {
	if sharedContentWords(a, hunks) < MinFrameWords {
		return Change{}, false
	}
	for k := range hunks {
		rem, add := fills(a, rems[k]), fills(b, adds[k])
		if len(rem) > 0 && len(add) > 0 && inSlot(a, rems[k], b, adds[k]) {
			return Change{Kind: KindName, From: phrase(pick(a, rem)), To: phrase(pick(b, add))}, true
		}
	}
	return Change{}, false
}

// sharedContentWords counts the content words of a outside the hunks.
func sharedContentWords(a []Token, hunks []hunk) int {
	n, at := 0, 0
	count := func(from, to int) {
		for _, t := range a[from:to] {
			if t.Kind != KindPunct && !functionWords[t.key()] {
				n++
			}
		}
	}
	for _, h := range hunks {
		count(at, h.A0)
		at = h.A1
	}
	count(at, len(a))
	return n
}

// fills returns the indices among idx of the tokens that fill a slot of a
// frame: names (not the capital of a sentence's first word), page-title
// words, numbers and dates.
func fills(toks []Token, idx []int) []int {
	var out []int
	for _, i := range idx {
		if isFill(toks[i]) && (i > 0 || toks[i].Kind != KindName) {
			out = append(out, i)
		}
	}
	return out
}

// isFill reports whether t fills a slot of a sentence frame: a name, a
// page-title word, a number or a date.
func isFill(t Token) bool {
	switch t.Kind {
	case KindName, KindTitle, KindNumber, KindDate:
		return true
	}
	return false
}

// refilledExamples formats the fills of the first pair of rule
// frameRefilled.
func refilledExamples(pairs []pair) string {
	for _, p := range pairs {
		if p.rule == frameRefilled && len(p.subs) > 0 {
			return examples(p.subs[:1], "")
		}
	}
	return ""
}

// MaxUnterminatedChange is the largest share of changed words for which a
// text that lacks only its final punctuation is read as a copy of a whole
// sentence (a quotation ending at its closing mark, a full stop dropped),
// not as a fragment cut by sentence splitting.
const MaxUnterminatedChange = 0.2

// unterminatedCopy reports whether b is a fragment only because it does
// not end with a sentence terminal, while the whole sentence a says the
// same with few words changed (changed of them).
func unterminatedCopy(a, b *text, changed int) bool {
	return b.fragment == "no_terminal_punctuation" && a.fragment == "" &&
		float64(changed) <= MaxUnterminatedChange*float64(words(a.toks)+words(b.toks))
}

// ownDates says why the substantive pairs are statements that each hold
// for their own date, or "": a statement updated with its date (31,747
// enrolled for fall 2011, 33,602 for fall 2012) replaces a date and
// another value together; entries of a timeline stand under headings that
// hold a date or a year (a death toll of 1,080 under September 24, of
// 1,135 under October 1). One value replaced under one date is drift.
func (c *group) ownDates(pairs []pair) string {
	for _, p := range pairs {
		if p.kind != substantive {
			continue
		}
		var date, other *Fact
		for i := range p.facts {
			if f := &p.facts[i]; f.Type == FactDate && date == nil {
				date = f
			} else if f.Type != FactDate && other == nil {
				other = f
			}
		}
		if date != nil && other != nil {
			return date.From + " → " + date.To + " with " + other.From + " → " + other.To
		}
		ref := c.members[c.texts[c.ref].members[0]].Section
		sec := c.members[p.other.members[0]].Section
		if ref != sec && hasDigit(ref) && hasDigit(sec) {
			return "under the headings " + quoteTitle(ref) + " and " + quoteTitle(sec)
		}
	}
	return ""
}

// hasDigit reports whether s holds a decimal digit of any script.
func hasDigit(s string) bool {
	return strings.IndexFunc(s, isDigit) >= 0
}

// asWritten returns the text of the first token of toks with key k.
func asWritten(toks []Token, k string) string {
	for _, t := range toks {
		if t.Kind != KindPunct && t.key() == k {
			return t.Text
		}
	}
	return k
}
