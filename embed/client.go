// Package embed gives memdir's search a second ranking by meaning, from an
// embedding model the user already runs: an OpenAI-compatible server
// (POST <url>/v1/embeddings: llama.cpp's llama-server, vLLM, LM Studio,
// Ollama's /v1, a hosted API) or Ollama's own /api/embed. Vectors are
// derived data under <memory dir>/.memdir/embed/, one per topic, keyed by
// a hash of the text that was embedded, so only new and changed topics
// are sent, and all are sent again when the model or the server changes.
// Private topics are never sent.
//
// A server that is down, slow or answering nonsense never fails a
// search: every call is bounded by Config.Timeout, and the search answers
// from words alone with one line on the warning writer.
package embed

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"
)

// Limits of one exchange with the server.
const (
	maxBatch     = 32       // texts in one request
	maxTextBytes = 8 << 10  // bytes of one text sent (the start of a long topic)
	maxReply     = 64 << 20 // bytes of one reply read
	maxDims      = 1 << 14  // dimensions of a vector accepted
)

// Config says where the embedding server is and which model to ask for.
type Config struct {
	// URL is the server's base URL (http://127.0.0.1:11434), or a full
	// endpoint ending in /v1/embeddings or /api/embed.
	URL   string
	Model string
	// APIKey is sent as a bearer token when not empty. It comes from the
	// environment variable the embeddings.api_key_env setting names.
	APIKey string
	// Timeout bounds a search's whole exchange with the server.
	Timeout time.Duration
	// HTTP is the client used; http.DefaultClient when nil.
	HTTP *http.Client
}

// endpoint is the URL requests go to and whether it speaks Ollama's own
// protocol.
func (c *Config) endpoint() (string, bool) {
	u := strings.TrimRight(c.URL, "/")
	switch {
	case strings.HasSuffix(u, "/api/embed"):
		return u, true
	case strings.HasSuffix(u, "/embeddings"):
		return u, false
	case strings.HasSuffix(u, "/v1"):
		return u + "/embeddings", false
	}
	return u + "/v1/embeddings", false
}

// Embed returns one vector per text, in order.
func (c *Config) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	var out [][]float32
	for start := 0; start < len(texts); start += maxBatch {
		vs, err := c.batch(ctx, texts[start:min(start+maxBatch, len(texts))])
		if err != nil {
			return out, err
		}
		out = append(out, vs...)
	}
	return out, nil
}

func (c *Config) batch(ctx context.Context, texts []string) ([][]float32, error) {
	url, ollama := c.endpoint()
	in := make([]string, len(texts))
	for i, t := range texts {
		in[i] = clip(t)
	}
	body, _ := json.Marshal(map[string]any{"model": c.Model, "input": in})
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return nil, fmt.Errorf("embedding server %s: %w", c.URL, err)
	}
	req.Header.Set("Content-Type", "application/json")
	if c.APIKey != "" {
		req.Header.Set("Authorization", "Bearer "+c.APIKey)
	}
	hc := c.HTTP
	if hc == nil {
		hc = http.DefaultClient
	}
	resp, err := hc.Do(req)
	if err != nil {
		return nil, fmt.Errorf("embedding server %s: %w", c.URL, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxReply))
	if err != nil {
		return nil, fmt.Errorf("embedding server %s: %w", c.URL, err)
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("embedding server %s: %s", c.URL, resp.Status)
	}
	vs, err := decode(data, ollama)
	if err == nil && len(vs) != len(texts) {
		err = fmt.Errorf("%d vectors for %d texts", len(vs), len(texts))
	}
	if err != nil {
		return nil, fmt.Errorf("embedding server %s: %w", c.URL, err)
	}
	return vs, nil
}

// decode reads a reply: OpenAI's {"data": [{"index", "embedding"}]} or
// Ollama's {"embeddings": [[...]]}. Every vector must have the same
// number of dimensions.
func decode(data []byte, ollama bool) ([][]float32, error) {
	var vs [][]float32
	if ollama {
		var r struct {
			Embeddings [][]float32 `json:"embeddings"`
		}
		if err := json.Unmarshal(data, &r); err != nil {
			return nil, fmt.Errorf("reply: %w", err)
		}
		vs = r.Embeddings
	} else {
		var r struct {
			Data []struct {
				Index     int       `json:"index"`
				Embedding []float32 `json:"embedding"`
			} `json:"data"`
		}
		if err := json.Unmarshal(data, &r); err != nil {
			return nil, fmt.Errorf("reply: %w", err)
		}
		vs = make([][]float32, len(r.Data))
		for _, d := range r.Data {
			if d.Index < 0 || d.Index >= len(vs) || vs[d.Index] != nil {
				return nil, errors.New("reply: bad index")
			}
			vs[d.Index] = d.Embedding
		}
	}
	for _, v := range vs {
		if len(v) == 0 || len(v) > maxDims || len(v) != len(vs[0]) {
			return nil, errors.New("reply: vectors of no or differing dimensions")
		}
	}
	return vs, nil
}

// clip cuts a text to maxTextBytes at a character boundary.
func clip(s string) string {
	if len(s) <= maxTextBytes {
		return s
	}
	s = s[:maxTextBytes]
	for len(s) > 0 && s[len(s)-1]&0xC0 == 0x80 {
		s = s[:len(s)-1]
	}
	if len(s) > 0 && s[len(s)-1] >= 0xC0 {
		s = s[:len(s)-1]
	}
	return s
}
