package main

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/neardup/neardup/io/rundir"
)

// TestSecondLauncherIsRefused holds the claim of a run directory as another
// launcher would, and checks that a launch of the same run is refused with
// a message naming the holder, then allowed once the claim is released; a
// finished run is refused and its claim given back.
func TestSecondLauncherIsRefused(t *testing.T) {
	ctx := context.Background()
	o := testOptions(t, t.TempDir(), sampleDump)
	o.RunID = "r[1]"
	first, err := rundir.Claim(ctx, o.RunDir())
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = o.claimRunDir(ctx)
	var claimed *rundir.ClaimedError
	if !errors.As(err, &claimed) || !strings.Contains(err.Error(), "is being written by another process") {
		t.Fatalf("second launcher: %v, want a ClaimedError", err)
	}
	if err := first.Release(ctx); err != nil {
		t.Fatal(err)
	}
	_, claim, err := o.claimRunDir(ctx)
	if err != nil {
		t.Fatalf("after the release: %v", err)
	}
	claim.Release(ctx)

	if err := os.WriteFile(filepath.Join(o.RunDir(), "manifest.json"), []byte("{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := o.claimRunDir(ctx); err == nil || !strings.Contains(err.Error(), "already finished") {
		t.Fatalf("finished run: %v, want a refusal", err)
	}
	again, err := rundir.Claim(ctx, o.RunDir())
	if err != nil {
		t.Fatalf("the refused launcher kept its claim: %v", err)
	}
	again.Release(ctx)
}
