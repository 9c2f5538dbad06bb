package dynamostore

import (
	"context"
	"errors"
	"io"
	"net"
	"syscall"
	"time"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"
	"github.com/aws/smithy-go/middleware"
	smithyhttp "github.com/aws/smithy-go/transport/http"
)

// unavailableRetryAfter is what a caller is told to wait after the
// database failed for a reason that passes.
const unavailableRetryAfter = time.Second

// markUnavailable adds to every DynamoDB call, outside its retries, a step
// that turns a failure that passes (the database unreachable, throttled,
// failing on its side, too slow for the request, or conflicting writes
// after every retry) into agentmem.EUnavailable wrapping the original, so
// that callers answer 503 with Retry-After instead of 500. Failed
// conditions and bad requests are left as they are.
func markUnavailable(stack *middleware.Stack) error {
	return stack.Initialize.Add(middleware.InitializeMiddlewareFunc("agentmemUnavailable",
		func(ctx context.Context, in middleware.InitializeInput, next middleware.InitializeHandler) (middleware.InitializeOutput, middleware.Metadata, error) {
			out, md, err := next.HandleInitialize(ctx, in)
			if err != nil && passes(err) {
				err = &agentmem.Error{Code: agentmem.EUnavailable, Message: "the database is unavailable or too slow right now; retry shortly",
					Err: err, RetryAfter: unavailableRetryAfter}
			}
			return out, md, err
		}), middleware.Before)
}

// passes reports whether a DynamoDB failure may pass if the call is made
// again later.
func passes(err error) bool {
	if errors.Is(err, context.Canceled) {
		return false // the caller went away
	}
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ECONNRESET) ||
		errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return true
	}
	var tce *types.TransactionCanceledException
	if errors.As(err, &tce) {
		transient := false
		for _, r := range tce.CancellationReasons {
			switch code := deref(r.Code); code {
			case "TransactionConflict", "ThrottlingError", "ProvisionedThroughputExceeded":
				transient = true
			case "None", "":
			default:
				return false // a failed condition, a validation error
			}
		}
		return transient
	}
	var send *smithyhttp.RequestSendError
	var netErr net.Error
	if errors.As(err, &send) || errors.As(err, &netErr) {
		return true
	}
	var api smithy.APIError
	if errors.As(err, &api) {
		switch api.ErrorCode() {
		case "ThrottlingException", "ProvisionedThroughputExceededException", "RequestLimitExceeded",
			"InternalServerError", "ServiceUnavailable", "TransactionInProgressException", "LimitExceededException":
			return true
		}
	}
	return false
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
