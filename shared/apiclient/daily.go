package apiclient

import (
	"context"
	"net/http"
	"net/url"

	"github.com/agentmem/agentmem/shared/agentmem"
)

// AppendDaily appends a record to the agent's daily log (POST .../daily);
// in.At, when set, places it in time (default: now). The call carries an
// idempotency key (in.ClientToken, or a fresh one), so that its retries
// never append the record twice.
func (c *Client) AppendDaily(ctx context.Context, agent string, in agentmem.DailyInput) (agentmem.DailyRecord, error) {
	var rec agentmem.DailyRecord
	err := c.Do(ctx, Call{Method: http.MethodPost, Path: AgentPath(agent, "daily"), Body: in, IdempotencyKey: keyFor(in.ClientToken)}, &rec)
	return rec, err
}

// GetDaily returns one day of the agent's daily log (GET .../daily); an
// *Error with code not_found for a day with nothing.
func (c *Client) GetDaily(ctx context.Context, agent, project, date string) (agentmem.DailyDay, error) {
	var day agentmem.DailyDay
	err := c.Do(ctx, Call{Method: http.MethodGet, Path: AgentPath(agent, "daily"), Query: dailyQuery(project, date)}, &day)
	return day, err
}

// DailyMarkdown returns one day of the daily log as seed 001's document
// ("# Daily Memory: YYYY-MM-DD", a "## <title> (HH:MM)" block per record).
func (c *Client) DailyMarkdown(ctx context.Context, agent, project, date string) (string, error) {
	resp, err := c.DoRaw(ctx, Call{Method: http.MethodGet, Path: AgentPath(agent, "daily"),
		Query: dailyQuery(project, date), Accept: "text/markdown"})
	if err != nil {
		return "", err
	}
	return string(resp.Body), nil
}

func dailyQuery(project, date string) url.Values {
	q := url.Values{"projectId": {project}}
	if date != "" {
		q.Set("date", date)
	}
	return q
}
