package trust

import (
	"os"
	"strings"
	"testing"
)

func TestParseAndFormatRate(t *testing.T) {
	for _, c := range []struct {
		in   string
		want float64
		text string
	}{
		{"120/m", 2, "2/s"}, {" 5/s ", 5, "5/s"}, {"90/m", 1.5, "90/m"}, {"36/h", 0.01, "36/h"},
		{"off", 0, "off"}, {"0", 0, "off"}, {"OFF", 0, "off"},
	} {
		got, err := ParseRate(c.in)
		if err != nil || got != c.want || FormatRate(got) != c.text {
			t.Errorf("ParseRate(%q) = %v, %v (formatted %q), want %v %q", c.in, got, err, FormatRate(got), c.want, c.text)
		}
	}
	for _, bad := range []string{"", "5", "5/d", "-1/s", "x/s", "0/s", "NaN/s", "1e12/s"} {
		if _, err := ParseRate(bad); err == nil || !strings.Contains(err.Error(), "N/s, N/m or N/h") {
			t.Errorf("ParseRate(%q) = %v, want a usage error", bad, err)
		}
	}
	def := RateLimit{PerSecond: 2, Burst: 30}
	one := 1.0
	if got := (RateOverride{}).Over(def); got != def {
		t.Errorf("no override: %+v", got)
	}
	if got := (RateOverride{PerSecond: &one, Burst: 5}).Over(def); got != (RateLimit{1, 5}) {
		t.Errorf("override: %+v", got)
	}
}

func TestMemberRateLimits(t *testing.T) {
	r := testRegistry(t)
	token, err := r.Add("codex", TierTrusted, nil)
	if err != nil {
		t.Fatal(err)
	}
	c, _ := r.Authenticate(token)
	if c.Rate.PerSecond != nil || c.Rate.Burst != 0 {
		t.Errorf("a new member has the default limit: %+v", c.Rate)
	}
	half := 0.5
	if err := r.SetRateLimit("codex", RateOverride{PerSecond: &half, Burst: 7}); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(r.Path())
	if !strings.Contains(string(data), "rate_limit: 30/m") || !strings.Contains(string(data), "rate_burst: 7") {
		t.Errorf("the file holds:\n%s", data)
	}
	c, _ = r.Authenticate(token)
	if c.Rate.PerSecond == nil || *c.Rate.PerSecond != 0.5 || c.Rate.Burst != 7 {
		t.Errorf("the caller carries its limit: %+v", c.Rate)
	}
	// So does the caller an OAuth token maps to.
	if c, _, ok := r.Lookup("codex"); !ok || c.Rate.PerSecond == nil || c.Rate.Burst != 7 {
		t.Errorf("an OAuth token's caller: %+v %v", c.Rate, ok)
	}
	if err := r.SetRateLimit("codex", RateOverride{}); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(r.Path()); strings.Contains(string(data), "rate_") {
		t.Errorf("clearing the limit removes the keys:\n%s", data)
	}
	if err := r.SetRateLimit("codex", RateOverride{Burst: -1}); err == nil {
		t.Error("a negative burst is refused")
	}
	if err := r.SetRateLimit("nobody", RateOverride{}); err == nil {
		t.Error("an unknown member is refused")
	}

	// A limit that is not one makes the file unreadable, as any other
	// ill-typed key does: nobody authenticates off it.
	for _, bad := range []string{"rate_limit: fast", "rate_limit: 5", "rate_burst: 0", "rate_burst: many"} {
		path := t.TempDir() + "/federation.yaml"
		writeFile(t, path, "agents:\n  codex:\n    tier: trusted\n    token_sha256: "+hashToken(token)+"\n    "+bad+"\n")
		reg := OpenRegistry(path)
		if _, ok := reg.Authenticate(token); ok || reg.Err() == nil {
			t.Errorf("%s: the registry must fail closed", bad)
		}
	}
}
