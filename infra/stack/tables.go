package stack

import (
	"strings"

	"github.com/agentmem/agentmem/shared/dynamostore"
	"github.com/agentmem/agentmem/shared/tablegrants"
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
				ProjectionType: awsdynamodb.ProjectionType(ix.Projection),
			}
			if len(ix.Include) > 0 {
				gsi.NonKeyAttributes = jsii.Strings(ix.Include...)
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

// keyActions are what DynamoDB needs of a caller on a table encrypted
// with a customer managed key.
var keyActions = []string{"kms:Decrypt", "kms:Encrypt", "kms:GenerateDataKey", "kms:DescribeKey"}

// tableStatements grants g's actions on one table and dynamodb:Query on
// the indexes g names, by name (no wildcard); g's leading keys, when set,
// confine both to those partition keys.
func (s *Stack) tableStatements(ts dynamostore.TableSchema, g tablegrants.Grant) []awsiam.PolicyStatement {
	table := s.Tables[ts.Name]
	var cond *map[string]interface{}
	if len(g.LeadingKeys) > 0 {
		cond = &map[string]interface{}{"ForAllValues:StringLike": map[string]interface{}{"dynamodb:LeadingKeys": g.LeadingKeys}}
	}
	out := []awsiam.PolicyStatement{awsiam.NewPolicyStatement(&awsiam.PolicyStatementProps{
		Actions:    jsii.Strings(g.Actions...),
		Resources:  jsii.Strings(*table.TableArn()),
		Conditions: cond,
	})}
	if len(g.Indexes) > 0 {
		var arns []string
		for _, name := range g.Indexes {
			arns = append(arns, *table.TableArn()+"/index/"+name)
		}
		out = append(out, awsiam.NewPolicyStatement(&awsiam.PolicyStatementProps{
			Actions:    jsii.Strings(tablegrants.Query),
			Resources:  jsii.Strings(arns...),
			Conditions: cond,
		}))
	}
	return out
}
