package lambdarun_test

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/agentmem/agentmem/infra/lambdarun"
	"github.com/agentmem/agentmem/shared/dynamotest"
)

// BenchmarkColdStart measures, for each function, the time from starting
// its bootstrap binary under the Runtime API stand-in to its response to
// its first sample event (an API read where there is one), over DynamoDB
// Local: process start, Go runtime and handler initialization, and one
// request. It also reports the binary's size (built for the host here;
// docs/BENCHMARKS.md gives the linux/arm64 sizes of `make build`).
//
//	go run ./tools/ddblocal -- go test -run='^$' -bench=ColdStart -benchtime=20x ./infra/lambdarun/
func BenchmarkColdStart(b *testing.B) {
	for _, fn := range functionDirs(b) {
		b.Run(fn, func(b *testing.B) {
			bin := bootstrap(b, fn)
			info, err := os.Stat(bin)
			if err != nil {
				b.Fatal(err)
			}
			store := dynamotest.NewStore(b)
			evs := sampleEvents(b, fn)
			if len(evs) == 0 {
				b.Fatalf("no events in events/%s", fn)
			}
			first := evs[0]
			for _, ev := range evs {
				if ev.route != nil && ev.route.Method == "GET" {
					first = ev
					break
				}
			}
			ctx := context.Background()
			var total time.Duration
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				rt, err := lambdarun.Start(lambdarun.Options{Binary: bin, Env: dynamotest.Env(store.Config()), FunctionName: fn})
				if err != nil {
					b.Fatal(err)
				}
				res, err := rt.Invoke(ctx, first.raw)
				total += time.Since(rt.Started())
				if err != nil || res.Err != nil {
					b.Fatalf("%s: %v %v\n%s", first.file, err, res.Err, rt.Logs())
				}
				rt.Close()
			}
			b.ReportMetric(float64(total.Microseconds())/1000/float64(b.N), "ms/first-response")
			b.ReportMetric(float64(info.Size())/(1<<20), "MB-host-binary")
		})
	}
}
