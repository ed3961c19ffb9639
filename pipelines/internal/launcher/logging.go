package launcher

import (
	"context"
	"log"
	"log/slog"
	"os"
	"runtime"
	"strings"
)

// RunnerLogging sets what of the log reaches stderr while a pipeline runs:
// warnings and errors from anyone, and the informational lines of this
// module's own code (the run a command starts, a claim it took over); the
// runner's and the SDK's informational records (Prism's "Serving
// JobManagement", "Submitted job", "pipeline done!", a dozen before any
// result) only when verbose or on a Dataflow --dry_run, whose printed job
// is such a record and the point of the dry run.
func RunnerLogging(verbose bool) {
	if dry := FlagValue("dry_run"); dry != "" && dry != "false" {
		verbose = true
	}
	// The log package's lines reach slog's handler with their caller's
	// program counter, which ownCode reads, only when the log package asks
	// for a file name as the handler is set (slog.SetDefault).
	log.SetFlags(log.LstdFlags | log.Lshortfile)
	text := slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelInfo})
	slog.SetDefault(slog.New(ownInfo{Handler: text, verbose: verbose}))
}

// ownInfo passes to its Handler the records from warnings up, and the
// informational ones of this module's code, or all when verbose.
type ownInfo struct {
	slog.Handler
	verbose bool
}

func (h ownInfo) Handle(ctx context.Context, r slog.Record) error {
	if r.Level < slog.LevelWarn && !h.verbose && !ownCode(r.PC) {
		return nil
	}
	return h.Handler.Handle(ctx, r)
}

func (h ownInfo) WithAttrs(attrs []slog.Attr) slog.Handler {
	return ownInfo{Handler: h.Handler.WithAttrs(attrs), verbose: h.verbose}
}

func (h ownInfo) WithGroup(name string) slog.Handler {
	return ownInfo{Handler: h.Handler.WithGroup(name), verbose: h.verbose}
}

// module is the import path prefix of this module's packages.
const module = "github.com/neardup/neardup/"

// ownCode reports whether pc is in a function of this module: of one of
// its packages or of the command's main package.
func ownCode(pc uintptr) bool {
	if pc == 0 {
		return false
	}
	frame, _ := runtime.CallersFrames([]uintptr{pc}).Next()
	return strings.HasPrefix(frame.Function, module) || strings.HasPrefix(frame.Function, "main.")
}
