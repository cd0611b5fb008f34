package visibility

import "testing"

func TestVisibleOrdersTheLevels(t *testing.T) {
	for _, c := range []struct {
		row, access Level
		want        bool
	}{
		{Public, Public, true}, {Team, Public, false}, {Private, Public, false},
		{Public, Team, true}, {Team, Team, true}, {Private, Team, false},
		{Public, Private, true}, {Team, Private, true}, {Private, Private, true},
	} {
		if got := Visible(c.row, c.access); got != c.want {
			t.Errorf("Visible(%v, %v) = %v, want %v", c.row, c.access, got, c.want)
		}
	}
}

func TestOfRow(t *testing.T) {
	for _, c := range []struct {
		raw  any
		def  Level
		want Level
	}{
		{nil, Public, Public},
		{nil, Team, Team},
		{"TEAM", Public, Team},
		{" private ", Public, Private},
		{"confidential", Public, Private},
		{int64(3), Public, Private},
	} {
		if got := OfRow(c.raw, c.def); got != c.want {
			t.Errorf("OfRow(%#v, %v) = %v, want %v", c.raw, c.def, got, c.want)
		}
	}
}

func TestResolvePrecedence(t *testing.T) {
	str := func(s string) *string { return &s }
	cases := []struct {
		explicit *string
		private  bool
		want     Level
		wantErr  bool
	}{
		{str(" Public "), true, Public, false},
		{nil, true, Private, false},
		{nil, false, Team, false},
		{str("secret"), false, Public, true},
	}
	for _, c := range cases {
		got, err := Resolve(c.explicit, c.private, Team)
		if (err != nil) != c.wantErr || got != c.want {
			t.Errorf("Resolve(%v, %v) = %v, %v", c.explicit, c.private, got, err)
		}
	}
	if _, err := Resolve(str("secret"), false, Team); err == nil || err.Error() != "unsupported access_level: secret" {
		t.Errorf("error text = %v", err)
	}
	env := func(v string) func(string) (string, bool) {
		return func(k string) (string, bool) { return v, k == EnvVar }
	}
	if l, set, err := FromEnv(env("bogus")); l != Public || set || err == nil {
		t.Errorf("a bogus %s must fall back with a warning: %v %v %v", EnvVar, l, set, err)
	}
	if l, set, err := FromEnv(env(" team ")); l != Team || !set || err != nil {
		t.Errorf("FromEnv(team) = %v %v %v", l, set, err)
	}
	if _, set, err := FromEnv(env(" ")); set || err != nil {
		t.Errorf("a blank %s counts as unset", EnvVar)
	}
}
