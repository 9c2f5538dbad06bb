package stack

import (
	"github.com/agentmem/agentmem/shared/routes"
	"github.com/agentmem/agentmem/shared/settings"
	"github.com/aws/aws-cdk-go/awscdk/v2"
	"github.com/aws/aws-cdk-go/awscdk/v2/awsiam"
	"github.com/aws/aws-cdk-go/awscdk/v2/awslambda"
	"github.com/aws/aws-cdk-go/awscdk/v2/awslambdadestinations"
	"github.com/aws/aws-cdk-go/awscdk/v2/awslambdaeventsources"
	"github.com/aws/aws-cdk-go/awscdk/v2/awsscheduler"
	"github.com/aws/aws-cdk-go/awscdk/v2/awsschedulertargets"
	"github.com/aws/aws-cdk-go/awscdk/v2/awssqs"
	"github.com/aws/jsii-runtime-go"
)

// Deep Dream settings.
const (
	// VisibilityFactor: the queue's visibility timeout is this many times
	// the worker's timeout (AWS's guidance for Lambda event sources).
	VisibilityFactor = 6
	// MaxReceiveCount is how often a scope is tried before it goes to the
	// dead-letter queue.
	MaxReceiveCount = 3
	// DreamBatchSize is one scope per invocation: a dream is one LLM call,
	// and the concurrency cap then counts dreams in flight.
	DreamBatchSize = 1
	// DispatchRetries is how often a failed nightly dispatch is tried
	// again, by the scheduler (delivery) and by Lambda (the function's
	// error), before it goes to the dispatch dead-letter queue.
	DispatchRetries = 2
)

// DispatchInput is what the schedule sends the dream function: the
// dispatcher's event (events/dream/schedule.json).
var DispatchInput = map[string]any{"action": "dispatch"}

// addDream wires the dream function's two other triggers: the nightly
// EventBridge Scheduler schedule invoking the dispatcher (what fails every
// attempt lands in the dispatch dead-letter queue), and the SQS queue
// (with its dead-letter queue) feeding the worker under a concurrency cap;
// the memories function sends its unfinished bulk deletes to that queue.
func (s *Stack) addDream(fn awslambda.Function) {
	timeout := timeoutSeconds(routes.Dream)
	s.DreamDLQ = s.deadLetterQueue("DreamDLQ", "the dream queue")
	s.DreamQueue = awssqs.NewQueue(s.Stack, jsii.String("DreamQueue"), &awssqs.QueueProps{
		Encryption:        awssqs.QueueEncryption_SQS_MANAGED,
		EnforceSSL:        jsii.Bool(true),
		VisibilityTimeout: awscdk.Duration_Seconds(jsii.Number(float64(VisibilityFactor * timeout))),
		RetentionPeriod:   awscdk.Duration_Days(jsii.Number(4)),
		DeadLetterQueue:   &awssqs.DeadLetterQueue{Queue: s.DreamDLQ, MaxReceiveCount: jsii.Number(MaxReceiveCount)},
	})
	fn.AddEnvironment(jsii.String(settings.DreamQueueURL.Name), s.DreamQueue.QueueUrl(), nil)
	s.DreamQueue.GrantSendMessages(fn)
	// The memories function hands the bulk deletes it cannot finish to
	// the same queue; the dream worker runs them on.
	if mem, ok := s.Functions[routes.Memories]; ok {
		mem.AddEnvironment(jsii.String(settings.JobsQueueURL.Name), s.DreamQueue.QueueUrl(), nil)
		s.DreamQueue.GrantSendMessages(mem)
	}
	fn.AddEventSource(awslambdaeventsources.NewSqsEventSource(s.DreamQueue, &awslambdaeventsources.SqsEventSourceProps{
		BatchSize:               jsii.Number(DreamBatchSize),
		ReportBatchItemFailures: jsii.Bool(true),
		MaxConcurrency:          jsii.Number(float64(s.Config.DreamMaxConcurrency)),
	}))

	// A nightly dispatch that fails every attempt, whether the scheduler
	// could not deliver it or the function failed it (the scheduler
	// invokes asynchronously), is kept in a queue of its own: the dream
	// dead-letter queue is moved back into the dream queue, which only
	// takes scopes and jobs.
	s.DispatchDLQ = s.deadLetterQueue("DreamDispatchDLQ", "the nightly dispatch (scheduler and asynchronous invocation)")
	fn.ConfigureAsyncInvoke(&awslambda.EventInvokeConfigOptions{
		OnFailure:     awslambdadestinations.NewSqsDestination(s.DispatchDLQ),
		RetryAttempts: jsii.Number(DispatchRetries),
	})

	role := awsiam.NewRole(s.Stack, jsii.String("DreamSchedulerRole"), &awsiam.RoleProps{
		AssumedBy: awsiam.NewServicePrincipal(jsii.String("scheduler.amazonaws.com"), &awsiam.ServicePrincipalOpts{
			Conditions: &map[string]interface{}{"StringEquals": map[string]interface{}{"aws:SourceAccount": awscdk.Aws_ACCOUNT_ID()}},
		}),
		Description: jsii.String("EventBridge Scheduler: invoke the agentmem dream dispatcher"),
	})
	awsscheduler.NewSchedule(s.Stack, jsii.String("DreamSchedule"), &awsscheduler.ScheduleProps{
		Description: jsii.String("agentmem Deep Dream: nightly dispatch of the scopes with new daily content"),
		Schedule:    awsscheduler.ScheduleExpression_Expression(jsii.String(s.Config.DreamSchedule), awscdk.TimeZone_Of(jsii.String(s.Config.DreamTimeZone))),
		Target: awsschedulertargets.NewLambdaInvoke(fn, &awsschedulertargets.ScheduleTargetBaseProps{
			Input:           awsscheduler.ScheduleTargetInput_FromObject(DispatchInput),
			RetryAttempts:   jsii.Number(DispatchRetries),
			Role:            role,
			DeadLetterQueue: s.DispatchDLQ,
		}),
	})
	nagSuppress(role, true, nagReason{id: "AwsSolutions-IAM5",
		reason:    "The scheduler role may invoke the dream function and its versions (function ARN and ARN:*); nothing else.",
		appliesTo: []string{"Resource::<" + *s.Stack.GetLogicalId(fn.Node().DefaultChild().(awscdk.CfnElement)) + ".Arn>:*"}})
}

// deadLetterQueue defines the dead-letter queue id of what of names
// (SQS-managed encryption, TLS only, messages kept 14 days); a dead-letter
// queue needs none of its own.
func (s *Stack) deadLetterQueue(id, of string) awssqs.Queue {
	q := awssqs.NewQueue(s.Stack, jsii.String(id), &awssqs.QueueProps{
		Encryption:      awssqs.QueueEncryption_SQS_MANAGED,
		EnforceSSL:      jsii.Bool(true),
		RetentionPeriod: awscdk.Duration_Days(jsii.Number(14)),
	})
	nagSuppress(q, false, nagReason{id: "AwsSolutions-SQS3",
		reason: "This is the dead-letter queue of " + of + "; it needs none of its own."})
	return q
}
