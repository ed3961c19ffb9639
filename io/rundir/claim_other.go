//go:build !unix

package rundir

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
)

// Without flock(2) a local claim only creates the claim file, naming its
// owner, and does not exclude another process.
type localClaim struct{ path string }

func claimLocal(dir string, owner Owner) (claimImpl, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("rundir: cannot create run directory %s: %w", dir, err)
	}
	path := filepath.Join(dir, ClaimName)
	if err := os.WriteFile(path, owner.encode(), 0o644); err != nil {
		return nil, fmt.Errorf("rundir: writing claim file %s: %w", path, err)
	}
	return &localClaim{path: path}, nil
}

func (c *localClaim) release(context.Context) error {
	if err := os.Remove(c.path); err != nil && !os.IsNotExist(err) {
		return fmt.Errorf("rundir: releasing claim file %s: %w", c.path, err)
	}
	return nil
}
