package analyze

import "testing"

func TestDistance(t *testing.T) {
	var d Distance
	for _, c := range []struct {
		a, b        string
		limit, want int
	}{
		{"", "", 10, 0},
		{"", "abc", 10, 3},
		{"kitten", "sitting", 10, 3},
		{"cogitave.doc.x", "cogitave.doc.y", 10, 1},
		{"cogitave.doc.x", "cogitave.doc.x", 10, 0},
		{"kitten", "sitting", 2, 2}, // capped
		{"abcdef", "uvwxyz", 3, 3},
	} {
		if got := d.Edit(c.a, c.b, c.limit); got != c.want {
			t.Errorf("Edit(%q, %q, %d) = %d, want %d", c.a, c.b, c.limit, got, c.want)
		}
		if b := d.Bound(c.a, c.b); b > d.Edit(c.a, c.b, 1<<20) {
			t.Errorf("Bound(%q, %q) = %d is over the distance", c.a, c.b, b)
		}
	}
	if d.counts != [256]int{} {
		t.Error("Bound left its counts dirty")
	}
	if got := d.Bound("aab", "abb"); got != 1 {
		t.Errorf("Bound(aab, abb) = %d, want 1", got)
	}
}
