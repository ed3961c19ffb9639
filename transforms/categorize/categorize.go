// Package categorize labels a cluster of near-duplicate sentences with the
// kind of duplication it shows, and the evidence for the label.
//
// The six kinds are those Weissman et al. found by hand in Wikipedia (and
// Ayhan, Bradley and Weissman, section 6.1): identical copies, copy editing,
// factual drift, templates, references and other. Classify decides by
// explicit rules in a fixed order, whose thresholds are the named constants
// below: reference, identical and other look at the members alone; then the
// distinct texts are aligned token by token with a reference text, each
// pair is judged, and the kind of most members wins. Every result carries
// its evidence: the rule that fired, a readable reason, the token
// differences and the groups of identical members.
//
// The rules step by step: docs/categories.md, "How Classify decides".
package categorize

import (
	"fmt"
	"slices"
	"strings"
)

// Categories.
const (
	Identical    = "identical"
	CopyEdit     = "copy_edit"
	FactualDrift = "factual_drift"
	Template     = "template"
	Reference    = "reference"
	Other        = "other"
)

// Thresholds of the rules.
const (
	// ReferenceMinShare is the share of members that must be citations for
	// a reference cluster.
	ReferenceMinShare = 0.5
	// ReferenceMinScore is the citation-cue score that makes a text a
	// citation.
	ReferenceMinScore = 2
	// FragmentMinShare is the share of members that must be sentence
	// fragments for the cluster to be "other".
	FragmentMinShare = 0.5
	// OtherMinChangedShare: a pair whose changed words exceed this share of
	// all their words is unrelated ("other").
	OtherMinChangedShare = 0.5
	// ContainedMaxRatio: a text contained in another (only insertions or
	// only deletions) with fewer than this share of its words is "other".
	ContainedMaxRatio = 0.6
	// TemplateMinSlots is the number of places of the reference text where
	// substantive replacements make a template.
	TemplateMinSlots = 3
	// TemplateMinVariants is the number of different fillings of the
	// replaced places (the reference's included) that make a template even
	// in one place. Drift rarely has that many versions: a death toll
	// revised three times in four articles is still drift.
	TemplateMinVariants = 5
	// ProseMinWords is the fewest words of a sentence in a references
	// context (a footnote) that, without any citation cue, is read as
	// prose rather than as a citation.
	ProseMinWords = 20
	// MaxAnalysedTexts bounds the distinct texts aligned with the reference,
	// in member order, so a cluster of thousands costs little.
	MaxAnalysedTexts = 64
	// MaxEvidenceDiffs bounds the pair diffs reported in the evidence.
	MaxEvidenceDiffs = 10
	// MaxEvidenceChanges bounds the changes reported per pair diff.
	MaxEvidenceChanges = 24
)

// tieOrder breaks ties between votes: the more informative kind wins.
var tieOrder = []string{FactualDrift, Template, CopyEdit, Identical, Other}

// Member is one sentence of a cluster.
type Member struct {
	Wiki    string `json:"wiki,omitempty"` // the wiki, for the run's Knowledge of it
	Title   string `json:"title"`
	Section string `json:"section"`
	Context string `json:"context"` // "prose", "list" or "reference"
	Text    string `json:"text"`
}

// PairDiff holds the token changes from member A's text to member B's.
type PairDiff struct {
	A       int      `json:"a"`
	B       int      `json:"b"`
	Changes []Change `json:"changes"`
}

// Evidence says why a cluster got its category.
type Evidence struct {
	Rule   string `json:"rule"`   // short id of the rule that fired
	Reason string `json:"reason"` // one readable sentence
	// Diffs from the reference text (the most common) to each other
	// distinct text (the first MaxEvidenceDiffs), by the index of the first
	// member with each text.
	Diffs []PairDiff `json:"diffs"`
	// Identical lists the groups (size >= 2) of members with the same text.
	Identical [][]int `json:"identical_groups"`
	// DistinctTexts is the number of different texts in the cluster.
	DistinctTexts int `json:"distinct_texts"`
	// Facts lists, for a factual_drift or template cluster, the values
	// that differ between the reference text and the others (those of the
	// first MaxEvidenceDiffs texts compared): the slot and both values.
	Facts []Fact `json:"facts,omitempty"`
	// Votes counts members per kind (step 5 of docs/categories.md, "How
	// Classify decides"); it is
	// set when the distinct texts were compared.
	Votes map[string]int `json:"votes,omitempty"`
	// Mechanisms says what decided beyond the token rules, each as
	// "mechanism: detail" (the Mechanism* names): two names that resolve
	// to one article, a learned reference section, a number written two
	// ways, whose statement it is.
	Mechanisms []string `json:"mechanisms,omitempty"`
}

// Result is a cluster's category and its evidence.
type Result struct {
	Category string   `json:"category"`
	Evidence Evidence `json:"evidence"`
}

// text is one distinct text of a cluster.
type text struct {
	norm     string   // whitespace-normalised text
	members  []int    // indices of the members with this text
	toks     []Token  // tokens, words of the members' titles marked KindTitle
	fragment string   // why it is a sentence fragment, or ""
	cues     []string // citation cues found, if it is a citation
	score    int      // citation-cue score
}

// group is the working state of one classification.
type group struct {
	members []Member
	texts   []*text
	ref     int // index in texts of the reference text
	// titleKeys caches the keys of each page title's words that mark
	// tokens as the title's (markTitles): members share titles.
	titleKeys map[string][]string
	know      Knowledge
}

// Classify labels a cluster of members, in the given order. It is
// deterministic and accepts any input.
func Classify(members []Member) Result {
	return ClassifyWith(members, Knowledge{})
}

// ClassifyWith is Classify with what the run learned from its dumps.
func ClassifyWith(members []Member, know Knowledge) Result {
	if len(members) == 0 {
		return Result{Category: Other, Evidence: Evidence{
			Rule: "empty_cluster", Reason: "the cluster has no members",
			Diffs: []PairDiff{}, Identical: [][]int{},
		}}
	}
	c := newCluster(members, know)
	pairs := c.comparePairs()
	ev := Evidence{
		Diffs:         c.evidenceDiffs(pairs),
		Identical:     c.identicalGroups(),
		DistinctTexts: len(c.texts),
	}
	category, rule, reason := c.decide(pairs, &ev)
	ev.Rule, ev.Reason = rule, reason
	for _, p := range pairs {
		for _, m := range p.mechanisms {
			if !slices.Contains(ev.Mechanisms, m) {
				ev.Mechanisms = append(ev.Mechanisms, m)
			}
		}
	}
	if category == FactualDrift || category == Template {
		ev.Facts = c.evidenceFacts(pairs)
	}
	return Result{Category: category, Evidence: ev}
}

// newCluster groups members by normalised text and tokenises each text.
func newCluster(members []Member, know Knowledge) *group {
	c := &group{members: members, know: know}
	byText := map[string]*text{}
	for i, m := range members {
		norm := strings.Join(strings.Fields(m.Text), " ")
		t := byText[norm]
		if t == nil {
			t = &text{norm: norm}
			byText[norm] = t
			c.texts = append(c.texts, t)
		}
		t.members = append(t.members, i)
	}
	for _, t := range c.texts {
		t.toks = canonicalPhrases(Tokenize(t.norm))
		inList := true
		for _, i := range t.members {
			inList = inList && members[i].Context == "list"
		}
		t.fragment = fragmentReason(t.norm, t.toks, inList)
		score, cues := citationScore(t.toks)
		if score >= ReferenceMinScore {
			t.cues = cues
		}
		t.score = score
	}
	// The reference is the most common whole sentence (the earliest on
	// ties), so the other texts are described as departures from it.
	best := -1
	for i, t := range c.texts {
		if t.fragment == "" && (best < 0 || len(t.members) > len(c.texts[best].members)) {
			best = i
		}
	}
	c.ref = max(best, 0)
	return c
}

// markTitles sets KindTitle on the tokens of t that are words of its
// members' page titles (function words and punctuation excepted).
func (c *group) markTitles(t *text) {
	titleWords := map[string]bool{}
	for _, i := range t.members {
		for _, k := range c.titleWords(c.members[i].Title) {
			titleWords[k] = true
		}
	}
	for i, tok := range t.toks {
		if tok.Kind != KindPunct && titleWords[tok.key()] {
			t.toks[i].Kind = KindTitle
		}
	}
}

// titleWords returns the keys of the words of a page title that mark a
// text's tokens as the title's: all but punctuation and function words.
func (c *group) titleWords(title string) []string {
	if keys, ok := c.titleKeys[title]; ok {
		return keys
	}
	var keys []string
	for _, w := range Tokenize(title) {
		if k := w.key(); w.Kind != KindPunct && !functionWords[k] {
			keys = append(keys, k)
		}
	}
	if c.titleKeys == nil {
		c.titleKeys = map[string][]string{}
	}
	c.titleKeys[title] = keys
	return keys
}

// identicalGroups returns the member indices of every text shared by two or
// more members.
func (c *group) identicalGroups() [][]int {
	groups := [][]int{}
	for _, t := range c.texts {
		if len(t.members) >= 2 {
			groups = append(groups, t.members)
		}
	}
	return groups
}

// comparePairs compares the reference text with each other distinct text,
// in member order, up to MaxAnalysedTexts of them.
func (c *group) comparePairs() []pair {
	if len(c.texts) < 2 {
		return nil
	}
	ref := c.texts[c.ref]
	c.markTitles(ref)
	var pairs []pair
	for i, t := range c.texts {
		if i == c.ref {
			continue
		}
		if len(pairs) == MaxAnalysedTexts {
			break
		}
		c.markTitles(t)
		pairs = append(pairs, c.comparePair(ref, t))
	}
	return pairs
}

// evidenceDiffs returns the first MaxEvidenceDiffs pair diffs.
func (c *group) evidenceDiffs(pairs []pair) []PairDiff {
	diffs := []PairDiff{}
	for _, p := range pairs[:min(len(pairs), MaxEvidenceDiffs)] {
		changes := p.changes[:min(len(p.changes), MaxEvidenceChanges)]
		if changes == nil {
			changes = []Change{}
		}
		diffs = append(diffs, PairDiff{A: c.texts[c.ref].members[0], B: p.other.members[0], Changes: changes})
	}
	return diffs
}

// evidenceFacts returns the differing values of the substantive pairs among
// the first MaxEvidenceDiffs, with the members they come from.
func (c *group) evidenceFacts(pairs []pair) []Fact {
	var facts []Fact
	for _, p := range pairs[:min(len(pairs), MaxEvidenceDiffs)] {
		if p.kind != substantive {
			continue
		}
		for _, f := range p.facts {
			f.A, f.B = c.texts[c.ref].members[0], p.other.members[0]
			facts = append(facts, f)
		}
	}
	return facts
}

// decide applies the rules in order and fills ev.Votes.
func (c *group) decide(pairs []pair, ev *Evidence) (category, rule, reason string) {
	n := len(c.members)
	if refs, byContext, cues, learned := c.citations(); float64(refs) >= ReferenceMinShare*float64(n) {
		for _, h := range learned {
			ev.Mechanisms = append(ev.Mechanisms, MechanismReferenceSection+": "+h)
		}
		if byContext*2 >= refs {
			if len(learned) > 0 {
				return Reference, "reference_context", fmt.Sprintf("%d of %d members are citations (%d in a references section or one whose lines are mostly citations in this wiki: %s)", refs, n, byContext, strings.Join(learned, ", "))
			}
			return Reference, "reference_context", fmt.Sprintf("%d of %d members are citations (%d parsed in a references section)", refs, n, byContext)
		}
		return Reference, "citation_shape", fmt.Sprintf("%d of %d members are shaped like citations (%s)", refs, n, strings.Join(cues, ", "))
	}
	if len(c.texts) == 1 {
		if n == 1 {
			return Other, "single_member", "the cluster has one member: nothing to compare"
		}
		return Identical, "all_texts_equal", fmt.Sprintf("all %d members have the same text", n)
	}
	if frags, example := c.fragments(); float64(frags) > FragmentMinShare*float64(n) {
		return Other, "sentence_fragments", fmt.Sprintf("%d of %d members are pieces of sentences cut by sentence splitting (%s)", frags, n, example)
	}

	oneSubject, subjectMechanism := c.oneSubject(pairs)
	substantiveKind, substantiveRule, substantiveReason := decideSubstantive(pairs, c.allInLists(), oneSubject, c.ownDates(pairs))
	ev.Votes = map[string]int{}
	ref := c.texts[c.ref]
	if copies := len(ref.members) - 1; copies > 0 {
		ev.Votes[Identical] = copies
	}
	for _, p := range pairs {
		kind := p.kind
		if kind == substantive {
			kind = substantiveKind
		}
		ev.Votes[kind] += len(p.other.members)
	}
	winner := tieOrder[0]
	for _, k := range tieOrder {
		if ev.Votes[k] > ev.Votes[winner] {
			winner = k
		}
	}
	switch winner {
	case Identical:
		return Identical, "mostly_identical", fmt.Sprintf("%d of %d members have the same text, which the other texts depart from", len(ref.members), n)
	case substantiveKind:
		ev.Mechanisms = append(ev.Mechanisms, subjectMechanism)
		return substantiveKind, substantiveRule, substantiveReason
	case CopyEdit:
		return CopyEdit, copyEditRule(pairs), copyEditReason(pairs)
	case Template:
		return Template, frameRefilled, "the texts share a sentence frame and little else, each filling it with its own names or figures: " + refilledExamples(pairs)
	}
	return Other, otherRule(pairs), otherReason(pairs)
}

// allInLists reports whether every member is an item of a list.
func (c *group) allInLists() bool {
	for _, m := range c.members {
		if m.Context != "list" {
			return false
		}
	}
	return true
}

// citations counts the members that are citations, those in a references
// context, and names the citation cues found and the headings of the
// members that are in a references context only because their wiki's
// lines under that heading are mostly citations (Knowledge.Sections). A
// member is in a references context if it was parsed in one, or if its
// section is so learned and its text has a cue of a bibliography entry.
func (c *group) citations() (refs, byContext int, cues, learned []string) {
	for _, t := range c.texts {
		for _, i := range t.members {
			m := c.members[i]
			inLearned := m.Context != "reference" && c.inLearnedSection(m) && hasEntryCue(t)
			switch {
			case (m.Context == "reference" || inLearned) && (t.score > 0 || !isProse(t)):
				refs++
				byContext++
				if inLearned && !slices.Contains(learned, m.Section) {
					learned = append(learned, m.Section)
				}
			case t.cues != nil:
				refs++
			}
		}
		for _, cue := range t.cues {
			if !slices.Contains(cues, cue) {
				cues = append(cues, cue)
			}
		}
	}
	return refs, byContext, cues, learned
}

// inLearnedSection reports whether m's section is one that the run learned
// to hold citations in m's wiki.
func (c *group) inLearnedSection(m Member) bool {
	return c.know.Sections != nil && m.Section != "" && c.know.Sections.IsReference(m.Wiki, m.Section)
}

// hasEntryCue reports whether a text has a cue of a bibliography entry in
// any language (entryCues). A section learned to hold citations may hold
// prose too (a "Literature" section is a bibliography on some pages, an
// account of the country's writers on others): only its texts with such a
// cue are read as citations.
func hasEntryCue(t *text) bool {
	score, _ := scoreCues(entryCues, t.toks, 1)
	return score > 0
}

// isProse reports whether a text is a whole sentence of prose, not a
// bibliography entry: a footnote that quotes a source holds such
// sentences, and they are compared as prose. It has at least
// ProseMinWords words and no fragment shape.
func isProse(t *text) bool {
	return t.fragment == "" && words(t.toks) >= ProseMinWords && !hasBibliographicParts(t.toks)
}

// hasBibliographicParts reports whether toks hold what a bibliography entry
// holds in any language, where the citation cues (English words) may not
// be found: an initial of a name ("Ε. Χατζηβασιλείου", "Cook, M. A.") or
// a year after a comma or a bracket, or before a closing bracket
// ("Київ, 1870.", "(2006)", "1913-2013)").
func hasBibliographicParts(toks []Token) bool {
	for i, t := range toks {
		next := i+1 < len(toks) && toks[i+1].Text == "."
		switch {
		case isInitial(t) && next && i+2 < len(toks) && toks[i+2].Kind != KindPunct:
			return true
		case t.Kind == KindDate && isNum(toks, i) && (i > 0 && setOff(toks[i-1]) || i+1 < len(toks) && toks[i+1].Text == ")"):
			return true
		}
	}
	return false
}

// setOff reports whether t is a comma or a bracket.
func setOff(t Token) bool {
	return t.Text == "," || t.Text == "(" || t.Text == ")"
}

// fragments counts the members whose text is a sentence fragment and
// describes the first.
func (c *group) fragments() (count int, example string) {
	for _, t := range c.texts {
		if t.fragment == "" {
			continue
		}
		count += len(t.members)
		if example == "" {
			example = fmt.Sprintf("%s: %q", t.fragment, ellipsis(t.norm, 60))
		}
	}
	return count, example
}

// ellipsis keeps the last n runes of s.
func ellipsis(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return "…" + string(r[len(r)-n:])
}
