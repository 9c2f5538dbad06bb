package awsconfig_test

import (
	"context"
	"errors"
	"net"
	"net/http"
	"testing"

	"github.com/agentmem/agentmem/shared/awsconfig"
	"github.com/aws/aws-sdk-go-v2/aws"
	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	"github.com/aws/smithy-go"
	smithyhttp "github.com/aws/smithy-go/transport/http"
)

func TestRetryerPolicy(t *testing.T) {
	t.Parallel()
	r := awsconfig.NewRetryer()
	if got := r.MaxAttempts(); got != awsconfig.MaxAttempts {
		t.Errorf("MaxAttempts: got %d, want %d", got, awsconfig.MaxAttempts)
	}
	for attempt := 1; attempt < awsconfig.MaxAttempts; attempt++ {
		d, err := r.RetryDelay(attempt, errors.New("x"))
		want := awsconfig.Backoff.Base << (attempt - 1)
		if want > awsconfig.Backoff.Max {
			want = awsconfig.Backoff.Max
		}
		if err != nil || d < want/2 || d > want {
			t.Errorf("RetryDelay(%d): got %v, %v; want within [%v, %v]", attempt, d, err, want/2, want)
		}
	}
	status := func(code int) error {
		return &awshttp.ResponseError{ResponseError: &smithyhttp.ResponseError{Response: &smithyhttp.Response{Response: &http.Response{StatusCode: code}}, Err: errors.New("x")}}
	}
	tests := []struct {
		name string
		err  error
		want bool
	}{
		{"throttled", &smithy.GenericAPIError{Code: "ThrottlingException"}, true},
		{"provisioned throughput", &smithy.GenericAPIError{Code: "ProvisionedThroughputExceededException"}, true},
		{"503", status(503), true},
		{"dropped connection", &net.OpError{Op: "dial", Err: errors.New("connection refused")}, true},
		{"refused", &smithy.GenericAPIError{Code: "ValidationException"}, false},
		{"canceled", &aws.RequestCanceledError{Err: context.Canceled}, false},
	}
	for _, tt := range tests {
		if got := r.IsErrorRetryable(tt.err); got != tt.want {
			t.Errorf("%s: retryable %v, want %v", tt.name, got, tt.want)
		}
	}
	// Every retry is allowed: no client-side quota runs out.
	for i := range 500 {
		release, err := r.GetRetryToken(context.Background(), &smithy.GenericAPIError{Code: "ThrottlingException"})
		if err != nil {
			t.Fatalf("retry %d: %v; want no retry quota", i, err)
		}
		_ = release(errors.New("failed again"))
	}
}

func TestLoadOncePerProcess(t *testing.T) {
	t.Setenv("AWS_REGION", "eu-west-3")
	t.Setenv("AWS_CONFIG_FILE", t.TempDir()+"/none")
	t.Setenv("AWS_SHARED_CREDENTIALS_FILE", t.TempDir()+"/none")
	first, err := awsconfig.Load(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if first.Region != "eu-west-3" || first.Retryer == nil || first.Retryer().MaxAttempts() != awsconfig.MaxAttempts {
		t.Errorf("got region %q; want the environment's region and the policy's retryer", first.Region)
	}
	t.Setenv("AWS_REGION", "us-west-1")
	again, err := awsconfig.Load(context.Background())
	if err != nil || again.Region != "eu-west-3" {
		t.Errorf("second Load: got region %q, %v; want the configuration loaded first", again.Region, err)
	}
}
