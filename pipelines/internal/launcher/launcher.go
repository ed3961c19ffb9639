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
// files (dump.Expand), each made absolute. A local file that is not a
// regular file is refused (CheckRegular).
func ExpandAbsolute(ctx context.Context, patterns string) ([]string, error) {
	files, err := dump.Expand(ctx, patterns)
	if err != nil {
		if strings.ContainsAny(patterns, "[]") {
			err = fmt.Errorf(`%w (a name holding "[" is read as a glob's character class: write \[ and \] for the characters themselves)`, err)
		}
		return nil, err
	}
	for i, f := range files {
		if files[i], err = Absolute(f); err != nil {
			return nil, err
		}
		if err := CheckRegular(files[i]); err != nil {
			return nil, err
		}
	}
	return files, nil
}

// StreamedInputHelp is what --help says of streamed inputs.
const StreamedInputHelp = "regular files only: a pipe, FIFO or device (<(…), /dev/stdin) is refused, since every file is read more than once (its format, header and checksum at launch, then its pages); save a stream to a file first"

// CheckRegular refuses a local input that is not a regular file: a pipe
// (<(cat f), /dev/stdin), a named FIFO, a device or a directory. The launch
// reads every input more than once (its format, header and SHA-256, then
// its pages, a split at a time), and a stream can be read only once: the
// launch would consume it and the pipeline would read nothing, or, on a
// FIFO, wait for a writer forever. It looks with stat, never opening the
// file. URLs (gs://…) are left to their file system.
func CheckRegular(file string) error {
	if !LocalPath(file) {
		return nil
	}
	info, err := os.Stat(strings.TrimPrefix(file, "file://"))
	if err != nil {
		return fmt.Errorf("input %s: %w", file, err)
	}
	var what string
	switch m := info.Mode(); {
	case m.IsRegular():
		return nil
	case m.IsDir():
		what = "a directory"
	case m&os.ModeNamedPipe != 0:
		what = "a pipe or FIFO"
	case m&os.ModeDevice != 0 || m&os.ModeCharDevice != 0:
		what = "a device"
	case m&os.ModeSocket != 0:
		what = "a socket"
	default:
		what = "not a regular file"
	}
	return fmt.Errorf("input %s is %s: inputs must be regular files, since each is read more than once (its format, header and checksum at launch, then its pages); save the stream to a file first (cat … > FILE) and give that", file, what)
}

// LocalPath reports whether p names a local file (no scheme, or file://).
func LocalPath(p string) bool {
	return !strings.Contains(p, "://") || strings.HasPrefix(p, "file://")
}
