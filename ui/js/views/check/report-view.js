// One submitted document's report: the overall ratio, the ranked sources, and the paragraphs
// coloured by the share of each that is copied, copied passages marked.

import { $, clear, el, setPathText } from '../../dom.js';
import * as fmt from '../../format.js';
import { errorMessage, t } from '../../i18n.js';
import { KIND_ORDER, highlightedText, paragraphSpans } from './highlight.js';
import { citationsByParagraph, citedQuotations, quotationList } from './quotations.js';

/** A paragraph's copied share in [0, 1]. */
export function shareOf(paragraph) {
  const chars = Number(paragraph.chars) || 0;
  if (chars <= 0) return 0;
  return Math.max(0, Math.min(1, (Number(paragraph.copied_chars) || 0) / chars));
}

/** True when the submission could not be checked (`error`, and `error_info` from newer back ends). */
export function isFailed(doc) {
  return typeof doc?.error === 'string' || Boolean(doc?.error_info);
}

/** Why the submission could not be checked, in the interface's language (`error` when the kind is unknown). */
export function documentError(doc, options) {
  return errorMessage(doc?.error_info ?? { message: doc?.error ?? '' }, options);
}

/** Indices (`paragraph.index`) of the flagged paragraphs, in document order. */
export function flaggedIndices(doc) {
  return (doc?.paragraphs ?? []).filter((p) => p.flagged).map((p) => p.index);
}

/** Sources ranked by contribution; ties by title, then path, so the order never flickers. */
export function rankedSources(doc) {
  return [...(doc?.sources ?? [])].sort(
    (a, b) =>
      (b.copied_chars ?? 0) - (a.copied_chars ?? 0) ||
      String(a.source_title).localeCompare(String(b.source_title)) ||
      String(a.source_path).localeCompare(String(b.source_path)),
  );
}

/**
 * Fills #report for `doc` (a DocumentReport, `documentIndex` in the Report's `documents`) of a Report
 * with `threshold` and `method`. `onOpen(index)` opens the comparison for a flagged paragraph;
 * `onDispute({paragraph, start, button})` disputes (or restores) a cited quotation's citation.
 */
export function renderDocument(doc, { threshold, method, documentIndex = 0 }, { onOpen, onDispute }) {
  renderSummary(doc, threshold, method);
  renderSources(doc, { onOpen });
  renderParagraphs(doc, { onOpen, onDispute, documentIndex });
}

function renderSummary(doc, threshold, method) {
  const file = $('#report-file');
  file.textContent = fmt.basename(doc.file);
  file.title = doc.file;
  setPathText($('#report-path'), fmt.dirname(doc.file));
  const failed = isFailed(doc);
  // The headline is the total (总文字复制比); the user's exclusions give the similarity beside it.
  const total = doc.total_ratio ?? doc.similarity_ratio;
  $('#report-ratio').textContent = failed ? '–' : fmt.percent(total);
  $('#report-ratio').dataset.ratio = failed ? '' : String(total);
  $('#similarity-ratio').textContent = failed ? '–' : fmt.percent(doc.similarity_ratio);
  $('#similarity-ratio').dataset.ratio = failed ? '' : String(doc.similarity_ratio);
  // The part of the similarity found only through translations (Chinese ↔ English).
  const translated = failed ? 0 : Number(doc.translated_ratio) || 0;
  const translatedLine = $('#report-translated');
  translatedLine.hidden = !(translated > 0);
  translatedLine.textContent = translated > 0 ? t('report.translated', { share: fmt.percent(translated) }) : '';
  translatedLine.dataset.ratio = translated > 0 ? String(translated) : '';
  $('#report-without-quotes').textContent =
    failed || doc.without_quotes_references_ratio == null ? '–' : fmt.percent(doc.without_quotes_references_ratio);
  $('#report-without-own').textContent =
    failed || doc.without_own_ratio == null ? '–' : fmt.percent(doc.without_own_ratio);
  renderKinds(failed ? null : doc.kinds);
  renderChapters(failed ? [] : doc.chapters ?? []);
  $('#report-largest').textContent = failed ? '–' : fmt.percent(doc.largest_source_ratio);
  const paragraphs = doc.paragraphs?.length ?? 0;
  $('#report-flagged').textContent = failed
    ? '–'
    : t('report.flaggedOf', { flagged: fmt.integer(doc.flagged_paragraphs ?? 0), total: fmt.integer(paragraphs) });
  $('#report-copied').textContent = failed
    ? '–'
    : t('report.charsOf', { copied: fmt.integer(doc.copied_chars ?? 0), total: fmt.integer(doc.total_chars ?? 0) });
  const ratio = failed ? 0 : Math.max(0, Math.min(1, Number(total) || 0));
  $('#report-ratio-meter').style.width = `${(ratio * 100).toFixed(2)}%`;

  const error = $('#report-doc-error');
  error.hidden = !failed;
  if (failed) $('#report-doc-error-message').textContent = documentError(doc, { withFile: false });

  $('#report-printed').textContent = t('report.printMeta', {
    date: fmt.dateTime(Date.now() / 1000),
    threshold: fmt.percent(threshold, 0),
    method,
  });

  const input = $('#threshold');
  if (document.activeElement !== input) input.value = String(threshold);
  $('#threshold-value').textContent = fmt.percent(threshold, 0);
}

/** Each kind's share of the document, with its colour. */
function renderKinds(kinds) {
  const list = clear($('#report-kinds'));
  list.hidden = !kinds;
  if (!kinds) return;
  for (const kind of KIND_ORDER) {
    list.append(
      el(
        'li',
        { class: 'kind-item', dataset: { kind } },
        el('mark', { class: `copied kind-${kind} swatch-mark`, 'aria-hidden': 'true', text: '\u00a0\u00a0' }),
        el('span', { text: t(`report.kind.${kind}`) }),
        el('span', { class: 'kind-share', text: fmt.percent(Number(kinds[kind]) || 0) }),
      ),
    );
  }
}

/** A bar per chapter with its total share (a document without headings is one chapter: no bars). */
function renderChapters(chapters) {
  const box = $('#report-chapters-box');
  const list = clear($('#report-chapters'));
  box.hidden = chapters.length < 2;
  for (const chapter of chapters) {
    const ratio = Math.max(0, Math.min(1, Number(chapter.total_ratio) || 0));
    const title = chapter.title || t('report.untitledChapter');
    list.append(
      el(
        'li',
        { class: 'chapter', title },
        el('span', { class: 'chapter-title', text: title }),
        el('span', { class: 'chapter-ratio', text: fmt.percent(ratio) }),
        el(
          'span',
          { class: 'bar', 'aria-hidden': 'true' },
          el('span', { class: 'bar-fill', style: { width: `${(ratio * 100).toFixed(2)}%` } }),
        ),
      ),
    );
  }
}

function renderSources(doc, { onOpen }) {
  const list = clear($('#sources'));
  const sources = rankedSources(doc);
  $('#sources-empty').hidden = sources.length > 0 || isFailed(doc);
  for (const source of sources) {
    const ratio = Math.max(0, Math.min(1, Number(source.ratio) || 0));
    const first = (doc.paragraphs ?? []).find((p) =>
      (p.matches ?? []).some((m) => sameSource(m, source)),
    );
    const item = el(
      'li',
      { class: 'source', dataset: { documentId: source.document_id ?? '' } },
      el(
        'button',
        {
          type: 'button',
          class: 'source-button',
          title: source.source_path,
          disabled: !first,
          onclick: () => first && onOpen(first.index),
        },
        el('span', { class: 'source-title', text: source.source_title || fmt.basename(source.source_path) }),
        el('span', { class: 'source-ratio', text: fmt.percent(ratio) }),
        el(
          'span',
          { class: 'bar', 'aria-hidden': 'true' },
          el('span', { class: 'bar-fill', style: { width: `${(ratio * 100).toFixed(2)}%` } }),
        ),
        el('span', {
          class: 'source-meta',
          text: t('report.sourceMeta', {
            paragraphs: source.paragraphs ?? 0,
            chars: fmt.integer(source.copied_chars ?? 0),
          }),
        }),
      ),
    );
    list.append(item);
  }
}

function sameSource(match, source) {
  if (match.source_document != null && source.document_id != null) {
    return match.source_document === source.document_id;
  }
  return match.source_path === source.source_path;
}

function renderParagraphs(doc, { onOpen, onDispute, documentIndex }) {
  const container = clear($('#paragraphs'));
  const paragraphs = doc.paragraphs ?? [];
  $('#paragraphs-legend').hidden = paragraphs.length === 0;
  // Cited quotations, and their citations where they stand (a lead-in's is in the paragraph before).
  const quotations = new Map(paragraphs.map((p) => [p.index, citedQuotations(p)]));
  const citations = citationsByParagraph(paragraphs, quotations);
  const texts = new Map(paragraphs.map((p) => [p.index, p.text]));
  const cited = { documentIndex, onDispute, textOf: (index) => texts.get(index) ?? '' };
  for (const paragraph of paragraphs) {
    container.append(
      paragraphElement(paragraph, onOpen, {
        ...cited,
        quotations: quotations.get(paragraph.index) ?? [],
        citations: citations.get(paragraph.index) ?? [],
      }),
    );
  }
}

function paragraphElement(paragraph, onOpen, { quotations, citations, ...cited }) {
  const share = shareOf(paragraph);
  const flagged = Boolean(paragraph.flagged);
  // Copied passages below the threshold count in the ratio and are marked in a lighter colour.
  const passages = !flagged && (paragraph.passages?.length ?? 0) > 0;
  const node = el('article', {
    class: `para${flagged ? ' flagged' : ''}${share > 0 ? ' copied' : ''}${passages ? ' passage' : ''}`,
    id: `para-${paragraph.index}`,
    dataset: { index: paragraph.index, share: share.toFixed(4) },
    tabindex: flagged ? '0' : null,
    'aria-label': t('report.paragraphN', { n: paragraph.index + 1 }),
    style: { '--share': share.toFixed(4) },
  });

  const head = el(
    'div',
    { class: 'para-head' },
    el('span', { class: 'para-num', text: t('report.paragraphN', { n: paragraph.index + 1 }) }),
    share > 0 ? el('span', { class: 'para-share', text: t('report.copiedShare', { share: fmt.percent(share, 0) }) }) : null,
  );
  if (flagged) {
    head.append(
      el('button', {
        type: 'button',
        class: 'para-open btn small',
        text: t('report.compare'),
        onclick: (event) => {
          event.stopPropagation();
          onOpen(paragraph.index);
        },
      }),
    );
  }
  const text = passages
    ? highlightedText(paragraph.text, paragraphSpans(paragraph, { passages: true }), { markClass: 'copied passage', citations })
    : highlightedText(paragraph.text, paragraphSpans(paragraph), { citations });
  // The text's own language, for its punctuation's font (see base.css).
  node.append(head, el('p', { class: 'para-text', lang: fmt.guessLang(paragraph.text) }, text));
  if (passages) node.append(el('p', { class: 'para-note', text: t('report.passageNote') }));

  // Every source of a counted passage: the matches, then the passages below the threshold.
  const listed = flagged ? [...(paragraph.matches ?? []), ...(paragraph.passages ?? [])] : passages ? paragraph.passages : [];
  const below = new Set(paragraph.passages ?? []);
  if (listed?.length) {
    const chips = el('ul', { class: 'para-sources', 'aria-label': t('report.matchedSources') });
    for (const match of listed) {
      chips.append(
        el(
          'li',
          { title: match.source_path, class: flagged && below.has(match) ? 'passage' : null },
          el('span', { class: 'chip-title', text: match.source_title || fmt.basename(match.source_path) }),
          el('span', {
            class: 'chip-meta',
            text: t('report.chip', {
              n: (Number(match.source_paragraph) || 0) + 1,
              similarity: fmt.percent(match.similarity, 0),
            }),
          }),
          match.cross_language ? el('span', { class: 'badge translation', text: t('report.translationBadge') }) : null,
        ),
      );
    }
    node.append(chips);
  }
  // Each cited quotation of a flagged or listed paragraph, with the button that disputes its citation.
  const quoted = flagged || passages ? quotationList(paragraph, quotations, cited) : null;
  if (quoted) node.append(quoted);

  if (flagged) {
    node.addEventListener('click', () => {
      // Selecting text to copy it is not a request to compare.
      if (String(window.getSelection?.() ?? '').length > 0) return;
      onOpen(paragraph.index);
    });
    node.addEventListener('keydown', (event) => {
      if (event.target !== node) return;
      if (event.key === 'Enter' || event.key === ' ') {
        event.preventDefault();
        onOpen(paragraph.index);
      }
    });
  }
  return node;
}
