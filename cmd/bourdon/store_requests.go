package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/getbourdon/bourdon-go/internal/memory/drift"
	"github.com/getbourdon/bourdon-go/internal/memory/store"
	"github.com/getbourdon/bourdon-go/internal/memory/store/postgres"
	"github.com/getbourdon/bourdon-go/internal/requests"
)

// libraryDocuments returns where the library in root keeps its requests,
// proposals and drift watermarks: among the documents of st when it is a
// PostgreSQL store (every replica then shares them), else as files of
// root.
func libraryDocuments(root string, st store.Store) store.Documents {
	if pg, ok := st.(*postgres.Store); ok {
		return pg.Documents()
	}
	return store.NewDirDocuments(root, 0o644)
}

// requestsCopy is a copy of a library's requests, proposals (pending and
// decided) and drift watermarks, byte for byte, read before anything is
// written (see planRequestsCopy).
type requestsCopy struct {
	dst  store.Documents
	docs []copiedDoc
}

type copiedDoc struct {
	name string
	data []byte
}

// planRequestsCopy reads what a copy from src to dst would write: every
// document of the requests' folders and the watermarks that dst does not
// hold already with the same bytes. One dst holds with other bytes is
// refused, so that nothing is overwritten; a copy done again writes
// nothing.
func planRequestsCopy(ctx context.Context, src, dst store.Documents) (*requestsCopy, error) {
	names := []string{drift.LibraryName}
	for _, dir := range requests.Folders() {
		list, err := src.List(ctx, dir)
		if err != nil {
			return nil, fmt.Errorf("listing %s: %w", src.Where(dir), err)
		}
		for _, d := range list {
			names = append(names, d.Name)
		}
	}
	c := &requestsCopy{dst: dst}
	for _, name := range names {
		data, _, err := src.Read(ctx, name, copyLimit)
		if errors.Is(err, os.ErrNotExist) {
			continue // the watermarks of a library that has none
		}
		if err != nil {
			return nil, fmt.Errorf("reading %s: %w", src.Where(name), err)
		}
		have, _, err := dst.Read(ctx, name, copyLimit)
		switch {
		case err == nil && bytes.Equal(have, data):
			continue
		case err == nil:
			return nil, fmt.Errorf("%s exists with other content: copy into a store without it", dst.Where(name))
		case !errors.Is(err, os.ErrNotExist):
			return nil, fmt.Errorf("reading %s: %w", dst.Where(name), err)
		}
		c.docs = append(c.docs, copiedDoc{name, data})
	}
	return c, nil
}

// write writes the documents and returns how many it wrote.
func (c *requestsCopy) write(ctx context.Context) (int, error) {
	for _, d := range c.docs {
		if _, err := c.dst.Write(ctx, d.name, d.data); err != nil {
			return 0, fmt.Errorf("writing %s: %w", c.dst.Where(d.name), err)
		}
	}
	return len(c.docs), nil
}

// copyLimit bounds a document planRequestsCopy reads: more than any request,
// proposal (requests.MaxFileBytes) or watermark file the server writes.
const copyLimit = 8 << 20
