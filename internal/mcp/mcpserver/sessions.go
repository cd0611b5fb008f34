package mcpserver

import (
	"context"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/getbourdon/bourdon-go/internal/memory/visibility"
	"github.com/getbourdon/bourdon-go/internal/trust"
)

// Bounds on what one caller can hold open.
const (
	// MaxSubscriptionsPerSession caps the resources one session may be
	// subscribed to at once.
	MaxSubscriptionsPerSession = 256
	// MaxSessionsPerCaller caps the 2025-11-25 sessions one caller (a
	// registry member, or the operator) may have open at once; a session
	// over the cap is closed as soon as it has initialized.
	MaxSessionsPerCaller = 64
)

// sessionState is what the server keeps about one session: who opened
// it and what it subscribed to. It is dropped when the session ends, and
// the session's subscriptions with it.
type sessionState struct {
	caller trust.Caller
	subs   map[string]bool
}

// track returns the state of ss, creating it on first use and arranging
// for it to be dropped when the session ends. s.mu must be held.
func (s *Server) track(ss *mcp.ServerSession, caller trust.Caller) *sessionState {
	st, ok := s.sessions[ss]
	if !ok {
		st = &sessionState{caller: caller, subs: map[string]bool{}}
		s.sessions[ss] = st
		go func() {
			_ = ss.Wait()
			s.drop(ss)
		}()
	}
	return st
}

// drop forgets an ended session and its subscriptions.
func (s *Server) drop(ss *mcp.ServerSession) {
	s.mu.Lock()
	defer s.mu.Unlock()
	st, ok := s.sessions[ss]
	if !ok {
		return
	}
	delete(s.sessions, ss)
	for uri := range st.subs {
		s.release(uri)
	}
}

// release counts one subscriber of uri less. s.mu must be held.
func (s *Server) release(uri string) {
	if s.subs[uri]--; s.subs[uri] <= 0 {
		delete(s.subs, uri)
	}
}

// capSessions caps the sessions of one caller: it records who opened a
// 2025-11-25 session when it initializes (the initialize request carries
// the caller's token; the initialized notification does not) and closes a
// session over MaxSessionsPerCaller once it has answered.
func (s *Server) capSessions(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		ss, ok := req.GetSession().(*mcp.ServerSession)
		if method != "initialize" || err != nil || !ok || ss == nil {
			return res, err
		}
		caller := callerOf(req.GetExtra())
		s.mu.Lock()
		s.track(ss, caller)
		open := 0
		for _, st := range s.sessions {
			if st.caller.ID == caller.ID {
				open++
			}
		}
		s.mu.Unlock()
		if open > MaxSessionsPerCaller {
			if s.opts.Logger != nil {
				s.opts.Logger.Warn("closing a session over the per-caller limit", "caller", caller.ID, "limit", MaxSessionsPerCaller)
			}
			// Not from within the handler: closing waits for the
			// session's handlers to return.
			go ss.Close()
		}
		return res, err
	}
}

// subscribe accepts a subscription to one of this server's resources that
// the caller may read, as a read of it would decide, within the session's
// cap.
func (s *Server) subscribe(_ context.Context, req *mcp.SubscribeRequest) error {
	uri := req.Params.URI
	if !s.isOurs(uri) {
		return fmt.Errorf("no such resource %q: subscribe to %s, %s<agent_id>%s or %s<name>", uri, agentsURI, agentMemoryPrefix, agentMemorySuffix, entityPrefix)
	}
	if err := s.maySubscribe(req.Extra, uri); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	st := s.track(req.Session, callerOf(req.Extra))
	if st.subs[uri] {
		return nil
	}
	if len(st.subs) >= MaxSubscriptionsPerSession {
		return fmt.Errorf("this session already has %d subscriptions, the most it may hold: unsubscribe from some first (a collection such as cogitave://doc/ covers every node of a type)", MaxSubscriptionsPerSession)
	}
	st.subs[uri] = true
	s.subs[uri]++
	return nil
}

// maySubscribe is the access step of subscriptions: it applies the
// decision of a read of uri, audited like one.
func (s *Server) maySubscribe(extra *mcp.RequestExtra, uri string) error {
	if _, id, ok := memoryTarget(uri); ok {
		if d := s.decide(callerOf(extra), "resource:agent-memory", id); !d.Allowed {
			return fmt.Errorf("access denied: %s", d.Detail)
		}
		return nil
	}
	if t, _, ok := nodeTargetOf(uri); ok && s.opts.Knowledge != nil {
		d := s.decide(callerOf(extra), "resource:node", "")
		_, n, found := s.viewFor(d, s.defaultAccess(visibility.Public)).Lookup(t.uid)
		if !found || n.Label != t.label {
			return mcp.ResourceNotFoundError(uri)
		}
	}
	return nil
}

func (s *Server) unsubscribe(_ context.Context, req *mcp.UnsubscribeRequest) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if st, ok := s.sessions[req.Session]; ok && st.subs[req.Params.URI] {
		delete(st.subs, req.Params.URI)
		s.release(req.Params.URI)
	}
	return nil
}

// subscribersSee returns a function that reports whether every caller
// subscribed to uri may see a node: a notification that goes to all of
// them may name the node only then.
func (s *Server) subscribersSee(uri string) func(uid string) bool {
	s.mu.Lock()
	var views []view
	seen := map[string]bool{}
	for _, st := range s.sessions {
		if st.subs[uri] && !seen[st.caller.ID] {
			seen[st.caller.ID] = true
			d := trust.Decide("resource:node", st.caller, "")
			views = append(views, s.viewFor(d, s.defaultAccess(visibility.Public)))
		}
	}
	s.mu.Unlock()
	return func(uid string) bool {
		for _, v := range views {
			if _, _, ok := v.Lookup(uid); !ok {
				return false
			}
		}
		return true
	}
}
