package embeddings

// Decode returns the embedder name and the vector stored by Encode, for
// the tests that check Encode's round trip (the store reads vectors with
// DecodeFor).
func Decode(b []byte) (name string, vec []float32, err error) {
	nb, scale, body, err := parse(b)
	if err != nil {
		return "", nil, err
	}
	return string(nb), expand(body, scale), nil
}
