// Package bedrock embeds texts with Amazon Titan Text Embeddings V2 through
// the Bedrock runtime's InvokeModel.
package bedrock

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/agentmem/agentmem/shared/embeddings"
	"github.com/agentmem/agentmem/shared/embeddings/internal/remote"
	"github.com/aws/aws-sdk-go-v2/aws"
	v4 "github.com/aws/aws-sdk-go-v2/aws/signer/v4"
	"golang.org/x/sync/errgroup"
)

// Defaults.
const (
	// DefaultModel is Amazon Titan Text Embeddings V2.
	DefaultModel = "amazon.titan-embed-text-v2:0"
	// DefaultDimensions is Titan V2's default vector length.
	DefaultDimensions = 1024
	// concurrency bounds the parallel InvokeModel calls of one Embed
	// (Titan embeds one text per call).
	concurrency = 4
)

// provider names the provider in names and errors.
const provider = embeddings.ProviderBedrock

// Embedder embeds with Titan Text Embeddings V2 through InvokeModel (POST
// /model/{modelId}/invoke, SigV4 for service "bedrock"): one call per
// text, body {"inputText","dimensions","normalize":true}, answer
// {"embedding":[...],"inputTextTokenCount":n}; failures carry the
// service's error type in X-Amzn-ErrorType and {"message"}. A throttled or
// failed call is made again as the embedders' retry policy says.
//
// It is one signed POST, so it is made with net/http and the SDK's v4
// signer rather than the bedrockruntime client, which would add its
// package-level state to every binary that embeds (the memories function
// stays under its size target this way).
type Embedder struct {
	creds  aws.CredentialsProvider
	region string
	url    *url.URL // the invoke URL, path escaped as the SDK escapes it
	signer *v4.Signer
	http   *http.Client
	model  string
	dims   int
	cfg    embeddings.Config
}

var _ embeddings.Embedder = (*Embedder)(nil)

// New returns a Titan V2 embedder using awsCfg's credentials (the
// process's AWS configuration) in cfg.Region, else awsCfg's region.
// cfg.Model defaults to DefaultModel, cfg.Dimensions to 1,024 (Titan V2
// accepts 256, 512 and 1,024); cfg.Endpoint overrides the runtime endpoint
// (a VPC endpoint, or a test server).
func New(awsCfg aws.Config, cfg embeddings.Config) (*Embedder, error) {
	b := &Embedder{model: cfg.Model, dims: cfg.Dimensions, cfg: cfg}
	if b.model == "" {
		b.model = DefaultModel
	}
	switch b.dims {
	case 0:
		b.dims = DefaultDimensions
	case 256, 512, 1024:
	default:
		return nil, fmt.Errorf("bedrock embeddings: dimensions %d: Titan Text Embeddings V2 accepts 256, 512 or 1024", b.dims)
	}
	region := cfg.Region
	if region == "" {
		region = awsCfg.Region
	}
	if region == "" {
		return nil, fmt.Errorf("bedrock embeddings: no AWS region configured (set AWS_REGION)")
	}
	if awsCfg.Credentials == nil {
		return nil, fmt.Errorf("bedrock embeddings: no AWS credentials configured")
	}
	base := cfg.Endpoint
	if base == "" {
		base = "https://bedrock-runtime." + region + ".amazonaws.com"
	}
	u, err := url.Parse(strings.TrimRight(base, "/"))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("bedrock embeddings: endpoint %q is not an http(s) URL", base)
	}
	// The model id goes in one path segment with ':' escaped, as the
	// SDK's REST serializer writes it.
	u.RawPath = u.Path + "/model/" + strings.ReplaceAll(url.PathEscape(b.model), ":", "%3A") + "/invoke"
	u.Path += "/model/" + b.model + "/invoke"
	b.creds, b.region, b.url = awsCfg.Credentials, region, u
	b.signer, b.http = v4.NewSigner(), &http.Client{}
	return b, nil
}

// Name implements embeddings.Embedder.
func (b *Embedder) Name() string { return provider + ":" + b.model }

// Dimensions implements embeddings.Embedder.
func (b *Embedder) Dimensions() int { return b.dims }

type titanRequest struct {
	InputText  string `json:"inputText"`
	Dimensions int    `json:"dimensions"`
	Normalize  bool   `json:"normalize"`
}

type titanResponse struct {
	Embedding           []float32 `json:"embedding"`
	InputTextTokenCount int       `json:"inputTextTokenCount"`
}

// Embed implements embeddings.Embedder, with up to four InvokeModel calls
// in flight.
func (b *Embedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	if err := remote.CheckTexts(provider, texts); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, b.cfg.TimeoutOrDefault())
	defer cancel()
	out := make([][]float32, len(texts))
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(concurrency)
	for i, t := range texts {
		g.Go(func() error {
			v, err := b.embedOne(gctx, t)
			out[i] = v
			return err
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	return out, nil
}

func (b *Embedder) embedOne(ctx context.Context, text string) ([]float32, error) {
	body, err := json.Marshal(titanRequest{InputText: text, Dimensions: b.dims, Normalize: true})
	if err != nil {
		return nil, &embeddings.Error{Kind: embeddings.KindBadRequest, Provider: provider, Err: err}
	}
	var data []byte
	err = remote.Retry.Do(ctx, func() (err error) {
		data, err = b.invoke(ctx, body)
		return err
	}, remote.Retryable)
	if err != nil {
		return nil, err
	}
	var ans titanResponse
	if err := json.Unmarshal(data, &ans); err != nil {
		return nil, &embeddings.Error{Kind: embeddings.KindMalformed, Provider: provider, Message: "answer is not Titan embeddings JSON", Err: err}
	}
	if len(ans.Embedding) != b.dims {
		return nil, &embeddings.Error{Kind: embeddings.KindMalformed, Provider: provider, Message: fmt.Sprintf("embedding has %d dimensions, want %d", len(ans.Embedding), b.dims)}
	}
	return ans.Embedding, nil
}

// invoke makes one signed InvokeModel call and returns the answer's body.
func (b *Embedder) invoke(ctx context.Context, body []byte) ([]byte, error) {
	u := *b.url
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u.String(), bytes.NewReader(body))
	if err != nil {
		return nil, &embeddings.Error{Kind: embeddings.KindBadRequest, Provider: provider, Err: err}
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	creds, err := b.creds.Retrieve(ctx)
	if err != nil {
		return nil, &embeddings.Error{Kind: embeddings.KindAuth, Provider: provider, Message: "no AWS credentials", Err: err}
	}
	sum := sha256.Sum256(body)
	if err := b.signer.SignHTTP(ctx, creds, req, hex.EncodeToString(sum[:]), "bedrock", b.region, time.Now()); err != nil {
		return nil, &embeddings.Error{Kind: embeddings.KindAuth, Provider: provider, Message: "signing failed", Err: err}
	}
	resp, err := b.http.Do(req)
	if err != nil {
		return nil, remote.TransportError(provider, ctx, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, remote.MaxAnswerBytes))
	if err != nil {
		return nil, remote.TransportError(provider, ctx, err)
	}
	if resp.StatusCode != http.StatusOK {
		return nil, invokeError(resp, data)
	}
	return data, nil
}

// invokeError classifies an InvokeModel failure by its HTTP status, with
// the service's error type (X-Amzn-ErrorType, up to its first ':') and
// message kept for the logs.
func invokeError(resp *http.Response, data []byte) error {
	code, _, _ := strings.Cut(resp.Header.Get("X-Amzn-ErrorType"), ":")
	var body struct {
		Message      string `json:"message"`
		MessageUpper string `json:"Message"`
	}
	_ = json.Unmarshal(data, &body)
	e := remote.StatusError(provider, resp, strings.TrimSpace(code+" "+body.Message+body.MessageUpper))
	switch code {
	case "ThrottlingException", "ServiceQuotaExceededException":
		e.Kind = embeddings.KindThrottled
	case "ModelTimeoutException":
		e.Kind = embeddings.KindTimeout
	}
	return e
}
