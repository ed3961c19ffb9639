package index

import "slices"

// Entry is what the index says of a cluster.
type Entry struct {
	Index          int // in the run, the cluster's number for Entry and ReadCluster
	ID             string
	Kind           string
	Size           int
	Pages          int
	MembersOmitted int
	MinJaccard     float32
	MaxEdit        float32
	Articles       []Article // its distinct pages, in member order
}

// Article is a page with members in some cluster of the run.
type Article struct {
	Index  int // in the run's table of articles
	Wiki   string
	PageID int64
	Title  string
}

// Entry returns what the index says of cluster i.
func (r *Run) Entry(i int) Entry {
	c := &r.clusters[i]
	e := Entry{Index: i, ID: formatID(r.wikis[c.wiki], c.page, c.revOrd), Kind: r.kinds[c.kind],
		Size: int(c.size), Pages: int(c.pages), MembersOmitted: int(c.omitted), MinJaccard: c.minJ, MaxEdit: c.maxE,
		Articles: make([]Article, c.nrefs)}
	for j, a := range r.refs[c.refs : c.refs+c.nrefs] {
		e.Articles[j] = r.Article(int(a))
	}
	return e
}

// Article returns article i of the run's table of articles.
func (r *Run) Article(i int) Article {
	return Article{Index: i, Wiki: r.wikis[r.arts.wikis[i]], PageID: r.arts.pages[i], Title: r.arts.title(i)}
}

// FindArticle returns the index of the article of a wiki's page.
func (r *Run) FindArticle(wiki string, page int64) (int, bool) {
	for i, p := range r.arts.pages {
		if p == page && r.wikis[r.arts.wikis[i]] == wiki {
			return i, true
		}
	}
	return 0, false
}

// KindCount is a category and its number of clusters (and of their
// sentences, where known).
type KindCount struct {
	Kind      string
	Clusters  int64
	Sentences int64
}

// Kinds returns the categories of the run's clusters with their counts,
// in report.html's order (kindstyle.Kinds), others after by name.
func (r *Run) Kinds() []KindCount { return slices.Clone(r.kindCounts) }

// countKinds counts the clusters of each category.
func (r *Run) countKinds() []KindCount {
	out := make([]KindCount, len(r.kinds))
	for i, k := range r.kinds {
		out[i].Kind = k
	}
	for i := range r.clusters {
		c := &out[r.clusters[i].kind]
		c.Clusters++
		c.Sentences += int64(r.clusters[i].size)
	}
	SortKinds(out)
	return out
}
