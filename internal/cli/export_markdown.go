package cli

import (
	"github.com/lookout-sh/lookout/model"
	"github.com/lookout-sh/lookout/render"
)

// markdownTranscript renders the folded items as a readable transcript,
// with the same function the UI's export key uses (render.MarkdownTranscript).
func markdownTranscript(st *model.State) string { return render.MarkdownTranscript(st.View()) }
