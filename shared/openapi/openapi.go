// Package openapi generates agentmem's OpenAPI 3.1 document from the one
// route table (shared/routes: every route and its Contract) and the domain
// types (shared/agentmem) by reflection: never written by hand. The
// memories function serves it at GET /api/openapi.json and `make docs`
// writes it to docs/openapi.json, which a test keeps current.
//
// What reflection cannot see comes from one place each: the types' and
// fields' doc comments (docs_gen.go, generated from shared/agentmem's
// source), the limits, patterns and enumerations of the domain's
// validation (rules.go, from agentmem's constants, checked against its
// validators by tests), examples (examples.go, validated against the
// document), and the error codes' statuses (httpapi's one table).
package openapi

import (
	"bytes"
	"encoding/json"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/httpapi"
	"github.com/agentmem/agentmem/shared/routes"
)

// Version is the OpenAPI version of the document.
const Version = "3.1.0"

// Document returns the OpenAPI document as indented JSON ending in a
// newline: what GET /api/openapi.json answers and docs/openapi.json holds.
func Document() []byte { return document() }

var document = sync.OnceValue(func() []byte {
	raw, err := marshal(build())
	if err != nil {
		panic("openapi: " + err.Error()) // the document is built from Go values only
	}
	var b bytes.Buffer
	if err := json.Indent(&b, raw, "", "  "); err != nil {
		panic("openapi: " + err.Error())
	}
	b.WriteByte('\n')
	return b.Bytes()
})

// commonErrors are the codes every route may answer: bad input, a body
// over the cap (any request may carry one), the store unreachable or too
// slow, and internal failures.
var commonErrors = []string{agentmem.EInvalid, agentmem.ETooLarge, agentmem.EUnavailable, agentmem.EInternal}

// bodyErrors are the codes a route that decodes a JSON body may answer
// besides.
var bodyErrors = []string{agentmem.EUnsupportedMedia}

// retryAfterCodes are the codes whose answers may say when to try again
// in a Retry-After header (agentmem.Error.RetryAfter: a store that is
// unreachable or throttled, a lease another caller holds).
var retryAfterCodes = []string{agentmem.EUnavailable, agentmem.EBusy}

const description = `The REST API of agentmem: long-term memory and personalities for AI coding agents. Each agent keeps memories per project (a scope); a personality per agent; a daily log; session context shared by the agents of a pipeline run; Deep Dream consolidation.

**Authorization.** In AWS every route requires IAM: sign each request with AWS Signature Version 4 for service ` + "`execute-api`" + ` (the agentmem CLI and Go client do, with the default credential chain). ` + "`make dev`" + ` serves the same handlers on http://127.0.0.1:3000 without authorization.

**Errors** are JSON, ` + "`{\"error\":{\"code\":\"...\",\"message\":\"...\"}}`" + `, with one status per code (the code tells a missing memory, ` + "`not_found`" + `, from a path the API does not have, ` + "`no_route`" + `). API Gateway's own refusals (403 for a refused signature, 429 when throttled) carry ` + "`{\"message\":\"...\"}`" + ` instead.

**Pages.** Lists answer a page and a ` + "`nextCursor`" + ` when more remain; pass it back as ` + "`cursor`" + `.

This document is generated from the route table and the Go types (shared/openapi); GET /api/openapi.json serves it.`

// build assembles the document.
func build() *object {
	s := newSchemas()
	paths := obj()
	for _, r := range routes.All {
		c, ok := routes.ContractOf(r.Name)
		if !ok {
			continue // shared/routes' tests say what to add
		}
		item, _ := paths.get(r.Path).(*object)
		if item == nil {
			item = obj()
			paths.set(r.Path, item)
		}
		item.set(strings.ToLower(r.Method), operation(s, r, c))
	}
	var tags []any
	for _, t := range routes.Tags {
		tags = append(tags, obj("name", t.Name, "description", t.Doc))
	}
	gatewayError := obj("type", "object", "description", "An answer of API Gateway itself, before any agentmem function runs.",
		"properties", obj("message", obj("type", "string")), "required", []string{"message"})
	s.components.set("GatewayError", gatewayError)
	return obj(
		"openapi", Version,
		"info", obj("title", "agentmem API", "version", "1", "description", description),
		"jsonSchemaDialect", "https://json-schema.org/draft/2020-12/schema",
		"servers", []any{
			obj("url", "http://127.0.0.1:{port}", "description", "make dev (no authorization)",
				"variables", obj("port", obj("default", "3000", "description", "PORT of make dev"))),
			obj("url", "https://{apiId}.execute-api.{region}.amazonaws.com", "description", "the deployed stack: its ApiUrl output (SigV4)",
				"variables", obj("apiId", obj("default", "abcdef1234", "description", "the HTTP API's id"),
					"region", obj("default", "us-east-1", "description", "the stack's region"))),
		},
		"security", []any{obj("sigv4", []string{})},
		"tags", tags,
		"paths", paths,
		"components", obj(
			"schemas", s.components,
			"responses", s.responses.set(
				"Forbidden", obj("description", "API Gateway refused the call: the signature, the credentials, or the role's permission to invoke this route (IAM); or, where agents have task roles of their own (AGENTMEM_AGENT_ROLES), the caller's role is another agent's, or an agent's on a route agents' tasks are not granted (`forbidden`).",
					"content", obj("application/json", obj("schema", obj("oneOf", []any{
						obj("$ref", "#/components/schemas/GatewayError"),
						obj("allOf", []any{s.ref(reflectErrorEnvelope), obj(
							"properties", obj("error", obj("properties", obj("code", obj("enum", []string{agentmem.EForbidden})))))}),
					})))),
			).set("TooManyRequests", obj("description", "API Gateway throttled the call; retry after a pause.",
				"content", obj("application/json", obj("schema", obj("$ref", "#/components/schemas/GatewayError"))))),
			"securitySchemes", obj("sigv4", obj(
				"type", "apiKey", "in", "header", "name", "Authorization",
				"description", "AWS Signature Version 4 for service execute-api (IAM authorization of API Gateway): the Authorization header, with X-Amz-Date and, for temporary credentials, X-Amz-Security-Token. make dev needs none.",
				"x-amazon-apigateway-authtype", "awsSigv4",
			)),
		),
	)
}

// operation describes one route.
func operation(s *schemas, r routes.Route, c routes.Contract) *object {
	grant := "The agent task role is not granted this route."
	if r.Agent {
		grant = "The agent task role is granted this route: agents call it during a pipeline run."
	}
	op := obj(
		"operationId", string(r.Name),
		"summary", strings.ToUpper(r.Summary[:1])+r.Summary[1:],
		"description", "Served by the "+string(r.Function)+" function. "+grant,
		"tags", []string{c.Tag},
	)
	var params []any
	for _, name := range pathParams(r.Path) {
		schema := obj("type", "string")
		for _, rule := range pathRules[name] {
			rule(schema)
		}
		params = append(params, obj("name", name, "in", "path", "required", true,
			"description", pathDocs[name], "schema", schema))
	}
	for _, p := range c.Query {
		params = append(params, queryParam(s, p))
	}
	if c.Idempotent {
		params = append(params, obj("name", agentmem.IdempotencyHeader, "in", "header", "required", false,
			"description", "a key for this request (or the body's clientToken): a retry with the same key and request gets the first answer back instead of a second write; the same key with another request is 422 idempotency_mismatch. Scoped to the agent and the route, kept 24 hours.",
			"schema", obj("type", "string", "minLength", 1, "maxLength", agentmem.MaxIdempotencyKeyLen, "pattern", "^[A-Za-z0-9._:~-]+$")))
	}
	if len(params) > 0 {
		op.set("parameters", params)
	}
	if c.Body != nil {
		op.set("requestBody", obj("required", !c.OptionalBody,
			"content", obj("application/json", obj("schema", s.ref(c.Body)))))
	}
	op.set("responses", responses(s, c))
	op.set("x-agentmem-function", string(r.Function))
	op.set("x-agentmem-agent-task-role", r.Agent)
	return op
}

// errorResponse registers (once) the response component of an error
// status whose envelope carries one of codes, and returns its name: the
// codes in CamelCase ("NotFound", "BusyConflict").
func (s *schemas) errorResponse(status int, codes []string) string {
	codes = slices.Sorted(slices.Values(codes))
	var name strings.Builder
	var docs []string
	for _, code := range codes {
		for _, w := range strings.Split(code, "_") {
			name.WriteString(strings.ToUpper(w[:1]) + w[1:])
		}
		doc, _, _ := strings.Cut(codeDocs[code], ": "+strconv.Itoa(status))
		docs = append(docs, "`"+code+"`: "+doc)
	}
	if s.responses.get(name.String()) == nil {
		schema := obj("allOf", []any{s.ref(reflectErrorEnvelope), obj(
			"properties", obj("error", obj("properties", obj("code", obj("enum", codes)))))})
		resp := obj("description", http.StatusText(status)+". "+strings.Join(docs, "; ")+".")
		if slices.ContainsFunc(codes, func(code string) bool { return slices.Contains(retryAfterCodes, code) }) {
			resp.set("headers", obj("Retry-After", obj(
				"description", "when present, the seconds to wait before trying again ("+strings.Join(retryAfterCodes, ", ")+")",
				"schema", obj("type", "integer", "minimum", 1))))
		}
		s.responses.set(name.String(), resp.set("content", obj("application/json", obj("schema", schema))))
	}
	return name.String()
}

// pathParams returns the {parameters} of a path, in order.
func pathParams(path string) []string {
	var out []string
	for _, seg := range strings.Split(path, "/") {
		if strings.HasPrefix(seg, "{") && strings.HasSuffix(seg, "}") {
			out = append(out, seg[1:len(seg)-1])
		}
	}
	return out
}

// pathDocs describe the path parameters.
var pathDocs = map[string]string{
	"agentName": "the agent",
	"id":        "the memory's id (a ULID)",
	"projectId": "the project",
	"sessionId": "the session: the pipeline run its agents share",
	"key":       "the session context key",
	"date":      "the UTC day, YYYY-MM-DD",
}

// pathRules constrain the path parameters: the name rules, and the
// memory id's form.
var pathRules = map[string][]rule{
	"agentName": nameRules["agentName"],
	"projectId": nameRules["projectId"],
	"sessionId": nameRules["sessionId"],
	"key":       nameRules["key"],
	"date":      nameRules["date"],
	"id":        {pattern(memoryIDPattern)},
}

// queryParam describes one query parameter.
func queryParam(s *schemas, p routes.Param) *object {
	var schema *object
	if p.Type == nil {
		schema = obj("type", "string")
	} else {
		schema = s.ref(p.Type)
	}
	for _, r := range nameRules[p.Name] {
		r(schema)
	}
	if p.Format != "" {
		schema.set("format", p.Format)
	}
	if p.Enum != nil {
		schema.set("enum", p.Enum)
	}
	if p.MaxBytes > 0 {
		schema.set("maxLength", p.MaxBytes)
	}
	if p.Bounded {
		schema.set("minimum", p.Min)
		schema.set("maximum", p.Max)
	}
	if p.Default != nil {
		schema.set("default", p.Default)
	}
	return obj("name", p.Name, "in", "query", "required", p.Required, "description", p.Doc, "schema", schema)
}

// responses describes a route's answers: its own, its error statuses
// (the envelope, its code narrowed to the route's codes of that status),
// and API Gateway's 403 and 429.
func responses(s *schemas, c routes.Contract) *object {
	out := map[int]*object{}
	for _, a := range c.Answers {
		resp := obj("description", a.Doc)
		headers := obj()
		if a.Location {
			headers.set("Location", obj("description", "the path of what the call created, or of the job that goes on",
				"required", true, "schema", obj("type", "string", "pattern", "^/api/")))
		}
		if c.Idempotent {
			headers.set(agentmem.ReplayedHeader, obj("description", "true when the answer is the one given first to a request with the same idempotency key",
				"schema", obj("type", "string", "enum", []string{"true"})))
		}
		if len(headers.keys) > 0 {
			resp.set("headers", headers)
		}
		content := obj()
		if a.JSON != nil {
			content.set("application/json", obj("schema", s.ref(a.JSON)))
		}
		if a.Markdown {
			content.set("text/markdown", obj("schema", obj("type", "string")))
		}
		if len(content.keys) > 0 {
			resp.set("content", content)
		}
		out[a.Status] = resp
	}
	codes := slices.Concat(commonErrors, c.Errors)
	if c.Body != nil {
		codes = append(codes, bodyErrors...)
	}
	byStatus := map[int][]string{}
	for _, code := range codes {
		st := httpapi.StatusFor(code)
		if _, answered := out[st]; !answered && !slices.Contains(byStatus[st], code) {
			byStatus[st] = append(byStatus[st], code)
		}
	}
	// In status order, so that the components are registered in the same
	// order every time.
	for _, st := range slices.Sorted(maps.Keys(byStatus)) {
		out[st] = obj("$ref", "#/components/responses/"+s.errorResponse(st, byStatus[st]))
	}
	out[http.StatusForbidden] = obj("$ref", "#/components/responses/Forbidden")
	out[http.StatusTooManyRequests] = obj("$ref", "#/components/responses/TooManyRequests")
	statuses := make([]int, 0, len(out))
	for st := range out {
		statuses = append(statuses, st)
	}
	slices.Sort(statuses)
	o := obj()
	for _, st := range statuses {
		o.set(strconv.Itoa(st), out[st])
	}
	return o
}
