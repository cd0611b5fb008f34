package endpoint

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestCheckURL(t *testing.T) {
	for raw, want := range map[string]string{
		"https://peer.example.com":         "",
		"http://127.0.0.1:7501/mcp":        "",
		"http://localhost:7500":            "",
		"http://[::1]:7500/mcp":            "",
		"http://peer.example.com/mcp":      "unencrypted",
		"https://user:pw@peer.example.com": "credentials",
		"https://peer.example.com/mcp?x=1": "query",
		"https://peer.example.com/mcp?":    "query",
		"https://peer.example.com/mcp#top": "fragment",
		"ftp://peer.example.com":           "http(s) URL",
		"peer.example.com:7500":            "http(s) URL",
		"":                                 "http(s) URL",
	} {
		_, err := CheckURL(raw, "peer url")
		switch {
		case want == "" && err != nil:
			t.Errorf("%q: %v", raw, err)
		case want != "" && (err == nil || !strings.Contains(err.Error(), want)):
			t.Errorf("%q: error %v, want one mentioning %q", raw, err, want)
		}
		if err != nil && strings.Contains(err.Error(), "pw") {
			t.Errorf("%q: the error repeats the password: %v", raw, err)
		}
	}
}

func TestBearerAddsTokenAndBoundsBody(t *testing.T) {
	var got string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = r.Header.Get("Authorization")
		w.Write([]byte(strings.Repeat("x", 100)))
	}))
	defer srv.Close()
	c := &http.Client{Transport: Bearer{Token: "bdn_abc", MaxBody: 10}}
	resp, err := c.Get(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if !errors.Is(err, ErrBodyTooLarge) || len(body) != 10 {
		t.Fatalf("read %d bytes, err %v; want 10 and ErrBodyTooLarge", len(body), err)
	}
	if got != "Bearer bdn_abc" {
		t.Fatalf("Authorization %q", got)
	}
	if k := Classify(err).Error(); k != "request failed: response too large" {
		t.Fatal(k)
	}
}

func TestClassify(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	_, err = http.Get("http://" + addr)
	var re *RequestError
	if !errors.As(Classify(err), &re) || re.Kind != "connection refused" || strings.Contains(re.Error(), addr) {
		t.Fatalf("refused: %v", Classify(err))
	}
	if !errors.Is(Classify(context.DeadlineExceeded), context.DeadlineExceeded) {
		t.Fatal("a deadline stays a deadline")
	}
	if Classify(nil) != nil {
		t.Fatal("nil stays nil")
	}
}
