// What a dream changed, as a diff a person can review: added, updated
// (old → new), retired, kept, and dropped with the reason class, each
// change beside the sources it cites.
//
// A dream answers with operations that cite the ids of the memories and
// daily records supporting them; the diary entry lists every change it
// made (`operations`: op, memoryId, type, content, before, citations,
// rule, note, verified) and every operation it refused (`dropped`, with
// `class`, `reason`, `citations`), and GET .../dreams/{date}?plan=true
// adds the texts of the cited sources (`sources`). diffOf reads that
// shape and sets `cited`. Dreams from before operations have no
// `operations`: what they wrote and replaced is paired by wording, which
// is a reading aid, not what the dream said (`paired: 'wording'`).

// words are the lowercased word tokens of a text, for pairing.
function words(text) {
  return new Set(String(text || '').toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((w) => w.length > 2));
}

// similarity is the Jaccard index of two texts' words.
export function similarity(a, b) {
  const x = words(a);
  const y = words(b);
  if (!x.size || !y.size) return 0;
  let common = 0;
  for (const w of x) if (y.has(w)) common += 1;
  return common / (x.size + y.size - common);
}

// PAIR_THRESHOLD is the similarity over which a written memory of an old
// dream reads as the update of a replaced one.
export const PAIR_THRESHOLD = 0.4;

// CLASS_LABELS say in words why an operation was refused; the class code
// is shown beside them.
export const CLASS_LABELS = {
  no_citation: 'cites no source',
  unknown_citation: 'cites a source the model was not shown',
  unknown_memory: 'names a memory the model was not shown',
  fixed_memory: 'names a memory the dream may not change (pinned, manual, or another part\'s)',
  conflicting_op: 'a second change of the same memory',
  duplicate: 'says what a memory already says',
  invalid: 'not a valid operation or memory',
  retire_unsupported: 'retired without a cited reason',
  verifier_contradicts: 'the verifier found the cited sources say otherwise',
  verifier_not_mentioned: 'the verifier found the cited sources do not say it',
  identifier_missing: 'a name or identifier not in its cited sources',
  number_missing: 'a number not in its cited sources',
  number_context: 'a number the sources give for something else',
  negation: 'negates what its sources say',
  opposite: 'says the opposite of its sources',
  modality: 'certain where its sources hedge',
  causal: 'a cause its sources do not give',
  role_swap: 'roles swapped',
  status_change: 'a status change no source states',
  unsupported_combination: 'joins sources that do not say it together',
  low_overlap: 'too little of it is in its sources',
  empty: 'empty',
  unknown_source: 'cites a source that does not exist',
};

// RULE_LABELS say why a retirement was accepted.
export const RULE_LABELS = {
  contradicted: 'a cited source says otherwise',
  obsolete: 'a cited source says it is out of date',
  repeated: 'a cited memory that stays says all of it',
};

// classLabel is a refusal's reason class in words.
export function classLabel(cls) {
  return CLASS_LABELS[cls] || cls || 'refused';
}

// citedSources maps ids to the sources the view carries; an id without
// its text (a plan not loaded, or a source cut from it) keeps its id.
function citedSources(view) {
  const byId = new Map((view.sources || []).map((s) => [s.id, s]));
  return (ids) => (ids || []).map((id) => byId.get(id) || { id, kind: 'unknown', text: '' });
}

// diffOf reads one dream of a day (a DreamView) into
// {added, updated, retired, dropped, kept: {unchanged, kept}, cited,
// planKnown}: with operations, added items are {memory, citations,
// note, verified}, updated {before, after, citations, note, version},
// retired {memory, rule, citations, note}; dropped items carry their
// citations as sources.
export function diffOf(view) {
  const cite = citedSources(view);
  const dropped = (view.dropped || []).map((b) => ({ ...b, sources: cite(b.citations) }));
  const kept = { unchanged: view.unchanged || 0, kept: view.kept || 0 };
  if (Array.isArray(view.operations) || view.updated !== undefined || view.retired !== undefined) {
    const ops = view.operations || [];
    const memory = (id, type, content) => ({ id, type, content });
    return {
      added: ops.filter((o) => o.op === 'add').map((o) => ({
        memory: memory(o.memoryId, o.type, o.content), citations: cite(o.citations), note: o.note || '', verified: o.verified || '',
        restated: o.restated || '',
      })),
      updated: ops.filter((o) => o.op === 'update').map((o) => ({
        before: [memory(o.memoryId, o.beforeType || o.type, o.before)], after: memory(o.memoryId, o.type, o.content),
        citations: cite(o.citations), note: o.note || '', version: o.version, paired: 'cited',
        restated: o.restated || '',
      })),
      retired: ops.filter((o) => o.op === 'retire').map((o) => ({
        memory: memory(o.memoryId, o.type, o.content), rule: o.rule || '', citations: cite(o.citations), note: o.note || '',
      })),
      dropped,
      kept,
      cited: true,
      planKnown: true,
    };
  }
  return legacyDiff(view, dropped, kept);
}

// legacyDiff pairs what a dream from before operations wrote with what it
// replaced: compressions by the ids they cite, other writes by wording.
function legacyDiff(view, dropped, kept) {
  const written = view.written || [];
  const replaced = view.replaced || [];
  const byId = new Map(replaced.map((m) => [m.id, m]));
  const used = new Set();
  const updated = [];
  const added = [];
  for (const w of written) {
    if (w.sourceIds && w.sourceIds.length) {
      const before = w.sourceIds.map((id) => byId.get(id)).filter(Boolean);
      before.forEach((m) => used.add(m.id));
      updated.push({ after: w, before, paired: 'sources', citations: [] });
    }
  }
  for (const w of written) {
    if (w.sourceIds && w.sourceIds.length) continue;
    let best = null;
    let bestScore = 0;
    for (const r of replaced) {
      if (used.has(r.id) || r.type !== w.type) continue;
      const score = similarity(w.content, r.content);
      if (score > bestScore) {
        best = r;
        bestScore = score;
      }
    }
    if (best && bestScore >= PAIR_THRESHOLD) {
      used.add(best.id);
      updated.push({ after: w, before: [best], paired: 'wording', similarity: bestScore, citations: [] });
    } else {
      added.push({ memory: w, citations: [] });
    }
  }
  const retired = replaced.filter((r) => !used.has(r.id)).map((m) => ({ memory: m, rule: '', citations: [] }));
  return {
    added,
    updated,
    retired,
    dropped,
    kept,
    cited: false,
    planKnown: Boolean(view.written || view.replaced) || (view.created === 0 && view.deleted === 0),
  };
}

// windowDays lists the days (YYYY-MM-DD) of a dream's window of daily
// records.
export function windowDays(view) {
  if (!view.windowFrom || !view.windowTo) return [];
  const days = [];
  const from = new Date(view.windowFrom);
  const to = new Date(view.windowTo);
  for (let d = from; d < to && days.length < 31; d = new Date(d.getTime() + 86400000)) {
    days.push(d.toISOString().slice(0, 10));
  }
  return days;
}
