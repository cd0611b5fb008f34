package export

import (
	"github.com/getbourdon/bourdon-go/internal/platform/yaml11"
	"github.com/getbourdon/bourdon-go/internal/trust/redact"
)

// RedactDocument returns a copy of a manifest document (or of any value
// of one) with the server's redaction battery (redact.Secret) applied to
// every string: every field of every row and of the header. A value
// holding credential-like text becomes redact.Sentinel as a whole.
// Mapping keys are the schema's and are left alone. The runner commits
// what it returns; the exporters' fuzz targets check it.
func RedactDocument(v any) any {
	switch x := v.(type) {
	case string:
		return redact.Secret(x)
	case *yaml11.Map:
		m := yaml11.NewMap(x.Len())
		for _, e := range x.Entries() {
			m.Set(e.Key, RedactDocument(e.Value))
		}
		return m
	case []any:
		out := make([]any, len(x))
		for i, item := range x {
			out[i] = RedactDocument(item)
		}
		return out
	}
	return v
}
