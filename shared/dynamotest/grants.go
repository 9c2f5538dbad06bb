package dynamotest

import (
	"slices"
	"strings"

	"github.com/agentmem/agentmem/shared/tablegrants"
)

// Need is one permission a DynamoDB call needs.
type Need struct {
	Table tablegrants.Table
	// Action is the IAM action (ItemAction).
	Action string
	// Index is the index the call reads, "" for the table itself.
	Index string
	// Key is the partition key of the item the call touches (its key
	// condition for a Query), "" when the call names none.
	Key string
}

// String says what the need is, as in "dynamodb:Query on journal/index/pending-index".
func (n Need) String() string {
	s := n.Action + " on " + string(n.Table)
	if n.Index != "" {
		s += "/index/" + n.Index
	}
	if n.Key != "" {
		s += " (partition key " + n.Key + ")"
	}
	return s
}

// ItemAction is the IAM action one item of a DynamoDB call needs, from the
// call's operation (its X-Amz-Target, as "TransactWriteItems") and the
// item's kind: in a transaction Put, Update, Delete, ConditionCheck or
// Get; in a batch PutRequest or DeleteRequest (a batch needs the batch's
// own action); for any other call, the operation itself.
func ItemAction(operation, kind string) string {
	switch operation {
	case "TransactWriteItems", "TransactGetItems":
		switch kind {
		case "Put":
			return tablegrants.PutItem
		case "Update":
			return tablegrants.UpdateItem
		case "Delete":
			return tablegrants.DeleteItem
		case "ConditionCheck":
			return tablegrants.ConditionCheckItem
		case "Get":
			return tablegrants.GetItem
		}
	}
	return "dynamodb:" + operation
}

// allows reports whether gs allow n, as IAM would: the action on the table, or, for an
// index, dynamodb:Query on an index the grant names; and, when the grant
// has leading keys, only for a partition key that matches one of them.
func allows(gs tablegrants.Grants, n Need) bool {
	g, ok := gs[n.Table]
	if !ok {
		return false
	}
	if n.Index != "" {
		if n.Action != tablegrants.Query || !slices.Contains(g.Indexes, n.Index) {
			return false
		}
	} else if !slices.Contains(g.Actions, n.Action) {
		return false
	}
	if len(g.LeadingKeys) == 0 {
		return true
	}
	return slices.ContainsFunc(g.LeadingKeys, func(pattern string) bool { return like(pattern, n.Key) })
}

// like reports whether s matches an IAM StringLike pattern ("*" any run of
// characters, "?" one character).
func like(pattern, s string) bool {
	for pattern != "" {
		switch pattern[0] {
		case '*':
			rest := strings.TrimLeft(pattern, "*")
			if rest == "" {
				return true
			}
			for i := range len(s) + 1 {
				if like(rest, s[i:]) {
					return true
				}
			}
			return false
		case '?':
			if s == "" {
				return false
			}
			pattern, s = pattern[1:], s[1:]
		default:
			if s == "" || s[0] != pattern[0] {
				return false
			}
			pattern, s = pattern[1:], s[1:]
		}
	}
	return s == ""
}
