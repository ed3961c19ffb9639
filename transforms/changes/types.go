package changes

import (
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

// keepFacts returns the facts of the pair x of old[x.Old] and cur[x.New]
// that really changed: all the replaced ones, and those given on one side
// only unless they moved to a sentence next to the pair's in the other
// revision. A revision that splits a sentence in two, or merges two, moves
// values to the next sentence without removing them from the page.
func (p partners) keepFacts(facts []categorize.Fact, old, cur []Sentence, x Match) []categorize.Fact {
	var out []categorize.Fact
	for _, f := range facts {
		switch {
		case f.Change == categorize.ChangeRemoved && movedTo(cur, x.New, p.ofNew, old, x.Old, f.From),
			f.Change == categorize.ChangeAdded && movedTo(old, x.Old, p.ofOld, cur, x.New, f.To):
			continue
		}
		out = append(out, f)
	}
	return out
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
