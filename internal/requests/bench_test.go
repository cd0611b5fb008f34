package requests

import (
	"context"
	"fmt"
	"testing"
	"time"
)

// BenchmarkRequests times the store's operations on each backend, to be
// compared within one run: get (one request read), list (a page of 50
// requests, every file read) and decide (a transition proposed and
// approved: two locks, reads and writes of the request and the proposal,
// the pending copy removed).
func BenchmarkRequests(b *testing.B) {
	ctx := context.Background()
	for _, be := range backends {
		b.Run(be.name, func(b *testing.B) {
			s := OpenDocuments(be.fresh(b)())
			s.now = func() time.Time { return clock }
			for i := range 50 {
				r := request(StageDocument, true)
				r.ID = fmt.Sprintf("REQ-2026-%04d", i+1)
				if err := s.writeFile(ctx, s.requestName(r.ID), r); err != nil {
					b.Fatal(err)
				}
			}
			b.Run("get", func(b *testing.B) {
				for b.Loop() {
					if _, err := s.Get("REQ-2026-0007"); err != nil {
						b.Fatal(err)
					}
				}
			})
			b.Run("list", func(b *testing.B) {
				for b.Loop() {
					if page, err := s.List(Filter{}); err != nil || len(page.Requests) != 50 {
						b.Fatal(page.Total, err)
					}
				}
			})
			b.Run("decide", func(b *testing.B) {
				loop := TransitionRequest{To: StageDocument, Reason: "more detail"}
				for b.Loop() {
					p, err := s.ProposeTransition(ctx, "REQ-2026-0001", loop, agent)
					if err != nil {
						b.Fatal(err)
					}
					if _, _, err := s.Approve(ctx, p.ID, operator); err != nil {
						b.Fatal(err)
					}
				}
			})
		})
	}
}
