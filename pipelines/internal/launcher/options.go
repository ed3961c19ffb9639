package launcher

import (
	"fmt"
	"runtime"
	"strconv"
	"strings"
)

// MinNamespace is MediaWiki's lowest namespace number (Media: is -2,
// Special: -1).
const MinNamespace = -2

// ParseNamespaces parses --namespaces, as every command takes it:
// comma-separated namespace numbers, or "all" (nil: every namespace). An
// empty value is refused: it used to mean every namespace.
func ParseNamespaces(s string) ([]int, error) {
	switch strings.TrimSpace(s) {
	case "all":
		return nil, nil
	case "":
		return nil, fmt.Errorf("--namespaces is empty: give comma-separated namespace numbers (0,14), or 'all' for every namespace")
	}
	var ns []int
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil {
			return nil, fmt.Errorf("--namespaces: %q is not a namespace number; give comma-separated numbers (0,14), or 'all'", f)
		}
		if n < MinNamespace {
			return nil, fmt.Errorf("--namespaces: %d is not a namespace (MediaWiki's start at %d); give namespace numbers or 'all'", n, MinNamespace)
		}
		ns = append(ns, n)
	}
	return ns, nil
}

// ClusterDofnWorkers is Workers' default on a runner other than the
// embedded one: such a runner runs many bundles of a stage in one worker
// process, each with its own DoFn instances, so a pool of GOMAXPROCS
// goroutines per DoFn would oversubscribe the cores and multiply the
// shards held in memory.
const ClusterDofnWorkers = 1

// Workers is how many goroutines each DoFn's worker pool runs: --dofn_workers
// if set, else the cores with the embedded runner (one bundle per stage runs
// in this process) and ClusterDofnWorkers on any other.
func Workers(dofnWorkers int, runner string) int {
	switch {
	case dofnWorkers > 0:
		return dofnWorkers
	case Embedded(runner):
		return runtime.GOMAXPROCS(0)
	}
	return ClusterDofnWorkers
}
