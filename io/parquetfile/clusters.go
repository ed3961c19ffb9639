package parquetfile

import (
	"encoding/json"
	"errors"
	"io"

	"github.com/parquet-go/parquet-go/compress/zstd"
)

// ClusterRow is a row of a clusters Parquet file: one member of a cluster,
// with its cluster's fields. Its fields are the file's columns, in order.
type ClusterRow struct {
	ClusterID      string  `parquet:"cluster_id"`      // the cluster's id: that of its first member
	ClusterSize    int64   `parquet:"cluster_size"`    // number of members, with those omitted
	ClusterPages   int64   `parquet:"cluster_pages"`   // number of distinct pages
	Category       string  `parquet:"category,dict"`   // identical, reference, factual_drift, copy_edit, …
	Rule           string  `parquet:"rule,dict"`       // evidence.rule: the rule that gave the category
	Reason         string  `parquet:"reason"`          // evidence.reason: one readable sentence
	Evidence       string  `parquet:"evidence"`        // the whole evidence object, as JSON
	MinJaccard     float64 `parquet:"min_jaccard"`     // cohesion: lowest Jaccard similarity of an edge
	MeanJaccard    float64 `parquet:"mean_jaccard"`    // cohesion: mean Jaccard similarity of the edges
	MaxEdit        float64 `parquet:"max_edit"`        // cohesion: largest normalised edit distance of an edge
	MeanEdit       float64 `parquet:"mean_edit"`       // cohesion: mean normalised edit distance
	CohesionEdges  int64   `parquet:"cohesion_edges"`  // cohesion: verified edges inside the cluster
	MembersOmitted int64   `parquet:"members_omitted"` // members not in the line (a sample is kept)
	MemberIndex    int64   `parquet:"member_index"`    // position of the member in the line's members, from 0
	ID             string  `parquet:"id"`              // the member: wiki:page_id:rev_id:sentence
	Wiki           string  `parquet:"wiki,dict"`
	PageID         int64   `parquet:"page_id"`
	RevID          int64   `parquet:"rev_id"`
	Title          string  `parquet:"title"`
	Sentence       int64   `parquet:"sentence"` // ordinal of the sentence in its page, from 0
	Section        string  `parquet:"section"`
	Context        string  `parquet:"context,dict"` // prose, list or reference
	Text           string  `parquet:"text"`
}

// size estimates the bytes of r's values.
func (r *ClusterRow) size() int {
	const numbers = 11 * 8
	return numbers + len(r.ClusterID) + len(r.Category) + len(r.Rule) + len(r.Reason) + len(r.Evidence) +
		len(r.ID) + len(r.Wiki) + len(r.Title) + len(r.Section) + len(r.Context) + len(r.Text)
}

// clusterLine mirrors a line of clusters-*.jsonl (categorize.Cluster) in
// the fields the rows take; other fields are ignored.
type clusterLine struct {
	ID             string         `json:"id"`
	Size           int64          `json:"size"`
	Pages          int64          `json:"pages"`
	Category       string         `json:"category"`
	Evidence       evidence       `json:"evidence"`
	Cohesion       cohesion       `json:"cohesion"`
	Members        []sentenceLine `json:"members"`
	MembersOmitted int64          `json:"members_omitted"`
}

// cohesion is a cluster's cohesion object.
type cohesion struct {
	Edges       int64   `json:"edges"`
	MinJaccard  float64 `json:"min_jaccard"`
	MeanJaccard float64 `json:"mean_jaccard"`
	MaxEdit     float64 `json:"max_edit"`
	MeanEdit    float64 `json:"mean_edit"`
}

// evidence is a cluster's evidence object: its JSON, and the two fields
// that have columns of their own.
type evidence struct {
	raw    string
	rule   string
	reason string
}

func (e *evidence) UnmarshalJSON(b []byte) error {
	var v struct {
		Rule   string `json:"rule"`
		Reason string `json:"reason"`
	}
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*e = evidence{raw: string(b), rule: v.Rule, reason: v.Reason}
	return nil
}

// WriteClusters writes lines, each a cluster as a line of clusters-*.jsonl,
// to w as a Parquet file of ClusterRow: a row for each member in the line,
// in order. A line that is not such a cluster is an error that names its
// number, from 1. WriteClusters does not close w, nor change lines. It is
// NewClustersWriter for lines all at hand.
func WriteClusters(w io.Writer, lines [][]byte) error {
	return writeClusters(w, lines, defaultOptions())
}

// writeClusters is WriteClusters with the settings opts.
func writeClusters(w io.Writer, lines [][]byte, opts options) error {
	return writeAll(w, lines, clustersTable, opts)
}

// clustersTable is the table of clusters files.
var clustersTable = table[ClusterRow]{name: "clusters", level: zstd.SpeedDefault, decode: decodeCluster}

// decodeCluster adds the rows of a cluster line.
func decodeCluster(d *decoder, line []byte, add func(ClusterRow, int)) error {
	c, err := d.clusterLine(line)
	if err != nil {
		return err
	}
	if c.ID == "" {
		return errors.New("cluster has no id")
	}
	if len(c.Members) == 0 {
		return errors.New("cluster " + c.ID + " has no members")
	}
	for i, m := range c.Members {
		r := ClusterRow{
			ClusterID:      c.ID,
			ClusterSize:    c.Size,
			ClusterPages:   c.Pages,
			Category:       c.Category,
			Rule:           c.Evidence.rule,
			Reason:         c.Evidence.reason,
			Evidence:       c.Evidence.raw,
			MinJaccard:     c.Cohesion.MinJaccard,
			MeanJaccard:    c.Cohesion.MeanJaccard,
			MaxEdit:        c.Cohesion.MaxEdit,
			MeanEdit:       c.Cohesion.MeanEdit,
			CohesionEdges:  c.Cohesion.Edges,
			MembersOmitted: c.MembersOmitted,
			MemberIndex:    int64(i),
			ID:             m.ID,
			Wiki:           m.Wiki,
			PageID:         m.PageID,
			RevID:          m.RevID,
			Title:          m.Title,
			Sentence:       m.Sentence,
			Section:        m.Section,
			Context:        m.Context,
			Text:           m.Text,
		}
		add(r, r.size())
	}
	return nil
}

// clusterLine decodes a cluster line, with the scanner if it can and with
// encoding/json if not. The line is d's until the next call.
func (d *decoder) clusterLine(line []byte) (*clusterLine, error) {
	d.cluster = clusterLine{Members: d.cluster.Members[:0]}
	d.scan.reset(line)
	if d.scan.cluster(&d.cluster) && d.scan.end() {
		return &d.cluster, nil
	}
	d.cluster = clusterLine{}
	if err := json.Unmarshal(line, &d.cluster); err != nil {
		return nil, err
	}
	return &d.cluster, nil
}

// clusterKeys are the keys of a cluster line's object that become columns.
var clusterKeys = []string{"id", "size", "pages", "category", "evidence", "cohesion", "members", "members_omitted"}

// cluster reads a cluster line's object into c, whose fields are zero but
// for the capacity of its members.
func (p *scanner) cluster(c *clusterLine) bool {
	return p.object(clusterKeys, 0, func(key int) (ok bool) {
		switch key {
		case 0:
			c.ID, ok = p.str()
		case 1:
			c.Size, ok = p.int()
		case 2:
			c.Pages, ok = p.int()
		case 3:
			c.Category, ok = p.str()
		case 4:
			ok = p.evidence(&c.Evidence)
		case 5:
			ok = p.cohesion(&c.Cohesion)
		case 6:
			c.Members, ok = p.members(c.Members)
		case 7:
			c.MembersOmitted, ok = p.int()
		}
		return ok
	})
}

// evidenceKeys are the keys of an evidence object that become columns.
var evidenceKeys = []string{"rule", "reason"}

// evidence reads an evidence object into e: its text, and its rule and
// reason.
func (p *scanner) evidence(e *evidence) bool {
	start := p.i
	ok := p.object(evidenceKeys, 1, func(key int) (ok bool) {
		if key == 0 {
			e.rule, ok = p.str()
		} else {
			e.reason, ok = p.str()
		}
		return ok
	})
	e.raw = p.s[start:p.i]
	return ok
}

// cohesionKeys are the keys of a cohesion object.
var cohesionKeys = []string{"edges", "min_jaccard", "mean_jaccard", "max_edit", "mean_edit"}

// cohesion reads a cohesion object into h.
func (p *scanner) cohesion(h *cohesion) bool {
	return p.object(cohesionKeys, 1, func(key int) (ok bool) {
		if key == 0 {
			h.Edges, ok = p.int()
			return ok
		}
		f := [...]*float64{&h.MinJaccard, &h.MeanJaccard, &h.MaxEdit, &h.MeanEdit}[key-1]
		*f, ok = p.float()
		return ok
	})
}

// members reads an array of members, appending them to ms[:0].
func (p *scanner) members(ms []sentenceLine) ([]sentenceLine, bool) {
	ms = ms[:0]
	if !p.consume('[') {
		return ms, false
	}
	if p.consume(']') {
		return ms, true
	}
	for {
		ms = append(ms, sentenceLine{})
		if !p.sentence(&ms[len(ms)-1]) {
			return ms, false
		}
		if !p.consume(',') {
			return ms, p.consume(']')
		}
	}
}
