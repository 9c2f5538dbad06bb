package embeddings

// OpenAIURL exposes the URL a client posts to, for tests.
func OpenAIURL(c *OpenAI) string { return c.url }
