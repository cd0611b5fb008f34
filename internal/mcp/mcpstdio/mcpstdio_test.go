package mcpstdio

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// session runs an MCP server over a Transport fed by the returned writer,
// and returns a reader of its output lines.
func session(t *testing.T) (io.WriteCloser, *bufio.Scanner) {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	srv := mcp.NewServer(&mcp.Implementation{Name: "t", Version: "1"}, nil)
	mcp.AddTool(srv, &mcp.Tool{Name: "echo"}, func(_ context.Context, _ *mcp.CallToolRequest, in struct {
		S string `json:"s"`
	}) (*mcp.CallToolResult, struct {
		S string `json:"s"`
	}, error) {
		return nil, in, nil
	})
	done := make(chan error, 1)
	go func() {
		done <- srv.Run(context.Background(), Transport(inR, outW, Options{MaxFrameBytes: 4096, MaxDepth: 64}))
	}()
	t.Cleanup(func() {
		inW.Close()
		<-done
		outW.Close()
	})
	sc := bufio.NewScanner(outR)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	return inW, sc
}

func send(t *testing.T, w io.Writer, s string) {
	t.Helper()
	if _, err := io.WriteString(w, s); err != nil {
		t.Fatal(err)
	}
}

type reply struct {
	ID    json.RawMessage `json:"id"`
	Error *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
	Result json.RawMessage `json:"result"`
}

func next(t *testing.T, sc *bufio.Scanner) reply {
	t.Helper()
	if !sc.Scan() {
		t.Fatalf("the server stopped answering: %v", sc.Err())
	}
	var r reply
	if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
		t.Fatalf("not JSON: %q", sc.Text())
	}
	return r
}

func TestMalformedFramesGetAnErrorAndTheServerGoesOn(t *testing.T) {
	w, sc := session(t)
	send(t, w, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}`+"\n")
	if r := next(t, sc); r.Error != nil || string(r.ID) != "1" {
		t.Fatalf("initialize: %+v", r)
	}
	send(t, w, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n")
	for _, c := range []struct {
		frame string
		code  int
		id    string
		says  string
	}{
		{"garbage line", -32700, "null", "not valid JSON"},
		{`[{"jsonrpc":"2.0","id":2,"method":"tools/list"}]`, -32600, "null", "batching is not supported"},
		{`{"jsonrpc":"2.0","id":{},"method":"tools/list"}`, -32600, "null", "Invalid Request"},
		{`{"jsonrpc":"2.0","id":3,"method":"tools/list"}` + "\x00", -32700, "null", "not valid JSON"},
		{`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":` + strings.Repeat("[", 100) + strings.Repeat("]", 100) + `}`, -32600, "null", "deeper than 64"},
		{`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"s":"` + strings.Repeat("x", 5000) + `"}}`, -32600, "null", "larger than 4096 bytes"},
		{`"just a string"`, -32600, "null", "JSON object"},
		{`{"jsonrpc":"1.0","id":"seven","method":"tools/list"}`, -32600, `"seven"`, "version tag"},
	} {
		send(t, w, c.frame+"\n")
		r := next(t, sc)
		if r.Error == nil || r.Error.Code != c.code || string(r.ID) != c.id || !strings.Contains(r.Error.Message, c.says) {
			t.Errorf("%.40q: got %+v (id %s), want code %d id %s saying %q", c.frame, r.Error, r.ID, c.code, c.id, c.says)
		}
	}
	// Still serving.
	send(t, w, `{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"echo","arguments":{"s":"still here"}}}`+"\n")
	if r := next(t, sc); r.Error != nil || string(r.ID) != "9" || !strings.Contains(string(r.Result), "still here") {
		t.Errorf("after the bad frames: %+v %s", r, r.Result)
	}
}

func FuzzFraming(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`,
		`[{"jsonrpc":"2.0","id":1,"method":"tools/list"}]`,
		`{"jsonrpc":"2.0","id":{},"method":"x"}`,
		"\x00", `{"a":` + strings.Repeat("[", 300),
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		frame := []byte(strings.TrimSpace(s))
		if len(frame) == 0 || strings.ContainsAny(s, "\r\n") {
			return
		}
		m, id, code, msg, ok := check(frame, 64)
		if ok {
			if !json.Valid(frame) || frame[0] != '{' || m == nil {
				t.Fatalf("accepted %q", frame)
			}
			return
		}
		if code != codeParseError && code != codeInvalidRequest || msg == "" {
			t.Fatalf("bad answer for %q: %d %q", frame, code, msg)
		}
		if raw, isRaw := id.(json.RawMessage); isRaw && !json.Valid(raw) {
			t.Fatalf("answer id %q is not JSON", raw)
		}
	})
}

// TestConnEnds checks that a connection's Read ends at the end of the
// input and once the connection is closed, as the SDK expects.
func TestConnEnds(t *testing.T) {
	ctx := context.Background()
	c, err := Transport(strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`+"\n"), io.Discard, Options{}).Connect(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if msg, err := c.Read(ctx); err != nil || msg == nil {
		t.Fatalf("first read: %v %v", msg, err)
	}
	if _, err := c.Read(ctx); err != io.EOF {
		t.Fatalf("read at the end of the input: %v, want EOF", err)
	}

	inR, inW := io.Pipe()
	defer inW.Close()
	c, err = Transport(inR, io.Discard, Options{}).Connect(ctx)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := c.Read(ctx)
		done <- err
	}()
	c.Close()
	if err := <-done; err != io.EOF {
		t.Fatalf("read after Close: %v, want EOF", err)
	}
}
