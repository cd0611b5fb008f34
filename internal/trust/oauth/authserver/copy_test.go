package authserver

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestCopyStateRefusesToReplaceAState: a destination holding a client is
// not replaced unless asked; a source that does not parse is not copied.
func TestCopyStateRefusesToReplaceAState(t *testing.T) {
	ctx := context.Background()
	src, dst := OpenStore(filepath.Join(t.TempDir(), StateFile)), OpenStore(filepath.Join(t.TempDir(), StateFile))
	if copied, err := CopyState(ctx, src, dst, false); copied || err != nil {
		t.Fatalf("a missing source: %v %v", copied, err)
	}
	now := time.Now()
	for _, s := range []*Store{src, dst} {
		if err := s.update(now, func(st *state) error {
			st.Clients[secret(clientPrefix, 8)] = &client{Name: s.Path(), Created: now}
			return nil
		}); err != nil {
			t.Fatal(err)
		}
	}
	before, _ := os.ReadFile(dst.Path())
	if _, err := CopyState(ctx, src, dst, false); err == nil || !strings.Contains(err.Error(), "already holds 1 client(s)") {
		t.Errorf("over a client: %v", err)
	}
	if after, _ := os.ReadFile(dst.Path()); string(after) != string(before) {
		t.Error("a refused copy changed the destination")
	}
	if copied, err := CopyState(ctx, src, dst, true); !copied || err != nil {
		t.Fatalf("replace: %v %v", copied, err)
	}
	want, _ := os.ReadFile(src.Path())
	if got, _ := os.ReadFile(dst.Path()); string(got) != string(want) {
		t.Error("the copy is not byte for byte")
	}
	if err := os.WriteFile(src.Path(), []byte("{broken"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := CopyState(ctx, src, dst, true); err == nil || !strings.Contains(err.Error(), "unreadable") {
		t.Errorf("a broken source: %v", err)
	}
}
