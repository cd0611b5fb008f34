package trust_test

import (
	"os"
	"testing"

	"github.com/getbourdon/bourdon-go/internal/testkit/pgtest"
)

func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }
