// Copied passages as <mark> elements. Rust sends every span twice: in Unicode scalar values and in
// UTF-16 code units (`*_utf16`); JavaScript strings are indexed in UTF-16, so only the `*_utf16`
// pairs are used here, with `String.prototype.slice`. The text is inserted as text nodes only.

/**
 * Sorted, non-overlapping spans. Each input span is `[start, end]` with an optional `id`; spans that
 * overlap or touch are merged and keep all their ids. Out-of-range and empty spans are dropped.
 * @param {{range: [number, number], id?: number}[]} spans
 * @param {number} length the text's length in UTF-16 code units
 */
export function mergeSpans(spans, length) {
  const clean = [];
  for (const span of spans) {
    const [rawStart, rawEnd] = span.range ?? [];
    const start = Math.max(0, Math.min(length, Math.trunc(Number(rawStart))));
    const end = Math.max(0, Math.min(length, Math.trunc(Number(rawEnd))));
    if (!(end > start)) continue;
    clean.push({ start, end, ids: span.id == null ? [] : [span.id] });
  }
  clean.sort((a, b) => a.start - b.start || a.end - b.end);
  const merged = [];
  for (const span of clean) {
    const last = merged[merged.length - 1];
    if (last && span.start <= last.end) {
      last.end = Math.max(last.end, span.end);
      last.ids.push(...span.ids);
    } else merged.push(span);
  }
  return merged;
}

/**
 * A fragment of `text` with the spans wrapped in <mark>. With `pairs`, each mark carries
 * `data-pair` (the ids of the spans it covers) so its counterpart in the other text can be lit.
 */
export function highlightedText(text, spans, { markClass = 'copied', pairs = false } = {}) {
  const source = String(text ?? '');
  const fragment = document.createDocumentFragment();
  let at = 0;
  for (const span of mergeSpans(spans, source.length)) {
    if (span.start > at) fragment.append(document.createTextNode(source.slice(at, span.start)));
    const mark = document.createElement('mark');
    mark.className = markClass;
    mark.textContent = source.slice(span.start, span.end);
    if (pairs && span.ids.length) mark.dataset.pair = span.ids.join(' ');
    fragment.append(mark);
    at = span.end;
  }
  if (at < source.length) fragment.append(document.createTextNode(source.slice(at)));
  return fragment;
}

/**
 * The submission-side spans of all of a paragraph's matches (their union is highlighted); with
 * `passages`, those of its copied passages below the threshold instead.
 */
export function paragraphSpans(paragraph, { passages = false } = {}) {
  const spans = [];
  for (const match of (passages ? paragraph.passages : paragraph.matches) ?? []) {
    for (const span of match.spans ?? []) {
      if (span.submission_utf16) spans.push({ range: span.submission_utf16 });
    }
  }
  return spans;
}

/** One match's spans on one side ("submission" or "source"), numbered to pair the two sides. */
export function matchSpans(match, side) {
  const key = `${side}_utf16`;
  return (match.spans ?? []).flatMap((span, id) => (span[key] ? [{ range: span[key], id }] : []));
}
