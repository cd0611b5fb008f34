package mcpserver

import "slices"

// Subscriptions returns how many resources have subscribers and how many
// sessions the server keeps state for, for tests of their clean-up.
func Subscriptions(s *Server) (resources, sessions int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.subs), len(s.sessions)
}

// Surfaces returns the operations s offers through an access step (tools,
// resource reads, completion), sorted.
func Surfaces(s *Server) []string {
	out := slices.Clone(s.surfaces)
	slices.Sort(out)
	return slices.Compact(out)
}
