// Package fakeembed is a small embedding server for tests: it answers
// OpenAI's /v1/embeddings and Ollama's /api/embed on 127.0.0.1 with
// vectors from a fixed table of concepts, so that a test knows exactly
// which texts are near. A text's vector counts, per concept, the words
// of the text that belong to it. Words outside the table count nothing,
// and a text of none of them is the unit vector of the last dimension.
package fakeembed

import (
	"encoding/json"
	"hash/fnv"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"unicode"
)

// concepts are groups of words that mean one thing, as a sentence
// encoder would place them together.
var concepts = [][]string{
	{"responsible", "owner", "owns", "own", "in", "charge"},
	{"invoices", "invoice", "billing", "payment", "payments", "money", "bill"},
	{"languages", "language", "programming", "go", "engineer", "react", "backend", "frontend"},
	{"pr", "prs", "pull", "request", "requests", "lines", "size", "large", "big", "changed"},
	{"network", "offline", "connection", "phone", "mobile", "sync", "syncs"},
	{"forgotten", "forget", "erasure", "deletion", "delete", "gdpr", "backups", "erase"},
	{"p99", "latency", "response", "slow", "times", "dashboard"},
	{"outage", "outages", "incident", "incidents", "war", "room"},
	{"toggle", "toggles", "flag", "flags", "launchdarkly"},
	{"password", "passwords", "secret", "secrets", "vault", "credentials"},
	{"quota", "limit", "limits", "rate", "bucket"},
	{"vpn", "wireguard", "staging", "reach", "access", "servers", "hosts"},
}

// Dims is the vectors' length: one per concept and one for none.
var Dims = len(concepts) + 1

// Vector is text's vector.
func Vector(text string) []float32 {
	v := make([]float32, Dims)
	for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		for i, c := range concepts {
			for _, x := range c {
				if x == w {
					v[i]++
				}
			}
		}
	}
	none := true
	for _, x := range v {
		none = none && x == 0
	}
	if none {
		v[Dims-1] = 1
	}
	return v
}

// Server is a running fake embedding server.
type Server struct {
	*httptest.Server
	// Requests counts the requests answered; Texts the texts embedded.
	Requests, Texts atomic.Int64
	// Key, when set, is the bearer token every request must carry.
	Key string
	// Dims, when set, makes every vector Hashed of that many dimensions
	// instead of one from the table of concepts (a stand-in for a real
	// model's size in benchmarks).
	Dims int
}

// Hashed is a vector of dims dimensions made from text's hash: the same
// text gives the same vector, and different texts unrelated ones.
func Hashed(text string, dims int) []float32 {
	h := fnv.New64a()
	h.Write([]byte(text))
	x := h.Sum64()
	v := make([]float32, dims)
	for k := range v {
		x = x*6364136223846793005 + 1442695040888963407
		v[k] = float32(int32(x>>33)) / (1 << 31)
	}
	return v
}

// Start starts a server on 127.0.0.1; Close stops it.
func Start() *Server {
	s := &Server{}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	return s
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	if s.Key != "" && r.Header.Get("Authorization") != "Bearer "+s.Key {
		http.Error(w, "unauthorized", http.StatusUnauthorized)
		return
	}
	var req struct {
		Model string   `json:"model"`
		Input []string `json:"input"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil || req.Model == "" {
		http.Error(w, "bad request", http.StatusBadRequest)
		return
	}
	s.Requests.Add(1)
	s.Texts.Add(int64(len(req.Input)))
	vecs := make([][]float32, len(req.Input))
	for i, t := range req.Input {
		if s.Dims > 0 {
			vecs[i] = Hashed(t, s.Dims)
		} else {
			vecs[i] = Vector(t)
		}
	}
	w.Header().Set("Content-Type", "application/json")
	switch r.URL.Path {
	case "/api/embed":
		_ = json.NewEncoder(w).Encode(map[string]any{"model": req.Model, "embeddings": vecs})
	case "/v1/embeddings":
		data := make([]map[string]any, len(vecs))
		for i, v := range vecs {
			data[i] = map[string]any{"object": "embedding", "index": i, "embedding": v}
		}
		_ = json.NewEncoder(w).Encode(map[string]any{"object": "list", "model": req.Model, "data": data})
	default:
		http.NotFound(w, r)
	}
}
