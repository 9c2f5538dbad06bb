// Package agentaccess maps agents to the IAM roles their tasks run as, so
// that the API can refuse one agent's task acting for another agent: when
// the mapping is configured (AGENTMEM_AGENT_ROLES, which the stack sets
// from its agentRoles context), a caller whose IAM role is mapped may use
// the /api/agents/<name>/... routes of the agents mapped to that role
// only. Callers whose role is not mapped (people, operators, a role shared
// by every agent) are left to IAM, which authorized the route already.
//
// The mapping is a JSON object from agent name to role ARN:
//
//	{"nori": "arn:aws:iam::123456789012:role/agents/nori-task",
//	 "kai":  "arn:aws:iam::123456789012:role/agents/kai-task"}
//
// Several agents may share a role. A caller is identified by the ARN API
// Gateway's IAM authorizer reports (requestContext.authorizer.iam.userArn):
// for a task role, "arn:aws:sts::<account>:assumed-role/<role name>/<session>".
// Role names are unique in an account without regard to case (IAM refuses
// "Nori-Task" beside "nori-task"), so account and role name, compared
// without regard to case, identify the role, whatever its path and however
// the mapping spells it.
package agentaccess

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"sort"
	"strings"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/strictjson"
)

// Map is a parsed agent-to-role mapping. The zero value and nil restrict
// nobody.
type Map struct {
	roles  map[string]string   // agent -> role ARN, as given
	agents map[string][]string // account/role name -> agents, sorted
}

// Parse reads a mapping (JSON object, agent name to IAM role ARN); ""
// gives nil, which restricts nobody.
func Parse(s string) (*Map, error) {
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	var roles map[string]string
	// Strictly: an agent given twice (the last would win, leaving the
	// other role unmapped and so unrestricted) or a second object is
	// refused.
	if err := strictjson.Check([]byte(strings.TrimSpace(s)), reflect.TypeOf(roles), "agent roles"); err != nil {
		return nil, fmt.Errorf("agent roles: want a JSON object of agent name to IAM role ARN: %s", agentmem.ErrorMessage(err))
	}
	if err := json.Unmarshal([]byte(s), &roles); err != nil {
		return nil, fmt.Errorf("agent roles: want a JSON object of agent name to IAM role ARN: %w", err)
	}
	return New(roles)
}

// New builds a mapping from agent names to role ARNs.
func New(roles map[string]string) (*Map, error) {
	m := &Map{roles: map[string]string{}, agents: map[string][]string{}}
	for agent, arn := range roles {
		if err := agentmem.ValidateAgentName(agent); err != nil {
			return nil, fmt.Errorf("agent roles: %s", agentmem.ErrorMessage(err))
		}
		key, ok := RoleKey(arn)
		if !ok || !strings.Contains(arn, ":iam::") || !strings.Contains(arn, ":role/") {
			return nil, fmt.Errorf("agent roles: %s: %q is not an IAM role ARN (arn:aws:iam::<account>:role/<name>)", agent, arn)
		}
		m.roles[agent] = arn
		m.agents[key] = append(m.agents[key], agent)
	}
	for _, list := range m.agents {
		sort.Strings(list)
	}
	return m, nil
}

// RoleKey returns "<account>/<role name in lower case>" for an IAM role ARN
// (arn:<partition>:iam::<account>:role/<path>/<name>) or an assumed-role
// session ARN (arn:<partition>:sts::<account>:assumed-role/<name>/<session>);
// ok is false for any other ARN (a user, a service).
func RoleKey(arn string) (string, bool) {
	account, name, ok := roleOf(arn)
	return account + "/" + strings.ToLower(name), ok
}

// roleOf returns the account and the role name, as written, of a role or
// assumed-role ARN.
func roleOf(arn string) (account, name string, ok bool) {
	parts := strings.SplitN(arn, ":", 6)
	if len(parts) != 6 || parts[0] != "arn" || parts[4] == "" {
		return "", "", false
	}
	account, resource := parts[4], parts[5]
	switch {
	case parts[2] == "iam" && strings.HasPrefix(resource, "role/"):
		segs := strings.Split(resource, "/")
		name = segs[len(segs)-1]
		return account, name, name != ""
	case parts[2] == "sts" && strings.HasPrefix(resource, "assumed-role/"):
		segs := strings.Split(resource, "/")
		if len(segs) < 3 || segs[1] == "" {
			return "", "", false
		}
		return account, segs[1], true
	}
	return "", "", false
}

// Check returns agentmem.EForbidden when caller (an IAM ARN) is the role of
// some agents and agentName is not one of them; nil otherwise.
func (m *Map) Check(caller, agentName string) error {
	agents, role, mapped := m.agentsOf(caller)
	if !mapped || slices.Contains(agents, agentName) {
		return nil
	}
	return agentmem.Errorf(agentmem.EForbidden, "the role %s is the task role of agent %s: it may not read or write the memory of agent %s",
		role, strings.Join(agents, ", "), agentName)
}

// CheckOperator returns agentmem.EForbidden when caller (an IAM ARN) is the
// role of some agents: route (for the message) is one of the routes for
// people and operators, which no agent's task is granted (deleting
// memories, reading one by id, dreams, personalities, the totals of every
// scope, recounts); nil otherwise.
func (m *Map) CheckOperator(caller, route string) error {
	agents, role, mapped := m.agentsOf(caller)
	if !mapped {
		return nil
	}
	return agentmem.Errorf(agentmem.EForbidden, "the role %s is the task role of agent %s: %s is for people and operators, not for agents' tasks",
		role, strings.Join(agents, ", "), route)
}

// agentsOf returns the agents whose task role caller (an IAM ARN) is, and
// the role's name; mapped is false when it is no agent's role (or m is
// nil).
func (m *Map) agentsOf(caller string) (agents []string, role string, mapped bool) {
	if m == nil {
		return nil, "", false
	}
	key, ok := RoleKey(caller)
	if !ok {
		return nil, "", false
	}
	if agents, mapped = m.agents[key]; !mapped {
		return nil, "", false
	}
	_, role, _ = roleOf(caller)
	return agents, role, true
}

// Roles returns the mapping, agent name to role ARN.
func (m *Map) Roles() map[string]string {
	out := map[string]string{}
	if m != nil {
		for k, v := range m.roles {
			out[k] = v
		}
	}
	return out
}

// String encodes the mapping as the setting takes it (JSON, keys sorted).
func (m *Map) String() string {
	b, _ := json.Marshal(m.Roles())
	return string(b)
}
