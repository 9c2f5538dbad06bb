// What a dream changed, as a diff a person can review: added, updated,
// retired, kept and dropped.
//
// The seam for issue 10 (cited operations): today the API tells what a
// dream wrote and the prior memories it replaced (GET .../dreams/{date}
// ?plan=true), the bullets the support test dropped with their reason,
// support and missing words, and counts of what it kept. A compression
// names the memories it merged (sourceIds), so those pair exactly; any
// other written memory is paired with a replaced one of the same type by
// wording (`paired: 'wording'`), which is a reading aid, not what the
// dream said. When the diary carries the dream's operations with their
// citations, diffOf reads them instead and sets `cited`; the page renders
// the same shape.

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

// PAIR_THRESHOLD is the similarity over which a written memory reads as
// the update of a replaced one.
export const PAIR_THRESHOLD = 0.4;

// diffOf reads one dream of a day (a DreamView) into
// {added, updated: [{after, before: [...], paired}], retired, dropped,
// kept: {unchanged, kept}, cited, planKnown}.
export function diffOf(view) {
  const written = view.written || [];
  const replaced = view.replaced || [];
  const byId = new Map(replaced.map((m) => [m.id, m]));
  const used = new Set();
  const updated = [];
  const added = [];
  // Compressions cite what they merged.
  for (const w of written) {
    if (w.sourceIds && w.sourceIds.length) {
      const before = w.sourceIds.map((id) => byId.get(id)).filter(Boolean);
      before.forEach((m) => used.add(m.id));
      updated.push({ after: w, before, paired: 'sources' });
    }
  }
  // Other writes: the most similar replaced memory of the same type.
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
      updated.push({ after: w, before: [best], paired: 'wording', similarity: bestScore });
    } else {
      added.push(w);
    }
  }
  const retired = replaced.filter((r) => !used.has(r.id));
  return {
    added,
    updated,
    retired,
    dropped: view.dropped || [],
    kept: { unchanged: view.unchanged || 0, kept: view.kept || 0 },
    cited: false,
    planKnown: Boolean(view.written || view.replaced) || (view.created === 0 && view.deleted === 0),
  };
}

// windowDays lists the days (YYYY-MM-DD) of a dream's window of daily
// records: the sources its support test read, besides the core.
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
