package dynamostore_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/awsconfig"
	"github.com/agentmem/agentmem/shared/dynamostore"
	"github.com/aws/aws-sdk-go-v2/aws"
)

// txServer speaks DynamoDB's JSON protocol for TransactWriteItems: it
// cancels the first len(reasons) transactions with those cancellation
// reasons, as DynamoDB does (HTTP 400, TransactionCanceledException with
// one reason per item), and accepts the rest. DynamoDB Local serializes
// transactions and never reports a conflict, so the retry of conflicts is
// tested against this stand-in.
func txServer(t *testing.T, reasons ...string) (*httptest.Server, *atomic.Int32) {
	t.Helper()
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if target := r.Header.Get("X-Amz-Target"); target != "DynamoDB_20120810.TransactWriteItems" {
			t.Errorf("got %s, want TransactWriteItems", target)
		}
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/x-amz-json-1.0")
		n := int(calls.Add(1))
		if n > len(reasons) {
			_, _ = io.WriteString(w, `{}`)
			return
		}
		w.WriteHeader(http.StatusBadRequest)
		_ = json.NewEncoder(w).Encode(map[string]any{
			"__type":              "com.amazonaws.dynamodb.v20120810#TransactionCanceledException",
			"Message":             "Transaction cancelled, please refer cancellation reasons for specific reasons [None, " + reasons[n-1] + "]",
			"CancellationReasons": []map[string]string{{"Code": "None"}, {"Code": reasons[n-1], "Message": "on purpose"}},
		})
	}))
	t.Cleanup(srv.Close)
	return srv, &calls
}

// TestTransactionConflictsAreRetried: a write transaction cancelled
// because a concurrent one touched the same item is sent again by the
// client's retryer (the process's AWS policy plus dynamo.RetryTxConflicts),
// at most awsconfig.MaxAttempts times; a failed condition is not retried.
func TestTransactionConflictsAreRetried(t *testing.T) {
	t.Parallel()
	conflict := "TransactionConflict"
	tests := []struct {
		name    string
		reasons []string
		calls   int32
		code    string // "" for success
	}{
		{"two conflicts then committed", []string{conflict, conflict}, 3, ""},
		{"conflicts every time", []string{conflict, conflict, conflict, conflict, conflict, conflict}, awsconfig.MaxAttempts, "error"},
		{"condition failed", []string{"ConditionalCheckFailed"}, 1, agentmem.EConflict},
		{"validation error", []string{"ValidationError"}, 1, "error"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv, calls := txServer(t, tt.reasons...)
			st := dynamostore.New(aws.Config{Retryer: func() aws.Retryer { return awsconfig.NewRetryer() }},
				dynamostore.Config{MemoriesTable: "m", PersonalitiesTable: "p", JournalTable: "j", Endpoint: srv.URL})
			_, err := st.AppendDaily(context.Background(), agentmem.DailyRecord{AgentName: "nori", ProjectID: "p", Title: "t", Content: "c"})
			switch {
			case tt.code == "" && err != nil:
				t.Errorf("got %v, want the transaction committed", err)
			case tt.code == agentmem.EConflict && agentmem.ErrorCode(err) != agentmem.EConflict:
				t.Errorf("got %v, want %s", err, agentmem.EConflict)
			case tt.code == "error" && (err == nil || !strings.Contains(err.Error(), tt.reasons[0])):
				t.Errorf("got %v, want the cancellation", err)
			}
			if got := calls.Load(); got != tt.calls {
				t.Errorf("got %d TransactWriteItems calls, want %d", got, tt.calls)
			}
		})
	}
}
