package support

import "strings"

// The word lists of the support test. They are deliberately small and
// about how engineering notes are written (daily records, MEMORY.md
// bullets): what negates, what hedges, what states a cause, what closes a
// blocker, which words are too common to tell one fact from another, and
// which verbs a paraphrase may swap for one another.

// wordSet is a set of lower-case words.
type wordSet map[string]bool

func words(s string) wordSet {
	set := wordSet{}
	for _, w := range strings.Fields(s) {
		set[w] = true
	}
	return set
}

// functionWords are dropped from a text's terms on top of search's
// stopwords: they carry no fact of their own (quantifiers and comparison
// words are read as cues instead).
var functionWords = words(`single also just only every each any many much more most less least few several
	both either other another same per via up down out over under above below off across around
	within onto upon toward towards against among through during until till since because though
	although whether however etc yet still already again ever even anyway instead rather quite
	really actually basically currently now today tonight yesterday tomorrow lot lots bit back
	one ones anyone everyone someone something everything anything thing things way ways kind sort
	around approximately roughly about e.g i.e vs via let lets once whenever unless anymore otherwise behind beside beyond inside outside near along despite except unlike versus
	whereas whilst`)

// genericTerms are content words so common in engineering notes that they
// neither support nor betray a claim: a rewrite may add or drop them.
var genericTerms = words(`use used using uses run runs ran running make makes made get gets got need needs
	needed go goes went work works worked take takes took have has had do does did thing
	service services job jobs task tasks app apps application system systems process component
	module tool tools script scripts code file files test tests testing cluster issue issues problem
	problems step steps stuff value values new old now time times way part parts case cases point
	setting settings change changes thing default defaults currently number numbers version versions
	we our us you your they them it its there here able happen happens happened instead first`)

// negationWords negate the rest of their clause.
var negationWords = words(`not no never none nothing nobody neither nor without cannot cant dont doesnt
	didnt isnt arent wasnt werent wont wouldnt shouldnt couldnt mustnt hasnt havent hadnt lack lacks
	lacked lacking missing absent avoid avoids avoided avoiding previously formerly
	forget forgets forgot forgetting omit omits omitted omitting`)

// negatedLemmas turn a negative word into its positive form plus a
// negation: "disabled" says "not enabled".
var negatedLemmas = map[string]string{
	"disabled": "enabled", "disable": "enable", "disables": "enables", "disabling": "enabling",
	"unable": "able", "invalid": "valid", "unsupported": "supported", "unavailable": "available",
	"unaffected": "affected", "unused": "used", "inactive": "active", "unsafe": "safe",
	"unreachable": "reachable", "impossible": "possible", "incorrect": "correct", "untested": "tested",
	"unset": "set", "unreliable": "reliable", "unstable": "stable", "unchanged": "changed",
	"uncompressed": "compressed", "unencrypted": "encrypted", "unlimited": "limited",
	"unresolved": "resolved", "unfixed": "fixed", "undocumented": "documented", "unsigned": "signed",
	"disallow": "allow", "disallowed": "allowed", "disallows": "allows",
}

// neutralPhrases contain a negation word but state an amount or a
// condition, not a negation.
var neutralPhrases = []string{"no more than", "not more than", "no less than", "not less than", "no later than",
	"not later than", "no earlier than", "no fewer than", "not only", "no matter", "or not", "no sooner than"}

// hedgeWords make a statement uncertain.
var hedgeWords = words(`appear appears appeared might may maybe perhaps possibly probably likely unlikely could seem seems seemed
	seemingly apparently presumably suspect suspects suspected suspicion guess hypothesis hypothesize
	potentially unclear unconfirmed unverified uncertain tbd looks looked think thinks believe believes would
	suggests suggest plausibly conceivably expected expects says said supposedly reportedly`)

// hedgePhrases make a statement uncertain as a whole.
var hedgePhrases = []string{"not sure", "not confirmed", "not verified", "to be confirmed", "need to confirm",
	"needs to be confirmed", "needs confirmation", "need to check", "needs checking", "not clear", "looks like",
	"not measured", "not yet measured", "to be verified", "not proven", "appear to", "appears to", "appeared to",
	"plan to", "plans to", "according to", "is planned", "are planned", "was planned", "were planned"}

// Decision cues.
var (
	decisionWords = words(`decided decide decides chose choose chosen opted opt agreed agree settled picked
		went standardized standardised`)
)

// Blocker status cues.
var (
	resolvedWords   = words(`fixed resolved closed closing close done finished solved unblocked landed shipped survives survive passes passing green works`)
	resolvedPhrases = []string{"works now", "now works", "green again", "is green", "back to normal", "no longer", "[x]", "rolled out", "rollout finished",
		"is gone", "are gone", "went away", "goes away", "is fixed", "not an issue anymore", "no longer an issue"}
	openWords = words(`still open blocked blocking pending waiting broken failing todo stuck unresolved`)
)

// opposites pairs words that say the opposite of each other; a claim with
// one where its source has the other (and not the first) contradicts it.
var opposites = pairs(`before:after above:below over:under more:less higher:lower increase:decrease
	increased:decreased faster:slower larger:smaller bigger:smaller earlier:later first:last oldest:newest
	min:max minimum:maximum inbound:outbound input:output upload:download uploads:downloads read:write
	reads:writes push:pull import:export sync:async synchronous:asynchronous public:private
	internal:external include:exclude includes:excludes accept:reject accepts:rejects accept:refuse accepts:refuses accepted:refused ascending:descending
	cold:warm online:offline early:late local:remote upper:lower allow:deny allows:denies allow:block
	always:never all:none success:failure succeeds:fails succeeded:failed start:end inner:outer
	encrypt:decrypt serialize:deserialize compress:decompress ingress:egress enable:disable enabled:disabled
	leader:follower primary:replica true:false
	always:sometimes always:occasionally always:intermittently always:often always:usually always:rarely
	always:mostly always:once every:sometimes never:sometimes never:occasionally never:rarely every:some
	single-use:multi-use single-threaded:multi-threaded single:multiple accepted:rejected
	survives:lost survive:lost survived:lost persists:lost works:broke work:broke works:breaks worked:broke
	works:failed work:fail works:fails worked:failed working:failing succeeds:breaks`)

func pairs(s string) map[string][]string {
	m := map[string][]string{}
	for _, p := range strings.Fields(s) {
		a, b, _ := strings.Cut(p, ":")
		m[a] = append(m[a], b)
		m[b] = append(m[b], a)
	}
	return m
}

// auxiliaries are the verbs that mark a clause's verb phrase.
var auxiliaries = words(`is are was were be been being am has have had does do did can could may might must
	shall should will would gets got`)

// determiners start a noun phrase: the word after one is not a verb.
var determiners = words(`the a an this that these those each every our its their his her my your no any some
	all both either neither another other which whose what of for with to from in on at by into onto
	about as than per`)

// pronouns start a clause whose subject is elsewhere.
var pronouns = words(`it they this that these those which he she we i you who there`)

// prepositions that, at a clause's start, begin an adverbial rather than a
// subject.
var leadingPrepositions = words(`in on at for during after before when if since once while with without by
	from to until unless whenever every each`)

// verbLemmas are the verbs of engineering notes, as normalised terms (see
// lemma); a word whose lemma is here may be the verb of its clause.
var verbLemmas = lemmaSet(`accept access ack acknowledge add affect allow alert answer append apply archive
	ask assign assume avoid back backfill batch become begin belong benchmark block boot break bring build
	bump buy cache call cancel cap cause catch change check choose clean clear close collect come commit compare
	compile complete compress compute configure confirm connect consume contain copy corrupt count cover
	crash create cut debounce decide default define delete depend deploy detect differ disable double
	download drift drop dump embed emit enable encode encrypt end enforce evaluate evict exceed expire
	export expose extend fail fall fetch fill filter find finish fire fix flag flicker flush follow force
	format forward freeze generate get give go grow handle hang happen help hit hold honour honor host
	ignore import improve include increase index inject install introduce invalidate investigate invoke
	keep kill land last launch lead leak let limit list live load lock log look lose lower make manage
	mark match measure merge migrate misclassify miss mount move need notify offer open own page parse
	partition patch pause pay persist pick pin poll polyfill predict prefer prevent print process produce promote
	protect provide provision publish pull push put query queue raise reach read rebuild receive reconcile
	record recover redeploy redraw reduce refresh reject release reload remove rename render repeat
	replace replay report reproduce request require reset resize resolve restart restore retain retry
	return reuse revalidate revert review rewrite roll rotate route run save scale scan schedule send
	serve set share ship show shrink sign skip sleep slow solve sort spike split stall start stay stop store
	stream submit succeed suggest support survive switch sync take talk test throttle throw time tip
	tick track train transform trigger trip try turn unlock update upgrade upload use validate verify version
	wait wake want warn watch work wrap write yield`)

// irregular maps irregular verb forms to their base form.
var irregular = map[string]string{
	"ran": "run", "wrote": "write", "written": "write", "sent": "send", "built": "build", "rebuilt": "rebuild",
	"broke": "break", "broken": "break", "took": "take", "taken": "take", "made": "make", "chose": "choose",
	"chosen": "choose", "kept": "keep", "held": "hold", "found": "find", "began": "begin", "begun": "begin",
	"got": "get", "gotten": "get", "went": "go", "gone": "go", "saw": "see", "seen": "see", "gave": "give",
	"given": "give", "knew": "know", "known": "know", "led": "lead", "lost": "lose", "paid": "pay",
	"said": "say", "shown": "show", "thought": "think", "told": "tell", "fell": "fall", "fallen": "fall",
	"grew": "grow", "grown": "grow", "spent": "spend", "stuck": "stick", "froze": "freeze", "frozen": "freeze",
	"rose": "rise", "risen": "rise", "bound": "bind", "caught": "catch", "fed": "feed", "hung": "hang",
	"hid": "hide", "hidden": "hide", "meant": "mean", "met": "meet", "sold": "sell", "rewrote": "rewrite",
	"rewritten": "rewrite", "reran": "rerun", "overwrote": "overwrite", "overwritten": "overwrite",
	"drove": "drive", "driven": "drive", "understood": "understand", "forgot": "forget", "forgotten": "forget",
	"split": "split", "set": "set", "put": "put", "cut": "cut", "hit": "hit", "shut": "shut", "let": "let",
	"using": "use", "bought": "buy", "came": "come", "sought": "seek", "won": "win", "wound": "wind",
	"brought": "bring", "sped": "speed", "shrank": "shrink", "shrunk": "shrink", "drew": "draw", "drawn": "draw",
	"threw": "throw", "thrown": "throw", "dealt": "deal", "taught": "teach", "woke": "wake", "woken": "wake",
	"blew": "blow", "blown": "blow", "flew": "fly", "flown": "fly", "tore": "tear", "torn": "tear",
	"undid": "undo", "undone": "undo", "withdrew": "withdraw", "withdrawn": "withdraw", "overrode": "override",
	"overridden": "override", "stole": "steal", "stolen": "steal", "rewound": "rewind", "outgrew": "outgrow",
	"outgrown": "outgrow", "spoke": "speak", "spoken": "speak",
	"did": "do", "done": "do", "does": "do", "has": "have", "had": "have", "is": "be", "are": "be", "was": "be",
	"were": "be", "been": "be", "went through": "go", "data": "data", "indices": "index", "analyses": "analysis",
}

// synonyms map words a light paraphrase exchanges onto one term.
var synonymGroups = []string{
	"use utilize utilise employ",
	"run execute exec",
	"start launch begin startup boot",
	"keep retain preserve",
	"issue problem",
	"app application",
	"stop halt",
	"fix repair patch",
	"remove delete",
	"db database",
	"config configuration",
	"repo repository",
	"dir directory folder",
	"env environment",
	"prod production",
	"dev development",
	"k8s kubernetes",
	"msg message",
	"doc docs documentation",
	"check verify validate",
	"show display",
	"store save persist",
	"fetch retrieve",
	"send emit dispatch",
	"call invoke",
	"build compile",
	"big large",
	"small little",
	"fast quick",
	"error failure fail",
	"bump upgrade",
	"reject refuse deny decline",
	"allow accept permit",
	"cap limit",
	"need require",
	"ack acknowledge",
	"photo image picture",
	"e2e end-to-end",
	"finish complete",
	"happen occur",
	"raise increase grow rise",
	"reduce decrease lower shrink cut fall",
	"flag mark",
	"switch move migrate",
	"over above",
	"under below",
	"stay remain",
	"month monthly",
	"week weekly",
	"day daily",
	"hour hourly",
	"night nightly",
	"honour honor",
	"behaviour behavior",
	"split partition",
	"ci pipeline",
	"bug defect",
	"choose pick select",
	"replace substitute",
	"hang freeze stall",
	"flaky intermittent",
	"outage downtime",
	"find discover notice observe",
	"add introduce",
	"ship deploy",
	"attempt try",
}

// commandWords name programs whose first argument is part of the command
// ("make itest", "kubectl rollout"): such a pair in a claim must appear as
// written in a source. The ambiguous ones (also English verbs) count only
// after "run", "via", "using" or "with".
var (
	commandWords = words(`npm npx yarn pnpm git kubectl docker helm terraform cargo pip poetry pytest gradle
		mvn bazel dbt rake brew gcloud cdk flutter xcodebuild fastlane deno bun psql dotnet ansible
		skaffold rustup goreleaser golangci-lint eslint prettier tsc jest vitest playwright detox
		alembic airflow spark-submit aws az kustomize argocd`)
	ambiguousCommands = words(`make go just task node pod swift mix apt bundle tilt nix sam`)
	commandLeads      = words(`run runs ran running via using with use uses`)
)

// measureUnits are the units of measure; a number in a claim and its
// source must agree on these exactly. Keys are lower-case spellings.
var measureUnits = map[string]string{
	"ns": "ns", "nanosecond": "ns", "nanoseconds": "ns",
	"µs": "us", "us": "us", "microsecond": "us", "microseconds": "us",
	"ms": "ms", "msec": "ms", "millisecond": "ms", "milliseconds": "ms",
	"s": "s", "sec": "s", "secs": "s", "second": "s", "seconds": "s",
	"m": "min", "min": "min", "mins": "min", "minute": "min", "minutes": "min",
	"h": "h", "hr": "h", "hrs": "h", "hour": "h", "hours": "h",
	"d": "d", "day": "d", "days": "d",
	"w": "w", "wk": "w", "week": "w", "weeks": "w",
	"mo": "mo", "month": "mo", "months": "mo",
	"y": "y", "yr": "y", "yrs": "y", "year": "y", "years": "y",
	"b": "b", "byte": "b", "bytes": "b",
	"kb": "kb", "mb": "mb", "gb": "gb", "tb": "tb", "pb": "pb",
	"kib": "kib", "mib": "mib", "gib": "gib", "tib": "tib", "ki": "kib", "mi": "mib", "gi": "gib", "ti": "tib",
	"%": "%", "percent": "%", "pct": "%",
	"px": "px", "pixel": "px", "pixels": "px",
	"x": "x", "times": "x", "time": "x",
	"usd": "usd", "$": "usd", "dollar": "usd", "dollars": "usd",
	"eur": "eur", "€": "eur", "euro": "eur", "euros": "eur",
	"rps": "rps", "qps": "rps",
	"µa": "ua", "ua": "ua", "ma": "ma", "mw": "mw", "mv": "mv",
	"hz": "hz", "khz": "khz", "mhz": "mhz", "ghz": "ghz",
	"kbps": "kbps", "mbps": "mbps", "gbps": "gbps",
	"k": "k",
}

// numberWords are spelled-out numbers a rewrite may use for digits.
var numberWords = map[string]string{
	"zero": "0", "two": "2", "three": "3", "four": "4", "five": "5", "six": "6", "seven": "7",
	"eight": "8", "nine": "9", "ten": "10", "eleven": "11", "twelve": "12", "fifteen": "15", "twenty": "20",
	"thirty": "30", "forty": "40", "fifty": "50", "sixty": "60", "ninety": "90", "hundred": "100",
	"twice": "2", "thrice": "3",
	"doubled": "2", "doubles": "2", "doubling": "2", "tripled": "3", "triples": "3", "tripling": "3",
	"quadrupled": "4", "quadruples": "4",
}
