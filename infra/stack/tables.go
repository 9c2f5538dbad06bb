package stack

import (
	"strings"

	"github.com/agentmem/agentmem/shared/dynamostore"
	"github.com/aws/aws-cdk-go/awscdk/v2/awsdynamodb"
	"github.com/aws/aws-cdk-go/awscdk/v2/awsiam"
	"github.com/aws/aws-cdk-go/awscdk/v2/awskms"
	"github.com/aws/jsii-runtime-go"
)

// addTables defines the three tables from dynamostore's schema: on-demand,
// point-in-time recovery, deletion protection and RETAIN (unless
// throwaway), encrypted with an AWS owned key or the customer key given.
func (s *Stack) addTables() {
	if s.Config.TableKMSKeyARN != "" {
		s.TableKey = awskms.Key_FromKeyArn(s.Stack, jsii.String("TableKey"), jsii.String(s.Config.TableKMSKeyARN))
	}
	for _, ts := range s.Schema.Tables() {
		props := &awsdynamodb.TableProps{
			TableName:    jsii.String(ts.Name),
			PartitionKey: stringKey(ts.PartitionKey),
			BillingMode:  awsdynamodb.BillingMode_PAY_PER_REQUEST,
			PointInTimeRecoverySpecification: &awsdynamodb.PointInTimeRecoverySpecification{
				PointInTimeRecoveryEnabled: jsii.Bool(true),
			},
			DeletionProtection: jsii.Bool(!s.Config.Throwaway),
			RemovalPolicy:      s.removalPolicy(),
			Encryption:         awsdynamodb.TableEncryption_DEFAULT,
		}
		if ts.SortKey != "" {
			props.SortKey = stringKey(ts.SortKey)
		}
		if ts.TTLAttribute != "" {
			props.TimeToLiveAttribute = jsii.String(ts.TTLAttribute)
		}
		if s.TableKey != nil {
			props.Encryption = awsdynamodb.TableEncryption_CUSTOMER_MANAGED
			props.EncryptionKey = s.TableKey
		}
		table := awsdynamodb.NewTable(s.Stack, jsii.String(logicalName(ts.Name, s.Config.Stage)+"Table"), props)
		for _, ix := range ts.Indexes {
			gsi := &awsdynamodb.GlobalSecondaryIndexProps{
				IndexName:      jsii.String(ix.Name),
				PartitionKey:   stringKey(ix.PartitionKey),
				ProjectionType: awsdynamodb.ProjectionType_ALL,
			}
			if ix.SortKey != "" {
				gsi.SortKey = stringKey(ix.SortKey)
			}
			table.AddGlobalSecondaryIndex(gsi)
		}
		s.Tables[ts.Name] = table
	}
}

func stringKey(name string) *awsdynamodb.Attribute {
	return &awsdynamodb.Attribute{Name: jsii.String(name), Type: awsdynamodb.AttributeType_STRING}
}

// logicalName turns "agent-memories-dev" into "AgentMemories": the stage
// suffix is dropped so that logical ids are the same in every stage.
func logicalName(name, stage string) string {
	if stage != "" {
		name = strings.TrimSuffix(name, "-"+stage)
	}
	var b strings.Builder
	for _, part := range strings.FieldsFunc(name, func(r rune) bool { return r == '-' || r == '_' || r == '.' }) {
		b.WriteString(strings.ToUpper(part[:1]) + part[1:])
	}
	return b.String()
}

// tableAccess is what a function may do on a table.
type tableAccess int

const (
	readOnly tableAccess = iota + 1
	readWrite
)

var (
	readActions  = []string{"dynamodb:GetItem", "dynamodb:BatchGetItem", "dynamodb:Query", "dynamodb:Scan", "dynamodb:ConditionCheckItem", "dynamodb:DescribeTable"}
	writeActions = []string{"dynamodb:PutItem", "dynamodb:UpdateItem", "dynamodb:DeleteItem", "dynamodb:BatchWriteItem"}
	indexActions = []string{"dynamodb:Query", "dynamodb:Scan"}
	// keyActions are what DynamoDB needs of a caller on a table encrypted
	// with a customer managed key.
	keyActions = []string{"kms:Decrypt", "kms:Encrypt", "kms:GenerateDataKey", "kms:DescribeKey"}
)

// tableStatements grants access on one table and, for queries, on each of
// its indexes by name (no wildcard).
func (s *Stack) tableStatements(ts dynamostore.TableSchema, access tableAccess) []awsiam.PolicyStatement {
	table := s.Tables[ts.Name]
	actions := readActions
	if access == readWrite {
		actions = append(append([]string{}, readActions...), writeActions...)
	}
	out := []awsiam.PolicyStatement{awsiam.NewPolicyStatement(&awsiam.PolicyStatementProps{
		Actions:   jsii.Strings(actions...),
		Resources: jsii.Strings(*table.TableArn()),
	})}
	if len(ts.Indexes) > 0 {
		var arns []string
		for _, ix := range ts.Indexes {
			arns = append(arns, *table.TableArn()+"/index/"+ix.Name)
		}
		out = append(out, awsiam.NewPolicyStatement(&awsiam.PolicyStatementProps{
			Actions:   jsii.Strings(indexActions...),
			Resources: jsii.Strings(arns...),
		}))
	}
	return out
}
