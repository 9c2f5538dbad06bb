package stack

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/agentmem/agentmem/shared/routes"
	"github.com/aws/aws-cdk-go/awscdk/v2/awsapigateway"
	"github.com/aws/aws-cdk-go/awscdk/v2/awsapigatewayv2"
	"github.com/aws/aws-cdk-go/awscdk/v2/awsapigatewayv2authorizers"
	"github.com/aws/aws-cdk-go/awscdk/v2/awsapigatewayv2integrations"
	"github.com/aws/aws-cdk-go/awscdk/v2/awslogs"
	"github.com/aws/jsii-runtime-go"
)

// StageName is the API's one stage; its URL has no stage segment.
const StageName = "$default"

// accessLogFormat is one JSON line per request, with the IAM caller.
var accessLogFormat = map[string]string{
	"requestId":        "$context.requestId",
	"requestTime":      "$context.requestTime",
	"routeKey":         "$context.routeKey",
	"path":             "$context.path",
	"status":           "$context.status",
	"responseLength":   "$context.responseLength",
	"latencyMs":        "$context.responseLatency",
	"integrationMs":    "$context.integrationLatency",
	"integrationError": "$context.integrationErrorMessage",
	"error":            "$context.error.message",
	"sourceIp":         "$context.identity.sourceIp",
	"userArn":          "$context.identity.userArn",
	"userAgent":        "$context.identity.userAgent",
}

// addAPI defines the HTTP API: every route of shared/routes on its
// function, each AWS_IAM-authorized; one auto-deployed $default stage with
// throttling and JSON access logs; CORS only when origins are given.
func (s *Stack) addAPI() error {
	props := &awsapigatewayv2.HttpApiProps{
		ApiName:            jsii.String(s.Config.StackName),
		Description:        jsii.String("agentmem REST API (IAM-authorized)"),
		CreateDefaultStage: jsii.Bool(false),
	}
	if len(s.Config.CORSOrigins) > 0 {
		props.CorsPreflight = &awsapigatewayv2.CorsPreflightOptions{
			AllowOrigins: jsii.Strings(s.Config.CORSOrigins...),
			AllowMethods: &[]awsapigatewayv2.CorsHttpMethod{
				awsapigatewayv2.CorsHttpMethod_GET, awsapigatewayv2.CorsHttpMethod_POST,
				awsapigatewayv2.CorsHttpMethod_PUT, awsapigatewayv2.CorsHttpMethod_DELETE,
			},
			AllowHeaders: jsii.Strings("Content-Type", "Authorization", "X-Amz-Date", "X-Amz-Security-Token", "X-Amz-Content-Sha256"),
		}
	}
	s.API = awsapigatewayv2.NewHttpApi(s.Stack, jsii.String("Api"), props)

	logs := awslogs.NewLogGroup(s.Stack, jsii.String("ApiAccessLogs"), &awslogs.LogGroupProps{
		Retention:     awslogs.RetentionDays(retentionDays[s.Config.LogRetentionDays]),
		RemovalPolicy: s.removalPolicy(),
	})
	s.AccessLogs = logs
	format, err := json.Marshal(accessLogFormat)
	if err != nil {
		return fmt.Errorf("access log format: %w", err)
	}
	s.APIStage = s.API.AddStage(jsii.String("DefaultStage"), &awsapigatewayv2.HttpStageOptions{
		StageName:  jsii.String(StageName),
		AutoDeploy: jsii.Bool(true),
		Throttle: &awsapigatewayv2.ThrottleSettings{
			RateLimit:  jsii.Number(s.Config.ThrottleRate),
			BurstLimit: jsii.Number(s.Config.ThrottleBurst),
		},
		AccessLogSettings: &accessLogSettings{
			destination: awsapigatewayv2.NewLogGroupLogDestination(logs),
			format:      awsapigateway.AccessLogFormat_Custom(jsii.String(string(format))),
		},
	})

	authorizer := awsapigatewayv2authorizers.NewHttpIamAuthorizer()
	integrations := map[routes.Function]awsapigatewayv2integrations.HttpLambdaIntegration{}
	for _, r := range routes.All {
		fn, ok := s.Functions[r.Function]
		if !ok {
			return fmt.Errorf("route %s (%s) is served by function %s, which the stack does not define", r.Name, r.Key(), r.Function)
		}
		integ := integrations[r.Function]
		if integ == nil {
			integ = awsapigatewayv2integrations.NewHttpLambdaIntegration(jsii.String(logicalName(string(r.Function), "")+"Integration"), fn, nil)
			integrations[r.Function] = integ
		}
		s.API.AddRoutes(&awsapigatewayv2.AddRoutesOptions{
			Path:        jsii.String(r.Path),
			Methods:     &[]awsapigatewayv2.HttpMethod{awsapigatewayv2.HttpMethod(r.Method)},
			Integration: integ,
			Authorizer:  authorizer,
		})
	}
	return nil
}

// accessLogSettings implements awsapigatewayv2.IAccessLogSettings.
type accessLogSettings struct {
	destination awsapigatewayv2.IAccessLogDestination
	format      awsapigateway.AccessLogFormat
}

func (a *accessLogSettings) Destination() awsapigatewayv2.IAccessLogDestination { return a.destination }
func (a *accessLogSettings) Format() awsapigateway.AccessLogFormat              { return a.format }

// executeAPIPath turns a route path into the resource path of an
// execute-api ARN: each {param} segment becomes "*".
func executeAPIPath(path string) string {
	segs := strings.Split(path, "/")
	for i, seg := range segs {
		if strings.HasPrefix(seg, "{") && strings.HasSuffix(seg, "}") {
			segs[i] = "*"
		}
	}
	return strings.Join(segs, "/")
}
