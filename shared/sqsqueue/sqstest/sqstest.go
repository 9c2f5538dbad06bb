// Package sqstest is an Amazon SQS stand-in for tests: an httptest server
// that speaks the SQS JSON protocol (POST /, X-Amz-Target
// AmazonSQS.SendMessageBatch, application/x-amz-json-1.0) as the real
// service documents it, including the MD5 digests the SDK verifies. It
// records what it received and can refuse entries.
package sqstest

import (
	"crypto/md5"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
)

// QueueURL is the queue URL the stand-in expects.
const QueueURL = "https://sqs.eu-west-1.amazonaws.com/123456789012/agentmem-dreams"

// Server is the stand-in.
type Server struct {
	*httptest.Server
	t testing.TB

	mu       sync.Mutex
	bodies   []string
	calls    int
	refusals map[string]Refusal
}

// Refusal makes the server refuse a message body: Times times (then it
// accepts it), or forever when SenderFault.
type Refusal struct {
	Times       int
	SenderFault bool
}

// NewServer starts a stand-in, closed when the test ends.
func NewServer(t testing.TB) *Server {
	s := &Server{t: t, refusals: map[string]Refusal{}}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.Close)
	return s
}

// Refuse sets how the server treats body.
func (s *Server) Refuse(body string, r Refusal) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.refusals[body] = r
}

// Bodies returns the message bodies accepted so far.
func (s *Server) Bodies() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.bodies...)
}

// Calls returns how many SendMessageBatch calls arrived.
func (s *Server) Calls() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.calls
}

// Client returns an SDK client pointed at the stand-in.
func (s *Server) Client() *sqs.Client {
	return sqs.New(sqs.Options{
		Region:       "eu-west-1",
		BaseEndpoint: aws.String(s.URL),
		Credentials:  credentials.NewStaticCredentialsProvider("AKIDEXAMPLE", "secret", ""),
	})
}

type batchRequest struct {
	QueueURL string `json:"QueueUrl"`
	Entries  []struct {
		ID          string `json:"Id"`
		MessageBody string `json:"MessageBody"`
	} `json:"Entries"`
}

type okEntry struct {
	ID               string `json:"Id"`
	MessageID        string `json:"MessageId"`
	MD5OfMessageBody string `json:"MD5OfMessageBody"`
}

type failedEntry struct {
	ID          string `json:"Id"`
	SenderFault bool   `json:"SenderFault"`
	Code        string `json:"Code"`
	Message     string `json:"Message"`
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	fail := func(status int, typ, msg string) {
		w.Header().Set("Content-Type", "application/x-amz-json-1.0")
		w.WriteHeader(status)
		fmt.Fprintf(w, `{"__type":"com.amazonaws.sqs#%s","message":%q}`, typ, msg)
	}
	if r.Method != http.MethodPost || r.URL.Path != "/" {
		s.t.Errorf("sqstest: got %s %s, want POST /", r.Method, r.URL.Path)
		fail(http.StatusBadRequest, "InvalidAction", "bad path")
		return
	}
	if got := r.Header.Get("X-Amz-Target"); got != "AmazonSQS.SendMessageBatch" {
		s.t.Errorf("sqstest: X-Amz-Target %q", got)
		fail(http.StatusBadRequest, "InvalidAction", "unsupported target "+got)
		return
	}
	if got := r.Header.Get("Content-Type"); got != "application/x-amz-json-1.0" {
		s.t.Errorf("sqstest: Content-Type %q", got)
	}
	if r.Header.Get("Authorization") == "" {
		s.t.Error("sqstest: request not signed")
	}
	raw, _ := io.ReadAll(r.Body)
	var req batchRequest
	if err := json.Unmarshal(raw, &req); err != nil {
		fail(http.StatusBadRequest, "InvalidParameterValue", err.Error())
		return
	}
	if req.QueueURL != QueueURL {
		fail(http.StatusBadRequest, "QueueDoesNotExist", "no queue "+req.QueueURL)
		return
	}
	if n := len(req.Entries); n == 0 || n > 10 {
		fail(http.StatusBadRequest, "TooManyEntriesInBatchRequest", fmt.Sprintf("%d entries", n))
		return
	}
	var out struct {
		Successful []okEntry     `json:"Successful"`
		Failed     []failedEntry `json:"Failed"`
	}
	out.Successful, out.Failed = []okEntry{}, []failedEntry{}
	s.mu.Lock()
	s.calls++
	for _, e := range req.Entries {
		if ref, ok := s.refusals[e.MessageBody]; ok && (ref.SenderFault || ref.Times > 0) {
			ref.Times--
			s.refusals[e.MessageBody] = ref
			code := "InternalError"
			if ref.SenderFault {
				code = "InvalidMessageContents"
			}
			out.Failed = append(out.Failed, failedEntry{ID: e.ID, SenderFault: ref.SenderFault, Code: code, Message: "refused by the test"})
			continue
		}
		sum := md5.Sum([]byte(e.MessageBody))
		s.bodies = append(s.bodies, e.MessageBody)
		out.Successful = append(out.Successful, okEntry{ID: e.ID, MessageID: fmt.Sprintf("msg-%d", len(s.bodies)), MD5OfMessageBody: hex.EncodeToString(sum[:])})
	}
	s.mu.Unlock()
	w.Header().Set("Content-Type", "application/x-amz-json-1.0")
	_ = json.NewEncoder(w).Encode(out)
}
