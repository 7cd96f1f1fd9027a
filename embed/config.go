package embed

import (
	"github.com/memdir/memdir/settings"
)

// Configured reads the embeddings.* settings: the server's URL and model,
// the key from the environment variable embeddings.api_key_env names, and
// the timeout. ok is false when no URL is set (or no model): search by
// words alone. A project's settings file sets the URL or the key's
// variable only when trusted (package settings), since memory is sent
// there.
func Configured(s *settings.Settings, getenv func(string) string) (Config, bool) {
	c := Config{URL: s.Get("embeddings.url"), Model: s.Get("embeddings.model"), Timeout: s.Duration("embeddings.timeout")}
	if env := s.Get("embeddings.api_key_env"); env != "" {
		c.APIKey = getenv(env)
	}
	return c, c.URL != "" && c.Model != ""
}
