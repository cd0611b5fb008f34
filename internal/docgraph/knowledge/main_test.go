package knowledge_test

import (
	"os"
	"testing"

	"github.com/getbourdon/bourdon-go/internal/testkit/pgtest"
)

// TestMain stops the PostgreSQL the benchmarks started, if any.
func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }
