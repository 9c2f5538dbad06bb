package stack

import (
	"strconv"

	"github.com/agentmem/agentmem/shared/applog"
	"github.com/agentmem/agentmem/shared/routes"
	"github.com/aws/aws-cdk-go/awscdk/v2"
	"github.com/aws/aws-cdk-go/awscdk/v2/awscloudwatch"
	"github.com/aws/aws-cdk-go/awscdk/v2/awscloudwatchactions"
	"github.com/aws/aws-cdk-go/awscdk/v2/awslogs"
	"github.com/aws/aws-cdk-go/awscdk/v2/awssns"
	"github.com/aws/aws-cdk-go/awscdk/v2/awssnssubscriptions"
	"github.com/aws/jsii-runtime-go"
)

// Alarm thresholds.
const (
	// ServerErrorRatePercent: the API alarms when at least this share of
	// requests in five minutes got a 5xx (with at least MinRequests).
	ServerErrorRatePercent = 5
	MinRequests            = 20
	// ThrottledRequests: the API alarms when it answered 429 this many
	// times in five minutes (its stage throttling: agents waiting, or
	// going on without memory when their budget ran out).
	ThrottledRequests = 10
	// QueueAgeSeconds: the dream queue alarms when its oldest message
	// waited this long (dreams or bulk deletes falling behind).
	QueueAgeSeconds = 2 * 60 * 60
	// DreamsFailedPerHour: alarm when this many dreams failed in an hour
	// (a model failing or answering badly), Lambda errors or not.
	DreamsFailedPerHour = 5
)

// MetricNamespace is the CloudWatch namespace of the stack's own metrics
// (from its log groups' metric filters), one per stack.
func (s *Stack) MetricNamespace() string { return "agentmem/" + s.Config.StackName }

// addAlarms defines the alarms: errors and throttles of every function,
// messages in the dream and dispatch dead-letter queues and the age of the dream queue's
// oldest message, the API's 5xx rate and its 429s, DynamoDB throttling of
// each table, and failed dreams (a metric from the dream function's log).
// They notify the SNS topic given by context, or a new topic with an email
// subscription, or nobody (visible in the console).
func (s *Stack) addAlarms() {
	var topic awssns.ITopic
	switch {
	case s.Config.AlarmTopicARN != "":
		topic = awssns.Topic_FromTopicArn(s.Stack, jsii.String("AlarmTopic"), jsii.String(s.Config.AlarmTopicARN))
	case s.Config.AlarmEmail != "":
		t := awssns.NewTopic(s.Stack, jsii.String("AlarmTopic"), &awssns.TopicProps{
			DisplayName: jsii.String("agentmem alarms"),
			EnforceSSL:  jsii.Bool(true),
		})
		t.AddSubscription(awssnssubscriptions.NewEmailSubscription(jsii.String(s.Config.AlarmEmail), nil))
		nagSuppress(t, false, nagReason{id: "AwsSolutions-SNS2",
			reason: "Alarm notifications carry only alarm names and states, nothing sensitive; CloudWatch alarms cannot publish to a topic encrypted with the AWS managed SNS key."})
		topic = t
	}
	fiveMinutes := awscdk.Duration_Minutes(jsii.Number(5))
	alarm := func(id, description string, metric awscloudwatch.IMetric, threshold float64) {
		var a awscloudwatch.Alarm
		opts := &awscloudwatch.CreateAlarmOptions{
			AlarmDescription:   jsii.String(description),
			Threshold:          jsii.Number(threshold),
			EvaluationPeriods:  jsii.Number(1),
			ComparisonOperator: awscloudwatch.ComparisonOperator_GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
			TreatMissingData:   awscloudwatch.TreatMissingData_NOT_BREACHING,
		}
		switch m := metric.(type) {
		case awscloudwatch.Metric:
			a = m.CreateAlarm(s.Stack, jsii.String(id), opts)
		case awscloudwatch.MathExpression:
			a = m.CreateAlarm(s.Stack, jsii.String(id), opts)
		}
		if topic != nil {
			a.AddAlarmAction(awscloudwatchactions.NewSnsAction(topic))
		}
	}
	sum := &awscloudwatch.MetricOptions{Period: fiveMinutes, Statistic: jsii.String("Sum")}
	for _, fn := range s.Config.Functions {
		f := s.Functions[fn]
		id := logicalName(string(fn), "")
		alarm(id+"ErrorsAlarm", "agentmem "+string(fn)+": function errors (failed invocations) in 5 minutes", f.MetricErrors(sum), 1)
		alarm(id+"ThrottlesAlarm", "agentmem "+string(fn)+": throttled invocations in 5 minutes", f.MetricThrottles(sum), 1)
	}
	if s.DreamDLQ != nil {
		alarm("DreamDLQAlarm", "agentmem Deep Dream: scopes that failed every attempt wait in the dead-letter queue",
			s.DreamDLQ.MetricApproximateNumberOfMessagesVisible(&awscloudwatch.MetricOptions{Period: fiveMinutes, Statistic: jsii.String("Maximum")}), 1)
	}
	if s.DispatchDLQ != nil {
		alarm("DreamDispatchDLQAlarm", "agentmem Deep Dream: a nightly dispatch failed every attempt (no scope was queued); fix the cause, then invoke the dream function with {\"action\":\"dispatch\"}",
			s.DispatchDLQ.MetricApproximateNumberOfMessagesVisible(&awscloudwatch.MetricOptions{Period: fiveMinutes, Statistic: jsii.String("Maximum")}), 1)
	}
	if s.DreamQueue != nil {
		alarm("DreamQueueAgeAlarm", "agentmem: the oldest message of the dream queue (dreams, bulk deletes) has waited "+strconv.Itoa(QueueAgeSeconds/3600)+" hours or more",
			s.DreamQueue.MetricApproximateAgeOfOldestMessage(&awscloudwatch.MetricOptions{Period: fiveMinutes, Statistic: jsii.String("Maximum")}), QueueAgeSeconds)
	}
	rate := awscloudwatch.NewMathExpression(&awscloudwatch.MathExpressionProps{
		Label:      jsii.String("5xx rate (%)"),
		Expression: jsii.String("IF(requests >= " + strconv.Itoa(MinRequests) + ", 100 * errors / requests, 0)"),
		UsingMetrics: &map[string]awscloudwatch.IMetric{
			"errors":   s.API.MetricServerError(sum),
			"requests": s.API.MetricCount(sum),
		},
		Period: fiveMinutes,
	})
	alarm("Api5xxRateAlarm", "agentmem API: more than "+strconv.Itoa(ServerErrorRatePercent)+"% of requests answered 5xx in 5 minutes", rate, ServerErrorRatePercent)

	// The API's 429s: HTTP APIs publish no metric of their own for them,
	// so a metric filter counts them in the access log.
	throttled := s.logMetric("ApiThrottled", s.AccessLogs, "ThrottledRequests", awslogs.FilterPattern_StringValue(jsii.String("$.status"), jsii.String("="), jsii.String("429")))
	alarm("Api429Alarm", "agentmem API: "+strconv.Itoa(ThrottledRequests)+" or more requests throttled (429) in 5 minutes: raise throttleRate or slow the callers",
		throttled.Metric(sum), ThrottledRequests)

	for _, ts := range s.Schema.Tables() {
		table := s.Tables[ts.Name]
		id := logicalName(ts.Name, s.Config.Stage)
		events := awscloudwatch.NewMathExpression(&awscloudwatch.MathExpressionProps{
			Label:      jsii.String(ts.Name + " throttle events"),
			Expression: jsii.String("reads + writes"),
			UsingMetrics: &map[string]awscloudwatch.IMetric{
				"reads":  table.Metric(jsii.String("ReadThrottleEvents"), sum),
				"writes": table.Metric(jsii.String("WriteThrottleEvents"), sum),
			},
			Period: fiveMinutes,
		})
		alarm(id+"ThrottleAlarm", "agentmem "+ts.Name+": DynamoDB throttled reads or writes in 5 minutes", events, 1)
	}

	if logs, ok := s.LogGroups[routes.Dream]; ok {
		failed := s.logMetric("DreamsFailed", logs, "DreamsFailed", awslogs.FilterPattern_StringValue(jsii.String("$.msg"), jsii.String("="), jsii.String(applog.DreamFailed)))
		alarm("DreamsFailedAlarm", "agentmem Deep Dream: "+strconv.Itoa(DreamsFailedPerHour)+" or more dreams failed in an hour (the model failing or answering unusably; see the diary)",
			failed.Metric(&awscloudwatch.MetricOptions{Period: awscdk.Duration_Hours(jsii.Number(1)), Statistic: jsii.String("Sum")}), DreamsFailedPerHour)
	}
}

// logMetric defines a metric filter on logs counting the events pattern
// matches, as metric name in the stack's namespace.
func (s *Stack) logMetric(id string, logs awslogs.ILogGroup, name string, pattern awslogs.IFilterPattern) awslogs.MetricFilter {
	return awslogs.NewMetricFilter(s.Stack, jsii.String(id+"Filter"), &awslogs.MetricFilterProps{
		LogGroup:        logs,
		FilterPattern:   pattern,
		MetricNamespace: jsii.String(s.MetricNamespace()),
		MetricName:      jsii.String(name),
		MetricValue:     jsii.String("1"),
		DefaultValue:    jsii.Number(0),
	})
}
