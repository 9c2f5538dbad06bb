package transcript_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/agentmem/agentmem/shared/transcript"
)

// BenchmarkParse reads a long session: the session.jsonl fixture repeated
// to about 10 MiB, each copy with its own message and tool ids (so that
// nothing is deduplicated away), then renders its summary.
func BenchmarkParse(b *testing.B) {
	one, err := os.ReadFile(filepath.Join("testdata", "session.jsonl"))
	if err != nil {
		b.Fatal(err)
	}
	var buf bytes.Buffer
	for i := 0; buf.Len() < 10<<20; i++ {
		copyN := bytes.ReplaceAll(one, []byte(`"msg_01`), []byte(fmt.Sprintf(`"msg_%d_`, i)))
		copyN = bytes.ReplaceAll(copyN, []byte(`"toolu_01`), []byte(fmt.Sprintf(`"toolu_%d_`, i)))
		buf.Write(copyN)
	}
	data := buf.Bytes()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		s, err := transcript.Parse(bytes.NewReader(data))
		if err != nil || s.Messages.Assistant == 0 {
			b.Fatalf("%v %+v", err, s.Messages)
		}
		_ = s.Summary()
	}
}
