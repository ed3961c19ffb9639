package rundir

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"sync"
	"time"

	"cloud.google.com/go/storage"
	"github.com/neardup/neardup/internal/gcsclient"
	"github.com/neardup/neardup/io/result"
)

// gcsClaim is a claim object on gs://, rewritten by a heartbeat.
type gcsClaim struct {
	c      *RunClaim
	name   string // gs://bucket/dir/.neardup-claim
	client *storage.Client
	obj    *storage.ObjectHandle

	mu  sync.Mutex
	gen int64 // generation of the claim object as this process last wrote it

	stop chan struct{}
	done chan struct{}
}

// beforeTakeover, if set, runs between reading a stale claim and taking it
// over: the tests use it to let another process win the race.
var beforeTakeover func()

func claimGCS(ctx context.Context, c *RunClaim) (claimImpl, error) {
	name := result.Join(c.dir, ClaimName)
	client, obj, err := gcsclient.Object(ctx, name, storage.ScopeReadWrite)
	if err != nil {
		return nil, err
	}
	g := &gcsClaim{c: c, name: name, client: client, obj: obj, stop: make(chan struct{}), done: make(chan struct{})}
	if err := g.acquire(ctx); err != nil {
		client.Close()
		return nil, err
	}
	go g.heartbeat(context.WithoutCancel(ctx), heartbeatEvery)
	return g, nil
}

// write writes the owner to the claim object under the condition cond and
// returns the new generation.
func (g *gcsClaim) write(ctx context.Context, cond storage.Conditions) (int64, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	w := g.obj.If(cond).NewWriter(ctx)
	w.ContentType = "application/json"
	w.CacheControl = "no-store"
	if _, err := w.Write(g.c.owner.encode()); err != nil {
		cancel() // abandons the upload
		w.Close()
		return 0, err
	}
	if err := w.Close(); err != nil {
		return 0, err
	}
	return w.Attrs().Generation, nil
}

func (g *gcsClaim) acquire(ctx context.Context) error {
	for range 10 {
		gen, err := g.write(ctx, storage.Conditions{DoesNotExist: true})
		if err == nil {
			g.gen = gen
			return nil
		}
		if !gcsclient.IsPreconditionFailed(err) {
			return fmt.Errorf("rundir: cannot create claim %s (is the output writable?): %w", g.name, err)
		}
		// Someone holds it: read who, and since when it was last refreshed.
		attrs, err := g.obj.Attrs(ctx)
		if errors.Is(err, storage.ErrObjectNotExist) {
			continue // released meanwhile
		}
		if err != nil {
			return fmt.Errorf("rundir: reading claim %s: %w", g.name, err)
		}
		holder := g.readOwner(ctx, attrs.Generation)
		if age := claimNow().Sub(attrs.Updated); age < staleAfter {
			return &ClaimedError{Dir: g.c.dir, Owner: holder}
		}
		if beforeTakeover != nil {
			beforeTakeover()
		}
		gen, err = g.write(ctx, storage.Conditions{GenerationMatch: attrs.Generation})
		if err == nil {
			log.Printf("rundir: took over the stale claim on %s of host %s, pid %d (not refreshed since %s)",
				g.c.dir, holder.Host, holder.PID, attrs.Updated.UTC().Format(time.RFC3339))
			g.gen = gen
			return nil
		}
		if !gcsclient.IsPreconditionFailed(err) {
			return fmt.Errorf("rundir: taking over stale claim %s: %w", g.name, err)
		}
		// Another process took it over first (or its holder came back):
		// read it again.
	}
	return fmt.Errorf("rundir: cannot claim %s: its claim %s keeps changing", g.c.dir, g.name)
}

func (g *gcsClaim) readOwner(ctx context.Context, gen int64) Owner {
	r, err := g.obj.Generation(gen).NewReader(ctx)
	if err != nil {
		return Owner{}
	}
	defer r.Close()
	b, err := io.ReadAll(io.LimitReader(r, 1<<16))
	if err != nil {
		return Owner{}
	}
	o, _ := decodeOwner(b)
	return o
}

// heartbeat rewrites the claim every period, on the condition that nobody
// else wrote it since, until the claim is released or lost. A failed
// rewrite for any other reason (the network) is tried again next time.
func (g *gcsClaim) heartbeat(ctx context.Context, period time.Duration) {
	defer close(g.done)
	t := time.NewTicker(period)
	defer t.Stop()
	for {
		select {
		case <-g.stop:
			return
		case <-t.C:
		}
		g.mu.Lock()
		wctx, cancel := context.WithTimeout(ctx, period)
		gen, err := g.write(wctx, storage.Conditions{GenerationMatch: g.gen})
		cancel()
		switch {
		case err == nil:
			g.gen = gen
		case gcsclient.IsPreconditionFailed(err) || errors.Is(err, storage.ErrObjectNotExist):
			g.c.markLost(fmt.Errorf("claim %s was changed by another process", g.name))
			g.mu.Unlock()
			log.Print(g.c.lostErr)
			return
		default:
			log.Printf("rundir: refreshing claim %s: %v (trying again in %s)", g.name, err, period)
		}
		g.mu.Unlock()
	}
}

func (g *gcsClaim) release(ctx context.Context) error {
	close(g.stop)
	<-g.done
	defer g.client.Close()
	if err := g.c.Err(); err != nil {
		return err
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	// Delete only this process's claim: check the generation first (the
	// precondition on the delete is the guarantee; the look helps servers
	// that ignore it).
	attrs, err := g.obj.Attrs(ctx)
	switch {
	case errors.Is(err, storage.ErrObjectNotExist):
		g.c.markLost(fmt.Errorf("claim %s was removed", g.name))
		return g.c.lostErr
	case err != nil:
		return fmt.Errorf("rundir: releasing claim %s: %w", g.name, err)
	case attrs.Generation != g.gen:
		g.c.markLost(fmt.Errorf("claim %s was taken over", g.name))
		return g.c.lostErr
	}
	err = g.obj.If(storage.Conditions{GenerationMatch: g.gen}).Delete(ctx)
	switch {
	case err == nil:
		return nil
	case gcsclient.IsPreconditionFailed(err) || errors.Is(err, storage.ErrObjectNotExist):
		g.c.markLost(fmt.Errorf("claim %s was taken over", g.name))
		return g.c.lostErr
	default:
		return fmt.Errorf("rundir: releasing claim %s: %w", g.name, err)
	}
}
