package requests

import (
	"cmp"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"path"
	"slices"
	"strings"
)

// Filter selects requests; an empty field matches every request. Text
// filters ignore case.
type Filter struct {
	Stage string `json:"stage,omitempty" jsonschema:"Only requests in this stage."`
	Area  string `json:"area,omitempty" jsonschema:"Only requests of this area."`
	Owner string `json:"owner,omitempty" jsonschema:"Only requests this team owns, org/team."`
	Type  string `json:"type,omitempty" jsonschema:"Only requests of this type."`
	// Limit is the page size: DefaultLimit when 0, at most MaxLimit.
	Limit int `json:"limit,omitempty" jsonschema:"Most requests returned, 1 to 500 (default 50)."`
	// Cursor is the NextCursor of the previous page; "" starts.
	Cursor string `json:"cursor,omitempty" jsonschema:"nextCursor of the previous page, unchanged."`
}

// Page bounds.
const (
	DefaultLimit = 50
	MaxLimit     = 500
)

// Page is one page of a listing, in id order.
type Page struct {
	Requests []*Request `json:"requests"`
	// NextCursor continues the listing; "" on the last page.
	NextCursor string `json:"nextCursor,omitempty"`
	// Total counts the requests that match, on every page.
	Total int `json:"total"`
	// Problems lists the files that could not be read; they are left as
	// they are.
	Problems []Problem `json:"problems,omitempty"`
}

const cursorPrefix = "after:"

// List returns the requests that match f, a page at a time.
func (s *Store) List(f Filter) (Page, error) {
	var after string
	if f.Cursor != "" {
		raw, err := base64.RawURLEncoding.DecodeString(f.Cursor)
		id, perr := ParseID(strings.TrimPrefix(string(raw), cursorPrefix))
		if err != nil || perr != nil || !strings.HasPrefix(string(raw), cursorPrefix) {
			return Page{}, fmt.Errorf("cursor %q is not one this server made: pass the nextCursor of the previous page unchanged, or none to start", f.Cursor)
		}
		after = id
	}
	if f.Stage != "" {
		if _, err := ParseStage(f.Stage); err != nil {
			return Page{}, err
		}
	}
	limit := f.Limit
	switch {
	case limit == 0:
		limit = DefaultLimit
	case limit < 0 || limit > MaxLimit:
		return Page{}, fmt.Errorf("limit %d: want 1 to %d", f.Limit, MaxLimit)
	}
	all, problems, err := s.All()
	if err != nil {
		return Page{}, err
	}
	page := Page{Requests: []*Request{}, Problems: problems}
	for _, r := range all {
		if !matches(r, f) {
			continue
		}
		page.Total++
		if after != "" && compareIDs(r.ID, after) <= 0 {
			continue
		}
		if len(page.Requests) == limit {
			last := page.Requests[limit-1].ID
			page.NextCursor = base64.RawURLEncoding.EncodeToString([]byte(cursorPrefix + last))
			continue
		}
		page.Requests = append(page.Requests, r)
	}
	return page, nil
}

func matches(r *Request, f Filter) bool {
	eq := func(want, got string) bool { return want == "" || strings.EqualFold(strings.TrimSpace(want), got) }
	return eq(f.Stage, string(r.Stage)) && eq(f.Area, r.Area) && eq(f.Owner, r.Owner) && eq(f.Type, r.Type)
}

// All returns every readable request in id order, and the files that
// could not be read.
func (s *Store) All() ([]*Request, []Problem, error) {
	ctx, cancel := opContext()
	defer cancel()
	return s.all(ctx)
}

func (s *Store) all(ctx context.Context) ([]*Request, []Problem, error) {
	ids, problems, err := s.scan(ctx)
	if err != nil {
		return nil, nil, err
	}
	var out []*Request
	for _, id := range ids {
		r, err := s.loadRequest(ctx, id)
		if err != nil {
			problems = append(problems, Problem{File: id + ".yaml", Message: err.Error()})
			continue
		}
		out = append(out, r)
	}
	return out, problems, nil
}

// Get returns one request; the id may be in any case. A missing request
// is ErrNotFound; a file that cannot be read is an error saying why.
func (s *Store) Get(id string) (*Request, error) {
	canon, err := ParseID(id)
	if err != nil {
		return nil, err
	}
	ctx, cancel := opContext()
	defer cancel()
	return s.loadRequest(ctx, canon)
}

// NoRequestError is the answer GetFor gives for a request the caller
// cannot have: a missing one, or, to a caller limited to some areas, one
// of another area or one that cannot be read. It is ErrNotFound.
type NoRequestError struct {
	// ID is the id as the caller sent it.
	ID string
}

func (e *NoRequestError) Error() string {
	return fmt.Sprintf("no request %q; list_requests lists them", e.ID)
}

// Unwrap makes a NoRequestError an ErrNotFound.
func (e *NoRequestError) Unwrap() error { return ErrNotFound }

// GetFor returns one request as a caller sees it. mayRead, when not nil,
// limits the caller to the areas it accepts, and then a request of
// another area, a missing one and one that cannot be read all get the
// same *NoRequestError, which tells nothing about other areas. A caller
// with no limit (nil) gets a *NoRequestError for a missing request and
// Get's other errors as they are.
func (s *Store) GetFor(id string, mayRead func(area string) bool) (*Request, error) {
	r, err := s.Get(id)
	switch {
	case err == nil && (mayRead == nil || mayRead(r.Area)):
		return r, nil
	case err == nil, mayRead != nil, errors.Is(err, ErrNotFound):
		return nil, &NoRequestError{ID: id}
	}
	return nil, err
}

// scan lists the ids of the request files in id order. A file named like
// a request but not in canonical case, or any other YAML file, is a
// problem.
func (s *Store) scan(ctx context.Context) ([]string, []Problem, error) {
	entries, err := s.docs.List(ctx, s.dir)
	if err != nil {
		return nil, nil, fmt.Errorf("reading the requests folder: %w", err)
	}
	var ids []string
	var problems []Problem
	for _, e := range entries {
		name := path.Base(e.Name)
		base, ok := strings.CutSuffix(name, ".yaml")
		if !ok {
			continue
		}
		id, err := ParseID(base)
		switch {
		case err != nil:
			problems = append(problems, Problem{File: name, Message: "not a request file: name it REQ-YYYY-NNNN.yaml"})
		case id != base:
			problems = append(problems, Problem{File: name, Message: "rename it " + id + ".yaml"})
		default:
			ids = append(ids, id)
		}
	}
	slices.SortFunc(ids, compareIDs)
	return ids, problems, nil
}

// compareIDs orders canonical request ids by year, then number.
func compareIDs(a, b string) int {
	ay, an := idParts(a)
	by, bn := idParts(b)
	return cmp.Or(cmp.Compare(ay, by), cmp.Compare(an, bn))
}
