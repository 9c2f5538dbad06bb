package apiclient

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	v4 "github.com/aws/aws-sdk-go-v2/aws/signer/v4"
)

// Authorizer adds authorization to a request about to be sent; body is
// the exact payload (nil for none).
type Authorizer interface {
	Authorize(ctx context.Context, req *http.Request, body []byte) error
}

// NoAuth sends requests as they are (make dev, AGENTMEM_AUTH=none).
type NoAuth struct{}

// Authorize implements Authorizer.
func (NoAuth) Authorize(context.Context, *http.Request, []byte) error { return nil }

var _ Authorizer = NoAuth{}

// ServiceExecuteAPI is the SigV4 service name of API Gateway's IAM
// authorization.
const ServiceExecuteAPI = "execute-api"

// SigV4 signs requests with AWS Signature Version 4, as API Gateway's IAM
// authorization checks them.
type SigV4 struct {
	Credentials aws.CredentialsProvider
	Region      string
	// Service is the signing name; ServiceExecuteAPI for the agentmem API.
	Service string
	Signer  *v4.Signer
	// Now is the signing clock (time.Now when nil).
	Now func() time.Time
}

var _ Authorizer = (*SigV4)(nil)

// NewSigV4 returns a signer for the API at host with the credentials of
// awsCfg, the process's AWS configuration (awsconfig.Load: the default
// credential chain). The region is, in order: region when not empty, the
// region in an execute-api host name, awsCfg's region (AWS_REGION,
// AWS_DEFAULT_REGION, the shared config file).
func NewSigV4(awsCfg aws.Config, host, region string) (*SigV4, error) {
	if region == "" {
		region = RegionFromHost(host)
	}
	if region == "" {
		region = awsCfg.Region
	}
	if region == "" {
		return nil, fmt.Errorf("cannot tell the SigV4 signing region for %s: set AWS_REGION or AGENTMEM_REGION (or AGENTMEM_AUTH=none for a local dev server)", host)
	}
	return &SigV4{Credentials: awsCfg.Credentials, Region: region, Service: ServiceExecuteAPI, Signer: v4.NewSigner()}, nil
}

// Authorize signs req, whose payload is body, in place.
func (s *SigV4) Authorize(ctx context.Context, req *http.Request, body []byte) error {
	if s.Credentials == nil {
		return errors.New("no AWS credentials configured (set AGENTMEM_AUTH=none for a local dev server)")
	}
	creds, err := s.Credentials.Retrieve(ctx)
	if err != nil {
		return fmt.Errorf("get AWS credentials for SigV4 (set AGENTMEM_AUTH=none for a local dev server): %w", err)
	}
	now := time.Now
	if s.Now != nil {
		now = s.Now
	}
	if err := s.Signer.SignHTTP(ctx, creds, req, PayloadHash(body), s.Service, s.Region, now()); err != nil {
		return fmt.Errorf("sign request: %w", err)
	}
	return nil
}

// PayloadHash is the hex SHA-256 of body that SigV4 signs.
func PayloadHash(body []byte) string {
	sum := sha256.Sum256(body)
	return hex.EncodeToString(sum[:])
}

// executeAPIHost matches API Gateway's default host names, public
// ({id}.execute-api.{region}.amazonaws.com[.cn]) and private
// ({id}-{vpce}.execute-api.{region}.vpce.amazonaws.com).
var executeAPIHost = regexp.MustCompile(`^[a-z0-9-]+\.execute-api\.([a-z0-9-]+)\.(?:vpce\.)?amazonaws\.com(?:\.cn)?$`)

// RegionFromHost returns the region of an execute-api host name, or "".
func RegionFromHost(host string) string {
	if m := executeAPIHost.FindStringSubmatch(host); m != nil {
		return m[1]
	}
	return ""
}
