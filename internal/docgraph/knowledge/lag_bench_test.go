package knowledge_test

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/getbourdon/bourdon-go/internal/docgraph/knowledge"
	"github.com/getbourdon/bourdon-go/internal/memory/library"
	"github.com/getbourdon/bourdon-go/internal/memory/store/postgres"
	"github.com/getbourdon/bourdon-go/internal/requests"
	"github.com/getbourdon/bourdon-go/internal/testkit/pgtest"
)

// BenchmarkRequestLag measures how long a request approved through one
// replica takes to reach another replica's knowledge base (Watch's
// onChange, which notifies the subscribers of request nodes): two
// followers, each with a store of its own on one database, follow the
// same writes side by side, from the start of the approval. "poll" fingerprints the requests every
// DefaultPoll, as serve --store did before; "notify" is told by Listen
// on DocumentsChannel and reconciles every library.DefaultReconcile, as
// serve --store does now. Before each write it waits a random part of a
// poll, so that the writes do not fall in step with the poll. It reports
// each follower's p50 and p99 in milliseconds.
//
//	go test -run '^$' -bench RequestLag -benchtime 100x ./internal/docgraph/knowledge/
func BenchmarkRequestLag(b *testing.B) {
	url := pgtest.Migrated(b)
	writer := requests.OpenDocuments(pgtest.Open(b, url).Documents())
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	follow := func(notified bool) <-chan *knowledge.Snapshot {
		pg := pgtest.Open(b, url)
		opts := knowledge.Options{Dirs: []string{"../../../testdata/learn"}, Embedder: testEmbedder, Requests: requests.OpenDocuments(pg.Documents())}
		listening := make(chan struct{})
		if notified {
			opts.RequestsReconcile = library.DefaultReconcile
		}
		kb, err := knowledge.Open(ctx, opts)
		if err != nil {
			b.Fatal(err)
		}
		if notified {
			go pg.Listen(ctx, postgres.Listeners{Documents: func(name string) {
				kb.DocumentChanged(name)
				if name == "" {
					select {
					case listening <- struct{}{}:
					default:
					}
				}
			}}, nil)
			<-listening
		}
		built := make(chan *knowledge.Snapshot, 16)
		go kb.Watch(ctx, func(_, s *knowledge.Snapshot, _, _, _ []string) { built <- s })
		return built
	}
	followers := []struct {
		name  string
		built <-chan *knowledge.Snapshot
		lags  []time.Duration
	}{{name: "poll", built: follow(false)}, {name: "notify", built: follow(true)}}
	form := []byte(`{"problem": "Agents cannot see which requests wait for review.", "desiredOutcome": "list_requests filters by stage.",
		"type": "feature", "area": "platform", "identity": "github:bob", "owner": "cogitave/platform"}`)
	b.ResetTimer()
	for range b.N {
		time.Sleep(rand.N(knowledge.DefaultPoll))
		p, err := writer.ProposeIntake(ctx, form, "agent:codex")
		if err != nil {
			b.Fatal(err)
		}
		approving := time.Now()
		_, r, err := writer.ApproveOwn(ctx, p.ID, "agent:codex")
		if err != nil {
			b.Fatal(err)
		}
		for i := range followers {
			f := &followers[i]
			// The followers are waited for one after the other: each
			// lag ends when its snapshot was built, not when it is read.
			for s := range f.built {
				if _, ok := s.Graph.Lookup(r.ID); ok {
					f.lags = append(f.lags, s.Built.Sub(approving))
					break
				}
			}
		}
	}
	b.StopTimer()
	for _, f := range followers {
		slices.Sort(f.lags)
		b.ReportMetric(float64(f.lags[len(f.lags)/2].Microseconds())/1e3, f.name+"-p50-ms")
		b.ReportMetric(float64(f.lags[len(f.lags)*99/100].Microseconds())/1e3, f.name+"-p99-ms")
	}
}
