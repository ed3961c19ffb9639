// Package rundir keeps a run directory, local or gs://, to one writer and
// to the files its manifest lists: a process claims the directory before it
// writes (Claim: a locked file locally, a generation-checked object with a
// heartbeat on gs://, taken over when stale), removes the temporary files of
// writes that did not finish (RemoveTemps), and removes whatever the
// manifest will not list (Clean) before the manifest is written. The files
// themselves are written by package result.
package rundir
