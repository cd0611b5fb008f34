package authserver

import (
	"fmt"
	"sort"
	"time"
)

// Request is a pending authorization request as the operator sees it.
type Request struct {
	ID       string
	ClientID string
	Client   string // the name the client registered, unverified
	Redirect string
	Scopes   []string
	Expires  time.Time
	Approved string // the member approved for, "" while waiting
}

// Requests lists the authorization requests waiting for consent, oldest
// expiry first.
func (s *Store) Requests(now time.Time) ([]Request, error) {
	st, err := s.read()
	if err != nil {
		return nil, err
	}
	var out []Request
	for id, p := range st.Pending {
		if !now.Before(p.Expires) {
			continue
		}
		r := Request{ID: id, ClientID: p.ClientID, Redirect: p.RedirectURI, Scopes: p.Scopes, Expires: p.Expires, Approved: p.Approved}
		if c := st.Clients[p.ClientID]; c != nil {
			r.Client = c.Name
		}
		out = append(out, r)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Expires.Before(out[j].Expires) })
	return out, nil
}

// Approve lets the pending request id go on as member: the person who
// opened it presses Continue and the client gets its code. The member
// must be active; its tier still caps the scopes.
func (s *Server) Approve(id, member string) error {
	if _, _, ok := s.cfg.Registry.Lookup(member); !ok {
		return fmt.Errorf("no active registry member %q", member)
	}
	err := s.cfg.Store.update(s.cfg.Now(), func(st *state) error {
		p := st.Pending[id]
		if p == nil {
			return fmt.Errorf("no pending authorization request %q (they expire after %s; see `bourdon oauth list`)", id, PendingTTL)
		}
		p.Approved = member
		return nil
	})
	s.audit(member, "oauth:approve", err == nil, "request "+id)
	return err
}
