// Package members makes the sentences of test clusters for the tests of the
// stages after splitting. It is apart from package testshared because it
// imports transforms/sentence, whose own tests use testshared.
package members

import (
	"testing"

	"github.com/neardup/neardup/transforms/sentence"
)

// Maker makes sentences of a run's wikis, indexed as the run indexes them.
type Maker struct {
	T     testing.TB
	Wikis []string // the wikis' names, by index
}

// Sentence is sentence ord of revision rev of page page of wiki Wikis[wiki];
// the test fails if the ids do not fit.
func (m Maker) Sentence(wiki int, page, rev int64, ord int, title, text string) sentence.Sentence {
	m.T.Helper()
	d, err := sentence.NewDoc(wiki, page, rev)
	if err != nil {
		m.T.Fatal(err)
	}
	return sentence.Sentence{ID: d.Sentence(ord), Wiki: m.Wikis[wiki], PageID: page, RevID: rev, Title: title, Text: text}
}
