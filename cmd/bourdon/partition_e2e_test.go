package main

import (
	"strings"
	"testing"
	"time"

	"github.com/getbourdon/bourdon-go/internal/memory/store/postgres"
	"github.com/getbourdon/bourdon-go/internal/testkit/pgtest"
)

// TestThreeReplicasSurviveANetworkPartition puts a proxy between three
// `bourdon serve --store` and PostgreSQL and blackholes it (the database
// host stops answering; nothing is refused or reset) while writers commit
// through every replica, then heals it, leaving the connections open
// during the partition silent for ever. Meanwhile every commit ends as a
// tool error naming the store (never a transport error or a hang: each
// call is bounded by a minute, against the store's bound of 1 s here), a
// read of memory is served from the replica's last snapshot, and a call
// that must ask the database (list_memory_versions) is a tool error
// naming the store; afterwards the replicas write again without being
// restarted, every replica serves every acknowledged commit, and the
// database holds each write whole.
func TestThreeReplicasSurviveANetworkPartition(t *testing.T) {
	const writers, agents = 3, 2
	direct, proxied, proxy := pgtest.Partitioned(t, time.Second)
	rs := startReplicas(t, proxied, 3, writers)
	rs.url = direct // the checks read the database past the proxy
	if banner := strings.Join(rs.replicas[0].banner, "\n"); !strings.Contains(banner, "\nvectors:   in memory (pgvector ") {
		t.Errorf("the banner does not say where the vectors are:\n%s", banner)
	}
	t.Cleanup(proxy.Close)
	named := "the store " + postgres.Redact(proxied) + " failed: "
	run := rs.startWriters(t, writers, agents)
	run.waitAcks(30)
	proxy.Blackhole()
	for range 2 * writers {
		// 503: the registry is in the database too, and cannot be read.
		if text := <-run.refusals; !strings.Contains(text, named) && !strings.Contains(text, "Service Unavailable") {
			t.Errorf("a commit while partitioned: %q does not say the store failed, nor answer 503", text)
		}
	}
	run.drainAcks() // acknowledged before the partition
	// The registry is in the database: while it cannot be read, no
	// bearer token is accepted (a token revoked through a replica on the
	// other side must not work here), and a request is answered 503 with
	// Retry-After within the bound, never held.
	for r := range rs.replicas {
		if cs, err := connectAs(t, rs.replicas[r].url, rs.tokens[0], "2026-07-28"); err == nil {
			cs.Close()
			t.Errorf("replica %d, partitioned, accepted a bearer token its registry cannot check", r)
		} else if !strings.Contains(err.Error(), "Service Unavailable") {
			t.Errorf("replica %d, partitioned: %v, want 503", r, err)
		}
	}
	proxy.Heal()
	run.waitAcks(30) // the replicas write again
	run.stop(t)
	t.Logf("%d commits refused while partitioned", len(run.refusals)+2*writers)
	rs.checkAcknowledged(t, run.acked)
}
