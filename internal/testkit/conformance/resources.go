package conformance

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

const (
	staticTextURI   = "test://static-text"
	staticBinaryURI = "test://static-binary"
	watchedURI      = "test://watched-resource"
	templatePrefix  = "test://template/"
	templateSuffix  = "/data"
)

func registerResources(srv *mcp.Server) {
	srv.AddResource(&mcp.Resource{URI: staticTextURI, Name: "static-text", Description: "A fixed text resource.", MIMEType: "text/plain"},
		func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return contents(&mcp.ResourceContents{URI: req.Params.URI, MIMEType: "text/plain", Text: "This is the content of the static text resource."}), nil
		})
	srv.AddResource(&mcp.Resource{URI: staticBinaryURI, Name: "static-binary", Description: "A fixed binary resource (a PNG image).", MIMEType: "image/png"},
		func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return contents(&mcp.ResourceContents{URI: req.Params.URI, MIMEType: "image/png", Blob: pngPixel}), nil
		})
	srv.AddResource(&mcp.Resource{URI: watchedURI, Name: "watched-resource", Description: "A resource clients may subscribe to.", MIMEType: "text/plain"},
		func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return contents(&mcp.ResourceContents{URI: req.Params.URI, MIMEType: "text/plain", Text: "Watched resource content"}), nil
		})
	srv.AddResourceTemplate(&mcp.ResourceTemplate{URITemplate: templatePrefix + "{id}" + templateSuffix, Name: "template", Description: "JSON naming the id in the URI.", MIMEType: "application/json"},
		func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			id, ok := strings.CutPrefix(req.Params.URI, templatePrefix)
			if ok {
				id, ok = strings.CutSuffix(id, templateSuffix)
			}
			if !ok || id == "" || strings.Contains(id, "/") {
				return nil, mcp.ResourceNotFoundError(req.Params.URI)
			}
			return contents(&mcp.ResourceContents{URI: req.Params.URI, MIMEType: "application/json",
				Text: fmt.Sprintf(`{"id":%q,"templateTest":true,"data":"Data for ID: %s"}`, id, id)}), nil
		})
}

func contents(c *mcp.ResourceContents) *mcp.ReadResourceResult {
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{c}}
}

// subscribe accepts subscriptions to the fixed resources; the SDK keeps
// track of subscribers.
func (f *fixtures) subscribe(_ context.Context, req *mcp.SubscribeRequest) error {
	if !slices.Contains([]string{staticTextURI, staticBinaryURI, watchedURI}, req.Params.URI) {
		return mcp.ResourceNotFoundError(req.Params.URI)
	}
	return nil
}

func (f *fixtures) unsubscribe(context.Context, *mcp.UnsubscribeRequest) error { return nil }

func registerPrompts(srv *mcp.Server) {
	srv.AddPrompt(&mcp.Prompt{Name: "test_simple_prompt", Title: "Simple prompt", Description: "A prompt without arguments."},
		func(context.Context, *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
			return &mcp.GetPromptResult{Description: "A simple prompt", Messages: []*mcp.PromptMessage{
				{Role: "user", Content: text("This is a simple prompt for testing.")},
			}}, nil
		})
	srv.AddPrompt(&mcp.Prompt{Name: "test_prompt_with_arguments", Title: "Prompt with arguments", Description: "A prompt that quotes its two arguments.",
		Arguments: []*mcp.PromptArgument{
			{Name: "arg1", Description: "First argument", Required: true},
			{Name: "arg2", Description: "Second argument", Required: true},
		}},
		func(_ context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
			a := req.Params.Arguments
			return &mcp.GetPromptResult{Description: "A prompt with arguments", Messages: []*mcp.PromptMessage{
				{Role: "user", Content: text(fmt.Sprintf("Prompt with arguments: arg1='%s', arg2='%s'", a["arg1"], a["arg2"]))},
			}}, nil
		})
	srv.AddPrompt(&mcp.Prompt{Name: "test_prompt_with_embedded_resource", Title: "Prompt with an embedded resource", Description: "A prompt that embeds the resource it is given.",
		Arguments: []*mcp.PromptArgument{{Name: "resourceUri", Description: "URI of the resource to embed", Required: true}}},
		func(_ context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
			return &mcp.GetPromptResult{Description: "A prompt with an embedded resource", Messages: []*mcp.PromptMessage{
				{Role: "user", Content: &mcp.EmbeddedResource{Resource: &mcp.ResourceContents{
					URI: req.Params.Arguments["resourceUri"], MIMEType: "text/plain", Text: "Embedded resource content for testing.",
				}}},
				{Role: "user", Content: text("Please process the embedded resource above.")},
			}}, nil
		})
	srv.AddPrompt(&mcp.Prompt{Name: "test_prompt_with_image", Title: "Prompt with an image", Description: "A prompt that carries a PNG image."},
		func(context.Context, *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
			return &mcp.GetPromptResult{Description: "A prompt with an image", Messages: []*mcp.PromptMessage{
				{Role: "user", Content: &mcp.ImageContent{MIMEType: "image/png", Data: pngPixel}},
				{Role: "user", Content: text("Please analyze the image above.")},
			}}, nil
		})
	srv.AddPrompt(&mcp.Prompt{Name: "test_input_required_result_prompt", Description: "Asks for context through an input_required elicitation before it returns its messages (SEP-2322)."},
		inputRequiredPrompt)
}

// completionValues are the candidates of each completable argument.
var completionValues = map[string][]string{
	"ref/prompt test_prompt_with_arguments arg1":                       {"test", "testing", "tested", "value1"},
	"ref/prompt test_prompt_with_arguments arg2":                       {"value2", "world"},
	"ref/resource " + templatePrefix + "{id}" + templateSuffix + " id": {"1", "123", "42"},
}

// complete answers completion/complete with the candidates that start with
// what the user typed so far; unknown arguments complete to nothing.
func complete(_ context.Context, req *mcp.CompleteRequest) (*mcp.CompleteResult, error) {
	ref := req.Params.Ref
	target := ref.Name
	if ref.Type == "ref/resource" {
		target = ref.URI
	}
	values := []string{}
	for _, v := range completionValues[ref.Type+" "+target+" "+req.Params.Argument.Name] {
		if strings.HasPrefix(v, req.Params.Argument.Value) {
			values = append(values, v)
		}
	}
	return &mcp.CompleteResult{Completion: mcp.CompletionResultDetails{Values: values, Total: len(values)}}, nil
}
