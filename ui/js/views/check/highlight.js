// Copied passages as <mark> elements. Rust sends every span twice: in Unicode scalar values and in
// UTF-16 code units (`*_utf16`); JavaScript strings are indexed in UTF-16, so only the `*_utf16`
// pairs are used here, with `String.prototype.slice`. A cited quotation's `cited_by` ranges come in
// scalar values only: `utf16Range` converts them. The text is inserted as text nodes only.

import { t } from '../../i18n.js';

/** Kinds of copied passage, the one that counts most first. */
export const KIND_ORDER = ['copied', 'reference', 'quoted', 'own', 'template'];

/**
 * Sorted, non-overlapping spans. Each input span is `[start, end]` with an optional `id`; spans that
 * overlap or touch are merged and keep all their ids. Out-of-range and empty spans are dropped.
 * With `joinTouching` false, spans that only touch stay apart (aligned sentences, each its own mark).
 * @param {{range: [number, number], id?: number}[]} spans
 * @param {number} length the text's length in UTF-16 code units
 */
export function mergeSpans(spans, length, { joinTouching = true } = {}) {
  const clean = [];
  for (const span of spans) {
    const [rawStart, rawEnd] = span.range ?? [];
    const start = Math.max(0, Math.min(length, Math.trunc(Number(rawStart))));
    const end = Math.max(0, Math.min(length, Math.trunc(Number(rawEnd))));
    if (!(end > start)) continue;
    clean.push({
      start,
      end,
      ids: span.id == null ? [] : [span.id],
      kind: span.kind ?? null,
      inQuotes: Boolean(span.inQuotes),
      disputed: Boolean(span.disputed),
    });
  }
  clean.sort((a, b) => a.start - b.start || a.end - b.end);
  const merged = [];
  for (const span of clean) {
    const last = merged[merged.length - 1];
    if (last && (span.start < last.end || (joinTouching && span.start === last.end))) {
      last.end = Math.max(last.end, span.end);
      last.ids.push(...span.ids);
      // Where kinds meet, the one that counts most is shown (as the report counts it).
      if (KIND_ORDER.indexOf(span.kind) >= 0 && (last.kind == null || KIND_ORDER.indexOf(span.kind) < KIND_ORDER.indexOf(last.kind))) {
        last.kind = span.kind;
      }
      last.inQuotes = last.inQuotes || span.inQuotes;
      last.disputed = last.disputed || span.disputed;
    } else merged.push(span);
  }
  return merged;
}

/**
 * A fragment of `text` with the spans wrapped in <mark>. With `pairs`, each mark carries
 * `data-pair` (the ids of the spans it covers) so its counterpart in the other text can be lit.
 * With `colours` (a colour index per span id, see `pairColours`), each mark also gets the class
 * `pair-c<index>` of its first span, and spans that only touch stay separate marks.
 * `citations` (`{range: [start, end] in UTF-16, quotation: "P:S"}`, see quotations.js) are wrapped in
 * `<span class="citation">`, inside a mark where they overlap one (split at the mark's edges).
 */
export function highlightedText(text, spans, { markClass = 'copied', pairs = false, colours = null, citations = [] } = {}) {
  const source = String(text ?? '');
  const cited = mergeCitations(citations, source.length);
  const fragment = document.createDocumentFragment();
  let at = 0;
  for (const span of mergeSpans(spans, source.length, { joinTouching: !colours })) {
    if (span.start > at) appendText(fragment, source, at, span.start, cited);
    const mark = document.createElement('mark');
    // Coloured by kind (copied red, quoted green, reference and template grey, own work blue).
    mark.className =
      markClass + (span.kind ? ` kind-${span.kind}` : '') + (span.inQuotes ? ' in-quotes' : '') + (span.disputed ? ' disputed' : '');
    const colour = colours && span.ids.length ? colours[span.ids[0]] : null;
    if (colour != null) mark.classList.add(`pair-c${colour}`);
    const title = markTitle(span);
    if (title) mark.title = title;
    appendText(mark, source, span.start, span.end, cited);
    if (pairs && span.ids.length) mark.dataset.pair = span.ids.join(' ');
    fragment.append(mark);
    at = span.end;
  }
  if (at < source.length) appendText(fragment, source, at, source.length, cited);
  return fragment;
}

/** Why a passage counts as it does, when its kind needs saying. */
function markTitle(span) {
  if (span.kind === 'quoted') return t('report.citedQuotation');
  if (span.disputed) return t('report.disputedQuotation');
  if (span.inQuotes) return t('report.inQuotes');
  return '';
}

/** Sorted, non-overlapping citation ranges (UTF-16), each with the quotations it attributes. */
function mergeCitations(citations, length) {
  const clean = [];
  for (const citation of citations ?? []) {
    const [start, end] = (citation.range ?? []).map((n) => Math.max(0, Math.min(length, Math.trunc(Number(n)))));
    if (!(end > start)) continue;
    clean.push({ start, end, quotations: citation.quotation == null ? [] : [String(citation.quotation)] });
  }
  clean.sort((a, b) => a.start - b.start || a.end - b.end);
  const merged = [];
  for (const citation of clean) {
    const last = merged[merged.length - 1];
    if (last && citation.start < last.end) {
      last.end = Math.max(last.end, citation.end);
      for (const q of citation.quotations) if (!last.quotations.includes(q)) last.quotations.push(q);
    } else merged.push(citation);
  }
  return merged;
}

/** Appends `source[from, to)` to `parent` as text, its citations (`cited`) in <span class="citation">. */
function appendText(parent, source, from, to, cited) {
  let at = from;
  for (const citation of cited) {
    if (citation.end <= at) continue;
    if (citation.start >= to) break;
    const start = Math.max(citation.start, at);
    const end = Math.min(citation.end, to);
    if (start > at) parent.append(document.createTextNode(source.slice(at, start)));
    const node = document.createElement('span');
    node.className = 'citation';
    node.title = t('report.citation');
    if (citation.quotations.length) node.dataset.quotation = citation.quotations.join(' ');
    node.textContent = source.slice(start, end);
    parent.append(node);
    at = end;
  }
  if (at < to) parent.append(document.createTextNode(source.slice(at, to)));
}

/**
 * `[start, end]` in Unicode scalar values of `text` (as `cited_by` gives them) in UTF-16 code units,
 * for `String.prototype.slice`; clamped to the text.
 */
export function utf16Range(text, [start, end] = []) {
  const chars = Array.from(String(text ?? ''));
  const clamp = (n) => Math.max(0, Math.min(chars.length, Number.isFinite(Number(n)) ? Math.trunc(Number(n)) : 0));
  const from = clamp(start);
  const to = Math.max(from, clamp(end));
  const before = chars.slice(0, from).join('').length;
  return [before, before + chars.slice(from, to).join('').length];
}

/**
 * The submission-side spans of all of a paragraph's matches and of its copied passages below the
 * threshold (their union is highlighted: everything the paragraph's share counts); with `passages`,
 * those of its passages only.
 */
export function paragraphSpans(paragraph, { passages = false } = {}) {
  const spans = [];
  const listed = passages ? paragraph.passages ?? [] : [...(paragraph.matches ?? []), ...(paragraph.passages ?? [])];
  for (const match of listed) {
    for (const span of match.spans ?? []) {
      if (span.submission_utf16) {
        spans.push({
          range: span.submission_utf16,
          kind: span.kind ?? null,
          inQuotes: span.in_quotes,
          disputed: Boolean(span.cited_by?.disputed),
        });
      }
    }
  }
  return spans;
}

/** One match's spans on one side ("submission" or "source"), numbered to pair the two sides. */
export function matchSpans(match, side) {
  const key = `${side}_utf16`;
  const submission = side === 'submission';
  return (match.spans ?? []).flatMap((span, id) =>
    span[key]
      ? [
          {
            range: span[key],
            id,
            kind: submission ? span.kind ?? null : null,
            inQuotes: submission && span.in_quotes,
            disputed: submission && Boolean(span.cited_by?.disputed),
          },
        ]
      : [],
  );
}

/** Aligned sentence pairs cycle through this many colours (`pair-c0` … `pair-c5` in report.css). */
export const PAIR_COLOURS = 6;

/**
 * A colour index per span of a translation (`cross_language`) match, so that each aligned sentence
 * pair has one colour on both sides. Spans that share a sentence on either side (two submission
 * sentences translating one source sentence) share a colour; the next pair takes the next colour.
 */
export function pairColours(match) {
  const spans = match.spans ?? [];
  const colours = [];
  let next = 0;
  spans.forEach((span, i) => {
    const earlier = spans.findIndex(
      (other, j) =>
        j < i && (overlaps(other.submission_utf16, span.submission_utf16) || overlaps(other.source_utf16, span.source_utf16)),
    );
    if (earlier >= 0) colours.push(colours[earlier]);
    else colours.push(next++ % PAIR_COLOURS);
  });
  return colours;
}

function overlaps(a, b) {
  return Array.isArray(a) && Array.isArray(b) && Number(a[0]) < Number(b[1]) && Number(b[0]) < Number(a[1]);
}
