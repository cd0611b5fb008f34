package setup

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestUnifiedDiff(t *testing.T) {
	var a, b []string
	for i := 1; i <= 20; i++ {
		a = append(a, string(rune('a'+i-1)))
	}
	b = append(b, a...)
	b[1] = "B"                                                // change line 2
	b = append(b[:10], append([]string{"new"}, b[10:]...)...) // insert after line 10
	b = b[:len(b)-1]                                          // drop the last line
	got := unifiedDiff("f", []byte(strings.Join(a, "\n")+"\n"), []byte(strings.Join(b, "\n")+"\n"))
	want := `--- f
+++ f
@@ -1,5 +1,5 @@
 a
-b
+B
 c
 d
 e
@@ -8,6 +8,7 @@
 h
 i
 j
+new
 k
 l
 m
@@ -17,4 +18,3 @@
 q
 r
 s
-t
`
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestUnifiedDiffEdges(t *testing.T) {
	if got := unifiedDiff("f", []byte("x\n"), []byte("x\n")); got != "" {
		t.Errorf("equal: %q", got)
	}
	if got, want := unifiedDiff("f", nil, []byte("a\nb")), "--- /dev/null\n+++ f\n@@ -0,0 +1,2 @@\n+a\n+b\n\\ No newline at end of file\n"; got != want {
		t.Errorf("created: %q", got)
	}
	if got, want := unifiedDiff("f", []byte("a\n"), nil), "--- f\n+++ /dev/null\n@@ -1 +0,0 @@\n-a\n"; got != want {
		t.Errorf("removed: %q", got)
	}
	if got, want := unifiedDiff("f", nil, []byte{}), "--- /dev/null\n+++ f\n"; got != want {
		t.Errorf("empty file created: %q", got)
	}
}
