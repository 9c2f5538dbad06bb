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

// The stack's own metrics.
const (
	// MetricNamespace holds the metrics agentmem defines.
	MetricNamespace = "agentmem"
	// DreamFailuresMetric counts failed dreams.
	DreamFailuresMetric = "DreamFailures"
)

// Alarm thresholds.
const (
	// ServerErrorRatePercent: the API alarms when at least this share of
	// requests in five minutes got a 5xx (with at least MinRequests).
	ServerErrorRatePercent = 5
	MinRequests            = 20
)

// addAlarms defines the alarms: errors and throttles of every function,
// failed dreams (a metric from the dream function's logs), messages in the
// dream dead-letter queue, and the API's 5xx rate. They
// notify the SNS topic given by context, or a new topic with an email
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
	if f, ok := s.Functions[routes.Dream]; ok {
		// A failed dream (the model failed, its answers could not be
		// used, the store failed) is counted from the dream function's
		// log line applog.DreamFailed, whether Lambda saw an error or not
		// (an API dream answers 502, a scheduled one may be retried).
		failures := awslogs.NewMetricFilter(s.Stack, jsii.String("DreamFailuresFilter"), &awslogs.MetricFilterProps{
			LogGroup:        f.LogGroup(),
			FilterPattern:   awslogs.FilterPattern_StringValue(jsii.String("$.msg"), jsii.String("="), jsii.String(applog.DreamFailed)),
			MetricNamespace: jsii.String(MetricNamespace),
			MetricName:      jsii.String(DreamFailuresMetric),
			MetricValue:     jsii.String("1"),
		})
		alarm("DreamFailuresAlarm", "agentmem Deep Dream: dreams that failed (nothing changed; the scope stays pending) in 5 minutes; the diary entries say why",
			failures.Metric(sum), 1)
	}
	if s.DreamDLQ != nil {
		alarm("DreamDLQAlarm", "agentmem Deep Dream: scopes that failed every attempt wait in the dead-letter queue",
			s.DreamDLQ.MetricApproximateNumberOfMessagesVisible(&awscloudwatch.MetricOptions{Period: fiveMinutes, Statistic: jsii.String("Maximum")}), 1)
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
}
