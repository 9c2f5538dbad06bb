// Command echo is a tiny Lambda function for the stand-in's own tests: it
// answers {"echo": x} with x, fails on {"fail": msg}, and exits at start
// when ECHO_EXIT_AT_START is set.
package main

import (
	"context"
	"errors"
	"os"

	"github.com/aws/aws-lambda-go/lambda"
	"github.com/aws/aws-lambda-go/lambdacontext"
)

type event struct {
	Echo string `json:"echo"`
	Fail string `json:"fail"`
}

type answer struct {
	Echo      string `json:"echo"`
	RequestID string `json:"requestId"`
}

func main() {
	if os.Getenv("ECHO_EXIT_AT_START") != "" {
		os.Exit(3)
	}
	lambda.Start(func(ctx context.Context, ev event) (answer, error) {
		if ev.Fail != "" {
			return answer{}, errors.New(ev.Fail)
		}
		lc, _ := lambdacontext.FromContext(ctx)
		return answer{Echo: ev.Echo, RequestID: lc.AwsRequestID}, nil
	})
}
