package report

import (
	"github.com/neardup/neardup/transforms/categorize"
	"github.com/neardup/neardup/transforms/kindstyle"
)

// kinds are the categories in the order the page lists them, with their
// labels and colours (the same in the table, the charts and the examples,
// and in the explorer: transforms/kindstyle).
var kinds = kindstyle.Kinds

// kindLabel and kindColor return a category's label and colour.
func kindLabel(name string) string { return kindstyle.Label(name) }

func kindColor(name string) string { return kindstyle.Color(name) }

// The papers' figures that the page sets beside the run's. The 2015 paper
// (Weissman, Ayhan, Bradley and Lin, Identifying Duplicate and
// Contradictory Information in Wikipedia) reports its manual classification
// of 2,094 clusters in its Table 1, but the table's figures are not in the
// text this project has of it; the earlier report of the same group (Ayhan,
// Bradley and Weissman, Similar Sentence Detection Using Locality Sensitive
// Hashing Technique on Wikipedia) gives its counts in its Table 1, on 824
// clusters of English Wikipedia.
const (
	paperKindsSource = "Ayhan, Bradley & Weissman, Similar Sentence Detection Using LSH on Wikipedia, §6.1.1, Table 1 " +
		"(“Sentence Breakdown Counts”): 824 clusters of English Wikipedia (April 2013) classified by hand"
	paperKindsTotal = 824
	// paperNotSimilar is the row of their Table 1 without a kind here:
	// clusters whose sentences were not similar (false positives, which
	// the verification rejects here).
	paperNotSimilar = 3
)

// paperKinds are the counts of that Table 1, by category.
var paperKinds = map[string]int64{
	categorize.Identical:    455,
	categorize.CopyEdit:     214,
	categorize.FactualDrift: 65,
	categorize.Template:     52,
	categorize.Reference:    23,
	categorize.Other:        12,
}

// sizeFact is a statement of a paper on its cluster sizes, which the page
// checks on the run.
type sizeFact struct {
	Source string
	Limit  int64  // the size the statement is about
	Small  string // the paper's share of clusters of at most Limit members
	Large  string // the paper's share of sentences in larger clusters
	Range  string // the paper's range of cluster sizes
}

var sizeFacts = []sizeFact{
	{
		Source: "Weissman et al. 2015, §4, histogram of cluster sizes (1.15 M clusters of English Wikipedia, July 2013)",
		Limit:  10, Small: "about 99%", Large: "about a quarter", Range: "2 to over 40,000",
	},
	{
		Source: "Ayhan, Bradley & Weissman, §6 and Figure 3 (415,936 clusters of English Wikipedia, April 2013)",
		Limit:  30, Small: "99%", Large: "about a third", Range: "2 to 28,008",
	},
}
