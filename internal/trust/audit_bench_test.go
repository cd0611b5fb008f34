package trust_test

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/getbourdon/bourdon-go/internal/trust"
)

// BenchmarkRecordDecision measures one audit line of an allowed call to
// a file log, as every tool call writes it:
//
//	go test -run '^$' -bench RecordDecision -benchmem ./internal/trust/
func BenchmarkRecordDecision(b *testing.B) {
	a := trust.OpenAudit(filepath.Join(b.TempDir(), "audit.jsonl"))
	caller := trust.Caller{ID: "agent-007", Tier: trust.TierTrusted, Transport: trust.HTTP}
	d := trust.Decide("find_entity", caller, trust.AnyNamespace)
	b.ReportAllocs()
	for b.Loop() {
		if err := a.RecordDecision(d); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkAuditLine measures the writing of one entry's line alone.
func BenchmarkAuditLine(b *testing.B) {
	e := trust.Entry{TS: trust.FormatTS(time.Now()), Agent: "agent-007", Op: "find_entity", Namespace: trust.AnyNamespace, Decision: trust.Allow}
	for b.Loop() {
		e.Line()
	}
}
