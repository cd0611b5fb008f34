package mcpserver

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

type reloadLibraryIn struct{}

type reloadLibraryOut struct {
	Agents   int      `json:"agents"`
	Files    int      `json:"files"`
	Warnings []string `json:"warnings"`
}

func (s *Server) registerReloadLibrary() {
	addTool(s, tool[reloadLibraryIn, reloadLibraryOut]{
		def: &mcp.Tool{
			Name: "reload_library",
			Description: "Read every manifest of the library again, whatever the change detection says. " +
				"Reports progress per file when the request carries a progress token; cancelling the request leaves the current library in place.",
			Annotations: &mcp.ToolAnnotations{IdempotentHint: true, OpenWorldHint: new(false)},
		},
		handle: func(ctx context.Context, c call, _ reloadLibraryIn) (reloadLibraryOut, error) {
			var progress func(done, total int)
			if token := c.req.Params.GetProgressToken(); token != nil {
				progress = func(done, total int) {
					c.req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{
						ProgressToken: token, Progress: float64(done), Total: float64(total), Message: "reading manifests",
					})
				}
			}
			snap, files, err := s.store.Library().ReloadContext(ctx, progress)
			if err != nil {
				return reloadLibraryOut{}, err
			}
			out := reloadLibraryOut{Agents: snap.Len(), Files: files, Warnings: []string{}}
			for _, w := range snap.Warnings() {
				out.Warnings = append(out.Warnings, w.String())
			}
			return out, nil
		},
	})
}
