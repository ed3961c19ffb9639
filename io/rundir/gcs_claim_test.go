package rundir

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fsouza/fake-gcs-server/fakestorage"
	"github.com/neardup/neardup/io/result"
	"github.com/neardup/neardup/testkit/testshared/fakegcs"
)

// putStaleClaim puts a claim object of a dead process (pid 4242 on host
// "gone"), last written 10 minutes ago, at object.
// gcsBucket is the fake server's bucket.
const gcsBucket = "neardup-results"

// startFakeGCS starts an empty bucket on a fresh loopback port and points
// Beam's gcs filesystem at it for the rest of the test.
func startFakeGCS(t *testing.T) *fakegcs.Server {
	t.Helper()
	return fakegcs.Setenv(t, gcsBucket)
}

func putStaleClaim(srv *fakegcs.Server, object string) {
	old := time.Now().Add(-10 * time.Minute)
	srv.CreateObject(fakestorage.Object{
		ObjectAttrs: fakestorage.ObjectAttrs{BucketName: gcsBucket, Name: object, Created: old, Updated: old},
		Content:     Owner{Host: "gone", PID: 4242, Started: old.UTC(), Token: "dead"}.encode(),
	})
}

// claimFree claims dir, free again after what, and releases the claim.
func claimFree(t *testing.T, dir, after string) {
	t.Helper()
	c, err := Claim(t.Context(), dir)
	if err != nil {
		t.Fatalf("Claim after %s: %v", after, err)
	}
	if err := c.Release(t.Context()); err != nil {
		t.Fatal(err)
	}
}

// gcsClaimDir starts a fake bucket and returns it with the gs:// run
// directory out/run there and the name of the object of its claim.
func gcsClaimDir(t *testing.T, run string) (srv *fakegcs.Server, dir, object string) {
	t.Helper()
	return startFakeGCS(t), "gs://" + gcsBucket + "/out/" + run, "out/" + run + "/" + ClaimName
}

func claimOwnerOnServer(t *testing.T, srv *fakegcs.Server, object string) (Owner, int64) {
	t.Helper()
	obj, err := srv.GetObject(gcsBucket, object)
	if err != nil {
		t.Fatalf("claim object %s: %v", object, err)
	}
	o, ok := decodeOwner(obj.Content)
	if !ok {
		t.Fatalf("claim object %s holds %q", object, obj.Content)
	}
	return o, obj.Generation
}

// TestGCSClaim claims a gs:// run directory twice: the second claim fails
// naming the first, which Release then gives up.
func TestGCSClaim(t *testing.T) {
	srv, dir, object := gcsClaimDir(t, "r[1]")
	ctx := t.Context()
	c1, err := Claim(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	if o, _ := claimOwnerOnServer(t, srv, object); o != c1.Owner() {
		t.Errorf("claim object names %+v, want %+v", o, c1.Owner())
	}
	_, err = Claim(ctx, dir)
	var claimed *ClaimedError
	if !errors.As(err, &claimed) || claimed.Owner != c1.Owner() {
		t.Fatalf("second Claim = %v, want a *ClaimedError naming %+v", err, c1.Owner())
	}
	if !strings.Contains(err.Error(), "run "+dir+" is being written by another process (host ") {
		t.Errorf("error = %q", err)
	}
	if err := c1.Release(ctx); err != nil {
		t.Fatal(err)
	}
	if got := srv.Objects(t, ""); len(got) != 0 {
		t.Errorf("after Release the bucket holds %q", got)
	}
	claimFree(t, dir, "Release")
}

// TestGCSClaimStaleTakeover finds the claim of a process that died without
// releasing it: not refreshed for more than 2 minutes, it is taken over.
func TestGCSClaimStaleTakeover(t *testing.T) {
	srv, dir, object := gcsClaimDir(t, "run-4")
	ctx := t.Context()
	putStaleClaim(srv, object)
	c, err := Claim(ctx, dir)
	if err != nil {
		t.Fatalf("Claim over a stale claim: %v", err)
	}
	if o, _ := claimOwnerOnServer(t, srv, object); o != c.Owner() {
		t.Errorf("claim object names %+v after the takeover, want %+v", o, c.Owner())
	}
	if err := c.Release(ctx); err != nil {
		t.Fatal(err)
	}

	// A fresh claim (refreshed within 2 minutes) is not taken over.
	fresh, err := Claim(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer fresh.Release(ctx)
	if _, err := Claim(ctx, dir); !errors.As(err, new(*ClaimedError)) {
		t.Errorf("Claim over a fresh claim = %v, want a *ClaimedError", err)
	}
}

// TestGCSClaimLostTakeoverRace has two processes find the same stale claim:
// the one whose takeover comes second fails its generation precondition and
// reports the winner.
func TestGCSClaimLostTakeoverRace(t *testing.T) {
	srv, dir, object := gcsClaimDir(t, "run-5")
	ctx := t.Context()
	putStaleClaim(srv, object)
	var winner *RunClaim
	beforeTakeover = func() {
		beforeTakeover = nil // the winner goes straight through
		var err error
		if winner, err = Claim(ctx, dir); err != nil {
			t.Errorf("winner's Claim: %v", err)
		}
	}
	defer func() { beforeTakeover = nil }()
	_, err := Claim(ctx, dir)
	if winner == nil {
		t.Fatal("the race was not run")
	}
	defer winner.Release(ctx)
	var claimed *ClaimedError
	if !errors.As(err, &claimed) || claimed.Owner != winner.Owner() {
		t.Fatalf("loser's Claim = %v, want a *ClaimedError naming the winner %+v", err, winner.Owner())
	}
	if o, _ := claimOwnerOnServer(t, srv, object); o != winner.Owner() {
		t.Errorf("claim object names %+v, want the winner %+v", o, winner.Owner())
	}
}

// TestGCSClaimHeartbeat checks that a held claim is rewritten while held,
// and that a claim another process took over is reported lost and left to
// it by Release.
func TestGCSClaimHeartbeat(t *testing.T) {
	srv, dir, object := gcsClaimDir(t, "run-6")
	ctx := t.Context()
	defer func(d time.Duration) { heartbeatEvery = d }(heartbeatEvery)
	heartbeatEvery = 20 * time.Millisecond
	c, err := Claim(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	_, gen0 := claimOwnerOnServer(t, srv, object)
	deadline := time.Now().Add(5 * time.Second)
	for {
		if _, gen := claimOwnerOnServer(t, srv, object); gen != gen0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the claim was not refreshed")
		}
		time.Sleep(10 * time.Millisecond)
	}
	if err := c.Err(); err != nil {
		t.Fatalf("claim lost while refreshed: %v", err)
	}

	// Another process takes it over (as if this one had stalled).
	other := Owner{Host: "other", PID: 7, Started: time.Now().UTC(), Token: "t"}
	srv.CreateObject(fakestorage.Object{ObjectAttrs: fakestorage.ObjectAttrs{BucketName: gcsBucket, Name: object}, Content: other.encode()})
	select {
	case <-c.Lost():
	case <-time.After(5 * time.Second):
		t.Fatal("a claim taken over was not reported lost")
	}
	if err := c.Release(ctx); !errors.Is(err, ErrClaimLost) {
		t.Errorf("Release of a lost claim = %v, want ErrClaimLost", err)
	}
	if o, _ := claimOwnerOnServer(t, srv, object); o != other {
		t.Errorf("after Release the claim names %+v, want the other process's %+v left alone", o, other)
	}
}

// TestGCSExistsAndCleanLiterally checks Exists and Clean on gs:// with run
// names that are glob patterns, beside other runs they would match.
func TestGCSExistsAndCleanLiterally(t *testing.T) {
	srv := startFakeGCS(t)
	ctx := t.Context()
	root := "gs://" + gcsBucket + "/out[x]"
	writeManifests(t, root, []string{"r[1]", "r1", "r[1]x", "a*", "b?", "{c,d}"})
	if ok, err := result.Exists(ctx, root+"/r?/manifest.json"); ok || err != nil {
		t.Errorf("result.Exists(r?/manifest.json) = %v, %v: want false, no run has that name", ok, err)
	}

	dir := result.Join(root, "r[1]")
	for _, name := range []string{"clusters-00000-of-00001.jsonl", ".tmp-summary.json-00ff", "summary.json", ClaimName, "sub/x.jsonl"} {
		if err := result.WriteBytes(ctx, result.Join(dir, name), []byte(name)); err != nil {
			t.Fatal(err)
		}
	}
	removed, err := RemoveTemps(ctx, dir)
	if want := []string{dir + "/.tmp-summary.json-00ff"}; err != nil || !slices.Equal(removed, want) {
		t.Errorf("RemoveTemps = %q, %v, want %q", removed, err, want)
	}
	removed, err = Clean(ctx, dir, []string{"summary.json", "manifest.json", "clusters-*"})
	if want := []string{dir + "/clusters-00000-of-00001.jsonl"}; err != nil || !slices.Equal(removed, want) {
		t.Errorf("Clean = %q, %v, want %q", removed, err, want)
	}
	want := []string{
		"out[x]/a*/manifest.json", "out[x]/b?/manifest.json", "out[x]/r1/manifest.json",
		"out[x]/r[1]/" + ClaimName, "out[x]/r[1]/manifest.json", "out[x]/r[1]/sub/x.jsonl", "out[x]/r[1]/summary.json",
		"out[x]/r[1]x/manifest.json", "out[x]/{c,d}/manifest.json",
	}
	if got := srv.Objects(t, ""); !slices.Equal(got, want) {
		t.Errorf("after Clean the bucket holds\n%q\nwant\n%q", got, want)
	}
	if _, err := Clean(ctx, "gs://"+gcsBucket, nil); err == nil {
		t.Error("Clean of a whole bucket was accepted")
	}
}
