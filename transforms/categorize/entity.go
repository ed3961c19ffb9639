package categorize

import (
	"cmp"
	"slices"

	"github.com/neardup/neardup/transforms/alias"
)

// Bounds of the names that sameEntity looks up around a replaced name.
const (
	// NameReach is how many tokens a name may extend beyond the replaced
	// ones on each side: "Ibn Badis" and "Abdelhamid Ben Badis" replace
	// "Ibn" by "Abdelhamid Ben" before the "Badis" they share.
	NameReach = 2
	// MaxNameTokens bounds the tokens of a name looked up.
	MaxNameTokens = 8
)

// sameEntity reports whether a hunk that replaces the tokens rem of a by
// the tokens add of b replaces a name by another name of one article, as
// the run's Knowledge of the members' wiki says ("Côte d'Ivoire" and
// "Ivory Coast", "Hamedan" and "Hamadan"), and returns the mechanism that
// says so: "same_entity: [[Ivory Coast]]". Both sides must hold a name or
// title word and no number or date (a figure changed beside a name is
// still a change). Each side's name is its replaced tokens, function words
// and punctuation at their ends set aside, with up to NameReach tokens more
// on either side, starting with a name or title word; the shortest names
// are tried first. The names the table knows come before near spellings
// (dropForms): the dump's word is the better one.
func (c *group) sameEntity(a *text, rem []int, b *text, add []int) (string, bool) {
	e := c.know.Entities
	if e == nil || !hasKind(a.toks, rem, KindName, KindTitle) || !hasKind(b.toks, add, KindName, KindTitle) ||
		hasNumber(a.toks, rem) || hasNumber(b.toks, add) {
		return "", false
	}
	wikiA, wikiB := c.members[a.members[0]].Wiki, c.members[b.members[0]].Wiki
	spansA, spansB := nameSpans(a.toks, core(a.toks, rem)), nameSpans(b.toks, core(b.toks, add))
	type pairing struct{ a, b span }
	var tries []pairing
	for _, sa := range spansA {
		for _, sb := range spansB {
			tries = append(tries, pairing{sa, sb})
		}
	}
	slices.SortStableFunc(tries, func(x, y pairing) int {
		return cmp.Compare(x.a.end-x.a.start+x.b.end-x.b.start, y.a.end-y.a.start+y.b.end-y.b.start)
	})
	for _, t := range tries {
		na, nb := phrase(a.toks[t.a.start:t.a.end]), phrase(b.toks[t.b.start:t.b.end])
		article, ok := e.SameEntity(wikiA, na, nb)
		if !ok && wikiB != wikiA {
			article, ok = e.SameEntity(wikiB, na, nb)
		}
		if ok {
			return MechanismSameEntity + ": [[" + article + "]]", true
		}
	}
	return "", false
}

// core returns idx (sorted token indices of toks) without the function
// words and punctuation at its ends: "the Ivory Coast" is the name "Ivory
// Coast".
func core(toks []Token, idx []int) []int {
	skip := func(i int) bool {
		return toks[i].Kind == KindPunct || toks[i].Kind == KindWord && functionWords[toks[i].key()]
	}
	for len(idx) > 0 && skip(idx[0]) {
		idx = idx[1:]
	}
	for len(idx) > 0 && skip(idx[len(idx)-1]) {
		idx = idx[:len(idx)-1]
	}
	return idx
}

// nameSpans returns the spans of toks that may be a name holding the
// tokens idx: they cover idx and at most NameReach tokens more on each
// side, hold at most MaxNameTokens tokens, start with a name or title word
// and end with a word, in the order of their start, then of their end.
func nameSpans(toks []Token, idx []int) []span {
	if len(idx) == 0 {
		return nil
	}
	lo, hi := slices.Min(idx), slices.Max(idx)+1
	var out []span
	for start := max(0, lo-NameReach); start <= lo; start++ {
		if k := toks[start].Kind; k != KindName && k != KindTitle {
			continue
		}
		for end := hi; end <= min(len(toks), hi+NameReach); end++ {
			if end-start <= MaxNameTokens && toks[end-1].Kind != KindPunct {
				out = append(out, span{start, end})
			}
		}
	}
	return out
}

// UnmarshalEntities decodes the alias table that alias.Build encodes, for
// Knowledge.Entities: nil when it knows no wiki, so that a run without one
// pays nothing for it.
func UnmarshalEntities(b []byte) (Entities, error) {
	var t alias.Table
	if err := t.UnmarshalBinary(b); err != nil {
		return nil, err
	}
	if len(t.Wikis()) == 0 {
		return nil, nil
	}
	return &t, nil
}
