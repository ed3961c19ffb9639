package launcher

import "testing"

// TestParseNamespaces checks --namespaces: an empty value is refused
// (it used to mean every namespace), 'all' is nil.
func TestParseNamespaces(t *testing.T) {
	for in, want := range map[string]string{
		"":      "--namespaces is empty: give comma-separated namespace numbers (0,14), or 'all' for every namespace",
		" ":     "--namespaces is empty: give comma-separated namespace numbers (0,14), or 'all' for every namespace",
		"0,,14": `--namespaces: "" is not a namespace number; give comma-separated numbers (0,14), or 'all'`,
		"main":  `--namespaces: "main" is not a namespace number; give comma-separated numbers (0,14), or 'all'`,
		"0,-3":  "--namespaces: -3 is not a namespace (MediaWiki's start at -2); give namespace numbers or 'all'",
	} {
		if _, err := ParseNamespaces(in); err == nil || err.Error() != want {
			t.Errorf("ParseNamespaces(%q) = %v, want %s", in, err, want)
		}
	}
	if ns, err := ParseNamespaces("all"); err != nil || ns != nil {
		t.Errorf("ParseNamespaces(all) = %v, %v; want nil (every namespace)", ns, err)
	}
	if ns, err := ParseNamespaces(" 0, 14,-2"); err != nil || len(ns) != 3 || ns[1] != 14 || ns[2] != -2 {
		t.Errorf("ParseNamespaces(' 0, 14,-2') = %v, %v", ns, err)
	}
}

// TestWorkers checks the pools' sizes: --dofn_workers when set, else the
// cores with the embedded runner and one on a cluster.
func TestWorkers(t *testing.T) {
	if got := Workers(3, "flink"); got != 3 {
		t.Errorf("Workers(3, flink) = %d", got)
	}
	if got := Workers(0, "dataflow"); got != ClusterDofnWorkers {
		t.Errorf("Workers(0, dataflow) = %d, want %d", got, ClusterDofnWorkers)
	}
	if got := Workers(0, ""); got < 1 {
		t.Errorf("Workers(0, embedded) = %d", got)
	}
}
