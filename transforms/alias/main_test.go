package alias

import (
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"
)

// TestMain runs the package's pipeline tests on ptest's runner, Prism
// unless --runner says otherwise.
func TestMain(m *testing.M) { ptest.Main(m) }
