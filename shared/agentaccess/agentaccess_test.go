package agentaccess_test

import (
	"strings"
	"testing"

	"github.com/agentmem/agentmem/shared/agentaccess"
	"github.com/agentmem/agentmem/shared/agentmem"
)

func TestCheck(t *testing.T) {
	t.Parallel()
	m, err := agentaccess.Parse(`{"nori":"arn:aws:iam::123456789012:role/agents/nori-task",
		"kai":"arn:aws:iam::123456789012:role/kai-task","miso":"arn:aws:iam::123456789012:role/kai-task"}`)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, caller, agent string
		allowed             bool
	}{
		{"a task acting as its agent", "arn:aws:sts::123456789012:assumed-role/nori-task/ecs-task-1", "nori", true},
		{"a task acting as another agent", "arn:aws:sts::123456789012:assumed-role/nori-task/ecs-task-1", "kai", false},
		{"a task acting as an unmapped agent", "arn:aws:sts::123456789012:assumed-role/nori-task/ecs-task-1", "someone", false},
		{"a shared role: both its agents", "arn:aws:sts::123456789012:assumed-role/kai-task/x", "miso", true},
		{"a shared role: not another's", "arn:aws:sts::123456789012:assumed-role/kai-task/x", "nori", false},
		{"the role ARN itself", "arn:aws:iam::123456789012:role/agents/nori-task", "kai", false},
		{"the same role name in another account", "arn:aws:sts::999999999999:assumed-role/nori-task/x", "kai", true},
		{"a role that maps to no agent (an operator)", "arn:aws:sts::123456789012:assumed-role/admin/alice", "kai", true},
		{"an IAM user", "arn:aws:iam::123456789012:user/alice", "kai", true},
		{"no caller (make dev)", "", "kai", true},
		{"a role name that is a prefix", "arn:aws:sts::123456789012:assumed-role/nori-task-2/x", "kai", true},
	}
	for _, tt := range tests {
		err := m.Check(tt.caller, tt.agent)
		if allowed := err == nil; allowed != tt.allowed {
			t.Errorf("%s: allowed %v (%v), want %v", tt.name, allowed, err, tt.allowed)
		}
		if err != nil && agentmem.ErrorCode(err) != agentmem.EForbidden {
			t.Errorf("%s: code %s, want forbidden", tt.name, agentmem.ErrorCode(err))
		}
	}
	// IAM role names are unique without regard to case, and the mapping
	// may spell one otherwise than the ARN the caller's session carries.
	spelt, err := agentaccess.Parse(`{"nori":"arn:aws:iam::123456789012:role/agents/Nori-Task"}`)
	if err != nil {
		t.Fatal(err)
	}
	for _, caller := range []string{"arn:aws:sts::123456789012:assumed-role/nori-task/ecs-1", "arn:aws:sts::123456789012:assumed-role/NORI-TASK/ecs-1"} {
		if err := spelt.Check(caller, "kai"); agentmem.ErrorCode(err) != agentmem.EForbidden {
			t.Errorf("%s acting as kai, mapping spelt Nori-Task: got %v, want forbidden", caller, err)
		}
		if err := spelt.Check(caller, "nori"); err != nil {
			t.Errorf("%s acting as nori, mapping spelt Nori-Task: %v", caller, err)
		}
	}
	var none *agentaccess.Map
	if err := none.Check("arn:aws:sts::1:assumed-role/x/y", "kai"); err != nil {
		t.Errorf("no mapping: %v", err)
	}
}

func TestCheckOperator(t *testing.T) {
	t.Parallel()
	m, err := agentaccess.Parse(`{"nori":"arn:aws:iam::123456789012:role/nori-task"}`)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, caller string
		allowed      bool
	}{
		{"an agent's task", "arn:aws:sts::123456789012:assumed-role/nori-task/ecs-task-1", false},
		{"an agent's task, role spelt otherwise", "arn:aws:sts::123456789012:assumed-role/Nori-Task/ecs-task-1", false},
		{"an operator", "arn:aws:sts::123456789012:assumed-role/admin/alice", true},
		{"an IAM user", "arn:aws:iam::123456789012:user/alice", true},
		{"no caller (make dev)", "", true},
	}
	for _, tt := range tests {
		err := m.CheckOperator(tt.caller, "GET /api/stats")
		if allowed := err == nil; allowed != tt.allowed {
			t.Errorf("%s: allowed %v (%v), want %v", tt.name, allowed, err, tt.allowed)
		}
		if err != nil && (agentmem.ErrorCode(err) != agentmem.EForbidden || !strings.Contains(agentmem.ErrorMessage(err), "GET /api/stats")) {
			t.Errorf("%s: %v, want forbidden naming the route", tt.name, err)
		}
	}
	var none *agentaccess.Map
	if err := none.CheckOperator("arn:aws:sts::1:assumed-role/x/y", "GET /api/stats"); err != nil {
		t.Errorf("no mapping: %v", err)
	}
}

func TestParse(t *testing.T) {
	t.Parallel()
	for _, bad := range []string{
		`{"nori":"arn:aws:iam::123456789012:user/nori"}`,
		`{"no#ri":"arn:aws:iam::123456789012:role/x"}`,
		`{"nori":"not an arn"}`,
		`["nori"]`,
		`{"nori":1}`,
		`{"nori":"arn:aws:iam::123456789012:role/nori-task","nori":"arn:aws:iam::123456789012:role/kai-task"}`,
		`{"nori":"arn:aws:iam::123456789012:role/nori-task"} {"kai":"arn:aws:iam::123456789012:role/kai-task"}`,
		`{"nori":"arn:aws:iam::123456789012:role/nori-task"`,
	} {
		if _, err := agentaccess.Parse(bad); err == nil {
			t.Errorf("Parse(%s) accepted", bad)
		}
	}
	m, err := agentaccess.Parse(` `)
	if err != nil || m != nil {
		t.Errorf("empty: %v, %v", m, err)
	}
	m, err = agentaccess.Parse(`{"b":"arn:aws:iam::1:role/r","a":"arn:aws:iam::1:role/r"}`)
	if err != nil || m.String() != `{"a":"arn:aws:iam::1:role/r","b":"arn:aws:iam::1:role/r"}` {
		t.Errorf("round trip: %v, %v", m, err)
	}
}
