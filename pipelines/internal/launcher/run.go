package launcher

// The launch sequence every command runs once its pipeline is built.

import (
	"context"
	"fmt"
	"os"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/x/beamx"

	"github.com/neardup/neardup/io/rundir"
)

// Launch is a built pipeline's run, as far as the launch sequence needs to
// know it.
type Launch struct {
	// Program names the command in the line a signal prints.
	Program string
	// RunID is the run's id, Dir its directory.
	RunID, Dir string
	// SpillDir is --spill_dir.
	SpillDir string
	// WorkersHere says the workers run in this process (WorkersHere): only
	// then are the shuffles spilled and a signal answered.
	WorkersHere bool
}

// Run runs the pipeline p: it claims the run directory (ClaimRunDir; a
// refusal is a mistake on the command line), spills the shuffles under
// SpillDir and removes the run's temporary files on SIGINT or SIGTERM when
// the workers run here (Spill, StopRunOnSignal), calls watch, if not nil,
// and runs p until it ends, then stops what watch started. Whatever fails
// after the claim, a run directory the launch made is removed again if it
// is still empty: a failed launch leaves nothing behind.
func (l Launch) Run(ctx context.Context, p *beam.Pipeline, watch func() (stop func(), err error)) error {
	created, claim, err := ClaimRunDir(ctx, l.Dir, l.RunID)
	if err != nil {
		return Usage(err)
	}
	defer claim.Release(context.WithoutCancel(ctx))
	if err := l.run(ctx, claim, p, watch); err != nil {
		if created {
			claim.Release(context.WithoutCancel(ctx))
			RemoveIfEmpty(l.Dir)
		}
		return err
	}
	return nil
}

// run is Run once the run directory is claimed.
func (l Launch) run(ctx context.Context, claim *rundir.RunClaim, p *beam.Pipeline, watch func() (func(), error)) error {
	if l.WorkersHere {
		unspill, err := Spill(l.SpillDir, l.RunID)
		if err != nil {
			return err
		}
		defer unspill()
		defer StopRunOnSignal(l.Program, l.Dir, claim, unspill, os.Stderr)()
	}
	if watch != nil {
		stop, err := watch()
		if err != nil {
			return err
		}
		defer stop()
	}
	if err := beamx.Run(ctx, p); err != nil {
		return fmt.Errorf("pipeline failed: %w (no manifest.json was written in %s: the run did not finish)", err, l.Dir)
	}
	return nil
}
