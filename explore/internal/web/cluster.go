package web

import (
	"cmp"
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/neardup/neardup/explore/internal/index"
	"github.com/neardup/neardup/transforms/categorize"
)

// clusterBody is a cluster's page.
type clusterBody struct {
	Entry    index.Entry
	Cluster  categorize.Cluster
	Members  []member
	Votes    []vote
	Groups   []string // identical groups, as member numbers
	Articles []articleLink
}

// member is a member with its text cut for highlighting.
type member struct {
	N        int // its index in the cluster's members, as the evidence gives it
	ID       string
	Wiki     string
	Title    string
	Section  string
	Context  string
	Segments []categorize.Segment
	WikiURL  string // "" if the wiki's URL is not known
	PageURL  string // the explorer's page of its article
}

type vote struct {
	Kind    string
	Members int
}

func (s *Server) cluster(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	i, ok := s.run.Find(id)
	if !ok {
		s.fail(w, http.StatusNotFound, "There is no cluster %s in this run.", id)
		return
	}
	c, err := s.run.ReadCluster(r.Context(), i)
	if err != nil {
		s.fail(w, http.StatusInternalServerError, "Cluster %s cannot be shown: %v", id, err)
		return
	}
	b := clusterBody{Entry: s.run.Entry(i), Cluster: c, Members: s.members(c)}
	for k, n := range c.Evidence.Votes {
		b.Votes = append(b.Votes, vote{k, n})
	}
	slices.SortFunc(b.Votes, func(x, y vote) int { return cmp.Or(cmp.Compare(y.Members, x.Members), cmp.Compare(x.Kind, y.Kind)) })
	for _, g := range c.Evidence.Identical {
		b.Groups = append(b.Groups, memberList(g))
	}
	for _, a := range b.Entry.Articles {
		b.Articles = append(b.Articles, articleLink{Article: a, URL: articlePath(a.Wiki, a.PageID)})
	}
	s.render(w, http.StatusOK, "cluster", "Cluster "+id, b)
}

// members returns c's members with their texts highlighted against the
// first.
func (s *Server) members(c categorize.Cluster) []member {
	texts := make([]string, len(c.Members))
	for i, m := range c.Members {
		texts[i] = m.Text
	}
	segs := highlight(texts)
	out := make([]member, len(c.Members))
	for i, m := range c.Members {
		out[i] = member{N: i, ID: m.ID, Wiki: m.Wiki, Title: m.Title, Section: m.Section, Context: m.Context,
			Segments: segs[i], WikiURL: s.wikiURL(m.Wiki, m.Title), PageURL: articlePath(m.Wiki, m.PageID)}
	}
	return out
}

// memberList writes member numbers as "#0, #3, #4".
func memberList(ms []int) string {
	parts := make([]string, len(ms))
	for i, m := range ms {
		parts[i] = fmt.Sprintf("#%d", m)
	}
	return strings.Join(parts, ", ")
}
