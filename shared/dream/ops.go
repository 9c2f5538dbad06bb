package dream

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"regexp"
	"strconv"
	"strings"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/markdown"
)

// The dream's answer format (prompt dream@v2): one JSON object
//
//	{"operations": [
//	   {"op": "keep",   "id": "m3"},
//	   {"op": "update", "id": "m4", "type": "finding", "content": "...", "cite": ["r2", "m4"], "note": "..."},
//	   {"op": "retire", "id": "m5", "cite": ["r3"], "note": "r3 says ..."},
//	   {"op": "add", "type": "decision", "content": "...", "rationale": "...", "cite": ["r1"]}
//	 ],
//	 "dream": "a short diary entry in prose"}
//
// Ids are the references the prompt shows (m1.. for memories, r1.. for
// daily records) or the memories' and records' own ids. Models decorate
// their answers; ParseOps finds the object in fences, after prose, after
// reasoning, and reads the common variants of names (see opNames,
// fieldNames). A [DREAM] section after the JSON is the diary when the
// object has none; a JSON object inside that section is prose (the model
// quoting), never the answer.

// Op is one operation as the model wrote it; its references are resolved
// by the dream against what the prompt showed.
type Op struct {
	// Op is OpKeep, OpAdd, OpUpdate or OpRetire; "" when the model wrote
	// something else (Raw says what).
	Op  string
	Raw string
	// Target is the memory an update, retire or keep names.
	Target string
	// Cites are the references it cites, normalised (m3, r2, or an id).
	Cites []string
	// Memory is the memory an add or update writes: type, content and
	// typed fields.
	Memory agentmem.Memory
	// Note is the model's reason.
	Note string
}

// OpsAnswer is a parsed dream answer.
type OpsAnswer struct {
	Ops   []Op
	Diary string
}

// Why an answer cannot be used.
var (
	// ErrCutOff: the answer's JSON begins but does not end (the model was
	// cut off, or its answer's tail is garbled). Such an answer is never
	// committed: the dream asks again over a smaller part of the work.
	ErrCutOff = errors.New("the answer was cut off: its JSON does not end")
	// ErrNoOperations: the answer holds no JSON object with operations.
	ErrNoOperations = errors.New("the answer has no JSON object with an \"operations\" list")
)

// Bounds of the parser, so that any text is read in linear time.
const (
	maxAnswerBytes    = 1 << 20
	maxJSONCandidates = 64
	maxOpsPerAnswer   = 1000
	maxOpNoteBytes    = agentmem.MaxNoteBytes
)

// dreamSection matches the [DREAM] marker that opens a line (after
// Markdown emphasis or a heading's "#"): the diary section of an answer,
// which a JSON string cannot hold.
var dreamSection = regexp.MustCompile(`(?im)^[ \t*_#>]*\[DREAM\]`)

var reasoning = regexp.MustCompile(`(?is)<(think|thinking|reasoning|analysis)>.*?</(think|thinking|reasoning|analysis)>`)
var openReasoning = regexp.MustCompile(`(?i)<(think|thinking|reasoning|analysis)>`)

// ParseOps reads a dream answer: the last complete JSON object of the text
// that holds an operations list (or a bare list of operations), and the
// diary prose. An answer whose last such object never ends is ErrCutOff;
// one with none is ErrNoOperations. An empty operations list is a valid
// answer: every memory stays as it is.
func ParseOps(text string) (OpsAnswer, error) {
	if len(text) > maxAnswerBytes {
		return OpsAnswer{}, ErrCutOff
	}
	text = reasoning.ReplaceAllString(text, "")
	if loc := openReasoning.FindStringIndex(text); loc != nil {
		// Reasoning never closed: the model was cut while thinking, unless
		// an answer came before it.
		text = text[:loc[0]]
	}
	obj, end, err := lastOpsObject(text)
	if loc := dreamSection.FindStringIndex(text); loc != nil {
		// The answer's own object comes before its [DREAM] section: a
		// JSON object in the prose after it is the model quoting (stored
		// text, an example), not its answer.
		if before, bend, berr := lastOpsObject(text[:loc[0]]); berr == nil {
			obj, end, err = before, bend, nil
		}
	}
	if err != nil {
		return OpsAnswer{}, err
	}
	var a OpsAnswer
	for i, raw := range obj.ops {
		if i == maxOpsPerAnswer {
			break
		}
		a.Ops = append(a.Ops, readOp(raw))
	}
	a.Diary = obj.diary
	if a.Diary == "" {
		if _, diary, _, hasDream := sections(text[end:]); hasDream {
			a.Diary = diary
		}
	}
	a.Diary = truncate(strings.TrimSpace(a.Diary), MaxDiaryBytes)
	return a, nil
}

// opsObject is what lastOpsObject found.
type opsObject struct {
	ops   []json.RawMessage
	diary string
}

// lastOpsObject finds the last top-level JSON value of text that is an
// object with an operations list or a list of operation objects; end is
// where it ends. The candidates are the '{' and '[' that open a line,
// follow a fence, a colon or '>', or open the text, tried in order (at
// most maxJSONCandidates of them that are not inside a value read
// already: those are part of it). A candidate that
// names operations and runs to the end of the text unfinished means the
// answer was cut off, whatever came before it.
func lastOpsObject(text string) (opsObject, int, error) {
	var best *opsObject
	bestEnd, spanEnd, attempts := 0, 0, 0
	for _, start := range candidateStarts(text) {
		if start < spanEnd {
			continue // inside a value read already
		}
		if attempts++; attempts > maxJSONCandidates {
			break
		}
		v, n, err := decodeAt(text[start:])
		if err != nil {
			if errors.Is(err, io.ErrUnexpectedEOF) && looksLikeOps(text[start:]) {
				return opsObject{}, 0, ErrCutOff
			}
			continue
		}
		spanEnd = start + n
		if obj, ok := opsOf(v); ok {
			best, bestEnd = &obj, spanEnd
		}
	}
	if best == nil {
		return opsObject{}, 0, ErrNoOperations
	}
	return *best, bestEnd, nil
}

// decodeAt decodes the JSON value text begins with and returns it with
// the number of bytes it took. A value that is not strict JSON only
// because of what models add to it (a comma before a closing bracket, a
// "//" comment at the end of a line) is read without those.
func decodeAt(text string) (any, int, error) {
	v, n, err := decodeStrict(text)
	if err == nil || errors.Is(err, io.ErrUnexpectedEOF) {
		return v, n, err
	}
	relaxed, origin := relaxJSON(text)
	v, n, rerr := decodeStrict(relaxed)
	if rerr != nil {
		if errors.Is(rerr, io.ErrUnexpectedEOF) {
			return nil, 0, rerr
		}
		return nil, 0, err
	}
	return v, origin[n-1] + 1, nil
}

func decodeStrict(text string) (any, int, error) {
	dec := json.NewDecoder(strings.NewReader(text))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, 0, err
	}
	return v, int(dec.InputOffset()), nil
}

// relaxJSON removes, outside strings, commas before a closing bracket or
// brace and "//" comments to the end of a line; origin[i] is the offset in
// text of the i-th byte kept.
func relaxJSON(text string) (string, []int) {
	out := make([]byte, 0, len(text))
	origin := make([]int, 0, len(text))
	inString, escaped := false, false
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch {
		case inString:
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
		case c == '"':
			inString = true
		case c == '/' && i+1 < len(text) && text[i+1] == '/':
			for i < len(text) && text[i] != '\n' {
				i++
			}
			i--
			continue
		case c == ',':
			j := i + 1
			for j < len(text) && (text[j] == ' ' || text[j] == '\t' || text[j] == '\n' || text[j] == '\r') {
				j++
			}
			if j < len(text) && (text[j] == ']' || text[j] == '}') {
				continue
			}
		}
		out = append(out, c)
		origin = append(origin, i)
	}
	return string(out), origin
}

// looksLikeOps tells an unfinished JSON text that was an answer (it names
// operations) from a brace in prose.
func looksLikeOps(s string) bool {
	s = strings.ToLower(s[:min(len(s), 4096)])
	return strings.Contains(s, `"op`) || strings.Contains(s, `"action`) || strings.Contains(s, `"changes"`)
}

// candidateStarts lists the offsets of '{' and '[' that may open an answer.
func candidateStarts(text string) []int {
	var out []int
	for i := 0; i < len(text); i++ {
		c := text[i]
		if c != '{' && c != '[' {
			continue
		}
		j := i - 1
		for j >= 0 && (text[j] == ' ' || text[j] == '\t') {
			j--
		}
		if j < 0 || text[j] == '\n' || text[j] == '\r' || text[j] == '`' || text[j] == ':' || text[j] == '>' {
			out = append(out, i)
		}
	}
	return out
}

// opsOf reads a decoded value as an answer object or a bare list.
func opsOf(v any) (opsObject, bool) {
	switch x := v.(type) {
	case map[string]any:
		var obj opsObject
		found := false
		for k, val := range x {
			switch normKey(k) {
			case "operations", "ops", "changes", "actions":
				list, ok := val.([]any)
				if !ok {
					if val == nil {
						found = true
						continue
					}
					return opsObject{}, false
				}
				found = true
				for _, it := range list {
					raw, _ := json.Marshal(it)
					obj.ops = append(obj.ops, raw)
				}
			case "dream", "diary", "summary":
				if s, ok := val.(string); ok {
					obj.diary = s
				}
			}
		}
		return obj, found
	case []any:
		var obj opsObject
		for _, it := range x {
			m, ok := it.(map[string]any)
			if !ok {
				return opsObject{}, false
			}
			if _, ok := pick(m, "op", "operation", "action"); !ok {
				return opsObject{}, false
			}
			raw, _ := json.Marshal(m)
			obj.ops = append(obj.ops, raw)
		}
		return obj, true
	}
	return opsObject{}, false
}

// normKey lowercases a key and removes '_' and '-'.
func normKey(k string) string {
	return strings.NewReplacer("_", "", "-", "", " ", "").Replace(strings.ToLower(strings.TrimSpace(k)))
}

// pick returns the first of names present in m (keys compared by normKey).
func pick(m map[string]any, names ...string) (any, bool) {
	for _, n := range names {
		for k, v := range m {
			if normKey(k) == n {
				return v, true
			}
		}
	}
	return nil, false
}

// opNames maps what models call the operations to the four.
var opNames = map[string]string{
	"keep": agentmem.OpKeep, "kept": agentmem.OpKeep, "retain": agentmem.OpKeep, "unchanged": agentmem.OpKeep, "noop": agentmem.OpKeep,
	"add": agentmem.OpAdd, "create": agentmem.OpAdd, "new": agentmem.OpAdd, "insert": agentmem.OpAdd, "added": agentmem.OpAdd,
	"update": agentmem.OpUpdate, "edit": agentmem.OpUpdate, "rewrite": agentmem.OpUpdate, "replace": agentmem.OpUpdate,
	"modify": agentmem.OpUpdate, "merge": agentmem.OpUpdate, "updated": agentmem.OpUpdate, "correct": agentmem.OpUpdate,
	"retire": agentmem.OpRetire, "delete": agentmem.OpRetire, "remove": agentmem.OpRetire, "drop": agentmem.OpRetire,
	"obsolete": agentmem.OpRetire, "archive": agentmem.OpRetire, "retired": agentmem.OpRetire, "deleted": agentmem.OpRetire,
}

// readOp reads one element of the operations list.
func readOp(raw json.RawMessage) Op {
	var v any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return Op{Raw: truncate(string(raw), 200)}
	}
	m, ok := v.(map[string]any)
	if !ok {
		return Op{Raw: truncate(string(raw), 200)}
	}
	var op Op
	if x, ok := pick(m, "op", "operation", "action", "kind"); ok {
		op.Raw = truncate(str(x), 100)
		op.Op = opNames[normKey(op.Raw)]
	}
	if x, ok := pick(m, "id", "memory", "memoryid", "target", "replaces", "ref", "memoryref"); ok {
		op.Target = NormalizeRef(str(x))
	}
	if x, ok := pick(m, "cite", "cites", "citations", "cited", "sources", "source", "evidence", "sourceids"); ok {
		op.Cites = refsOf(x)
	}
	if x, ok := pick(m, "note", "reason", "why", "explanation", "comment"); ok {
		op.Note = truncate(strings.TrimSpace(str(x)), maxOpNoteBytes)
	}
	text := ""
	if x, ok := pick(m, "content", "text", "memorytext", "newcontent", "statement", "fact", "bullet"); ok {
		text = str(x)
	}
	typ := agentmem.Type("")
	if x, ok := pick(m, "type", "memorytype", "section", "heading", "category"); ok {
		typ = typeOf(str(x))
	}
	mem := markdown.MemoryFromItem(typ, text)
	mem.Pinned = false
	if typ == "" {
		mem.Type = ""
	}
	set := func(dst *string, names ...string) {
		if x, ok := pick(m, names...); ok {
			if s := strings.TrimSpace(str(x)); s != "" {
				*dst = s
			}
		}
	}
	set(&mem.Rationale, "rationale")
	set(&mem.Trigger, "trigger", "when")
	set(&mem.Context, "context")
	set(&mem.Solution, "solution", "do")
	if x, ok := pick(m, "status"); ok {
		switch s := strings.ToLower(strings.TrimSpace(str(x))); s {
		case "open", "[ ]":
			mem.Status = agentmem.StatusOpen
		case "resolved", "closed", "done", "fixed", "[x]":
			mem.Status = agentmem.StatusResolved
		}
	}
	if x, ok := pick(m, "confidence"); ok {
		if c, err := strconv.ParseFloat(str(x), 64); err == nil && c >= 0 && c <= 1 {
			mem.Confidence = &c
		}
	}
	op.Memory = mem
	return op
}

// str is a JSON value as text (strings as they are, numbers as written).
func str(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case json.Number:
		return x.String()
	case nil:
		return ""
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// refsOf reads cited references: a list, or one string of them separated
// by commas, semicolons or spaces.
func refsOf(v any) []string {
	var parts []string
	switch x := v.(type) {
	case []any:
		for _, it := range x {
			parts = append(parts, strings.FieldsFunc(str(it), refSep)...)
		}
	default:
		parts = strings.FieldsFunc(str(x), refSep)
	}
	var out []string
	for _, p := range parts {
		if r := NormalizeRef(p); r != "" && !contains(out, r) && len(out) < agentmem.MaxCitations {
			out = append(out, r)
		}
	}
	return out
}

func refSep(r rune) bool { return r == ',' || r == ';' || r == ' ' || r == '\n' || r == '\t' }

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// shortRef matches the prompt's references as models write them: m3, M3,
// [m3], #m3, memory m3, r12, record 12 is not one (it needs its letter).
var shortRef = regexp.MustCompile(`^(?i)([mr])0*([0-9]{1,6})$`)

// NormalizeRef turns a reference as a model wrote it into the form the
// prompt shows: "m3" / "r2" for the short references, upper case for
// ids; "" for nothing.
func NormalizeRef(s string) string {
	s = strings.ToLower(strings.TrimSpace(s))
	for _, p := range []string{"memory ", "record ", "daily ", "mem "} {
		s = strings.TrimPrefix(s, p)
	}
	fields := strings.FieldsFunc(s, refSep)
	if len(fields) == 0 {
		return ""
	}
	s = strings.Trim(fields[0], "[]()#`'\".:")
	low := s
	if m := shortRef.FindStringSubmatch(low); m != nil {
		return strings.ToLower(m[1]) + m[2]
	}
	if s == "" || len(s) > 64 {
		return ""
	}
	return strings.ToUpper(s)
}

// typeOf reads a memory type as models write it: the type, its heading
// (Decisions), any case.
func typeOf(s string) agentmem.Type {
	s = strings.ToLower(strings.TrimSpace(strings.TrimLeft(s, "# ")))
	if t := agentmem.Type(s); t.Valid() {
		return t
	}
	if t := agentmem.Type(strings.TrimSuffix(s, "s")); t.Valid() {
		return t
	}
	return markdown.TypeForHeading(s)
}
