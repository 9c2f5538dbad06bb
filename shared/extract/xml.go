package extract

import (
	"html"
	"regexp"
	"strings"
)

// This file reads answers written as XML-ish elements, as some models do
// when a prompt uses tags: <learning type="finding">...</learning>, or
// <learning><type>decision</type><content>...</content>
// <rationale>...</rationale></learning>, with <summary> and <success>
// around them.

var (
	xmlItem = regexp.MustCompile(`(?is)<(learning|item|insight|lesson|memory|finding|decision|blocker|pattern|note)\b([^>]*)>(.*?)</(?:learning|item|insight|lesson|memory|finding|decision|blocker|pattern|note)\s*>`)
	xmlAttr = regexp.MustCompile(`(?s)([A-Za-z_][\w-]*)\s*=\s*(?:"([^"]*)"|'([^']*)')`)
	xmlElem = regexp.MustCompile(`(?is)<([A-Za-z_][\w-]*)\b[^>]*>(.*?)</([A-Za-z_][\w-]*)\s*>`)
	xmlList = regexp.MustCompile(`(?is)<learnings\b[^>]*/>|<learnings\b[^>]*>(.*?)</learnings\s*>`)
	xmlTag  = regexp.MustCompile(`(?s)<[^>]*>`)
)

// readXML reads <learning> elements (and <summary>, <success>) in s.
func readXML(s string) (reading, int, bool) {
	var r reading
	pos := -1
	for _, m := range xmlItem.FindAllStringSubmatchIndex(s, 64) {
		if pos < 0 {
			pos = m[0]
		}
		tag := strings.ToLower(s[m[2]:m[3]])
		o := &object{}
		for _, a := range xmlAttr.FindAllStringSubmatch(s[m[4]:m[5]], -1) {
			v := a[2]
			if v == "" {
				v = a[3]
			}
			o.members = append(o.members, member{key: a[1], value: html.UnescapeString(v)})
		}
		inner := s[m[6]:m[7]]
		children := xmlElem.FindAllStringSubmatch(inner, -1)
		rest := inner
		for _, c := range children {
			if !strings.EqualFold(c[1], c[3]) {
				continue
			}
			o.members = append(o.members, member{key: c[1], value: xmlText(c[2])})
			rest = strings.Replace(rest, c[0], "", 1)
		}
		if t := xmlText(rest); t != "" {
			o.members = append(o.members, member{key: "content", value: t})
		}
		def := ""
		if _, ok := typeOf(tag); ok && tag != "learning" {
			def = tag
		}
		p := proposalOf(o, "")
		if p.f.typ == "" && def != "" {
			p.f.typ = def
		}
		r.items = append(r.items, p)
	}
	if pos < 0 {
		if m := xmlList.FindStringSubmatchIndex(s); m != nil {
			inner := ""
			if m[2] >= 0 {
				inner = xmlText(s[m[2]:m[3]])
			}
			if inner == "" || saysNone(inner) {
				pos = m[0]
			}
		}
	}
	if pos < 0 {
		return reading{}, 0, false
	}
	r.list = true
	for _, c := range xmlElem.FindAllStringSubmatch(s, -1) {
		switch k := normalizeKey(c[1]); {
		case summaryKeys[k] && !r.hasSummary:
			r.summary, r.hasSummary = xmlText(c[2]), true
		case successKeys[k] && !r.hasSuccess:
			if b, ok := successWord(xmlText(c[2])); ok {
				r.success, r.hasSuccess = b, true
			}
		}
	}
	return r, pos, true
}

// xmlText is an element's text: tags removed, entities decoded, CDATA
// opened, blanks folded.
func xmlText(s string) string {
	s = strings.ReplaceAll(strings.ReplaceAll(s, "<![CDATA[", ""), "]]>", "")
	s = xmlTag.ReplaceAllString(s, " ")
	return strings.Join(strings.Fields(html.UnescapeString(s)), " ")
}
