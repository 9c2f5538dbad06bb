// Package search ranks an agent's memories against a query.
//
// It holds the ranking core of memory search and of pattern learning:
//
//   - [Tokenize], a tokenizer that lower-cases, splits on punctuation, splits
//     code identifiers (snake_case, camelCase, PascalCase, kebab-case,
//     HTTPServer) while keeping the joined identifier as a token of its own,
//     drops a small list of English stopwords and applies a light stemmer;
//   - [Lexical], Okapi BM25 over a set of documents, computed per query,
//     with the query widened by related terms (related.go), the words
//     engineering notes use for the same thing;
//   - [Semantic], cosine similarity between a query vector and document
//     vectors;
//   - [Fuse], reciprocal rank fusion of several rankings;
//   - [Rank], which picks lexical, semantic or hybrid ranking depending on
//     what the caller has;
//   - [SuggestPatterns], [SamePattern] and [RaiseConfidence] for pattern
//     suggestion and reinforcement;
//   - [Repeat], [Dedup] and [Canonical], which tell whether an incoming
//     memory repeats a stored one as a person would judge it (dedup.go).
//
// Everything here is pure and deterministic: no I/O, no global mutable
// state, and hits with equal scores are ordered by ID.
package search
