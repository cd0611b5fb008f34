// Package mcpstdio serves MCP over a byte stream (the stdio transport:
// one JSON-RPC message per line) so that bad input cannot end the server.
//
// The SDK's stdio connection stops at the first frame it cannot decode; a
// stray line from a client, a JSON-RPC batch or an id that is an object
// would end the process. Transport reads the lines itself, answers every
// malformed one with the JSON-RPC error it deserves (parse error or
// invalid request, with the request's id when it has a usable one), and
// passes only well-formed messages on to the SDK.
package mcpstdio

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/getbourdon/bourdon-go/internal/platform/linescan"
)

// Bounds of one frame.
const (
	// DefaultMaxFrameBytes is the longest line accepted, as the SDK's own
	// default.
	DefaultMaxFrameBytes = mcp.DefaultMaxLineLength
	// DefaultMaxDepth is the deepest nesting of arrays and objects
	// accepted in a message.
	DefaultMaxDepth = 256
)

// JSON-RPC error codes.
const (
	codeParseError     = -32700
	codeInvalidRequest = -32600
)

// Options bound the frames a Transport accepts. Zero values mean the
// defaults.
type Options struct {
	MaxFrameBytes int
	MaxDepth      int
}

// Transport returns an MCP transport over in and out that refuses
// malformed frames with a JSON-RPC error and keeps serving.
func Transport(in io.Reader, out io.Writer, opts Options) mcp.Transport {
	if opts.MaxFrameBytes <= 0 {
		opts.MaxFrameBytes = DefaultMaxFrameBytes
	}
	if opts.MaxDepth <= 0 {
		opts.MaxDepth = DefaultMaxDepth
	}
	return &transport{in: in, out: &lineWriter{w: out}, opts: opts}
}

type transport struct {
	in   io.Reader
	out  *lineWriter
	opts Options
}

// Connect starts reading frames. The messages that pass the checks reach
// the SDK already decoded (the check decodes them anyway): handing over
// the line for the SDK's own stdio connection to decode again would cost
// a second decoding of every message, and the SDK's decoder allocates 32
// KiB per message (bench/README.md, note 1).
func (t *transport) Connect(context.Context) (mcp.Connection, error) {
	c := &conn{out: t.out, incoming: make(chan jsonrpc.Message), closed: make(chan struct{}), done: make(chan struct{})}
	go func() {
		c.err = filter(t.in, c.deliver, t.out, t.opts)
		close(c.done)
	}()
	return c, nil
}

// conn is the SDK's connection: the messages the filter passes, and every
// message the SDK sends written as one line.
type conn struct {
	out       *lineWriter
	incoming  chan jsonrpc.Message
	closeOnce sync.Once
	closed    chan struct{} // closed by Close
	done      chan struct{} // closed when the filter has ended, err saying why (nil at the end of the input)
	err       error
}

// deliver hands msg to the SDK, waiting until it reads it.
func (c *conn) deliver(msg jsonrpc.Message) error {
	select {
	case c.incoming <- msg:
		return nil
	case <-c.closed:
		return errSessionOver
	}
}

func (c *conn) Read(ctx context.Context) (jsonrpc.Message, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	select {
	case msg := <-c.incoming:
		return msg, nil
	case <-c.done:
		if c.err != nil {
			return nil, c.err
		}
		return nil, io.EOF
	case <-c.closed:
		return nil, io.EOF
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func (c *conn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	data, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return fmt.Errorf("marshaling message: %v", err)
	}
	_, err = c.out.Write(append(data, '\n'))
	return err
}

// Close stops handing messages to the SDK; the stream itself belongs to
// the process and stays open.
func (c *conn) Close() error {
	c.closeOnce.Do(func() { close(c.closed) })
	return nil
}

// SessionID is empty: a stdio connection is one session.
func (c *conn) SessionID() string { return "" }

// lineWriter serialises whole writes, so that the SDK's messages and this
// package's error answers never interleave within a line.
type lineWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lineWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// filter reads frames from in, hands the well-formed messages to deliver,
// one per line, and answers the others on w. It returns nil at the end of
// in, or when the SDK stops reading.
func filter(in io.Reader, deliver func(jsonrpc.Message) error, w io.Writer, opts Options) error {
	err := linescan.Scan(in, opts.MaxFrameBytes, func(_ int, line []byte, tooLong bool) error {
		if tooLong {
			answer(w, nil, codeInvalidRequest, fmt.Sprintf("Invalid Request: the message is larger than %d bytes", opts.MaxFrameBytes))
			return nil
		}
		frame := bytes.TrimSpace(line)
		if len(frame) == 0 {
			return nil
		}
		msg, id, code, text, ok := check(frame, opts.MaxDepth)
		if !ok {
			answer(w, id, code, text)
			return nil
		}
		return deliver(msg)
	})
	if errors.Is(err, errSessionOver) {
		return nil
	}
	return err
}

// errSessionOver stops the filter once the SDK has stopped reading.
var errSessionOver = errors.New("the session is over")

// check decodes frame when it is one well-formed JSON-RPC message. When
// it is not, it returns the id to answer with (nil for null), the error
// code and the message.
func check(frame []byte, maxDepth int) (m jsonrpc.Message, id any, code int, msg string, ok bool) {
	if !json.Valid(frame) {
		return nil, nil, codeParseError, "Parse error: the line is not valid JSON (send one JSON-RPC message per line)", false
	}
	if depth(frame) > maxDepth {
		return nil, nil, codeInvalidRequest, fmt.Sprintf("Invalid Request: the message nests deeper than %d levels", maxDepth), false
	}
	switch frame[0] {
	case '[':
		return nil, nil, codeInvalidRequest, "Invalid Request: JSON-RPC batching is not supported; send one JSON-RPC message per line", false
	case '{':
	default:
		return nil, nil, codeInvalidRequest, "Invalid Request: a JSON-RPC message is a JSON object", false
	}
	m, err := jsonrpc.DecodeMessage(frame)
	if err != nil {
		return nil, usableID(frame), codeInvalidRequest, "Invalid Request: " + err.Error(), false
	}
	return m, nil, 0, "", true
}

// usableID returns the message's id when it is a string or a number.
func usableID(frame []byte) any {
	var m struct {
		ID json.RawMessage `json:"id"`
	}
	if json.Unmarshal(frame, &m) != nil || len(m.ID) == 0 {
		return nil
	}
	var v any
	if json.Unmarshal(m.ID, &v) != nil {
		return nil
	}
	switch v.(type) {
	case string, float64:
		return m.ID
	}
	return nil
}

// depth returns the deepest nesting of arrays and objects in valid JSON.
func depth(b []byte) int {
	d, deepest, inString, escaped := 0, 0, false, false
	for _, c := range b {
		switch {
		case inString:
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
		case c == '"':
			inString = true
		case c == '{' || c == '[':
			if d++; d > deepest {
				deepest = d
			}
		case c == '}' || c == ']':
			d--
		}
	}
	return deepest
}

// answer writes a JSON-RPC error response on w.
func answer(w io.Writer, id any, code int, msg string) {
	resp := map[string]any{"jsonrpc": "2.0", "id": id, "error": map[string]any{"code": code, "message": msg}}
	data, err := json.Marshal(resp)
	if err != nil {
		return
	}
	_, _ = w.Write(append(data, '\n'))
}
