package launcher

import (
	"bytes"
	"context"
	"log"
	"log/slog"
	"strings"
	"testing"

	beamlog "github.com/apache/beam/sdks/v2/go/pkg/beam/log"
)

// TestOwnInfo: the runner's informational records (here the Beam SDK's log
// package, as Prism and the harness write them) are dropped unless verbose;
// its warnings, and this module's own lines through the log package, pass.
func TestOwnInfo(t *testing.T) {
	defer slog.SetDefault(slog.Default())
	defer log.SetFlags(log.Flags())
	defer log.SetOutput(log.Writer())
	ctx := context.Background()
	for _, tc := range []struct {
		verbose bool
		want    []string
	}{
		{false, []string{"ours: starting", "beam: a warning"}},
		{true, []string{"ours: starting", "beam: job submitted", "beam: a warning"}},
	} {
		var buf bytes.Buffer
		log.SetFlags(log.LstdFlags | log.Lshortfile)
		slog.SetDefault(slog.New(ownInfo{Handler: slog.NewTextHandler(&buf, nil), verbose: tc.verbose}))
		log.Print("ours: starting")
		beamlog.Info(ctx, "beam: job submitted")
		beamlog.Warn(ctx, "beam: a warning")
		var got []string
		for _, line := range strings.Split(strings.TrimSpace(buf.String()), "\n") {
			_, msg, _ := strings.Cut(line, `msg="`)
			got = append(got, strings.TrimSuffix(msg, `"`))
		}
		if strings.Join(got, "|") != strings.Join(tc.want, "|") {
			t.Errorf("verbose %v: logged %q, want %q", tc.verbose, got, tc.want)
		}
	}
}
