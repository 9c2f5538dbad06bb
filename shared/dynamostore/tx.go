package dynamostore

import (
	"context"
	"errors"
	"math/rand/v2"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/guregu/dynamo/v2"
)

// maxTxAttempts bounds the retries of a write transaction that collided
// with another transaction on the same item.
const maxTxAttempts = 8

// runTx runs the transaction build returns, building and running it again
// when DynamoDB cancels it for a conflict with a concurrent transaction
// (the SDK does not retry those). Condition failures are returned at once.
func (s *Store) runTx(ctx context.Context, build func() *dynamo.WriteTx) error {
	for attempt := 1; ; attempt++ {
		err := build().Run(ctx)
		if err == nil || attempt == maxTxAttempts || !txConflict(err) {
			return err
		}
		// Back off 5..10 ms times the attempt, spread by randomness.
		d := time.Duration(attempt) * (5*time.Millisecond + time.Duration(rand.IntN(5000))*time.Microsecond)
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(d):
		}
	}
}

// txReasons returns the cancellation reasons of a cancelled transaction.
func txReasons(err error) []types.CancellationReason {
	var txe *types.TransactionCanceledException
	if errors.As(err, &txe) {
		return txe.CancellationReasons
	}
	return nil
}

func txConflict(err error) bool {
	for _, r := range txReasons(err) {
		if r.Code != nil && *r.Code == "TransactionConflict" {
			return true
		}
	}
	return false
}
