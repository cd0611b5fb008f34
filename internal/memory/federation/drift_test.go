package federation

import (
	"context"
	"testing"

	"github.com/getbourdon/bourdon-go/internal/memory/library"
	"github.com/getbourdon/bourdon-go/internal/memory/store"
	"github.com/getbourdon/bourdon-go/internal/memory/visibility"
)

// gatedDocuments are documents whose locks wait for open to be closed:
// a watermark document as slow as a database can be.
type gatedDocuments struct {
	store.Documents
	locking chan struct{} // receives when a lock is asked for
	open    chan struct{}
}

func (d gatedDocuments) Lock(ctx context.Context, name string) (func(), error) {
	d.locking <- struct{}{}
	<-d.open
	return d.Documents.Lock(ctx, name)
}

// TestQueriesDoNotWaitForTheWatermarks: while the drift watermarks of a
// new view are being written (their lock held up), other queries of the
// store are answered; the observation then completes.
func TestQueriesDoNotWaitForTheWatermarks(t *testing.T) {
	dir := t.TempDir()
	writeManifest(t, dir, "codex")
	lib, err := library.Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { lib.Close() })
	docs := gatedDocuments{store.NewDirDocuments(dir, 0o644), make(chan struct{}), make(chan struct{})}
	s := NewWithDocuments(lib, docs)
	observed := make(chan struct{})
	go func() {
		defer close(observed)
		s.FindEntity("anything", visibility.Team, nil) // builds the first view, then observes it
	}()
	<-docs.locking
	s.FindEntity("anything", visibility.Team, nil) // answered while the observation waits
	close(docs.open)
	<-observed
	if v, ok := s.drift.Drifting(nil); !ok || len(v) != 0 {
		t.Errorf("verdicts %v %v", v, ok)
	}
}
