package openapi

import (
	"fmt"
	"reflect"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/httpapi"
	"github.com/agentmem/agentmem/shared/search"
)

// What the Go types cannot say about their values: the limits, patterns,
// formats and enumerations of agentmem's validation, taken from its
// constants. Tests check each against the domain's validators, so that
// the description cannot promise what the API refuses.

// rule adds constraints to a property's or a parameter's schema.
type rule func(s *object)

// enums lists the values of the enumerated Go types; each becomes a
// component.
var enums = map[reflect.Type]func() []string{
	reflect.TypeFor[agentmem.Type]():   func() []string { return stringsOf(agentmem.Types) },
	reflect.TypeFor[agentmem.Source](): func() []string { return stringsOf(agentmem.Sources) },
}

// componentNames renames the components whose Go names say too little
// outside their package.
var componentNames = map[string]string{"Type": "MemoryType", "Source": "MemorySource"}

func stringsOf[T ~string](list []T) []string {
	out := make([]string, len(list))
	for i, v := range list {
		out[i] = string(v)
	}
	return out
}

// Name patterns: agentmem.NamePattern, the rule of
// agentmem.ValidateAgentName and friends (letters, digits, '.', '_' and
// '-', but not the dot segments "." and "..").
func namePattern(max int) string { return agentmem.NamePattern(max) }

// name is the rule of a name of at most max characters: its pattern, and
// the rule in words, which the pattern does not make plain.
func name(max int) []rule {
	return []rule{pattern(namePattern(max)), func(s *object) {
		appendDoc(s, fmt.Sprintf(`1 to %d letters, digits, '.', '_' and '-', but not "." or ".." (URL dot segments, which clients normalise away).`, max))
	}}
}

// memoryIDPattern is a ULID in Crockford's base32 (the memories' ids).
const memoryIDPattern = "^[0-9A-HJKMNP-TV-Z]{26}$"

// tagPattern is a tag (agentmem.ValidateTags).
func tagPattern() string { return fmt.Sprintf("^[A-Za-z0-9._:/-]{1,%d}$", agentmem.MaxTagLen) }

func pattern(p string) rule { return func(s *object) { s.set("pattern", p) } }
func format(f string) rule  { return func(s *object) { s.set("format", f) } }
func enum(values ...string) rule {
	return func(s *object) { s.set("enum", values) }
}

// maxBytes bounds a text to n bytes of UTF-8: maxLength counts
// characters, so it is n (a bound every valid text meets), and the
// description says bytes.
func maxBytes(n int) rule {
	return func(s *object) {
		s.set("maxLength", n)
		appendDoc(s, fmt.Sprintf("At most %d bytes of UTF-8.", n))
	}
}

// nonBlank is a required text that must hold more than white space.
func nonBlank(s *object) {
	s.set("minLength", 1)
	s.set("pattern", `\S`)
}

func between(min, max float64) rule {
	return func(s *object) {
		s.set("minimum", min)
		s.set("maximum", max)
	}
}

func minimum(min float64) rule { return func(s *object) { s.set("minimum", min) } }

// items applies rules to an array's items.
func items(rs ...rule) rule {
	return func(s *object) {
		it, _ := s.get("items").(*object)
		if it == nil {
			return
		}
		for _, r := range rs {
			r(it)
		}
	}
}

func maxItems(n int) rule { return func(s *object) { s.set("maxItems", n) } }

func appendDoc(s *object, text string) {
	if d, _ := s.get("description").(string); d != "" {
		text = d + " " + text
	}
	s.set("description", text)
}

var (
	dateTime = format("date-time")
	date     = format("date")
	// memoryText is a memory's content; memoryField its typed fields.
	memoryText  = []rule{nonBlank, maxBytes(agentmem.MaxContentBytes)}
	memoryField = []rule{maxBytes(agentmem.MaxFieldBytes)}
	blocker     = []rule{enum(agentmem.StatusOpen, agentmem.StatusResolved)}
	confidence  = []rule{between(0, 1)}
	tags        = []rule{maxItems(agentmem.MaxTags), items(pattern(tagPattern()))}
)

// nameRules apply to every string property and path or query parameter of
// that name.
var nameRules = map[string][]rule{
	"agentName": name(agentmem.MaxAgentNameLen),
	"projectId": name(agentmem.MaxProjectIDLen),
	"runId":     name(agentmem.MaxRunIDLen),
	"sessionId": name(agentmem.MaxSessionIDLen),
	"key":       name(agentmem.MaxKeyLen),

	"createdAt":      {dateTime},
	"updatedAt":      {dateTime},
	"lastAccessedAt": {dateTime},
	"accessedAt":     {dateTime},
	"expiresAt":      {dateTime},
	"startedAt":      {dateTime},
	"finishedAt":     {dateTime},
	"changedAt":      {dateTime},
	"windowFrom":     {dateTime},
	"windowTo":       {dateTime},
	"cutoff":         {dateTime},
	"at":             {dateTime},
	"date":           {date},
}

// fieldRules apply to one property, "<declaring type>.<json name>".
var fieldRules = map[string][]rule{
	"Memory.id":         {pattern(memoryIDPattern)},
	"Memory.status":     blocker,
	"Memory.confidence": confidence,

	"MemoryInput.content":    memoryText,
	"MemoryInput.rationale":  memoryField,
	"MemoryInput.trigger":    memoryField,
	"MemoryInput.context":    memoryField,
	"MemoryInput.solution":   memoryField,
	"MemoryInput.status":     blocker,
	"MemoryInput.confidence": confidence,
	"MemoryInput.tags":       tags,

	"Learning.content":    memoryText,
	"Learning.rationale":  memoryField,
	"Learning.trigger":    memoryField,
	"Learning.context":    memoryField,
	"Learning.solution":   memoryField,
	"Learning.status":     blocker,
	"Learning.confidence": confidence,

	"DailyInput.title":   {nonBlank, maxBytes(agentmem.MaxDailyTitleBytes), pattern(`^[^\r\n]*\S[^\r\n]*$`)},
	"DailyInput.content": {nonBlank, maxBytes(agentmem.MaxDailyContentBytes)},

	"PersonalityInput.displayName": {maxBytes(agentmem.MaxDisplayNameBytes), pattern(`^[^\r\n]*$`)},
	"PersonalityInput.voice":       {maxBytes(agentmem.MaxVoiceBytes)},
	"PersonalityInput.prompt":      {maxBytes(agentmem.MaxPromptBytes)},
	"PersonalityInput.gitName":     {maxBytes(agentmem.MaxDisplayNameBytes), pattern(`^[^\r\n]*$`)},
	"PersonalityInput.gitEmail":    {maxBytes(agentmem.MaxDisplayNameBytes), format("email")},
	"PersonalityInput.traits":      {maxItems(agentmem.MaxTraits), items(nonBlank, maxBytes(agentmem.MaxTraitBytes))},
	"PersonalityInput.version":     {minimum(0)},

	"SessionInput.value":      {maxBytes(agentmem.MaxSessionValueBytes)},
	"SessionInput.ttlSeconds": {between(agentmem.MinSessionTTL.Seconds(), agentmem.MaxSessionTTL.Seconds())},

	"ExtractionInput.summary": {maxBytes(agentmem.MaxDailyContentBytes)},
	"ForgetInput.olderThan":   {pattern(`^0*[1-9][0-9]*[hdw]$`), func(s *object) { s.set("maxLength", 12) }},

	"CreateDreamInput.lookbackDays":      {minimum(1)},
	"CreateDreamInput.compressAfterDays": {minimum(0)},

	"Dream.kind":         {enum(agentmem.DreamKindDream, agentmem.DreamKindRevert)},
	"Dream.status":       {enum(agentmem.DreamCommitting, agentmem.DreamCommitted, agentmem.DreamFailed, agentmem.DreamReverted)},
	"Dream.trigger":      {enum(agentmem.TriggerAPI, agentmem.TriggerSchedule)},
	"DreamResult.status": {enum(agentmem.DreamStatusDreamed, agentmem.DreamStatusSkipped, agentmem.DreamStatusQueued)},
	"Job.kind":           {enum(string(agentmem.JobDeleteScope), string(agentmem.JobForget), string(agentmem.JobDream))},
	"Job.status":         {enum(string(agentmem.JobRunning), string(agentmem.JobDone), string(agentmem.JobFailed))},
	"Job.phase": {enum(string(agentmem.DreamPhaseQueued), string(agentmem.DreamPhaseReview), string(agentmem.DreamPhaseVerify),
		string(agentmem.DreamPhaseCompress), string(agentmem.DreamPhaseCommit))},
	"SearchResult.mode": {enum(string(search.ModeLexical), string(search.ModeSemantic), string(search.ModeHybrid), string(search.ModeNone))},

	"Health.status":      {enum(agentmem.HealthOK, agentmem.HealthUnavailable)},
	"TableHealth.status": {enum(agentmem.HealthOK, agentmem.HealthUnavailable)},
	"TableHealth.table":  {enum("memories", "personalities", "journal")},

	"Error.code": {func(s *object) { s.set("enum", httpapi.Codes()) }},
}

// nonNull lists the pointer fields that are always sent and never null:
// a value the server requires (SessionInput.value may be empty, not
// null), and the error of the envelope.
var nonNull = map[string]bool{
	"SessionInput.value":  true,
	"ErrorEnvelope.error": true,
}
