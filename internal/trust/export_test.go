package trust

import (
	"time"

	"github.com/getbourdon/bourdon-go/internal/memory/store"
)

// What the PostgreSQL tests reach inside the package. They are package
// trust_test because the store they use (store/postgres) imports trust.

// SetClockForTest sets the registry's clock.
func (r *Registry) SetClockForTest(now func() time.Time) { r.now = now }

// DocumentsForTest returns where the registry is kept.
func (r *Registry) DocumentsForTest() store.Documents { return r.docs }

var (
	HashToken    = hashToken
	FixedClock   = fixedClock
	TestRegistry = testRegistry
	CopyFixture  = copyFixture
)
