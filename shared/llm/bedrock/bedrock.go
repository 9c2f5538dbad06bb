// Package bedrock is the llm.Client of Amazon Bedrock's Converse API.
package bedrock

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/agentmem/agentmem/shared/backoff"
	"github.com/agentmem/agentmem/shared/llm"
	"github.com/aws/aws-sdk-go-v2/aws"
	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	"github.com/aws/aws-sdk-go-v2/service/bedrockruntime"
	"github.com/aws/aws-sdk-go-v2/service/bedrockruntime/types"
	"github.com/aws/smithy-go"
)

// Client is a client of the Amazon Bedrock Converse API (POST
// /model/{modelId}/converse, SigV4-signed for service "bedrock"). It is
// the default provider in AWS: the function's role grants
// bedrock:InvokeModel, so there is no secret to manage. cfg.Model is a
// foundation model id or an inference profile id.
type Client struct {
	cfg    llm.Config
	client *bedrockruntime.Client
}

var _ llm.Client = (*Client)(nil)

// New returns a Bedrock Converse client over awsCfg, the process's AWS
// configuration (awsconfig.Load: credentials from the environment or the
// function's role), in cfg.Region when set (Bedrock may be called in
// another region than the function's), else awsCfg's region.
// cfg.Endpoint overrides the service endpoint (VPC endpoints, tests).
// optFns adjust the SDK client.
//
// The SDK's own retries are off: model calls retry as llm.Retry says.
func New(awsCfg aws.Config, cfg llm.Config, optFns ...func(*bedrockruntime.Options)) (*Client, error) {
	if cfg.Model == "" {
		return nil, fmt.Errorf("bedrock: AGENTMEM_LLM_MODEL is required (a model or inference profile id, e.g. us.anthropic.claude-haiku-4-5-20251001-v1:0)")
	}
	opts := []func(*bedrockruntime.Options){func(o *bedrockruntime.Options) {
		o.RetryMaxAttempts = 1
		if cfg.Region != "" {
			o.Region = cfg.Region
		}
		if cfg.Endpoint != "" {
			o.BaseEndpoint = aws.String(cfg.Endpoint)
		}
	}}
	client := bedrockruntime.NewFromConfig(awsCfg, append(opts, optFns...)...)
	if client.Options().Region == "" {
		return nil, fmt.Errorf("bedrock: no AWS region configured (set AWS_REGION)")
	}
	return &Client{cfg: cfg, client: client}, nil
}

// Name implements llm.Client.
func (c *Client) Name() string { return llm.ProviderBedrock + ":" + c.cfg.Model }

// Complete implements llm.Client.
func (c *Client) Complete(ctx context.Context, req llm.Request) (llm.Response, error) {
	ctx, cancel := context.WithTimeout(ctx, c.cfg.TimeoutOrDefault())
	defer cancel()
	in := &bedrockruntime.ConverseInput{
		ModelId: aws.String(c.cfg.Model),
		Messages: []types.Message{{
			Role:    types.ConversationRoleUser,
			Content: []types.ContentBlock{&types.ContentBlockMemberText{Value: req.Prompt}},
		}},
		InferenceConfig: &types.InferenceConfiguration{
			MaxTokens:   aws.Int32(int32(c.cfg.MaxTokensFor(req))),
			Temperature: aws.Float32(float32(req.Temperature)),
		},
	}
	if req.System != "" {
		in.System = []types.SystemContentBlock{&types.SystemContentBlockMemberText{Value: req.System}}
	}
	out, err := c.client.Converse(ctx, in)
	if err != nil {
		return llm.Response{}, bedrockError(ctx, err)
	}
	msg, ok := out.Output.(*types.ConverseOutputMemberMessage)
	if !ok {
		return llm.Response{}, &llm.Error{Kind: llm.KindMalformed, Provider: llm.ProviderBedrock, Status: http.StatusOK, Message: "answer has no output message"}
	}
	var text strings.Builder
	for _, block := range msg.Value.Content {
		if t, ok := block.(*types.ContentBlockMemberText); ok {
			text.WriteString(t.Value)
		}
	}
	stop := string(out.StopReason)
	if strings.TrimSpace(text.String()) == "" {
		return llm.Response{}, &llm.Error{Kind: llm.KindEmpty, Provider: llm.ProviderBedrock, Status: http.StatusOK, Message: "answer has no text (stopReason " + stop + ")"}
	}
	resp := llm.Response{Text: text.String(), Model: c.cfg.Model, StopReason: stop}
	if u := out.Usage; u != nil {
		resp.InputTokens = int(aws.ToInt32(u.InputTokens))
		resp.OutputTokens = int(aws.ToInt32(u.OutputTokens))
	}
	return resp, nil
}

// bedrockError classifies a Converse failure by the service's error code
// (the x-amzn-ErrorType of the answer), falling back on the HTTP status.
func bedrockError(ctx context.Context, err error) *llm.Error {
	if e := llm.ContextError(llm.ProviderBedrock, ctx, err); e != nil {
		return e
	}
	e := &llm.Error{Provider: llm.ProviderBedrock, Err: err}
	var re *awshttp.ResponseError
	if errors.As(err, &re) {
		e.Status = re.HTTPStatusCode()
		if re.Response != nil {
			e.RetryAfter = backoff.RetryAfter(re.Response.Header)
		}
	}
	var api smithy.APIError
	if !errors.As(err, &api) {
		if e.Status == 0 {
			e.Kind, e.Message = llm.KindServer, "request failed"
			return e
		}
		// An answer the SDK could not read (not JSON, say).
		e.Kind, e.Message = llm.KindMalformed, "answer is not Converse JSON"
		if e.Status >= 300 {
			e.Kind, e.Message = llm.StatusKind(e.Status), "HTTP error"
		}
		return e
	}
	e.Message = llm.ClipMessage(api.ErrorCode() + ": " + api.ErrorMessage())
	switch api.ErrorCode() {
	case "ThrottlingException", "ServiceQuotaExceededException", "ModelNotReadyException", "TooManyRequestsException":
		e.Kind = llm.KindThrottled
	case "AccessDeniedException", "UnrecognizedClientException", "InvalidSignatureException",
		"ExpiredTokenException", "MissingAuthenticationTokenException", "IncompleteSignature":
		e.Kind = llm.KindAuth
	case "ModelTimeoutException":
		e.Kind = llm.KindTimeout
	case "InternalServerException", "ServiceUnavailableException", "ModelErrorException", "ModelStreamErrorException":
		e.Kind = llm.KindServer
	case "ValidationException", "ResourceNotFoundException", "ConflictException":
		e.Kind = llm.KindBadRequest
	default:
		e.Kind = llm.StatusKind(e.Status)
	}
	return e
}
