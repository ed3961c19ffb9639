package reuse

import (
	"cmp"
	"maps"
	"slices"
)

// node is a node of the reuse graph: a web page or an article.
type node struct {
	id    string // document id
	label string // URL of a page, title of an article
	web   bool
}

// graph builds the reuse graph of sorted edges and describes it.
func graph(edges []Edge) Graph {
	index := map[string]int{} // by "w"/"a" and id: a page and an article never share a node
	var nodes []node
	add := func(n node) int {
		key := "a" + n.id
		if n.web {
			key = "w" + n.id
		}
		i, ok := index[key]
		if !ok {
			i = len(nodes)
			index[key] = i
			nodes = append(nodes, n)
		}
		return i
	}
	degree := map[int]int64{}
	uf := unionFind{}
	for _, e := range edges {
		w := add(node{id: e.Web, label: cmp.Or(e.URL, e.Web), web: true})
		a := add(node{id: e.Article, label: cmp.Or(e.Title, e.Article)})
		degree[w]++
		degree[a]++
		uf.union(w, a)
	}
	g := Graph{Edges: int64(len(edges))}
	webDeg, artDeg := map[int64]int64{}, map[int64]int64{}
	for i, n := range nodes {
		if n.web {
			g.WebPages++
			webDeg[degree[i]]++
		} else {
			g.Articles++
			artDeg[degree[i]]++
		}
	}
	g.WebDegree, g.ArticleDegree = bins(webDeg), bins(artDeg)
	g.Components = components(nodes, &uf)
	return g
}

// bins returns a distribution as bins sorted by value; never nil.
func bins(m map[int64]int64) []Bin {
	out := []Bin{}
	for _, v := range slices.Sorted(maps.Keys(m)) {
		out = append(out, Bin{v, m[v]})
	}
	return out
}

// components describes the connected components of the nodes.
func components(nodes []node, uf *unionFind) Components {
	members := map[int][]int{}
	for i := range nodes {
		r := uf.find(i)
		members[r] = append(members[r], i)
	}
	type group struct {
		first string // the smallest key of its members
		nodes []int
	}
	groups := make([]group, 0, len(members))
	for _, g := range members {
		first := nodes[g[0]].key()
		for _, i := range g[1:] {
			first = min(first, nodes[i].key())
		}
		groups = append(groups, group{first, g})
	}
	slices.SortFunc(groups, func(x, y group) int {
		return cmp.Or(cmp.Compare(len(y.nodes), len(x.nodes)), cmp.Compare(x.first, y.first))
	})
	c := Components{Count: int64(len(groups)), Sizes: []Bin{}, Top: []Component{}}
	sizes := map[int64]int64{}
	for i, g := range groups {
		sizes[int64(len(g.nodes))]++
		c.Largest = max(c.Largest, int64(len(g.nodes)))
		if i < TopComponents {
			c.Top = append(c.Top, component(nodes, g.nodes))
		}
	}
	c.Sizes = bins(sizes)
	return c
}

// key orders nodes: pages before articles, then by id.
func (n node) key() string {
	if n.web {
		return "0" + n.id
	}
	return "1" + n.id
}

// component describes one component.
func component(nodes []node, g []int) Component {
	c := Component{Size: int64(len(g)), URLs: []string{}, Titles: []string{}}
	for _, i := range g {
		if nodes[i].web {
			c.WebPages++
			c.URLs = append(c.URLs, nodes[i].label)
		} else {
			c.Articles++
			c.Titles = append(c.Titles, nodes[i].label)
		}
	}
	slices.Sort(c.URLs)
	slices.Sort(c.Titles)
	c.URLs = c.URLs[:min(len(c.URLs), MaxMembers)]
	c.Titles = c.Titles[:min(len(c.Titles), MaxMembers)]
	return c
}

// unionFind is a disjoint-set forest over 0, 1, 2…, growing as it is
// used, with path halving and union by size.
type unionFind struct {
	parent, size []int
}

func (u *unionFind) grow(n int) {
	for len(u.parent) <= n {
		u.parent = append(u.parent, len(u.parent))
		u.size = append(u.size, 1)
	}
}

func (u *unionFind) find(x int) int {
	u.grow(x)
	for u.parent[x] != x {
		u.parent[x] = u.parent[u.parent[x]]
		x = u.parent[x]
	}
	return x
}

func (u *unionFind) union(x, y int) {
	x, y = u.find(x), u.find(y)
	if x == y {
		return
	}
	if u.size[x] < u.size[y] {
		x, y = y, x
	}
	u.parent[y] = x
	u.size[x] += u.size[y]
}
