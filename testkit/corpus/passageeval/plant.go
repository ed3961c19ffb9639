// Package passageeval builds an evaluation of the shared-passage stage (package
// transforms/passage) from real pages: it copies a paragraph of one page
// into another, verbatim or edited (Kind), and scores the passages a run
// finds against the copies it planted, by their boundaries (Evaluate).
//
// Pages are given with their sentences as the pipeline splits them, and a
// SplitFunc splits a page again once a copy is inserted into its
// wikitext, so that where the copy lands is known to the sentence:
// ReadDump and NewPages make both of real dumps, and Dump.Planted writes a
// dump's planted copy. Each
// source paragraph and each target page serves one plant, no document pair
// holds two plants, and no plant joins two pages that already share a
// sentence: every passage found on a planted document pair belongs to one
// plant. Planning draws from a seeded random source: the same pages and
// seed give the same plants.
package passageeval

import (
	"fmt"

	"github.com/neardup/neardup/testkit/corpus"
)

// Kind is a kind of planted copy.
type Kind int

const (
	// Exact is a paragraph copied verbatim.
	Exact Kind = iota
	// Reworded is a paragraph whose every sentence has one or two words
	// changed: a number, a synonym, a word dropped or replaced.
	Reworded
	// Dropped is a paragraph copied without one of its middle sentences.
	Dropped
	// Added is a paragraph copied with a sentence of an unrelated page put
	// in its middle.
	Added
	// Heavy is a paragraph paraphrased: every other sentence dropped, and
	// in the rest the clauses reordered and half the words replaced.
	Heavy
)

// Kinds are the kinds of copy, in the order reports list them.
var Kinds = [...]Kind{Exact, Reworded, Dropped, Added, Heavy}

var kindNames = [...]string{"exact", "reworded", "dropped", "added", "heavy"}

func (k Kind) String() string {
	if k < 0 || int(k) >= len(kindNames) {
		return fmt.Sprintf("Kind(%d)", int(k))
	}
	return kindNames[k]
}

// Light reports whether k is a verbatim or lightly edited copy: the kinds
// the shared-passage stage must find (F1 ≥ 0.95, issue 16).
func (k Kind) Light() bool { return k != Heavy }

// Page is a real page that copies may be taken from or planted into.
type Page struct {
	// Doc names the page's document as passages-*.jsonl does:
	// wiki:page_id:rev_id.
	Doc   string
	Title string
	// Lang is the page's language: English pages get English synonyms.
	Lang string
	// Text is the page's wikitext.
	Text      string
	Sentences []corpus.Sentence // as the pipeline splits them (corpus.Splitter)
}

// Config says what a plant is.
type Config struct {
	// Window is the pipeline's length window: every sentence copied, and
	// every sentence of an exact or lightly edited copy, is inside it.
	Window corpus.Window
	// MinSentences and MaxSentences bound the sentences of a copied
	// paragraph.
	MinSentences, MaxSentences int
	// Tries bounds the attempts at each plant (a paragraph, its edits, a
	// target and a place in it) and the places tried in each target.
	Tries int
}

// DefaultConfig is the pipeline's default window and paragraphs of 4 to 8
// sentences.
func DefaultConfig() Config {
	return Config{
		Window:       corpus.DefaultWindow,
		MinSentences: 4, MaxSentences: 8, Tries: 40,
	}
}

// Plant is one planted copy.
type Plant struct {
	Kind           Kind
	Source, Target string // Page.Doc of the pages copied from and into
	// Source and Target are the ordinals of the copied paragraph in the
	// source page and of the planted one in the target page, both as
	// planted (a source page that is also a target has its ordinals
	// shifted past the copy planted into it).
	SourceSpan, TargetSpan Span
	// Copied are the source's sentences, Planted the target's.
	Copied, Planted []string
	// Extra is, for an Added copy, the Page.Doc of the page whose sentence
	// was put in its middle; "" for other kinds.
	Extra string
}

// Span is a closed range of ordinals of one document.
type Span struct{ First, Last int }

// Len is how many ordinals s covers; 0 if it is empty (Last < First).
func (s Span) Len() int { return max(s.Last-s.First+1, 0) }

// Intersect is how many ordinals s and t share.
func (s Span) Intersect(t Span) int {
	return Span{max(s.First, t.First), min(s.Last, t.Last)}.Len()
}

// Matches reports whether s and t overlap by at least half of the longer
// of the two: 2·|s ∩ t| ≥ max(|s|, |t|), and they do overlap.
func (s Span) Matches(t Span) bool {
	n := s.Intersect(t)
	return n > 0 && 2*n >= max(s.Len(), t.Len())
}

func (s Span) String() string { return fmt.Sprintf("%d–%d", s.First, s.Last) }
