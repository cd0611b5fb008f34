package postgres_test

import (
	"testing"

	"github.com/getbourdon/bourdon-go/internal/memory/store"
	"github.com/getbourdon/bourdon-go/internal/memory/store/storetest"
	"github.com/getbourdon/bourdon-go/internal/testkit/pgtest"
)

func TestDocuments(t *testing.T) {
	url := pgtest.Migrated(t)
	open := func() store.Documents { return pgtest.Open(t, url).Documents() }
	storetest.Documents(t, open(), open)
}
