package dynamostore_test

import (
	"context"
	"slices"
	"testing"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/dynamotest"
)

// TestListingsPagePastStoredDotNames: the name rule refuses "." and ".."
// now, but older writes stored them; a listing's cursor that stops on one
// still opens, so the items after it are not cut off.
func TestListingsPagePastStoredDotNames(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := dynamotest.NewStore(t)
	want := []string{"-a", ".", "..", "...", "a"}
	for _, name := range want {
		if _, _, err := s.PutPersonality(ctx, agentmem.Personality{AgentName: name, DisplayName: "N"}, nil); err != nil {
			t.Fatalf("put %q: %v", name, err)
		}
	}
	var got []string
	cursor := ""
	for range len(want) + 1 {
		page, err := s.ListPersonalities(ctx, 1, cursor)
		if err != nil {
			t.Fatalf("list after %v: %v", got, err)
		}
		for _, p := range page.Personalities {
			got = append(got, p.AgentName)
		}
		if cursor = page.NextCursor; cursor == "" {
			break
		}
	}
	if !slices.Equal(got, want) {
		t.Errorf("paged through %q, want %q", got, want)
	}
}
