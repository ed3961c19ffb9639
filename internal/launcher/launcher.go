// Package launcher is what the pipelines' commands share to start a run:
// which runner runs it, where its files are, which commit built it, and
// what a failed launch leaves behind.
package launcher

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"

	"github.com/neardup/neardup/io/dump"
)

// RunnerAliases maps the --runner values Beam Go accepts to canonical
// runner names.
var RunnerAliases = map[string]string{
	"": "prism", "prism": "prism", "PrismRunner": "prism",
	"direct": "direct", "DirectRunner": "direct",
	"dataflow": "dataflow", "DataflowRunner": "dataflow",
	"flink": "flink", "FlinkRunner": "flink",
	"spark": "spark", "SparkRunner": "spark",
	"universal": "universal", "portable": "universal", "PortableRunner": "universal",
	"dot": "dot",
}

// Embedded reports whether the runner runs the pipeline in this process:
// Prism, Beam Go's default, or the older direct runner.
func Embedded(runner string) bool {
	switch RunnerAliases[runner] {
	case "prism", "direct":
		return true
	}
	return false
}

// WorkersHere reports whether the pipeline's workers run in this process:
// Prism started by the launcher (no job server --endpoint), the direct
// runner, or any portable runner but Dataflow with
// --environment_type=LOOPBACK. Only then may the workers share what lives
// in this process, such as the spilled shuffles' directory.
func WorkersHere(runner, endpoint, environment string) bool {
	switch r := RunnerAliases[runner]; {
	case r == "direct" || r == "dot":
		return true
	case r == "prism" && endpoint == "":
		return true
	case r != "dataflow" && strings.EqualFold(environment, "LOOPBACK"):
		return true
	}
	return false
}

// FlagValue is the value of the flag of that name of the process's command
// line (Beam's --runner, --endpoint, …), or "" if there is none.
func FlagValue(name string) string {
	if f := flag.Lookup(name); f != nil {
		return f.Value.String()
	}
	return ""
}

// Commit is stamped, the commit a release stamped in, or else the one the
// Go toolchain recorded, or "unknown".
func Commit(stamped string) string {
	if stamped != "" {
		return stamped
	}
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, s := range info.Settings {
			if s.Key == "vcs.revision" {
				return s.Value
			}
		}
	}
	return "unknown"
}

// Absolute makes a local path absolute, so that workers in other processes
// or machines find it; URLs such as gs://… are left as they are.
func Absolute(path string) (string, error) {
	if strings.Contains(path, "://") {
		return path, nil
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", fmt.Errorf("cannot make %s absolute: %w", path, err)
	}
	return abs, nil
}

// ExpandAbsolute expands comma-separated paths, globs and gs:// URLs into
// files (dump.Expand), each made absolute.
func ExpandAbsolute(ctx context.Context, patterns string) ([]string, error) {
	files, err := dump.Expand(ctx, patterns)
	if err != nil {
		return nil, err
	}
	for i, f := range files {
		if files[i], err = Absolute(f); err != nil {
			return nil, err
		}
	}
	return files, nil
}

// LocalPath reports whether p names a local file (no scheme, or file://).
func LocalPath(p string) bool {
	return !strings.Contains(p, "://") || strings.HasPrefix(p, "file://")
}

// RemoveIfEmpty removes a local run directory that a failed launch left
// empty; one holding anything stays, as an unfinished run.
func RemoveIfEmpty(dir string) {
	if !LocalPath(dir) {
		return
	}
	dir = strings.TrimPrefix(dir, "file://")
	if entries, err := os.ReadDir(dir); err == nil && len(entries) == 0 {
		os.Remove(dir)
	}
}
