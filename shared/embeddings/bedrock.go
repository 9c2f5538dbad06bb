package embeddings

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/aws/retry"
	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	"github.com/aws/aws-sdk-go-v2/service/bedrockruntime"
	"github.com/aws/smithy-go"
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
// Bedrock runtime's InvokeModel: one call per text, body
// {"inputText","dimensions","normalize":true}, answer
// {"embedding":[...],"inputTextTokenCount":n}.
type Bedrock struct {
	client *bedrockruntime.Client
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
	b.client = bedrockruntime.NewFromConfig(awsCfg, func(o *bedrockruntime.Options) {
		if cfg.Endpoint != "" {
			o.BaseEndpoint = aws.String(cfg.Endpoint)
		}
		o.Retryer = retry.NewStandard(func(so *retry.StandardOptions) {
			so.MaxAttempts = bedrockMaxAttempts
			so.MaxBackoff = bedrockMaxBackoff
		})
	})
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
		return nil, &Error{Kind: KindBadRequest, Provider: ProviderBedrock, Err: err}
	}
	resp, err := b.client.InvokeModel(ctx, &bedrockruntime.InvokeModelInput{
		ModelId:     aws.String(b.model),
		Body:        body,
		ContentType: aws.String("application/json"),
		Accept:      aws.String("application/json"),
	})
	if err != nil {
		return nil, bedrockError(ctx, err)
	}
	var ans titanResponse
	if err := json.Unmarshal(resp.Body, &ans); err != nil {
		return nil, &Error{Kind: KindMalformed, Provider: ProviderBedrock, Message: "answer is not Titan embeddings JSON", Err: err}
	}
	if len(ans.Embedding) != b.dims {
		return nil, &Error{Kind: KindMalformed, Provider: ProviderBedrock, Message: fmt.Sprintf("embedding has %d dimensions, want %d", len(ans.Embedding), b.dims)}
	}
	return ans.Embedding, nil
}

// bedrockError classifies an InvokeModel failure by its HTTP status, with
// the service's error code and message kept for the logs.
func bedrockError(ctx context.Context, err error) error {
	var re *awshttp.ResponseError
	if !errors.As(err, &re) || re.HTTPStatusCode() == 0 {
		return transportError(ProviderBedrock, ctx, err)
	}
	e := &Error{Kind: kindForStatus(re.HTTPStatusCode()), Provider: ProviderBedrock, Status: re.HTTPStatusCode(), Err: err}
	var api smithy.APIError
	if errors.As(err, &api) {
		e.Message = api.ErrorCode()
		if api.ErrorCode() == "ThrottlingException" || api.ErrorCode() == "ServiceQuotaExceededException" {
			e.Kind = KindThrottled
		}
		if api.ErrorCode() == "ModelTimeoutException" {
			e.Kind = KindTimeout
		}
	}
	return e
}
