package openai

// URL exposes the URL a client posts to, for tests.
func URL(c *Embedder) string { return c.url }
