package embeddings

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	v4 "github.com/aws/aws-sdk-go-v2/aws/signer/v4"
	"golang.org/x/sync/errgroup"
)

// Bedrock retry policy: a throttled or failed call is tried again at most
// twice, after at most half a second, all within Config.Timeout.
const (
	bedrockMaxAttempts = 3
	bedrockMaxBackoff  = 500 * time.Millisecond
	// bedrockConcurrency bounds the parallel InvokeModel calls of one
	// Embed (Titan embeds one text per call).
	bedrockConcurrency = 4
)

// Bedrock embeds texts with Amazon Titan Text Embeddings V2 through the
// Bedrock runtime's InvokeModel (POST /model/{modelId}/invoke, SigV4 for
// service "bedrock"): one call per text, body
// {"inputText","dimensions","normalize":true}, answer
// {"embedding":[...],"inputTextTokenCount":n}; failures carry the
// service's error type in X-Amzn-ErrorType and {"message"}.
//
// It is one signed POST, so it is made with net/http and the SDK's v4
// signer rather than the bedrockruntime client, which would add its
// package-level state to every binary that embeds (the memories function
// stays under its size target this way).
type Bedrock struct {
	creds  aws.CredentialsProvider
	region string
	url    *url.URL // the invoke URL, path escaped as the SDK escapes it
	signer *v4.Signer
	http   *http.Client
	model  string
	dims   int
	cfg    Config
}

var _ Embedder = (*Bedrock)(nil)

// NewBedrock returns a Titan V2 embedder using awsCfg's credentials and
// region. cfg.Model defaults to DefaultBedrockModel, cfg.Dimensions to
// 1,024 (Titan V2 accepts 256, 512 and 1,024); cfg.Endpoint overrides the
// runtime endpoint (a VPC endpoint, or a test server).
func NewBedrock(awsCfg aws.Config, cfg Config) (*Bedrock, error) {
	b := &Bedrock{model: cfg.Model, dims: cfg.Dimensions, cfg: cfg}
	if b.model == "" {
		b.model = DefaultBedrockModel
	}
	switch b.dims {
	case 0:
		b.dims = DefaultBedrockDimensions
	case 256, 512, 1024:
	default:
		return nil, fmt.Errorf("bedrock embeddings: dimensions %d: Titan Text Embeddings V2 accepts 256, 512 or 1024", b.dims)
	}
	if awsCfg.Region == "" {
		return nil, fmt.Errorf("bedrock embeddings: no AWS region configured (set AWS_REGION)")
	}
	if awsCfg.Credentials == nil {
		return nil, fmt.Errorf("bedrock embeddings: no AWS credentials configured")
	}
	base := cfg.Endpoint
	if base == "" {
		base = "https://bedrock-runtime." + awsCfg.Region + ".amazonaws.com"
	}
	u, err := url.Parse(strings.TrimRight(base, "/"))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("bedrock embeddings: endpoint %q is not an http(s) URL", base)
	}
	// The model id goes in one path segment with ':' escaped, as the
	// SDK's REST serializer writes it.
	u.RawPath = u.Path + "/model/" + strings.ReplaceAll(url.PathEscape(b.model), ":", "%3A") + "/invoke"
	u.Path += "/model/" + b.model + "/invoke"
	b.creds, b.region, b.url = awsCfg.Credentials, awsCfg.Region, u
	b.signer, b.http = v4.NewSigner(), &http.Client{}
	return b, nil
}

// Name implements Embedder.
func (b *Bedrock) Name() string { return ProviderBedrock + ":" + b.model }

// Dimensions implements Embedder.
func (b *Bedrock) Dimensions() int { return b.dims }

type titanRequest struct {
	InputText  string `json:"inputText"`
	Dimensions int    `json:"dimensions"`
	Normalize  bool   `json:"normalize"`
}

type titanResponse struct {
	Embedding           []float32 `json:"embedding"`
	InputTextTokenCount int       `json:"inputTextTokenCount"`
}

// Embed implements Embedder, with up to four InvokeModel calls in flight.
func (b *Bedrock) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	if err := checkTexts(ProviderBedrock, texts); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, b.cfg.timeout())
	defer cancel()
	out := make([][]float32, len(texts))
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(bedrockConcurrency)
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

func (b *Bedrock) embedOne(ctx context.Context, text string) ([]float32, error) {
	body, err := json.Marshal(titanRequest{InputText: text, Dimensions: b.dims, Normalize: true})
	if err != nil {
		return nil, &Error{Kind: KindBadRequest, Service: service, Provider: ProviderBedrock, Err: err}
	}
	var data []byte
	for attempt := 1; ; attempt++ {
		data, err = b.invoke(ctx, body)
		if err == nil || attempt == bedrockMaxAttempts || !retryable(err) {
			break
		}
		// Full jitter under an exponential cap: 100 ms, 200 ms, ... at
		// most bedrockMaxBackoff.
		wait := time.Duration(rand.Int64N(int64(min(bedrockMaxBackoff, 100*time.Millisecond<<(attempt-1)))))
		select {
		case <-ctx.Done():
			return nil, transportError(ProviderBedrock, ctx, ctx.Err())
		case <-time.After(wait):
		}
	}
	if err != nil {
		return nil, err
	}
	var ans titanResponse
	if err := json.Unmarshal(data, &ans); err != nil {
		return nil, &Error{Kind: KindMalformed, Service: service, Provider: ProviderBedrock, Message: "answer is not Titan embeddings JSON", Err: err}
	}
	if len(ans.Embedding) != b.dims {
		return nil, &Error{Kind: KindMalformed, Service: service, Provider: ProviderBedrock, Message: fmt.Sprintf("embedding has %d dimensions, want %d", len(ans.Embedding), b.dims)}
	}
	return ans.Embedding, nil
}

// invoke makes one signed InvokeModel call and returns the answer's body.
func (b *Bedrock) invoke(ctx context.Context, body []byte) ([]byte, error) {
	u := *b.url
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u.String(), bytes.NewReader(body))
	if err != nil {
		return nil, &Error{Kind: KindBadRequest, Service: service, Provider: ProviderBedrock, Err: err}
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	creds, err := b.creds.Retrieve(ctx)
	if err != nil {
		return nil, &Error{Kind: KindAuth, Service: service, Provider: ProviderBedrock, Message: "no AWS credentials", Err: err}
	}
	sum := sha256.Sum256(body)
	if err := b.signer.SignHTTP(ctx, creds, req, hex.EncodeToString(sum[:]), "bedrock", b.region, time.Now()); err != nil {
		return nil, &Error{Kind: KindAuth, Service: service, Provider: ProviderBedrock, Message: "signing failed", Err: err}
	}
	resp, err := b.http.Do(req)
	if err != nil {
		return nil, transportError(ProviderBedrock, ctx, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxAnswerBytes))
	if err != nil {
		return nil, transportError(ProviderBedrock, ctx, err)
	}
	if resp.StatusCode != http.StatusOK {
		return nil, bedrockError(resp, data)
	}
	return data, nil
}

// bedrockError classifies an InvokeModel failure by its HTTP status, with
// the service's error type (X-Amzn-ErrorType, up to its first ':') and
// message kept for the logs.
func bedrockError(resp *http.Response, data []byte) error {
	code, _, _ := strings.Cut(resp.Header.Get("X-Amzn-ErrorType"), ":")
	var body struct {
		Message      string `json:"message"`
		MessageUpper string `json:"Message"`
	}
	_ = json.Unmarshal(data, &body)
	e := &Error{Kind: kindForStatus(resp.StatusCode), Service: service, Provider: ProviderBedrock, Status: resp.StatusCode,
		Message: strings.TrimSpace(code + " " + body.Message + body.MessageUpper)}
	switch code {
	case "ThrottlingException", "ServiceQuotaExceededException":
		e.Kind = KindThrottled
	case "ModelTimeoutException":
		e.Kind = KindTimeout
	}
	return e
}

// retryable reports whether a call that failed with err may succeed when
// made again: a 429, a 5xx or a dropped connection, as the SDK's standard
// retryer decides. An exceeded quota (400) is not retried.
func retryable(err error) bool {
	var e *Error
	if !errors.As(err, &e) {
		return false
	}
	return e.Status == http.StatusTooManyRequests || e.Status >= 500 || (e.Status == 0 && e.Kind == KindServer)
}
