package rundir

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/neardup/neardup/internal/gcsclient"
)

// ClaimName is the file in a run directory that says which process is
// writing the run. Clean and RemoveTemps leave it alone; Release removes it.
const ClaimName = ".neardup-claim"

// How a claim on gs:// is kept: its holder rewrites it every heartbeatEvery,
// and one not rewritten for staleAfter (by the object's update time on the
// server) belongs to a dead process and may be taken over. Variables for the
// tests.
var (
	heartbeatEvery = 30 * time.Second
	staleAfter     = 2 * time.Minute
	claimNow       = time.Now
)

// Owner says who holds a claim on a run directory.
type Owner struct {
	Host    string    `json:"host"`
	PID     int       `json:"pid"`
	Started time.Time `json:"started"` // when the claim was made, UTC
	Token   string    `json:"token"`   // random, tells two claims of one process apart
}

func newOwner() Owner {
	host, err := os.Hostname()
	if err != nil {
		host = "unknown"
	}
	var r [8]byte
	rand.Read(r[:])
	return Owner{Host: host, PID: os.Getpid(), Started: claimNow().UTC().Truncate(time.Second), Token: hex.EncodeToString(r[:])}
}

// ClaimedError is Claim's error when another process holds the run
// directory.
type ClaimedError struct {
	Dir   string
	Owner Owner // zero if the holder could not be read
}

func (e *ClaimedError) Error() string {
	host, pid, since := "unknown", "unknown", "unknown"
	if e.Owner.Host != "" {
		host = e.Owner.Host
	}
	if e.Owner.PID != 0 {
		pid = fmt.Sprint(e.Owner.PID)
	}
	if !e.Owner.Started.IsZero() {
		since = e.Owner.Started.UTC().Format(time.RFC3339)
	}
	return fmt.Sprintf("run %s is being written by another process (host %s, pid %s, since %s); wait for it or choose another --run_id",
		e.Dir, host, pid, since)
}

// ErrClaimLost is reported (by Lost, Err and Release) when a claim on gs://
// was taken over by another process: its heartbeat stopped for longer than
// the staleness limit, or the claim object was changed or removed.
var ErrClaimLost = errors.New("rundir: the claim on the run directory was lost to another process")

// RunClaim is an exclusive claim on a run directory, made by Claim and given
// up by Release.
type RunClaim struct {
	dir   string
	owner Owner
	impl  claimImpl

	lost     chan struct{} // closed when the claim is lost
	lostOnce sync.Once
	lostErr  error

	releaseOnce sync.Once
	releaseErr  error
}

type claimImpl interface {
	release(ctx context.Context) error
}

// Claim claims the run directory runDir (a local path or gs://bucket/dir)
// for this process, creating the directory (locally) and its claim file
// ClaimName, or returns a *ClaimedError if another process holds it.
//
// Locally the claim is an flock(2) lock on DIR/.neardup-claim: the kernel
// gives it up when the process ends, however it ends, so a run killed with
// SIGKILL can be rerun at once. On gs:// it is the object DIR/.neardup-claim,
// created only if it does not exist and rewritten every 30 s while held; one
// not rewritten for 2 minutes is stale and is taken over (both with
// generation preconditions, so that of two processes only one wins).
//
// The claim belongs to the process that calls Claim: with the embedded
// runner (Prism) the workers are in that process; on a cluster runner
// (Flink, Spark, Dataflow) the workers write the files, and the launcher must
// hold the claim until the job ends (wait for the job; a launcher that only
// submits a job cannot hold it for the job's life).
func Claim(ctx context.Context, runDir string) (*RunClaim, error) {
	owner := newOwner()
	c := &RunClaim{dir: runDir, owner: owner, lost: make(chan struct{})}
	var err error
	if gcsclient.IsGCS(runDir) {
		c.impl, err = claimGCS(ctx, c)
	} else if isLocal(runDir) {
		c.impl, err = claimLocal(runDir, owner)
	} else {
		return nil, fmt.Errorf("rundir: cannot claim %s: only local paths and gs:// are supported", runDir)
	}
	if err != nil {
		return nil, err
	}
	return c, nil
}

// Dir is the claimed run directory.
func (c *RunClaim) Dir() string { return c.dir }

// Owner is the claim's holder: this process.
func (c *RunClaim) Owner() Owner { return c.owner }

// Lost is closed if the claim is lost (only on gs://: a heartbeat that found
// the claim object taken over or removed). A launcher may cancel its job
// when it is.
func (c *RunClaim) Lost() <-chan struct{} { return c.lost }

// Err is ErrClaimLost (wrapped, with the reason) once the claim is lost,
// else nil.
func (c *RunClaim) Err() error {
	select {
	case <-c.lost:
		return c.lostErr
	default:
		return nil
	}
}

func (c *RunClaim) markLost(err error) {
	c.lostOnce.Do(func() {
		c.lostErr = fmt.Errorf("%w: %s: %v", ErrClaimLost, c.dir, err)
		close(c.lost)
	})
}

// Release gives the claim up and removes the claim file. It may be called
// more than once; the later calls return the first one's result. It
// returns an error wrapping ErrClaimLost if another process had taken the
// claim over (whose claim file it leaves alone).
func (c *RunClaim) Release(ctx context.Context) error {
	c.releaseOnce.Do(func() {
		c.releaseErr = c.impl.release(ctx)
	})
	return c.releaseErr
}

func (o Owner) encode() []byte {
	b, _ := json.Marshal(o)
	return append(b, '\n')
}

func decodeOwner(b []byte) (Owner, bool) {
	var o Owner
	if json.Unmarshal(b, &o) != nil || o.PID == 0 {
		return Owner{}, false
	}
	return o, true
}

// isLocal reports whether name is a local path, as Beam's filesystem layer
// takes it (a name without a scheme).
func isLocal(name string) bool { return !strings.Contains(name, "://") }
