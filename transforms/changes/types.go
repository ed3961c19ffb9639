package changes

import (
	"strings"

	"github.com/neardup/neardup/transforms/categorize"
)

// Types of a change (Change.Type), from what happened to its facts.
const (
	// TypeReplaced: at least one value was replaced by another (the
	// sentence may also add or drop others).
	TypeReplaced = "replaced"
	// TypeAdded: no value was replaced, and numbers, dates or names were
	// added.
	TypeAdded = "added"
	// TypeRemoved: no value was replaced, and numbers, dates or names
	// were removed.
	TypeRemoved = "removed"
	// TypeAddedRemoved: no value was replaced, and some were added and
	// others removed (in other places of the sentence: one in the place
	// of another is a replacement).
	TypeAddedRemoved = "added_removed"
)

// changeType is the type of a change with facts.
func changeType(facts []Fact) string {
	added, removed := false, false
	for _, f := range facts {
		switch f.Change {
		case categorize.ChangeReplaced:
			return TypeReplaced
		case categorize.ChangeAdded:
			added = true
		case categorize.ChangeRemoved:
			removed = true
		}
	}
	switch {
	case added && removed:
		return TypeAddedRemoved
	case added:
		return TypeAdded
	}
	return TypeRemoved
}

// count counts a change of type typ.
func (c *Counts) count(typ string) {
	c.Changes++
	switch typ {
	case TypeReplaced:
		c.ChangesReplaced++
	case TypeAdded:
		c.ChangesAdded++
	case TypeRemoved:
		c.ChangesRemoved++
	default:
		c.ChangesAddedRemoved++
	}
}

// partners says, for each sentence of each revision, the sentence of the
// other revision it is aligned with (unchanged or a version of it), or -1.
type partners struct{ ofOld, ofNew []int }

func newPartners(n, m int, unchanged, pairs []Match) partners {
	p := partners{ofOld: make([]int, n), ofNew: make([]int, m)}
	for i := range p.ofOld {
		p.ofOld[i] = -1
	}
	for j := range p.ofNew {
		p.ofNew[j] = -1
	}
	for _, ms := range [][]Match{unchanged, pairs} {
		for _, x := range ms {
			p.ofOld[x.Old], p.ofNew[x.New] = x.New, x.Old
		}
	}
	return p
}

// MinSplitGain is how much more of an old sentence's words (Dice
// similarity of the sets) a new sentence and an added neighbour give
// together than the new one alone for joined to read them as one sentence
// split in two (or, the other way, two old sentences merged in one).
const MinSplitGain = 0.1

// joined returns the members compared for the pair x: its two sentences,
// or, where the revision split the old sentence in two, the old one and
// the new one joined with its neighbour that is paired with none (an
// added sentence), in page order; where it merged two, the old one joined
// with its removed neighbour. Of the neighbours, the one that brings the
// pair's words closest is taken, if it brings them MinSplitGain closer.
// The facts of the other half are then not removed or added.
func (p partners) joined(old, cur Revision, x Match) (a, b categorize.Member) {
	sa, sb := old.Sentences[x.Old], cur.Sentences[x.New]
	a, b = member(old, sa), member(cur, sb)
	wa, wb := wordSet(sa.Text), wordSet(sb.Text)
	base, _ := dice(wa, wb)
	best := base + MinSplitGain
	for _, k := range []int{x.New - 1, x.New + 1} {
		if k < 0 || k >= len(cur.Sentences) || p.ofNew[k] >= 0 {
			continue
		}
		text := join(sb.Text, cur.Sentences[k].Text, k < x.New)
		if d, _ := dice(wa, wordSet(text)); d > best {
			best, b.Text, a.Text = d, text, sa.Text
		}
	}
	for _, k := range []int{x.Old - 1, x.Old + 1} {
		if k < 0 || k >= len(old.Sentences) || p.ofOld[k] >= 0 {
			continue
		}
		text := join(sa.Text, old.Sentences[k].Text, k < x.Old)
		if d, _ := dice(wordSet(text), wb); d > best {
			best, a.Text, b.Text = d, text, sb.Text
		}
	}
	return a, b
}

// join joins a sentence and its neighbour, the neighbour first if before.
func join(s, neighbour string, before bool) string {
	if before {
		return neighbour + " " + s
	}
	return s + " " + neighbour
}

// keepFacts returns the facts of the pair x of old[x.Old] and cur[x.New]
// that really changed: all the replaced ones, and those given on one side
// only unless they moved to a sentence next to the pair's in the other
// revision. A revision that splits a sentence in two, or merges two, moves
// values to the next sentence without removing them from the page. It
// returns the values it set aside as moved too.
func (p partners) keepFacts(facts []categorize.Fact, old, cur []Sentence, x Match) (kept []categorize.Fact, moved []string) {
	for _, f := range facts {
		switch {
		case f.Change == categorize.ChangeRemoved && (movedTo(cur, x.New, p.ofNew, old, x.Old, f.From) || movedWithContext(cur, p.ofNew, old, f)):
			moved = append(moved, f.From)
			continue
		case f.Change == categorize.ChangeAdded && movedTo(old, x.Old, p.ofOld, cur, x.New, f.To):
			moved = append(moved, f.To)
			continue
		}
		kept = append(kept, f)
	}
	return kept, moved
}

// neighbours is how many sentences on each side of a pair's sentence
// movedTo reads.
const neighbours = 2

// movedTo reports whether value moved into a sentence next to ss[i], the
// version of others[k]: a sentence within neighbours of ss[i] states
// value, and is no version of a sentence near others[k] that states it too
// (the value was there before, beside the pair's other sentence).
func movedTo(ss []Sentence, i int, partner []int, others []Sentence, k int, value string) bool {
	for j := max(0, i-neighbours); j <= min(len(ss)-1, i+neighbours); j++ {
		if j == i || !categorize.Mentions(ss[j].Text, value) {
			continue
		}
		q := partner[j]
		if q < 0 || abs(q-k) > neighbours || !categorize.Mentions(others[q].Text, value) {
			return true
		}
	}
	return false
}

// ContextMoveWords is how many words before a removed value movedWithContext
// wants with it, so that a value moved far stands in the same phrase.
const ContextMoveWords = 2

// movedWithContext reports whether the removed fact f moved, with the
// ContextMoveWords words before it, into a sentence of cur anywhere on the
// page that is no version of an old sentence stating that phrase: a
// revision that moves a clause to another paragraph ("derived from Latin
// albedo" moved from the sentence on Lambert to the page's first) removes
// nothing. The phrase of three or more words in a row is what tells it
// from the same value said again elsewhere.
func movedWithContext(cur []Sentence, partner []int, old []Sentence, f categorize.Fact) bool {
	words := strings.Fields(f.Context)
	if len(words) < ContextMoveWords || f.From == "" {
		return false
	}
	phrase := strings.Join(words[len(words)-ContextMoveWords:], " ") + " " + f.From
	for j, s := range cur {
		if !strings.Contains(s.Text, f.From) || !categorize.Mentions(s.Text, phrase) {
			continue // the cheap test first
		}
		if q := partner[j]; q < 0 || !categorize.Mentions(old[q].Text, phrase) {
			return true
		}
	}
	return false
}
