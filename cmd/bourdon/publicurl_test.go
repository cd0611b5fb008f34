package main

import "testing"

func TestPublicBase(t *testing.T) {
	ok := map[string]string{
		"":                            "http://127.0.0.1:7500",
		"https://mcp.example.com":     "https://mcp.example.com",
		"https://mcp.example.com/":    "https://mcp.example.com",
		"https://mcp.example.com/mcp": "https://mcp.example.com",
		"http://localhost:8080":       "http://localhost:8080",
	}
	for in, want := range ok {
		got, err := publicBase(in, "127.0.0.1:7500")
		if err != nil || got != want {
			t.Errorf("publicBase(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, in := range []string{"mcp.example.com", "ftp://x", "https://u:p@x", "https://x/?a=1", "https://x/prefix/mcp"} {
		if _, err := publicBase(in, "127.0.0.1:7500"); err == nil {
			t.Errorf("publicBase(%q) accepted", in)
		}
	}
}
