package launcher

import (
	"log"
	"os"

	beamlog "github.com/apache/beam/sdks/v2/go/pkg/beam/log"
)

// RunnerLogging sets what reaches stderr while a pipeline runs. The
// runner's and the SDK's own records (Prism's "Serving JobManagement",
// "Submitted job", "pipeline done!", a dozen before any result) show only
// from warnings up, unless verbose or a Dataflow --dry_run, whose printed
// job is such a record and the point of the dry run. The command's own log lines (its
// warnings, a claim taken over, a profile that could not be written) go to
// stderr whole whatever the level: they are written with the log package,
// which is pointed back at stderr after the runner's logger is set.
func RunnerLogging(verbose bool) {
	level := "warn"
	if dry := FlagValue("dry_run"); verbose || dry != "" && dry != "false" {
		level = "info"
	}
	beamlog.SetupLogging(level, "text") // slog: the runner's records
	log.SetOutput(os.Stderr)
	log.SetFlags(log.LstdFlags)
}
