package store_test

import (
	"testing"

	"github.com/getbourdon/bourdon-go/internal/memory/store"
	"github.com/getbourdon/bourdon-go/internal/memory/store/storetest"
)

func TestDirDocuments(t *testing.T) {
	dir := t.TempDir()
	open := func() store.Documents { return store.NewDirDocuments(dir, 0o600) }
	storetest.Documents(t, open(), open)
}
