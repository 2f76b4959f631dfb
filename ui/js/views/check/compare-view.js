// The side-by-side comparison (#compare): a flagged submission paragraph (#compare-submission) beside
// the library paragraphs it matches (#compare-source), copied passages marked on both sides.
// j / ArrowDown and k / ArrowUp (or #compare-next / #compare-prev) move between flagged paragraphs;
// Esc closes. Choosing a source shows that source's passages in the submission; hovering a passage
// lights its counterpart on the other side. For a translation (`cross_language`) the chosen match's
// aligned sentences are coloured in pairs, the same colour on both sides.

import { $, clear, el, pathText } from '../../dom.js';
import * as fmt from '../../format.js';
import { t } from '../../i18n.js';
import { highlightedText, matchSpans, pairColours } from './highlight.js';
import { citationsByParagraph, citedQuotations } from './quotations.js';
import { flaggedIndices, shareOf } from './report-view.js';

let getDocument = () => null;
let openIndex = null; // paragraph index shown, or null when closed
let activeMatch = 0;
let returnFocus = null;

export function initCompare({ currentDocument }) {
  getDocument = currentDocument;
  $('#compare-close').addEventListener('click', () => closeCompare());
  $('#compare-next').addEventListener('click', () => step(1));
  $('#compare-prev').addEventListener('click', () => step(-1));
  const panel = $('#compare');
  panel.addEventListener('mouseover', (event) => lightPair(event, true));
  panel.addEventListener('mouseout', (event) => lightPair(event, false));
  panel.addEventListener('keydown', trapFocus);
}

export function isOpen() {
  return openIndex != null;
}

/** Opens (or moves) the comparison to paragraph `index`, if it is flagged. */
export function openCompare(index) {
  const doc = getDocument();
  const paragraph = doc?.paragraphs?.find((p) => p.index === index);
  if (!paragraph?.flagged) return;
  if (!isOpen()) returnFocus = document.activeElement;
  if (openIndex !== index) activeMatch = 0;
  openIndex = index;
  render();
  const panel = $('#compare');
  panel.hidden = false;
  document.body.classList.add('comparing');
  // Modal: what is behind the panel can be neither focused nor clicked.
  $('main').inert = true;
  markCurrent();
  $('#compare-title').focus({ preventScroll: true });
}

export function closeCompare() {
  if (!isOpen()) return;
  const index = openIndex;
  openIndex = null;
  $('#compare').hidden = true;
  document.body.classList.remove('comparing');
  $('main').inert = false;
  markCurrent();
  // Back to the paragraph the user was on, so j/k continue from there.
  const para = document.getElementById(`para-${index}`);
  const target = para ?? returnFocus;
  if (target && document.contains(target)) {
    target.focus({ preventScroll: true });
    para?.scrollIntoView({ block: 'nearest' });
  }
  returnFocus = null;
}

/** Moves to the next (+1) or previous (-1) flagged paragraph. */
export function step(direction) {
  const flagged = flaggedIndices(getDocument());
  if (!flagged.length || !isOpen()) return;
  const at = flagged.indexOf(openIndex);
  const next = at < 0 ? flagged.find((i) => i > openIndex) ?? flagged[0] : flagged[at + direction];
  if (next == null) return;
  openCompare(next);
}

/** After the report changed (threshold, document): show the same paragraph or close. */
export function refreshCompare() {
  if (!isOpen()) return;
  const paragraph = getDocument()?.paragraphs?.find((p) => p.index === openIndex);
  if (!paragraph?.flagged) {
    closeCompare();
    return;
  }
  const listed = (paragraph.matches?.length ?? 0) + (paragraph.passages?.length ?? 0);
  activeMatch = Math.min(activeMatch, Math.max(0, listed - 1));
  render();
  markCurrent();
}

function markCurrent() {
  for (const node of document.querySelectorAll('.para.current')) node.classList.remove('current');
  if (openIndex == null) return;
  const para = document.getElementById(`para-${openIndex}`);
  para?.classList.add('current');
  para?.scrollIntoView({ block: 'nearest' });
}

function render() {
  const doc = getDocument();
  const paragraph = doc?.paragraphs?.find((p) => p.index === openIndex);
  if (!paragraph) return;
  // The matches, then the sources of passages below the threshold (counted too, so shown too).
  const matches = [...(paragraph.matches ?? []), ...(paragraph.passages ?? [])];
  const below = new Set(paragraph.passages ?? []);
  const match = matches[activeMatch] ?? matches[0];
  const flagged = flaggedIndices(doc);
  const at = flagged.indexOf(openIndex);
  // A colour per aligned sentence pair of a translation; other matches keep the usual marks.
  const colours = match?.cross_language ? pairColours(match) : null;

  $('#compare-title').textContent = t('report.paragraphN', { n: paragraph.index + 1 });
  $('#compare-position').textContent = t('compare.position', { at: at + 1, total: flagged.length });
  $('#compare-prev').disabled = at <= 0;
  $('#compare-next').disabled = at < 0 || at >= flagged.length - 1;
  const panel = $('#compare');
  panel.dataset.index = String(paragraph.index);

  // The submission side.
  const submission = clear($('#compare-submission'));
  submission.append(
    el(
      'div',
      { class: 'compare-meta' },
      el('span', { class: 'compare-file', title: doc.file, text: fmt.basename(doc.file) }),
      el('span', {
        class: 'compare-share',
        text: t('report.copiedShare', { share: fmt.percent(shareOf(paragraph), 0) }),
      }),
    ),
    match
      ? el('p', { class: 'compare-hint', text: t('compare.showing', { title: match.source_title || fmt.basename(match.source_path) }) })
      : null,
    el(
      'p',
      { class: 'compare-text', lang: guessLang(paragraph.text) },
      highlightedText(paragraph.text, match ? matchSpans(match, 'submission') : [], {
        pairs: true,
        colours,
        citations: citationsIn(doc, paragraph.index),
      }),
    ),
  );

  // The library side: every matching paragraph, the chosen one marked.
  const sources = clear($('#compare-source'));
  matches.forEach((m, i) => {
    const active = m === match;
    const card = el(
      'article',
      {
        class: `match${active ? ' active' : ''}`,
        dataset: { match: i, documentId: m.source_document ?? '', paragraph: m.source_paragraph ?? '' },
      },
      el(
        'button',
        {
          type: 'button',
          class: 'match-head',
          'aria-pressed': String(active),
          title: m.source_path,
          onclick: () => {
            activeMatch = i;
            render();
          },
        },
        el('span', { class: 'match-title', text: m.source_title || fmt.basename(m.source_path) }),
        el('span', {
          class: 'match-meta',
          text: t('compare.matchMeta', {
            n: (Number(m.source_paragraph) || 0) + 1,
            similarity: fmt.percent(m.similarity, 1),
          }),
        }),
      ),
      el('p', { class: 'match-path' }, pathText(m.source_path)),
      below.has(m) ? el('p', { class: 'match-passage', text: t('compare.belowThreshold') }) : null,
      m.cross_script ? el('p', { class: 'match-script', text: t('compare.crossScript') }) : null,
      m.cross_language ? el('p', { class: 'match-language', text: t('compare.crossLanguage') }) : null,
      el(
        'p',
        { class: 'compare-text', lang: guessLang(m.source_text) },
        highlightedText(m.source_text, matchSpans(m, 'source'), {
          pairs: active,
          markClass: active ? 'copied' : 'copied dim',
          colours: active ? colours : null,
        }),
      ),
    );
    sources.append(card);
  });
  if (!matches.length) sources.append(el('p', { class: 'muted', text: t('compare.noMatches') }));
}

/** The citations of excused quotations that stand in paragraph `index` (see quotations.js). */
function citationsIn(doc, index) {
  // This paragraph's quotations, and the next one's (a block quotation cited in its lead-in).
  const near = (doc?.paragraphs ?? []).filter((p) => p.index === index || p.index === index + 1);
  const quotations = new Map(near.map((p) => [p.index, citedQuotations(p)]));
  return citationsByParagraph(near, quotations).get(index) ?? [];
}

/** "zh" when the text is mostly Chinese, so the browser picks CJK fonts and line breaking. */
export const guessLang = fmt.guessLang;

function lightPair(event, on) {
  const mark = event.target instanceof Element ? event.target.closest('mark[data-pair]') : null;
  if (!mark) return;
  const ids = mark.dataset.pair.split(' ');
  for (const other of $('#compare').querySelectorAll('mark[data-pair]')) {
    if (other.dataset.pair.split(' ').some((id) => ids.includes(id))) other.classList.toggle('paired', on);
  }
}

function trapFocus(event) {
  if (event.key !== 'Tab') return;
  const focusable = [...$('#compare').querySelectorAll('button:not([disabled]), [tabindex="0"], #compare-title')];
  if (!focusable.length) return;
  const first = focusable[0];
  const last = focusable[focusable.length - 1];
  if (event.shiftKey && document.activeElement === first) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && document.activeElement === last) {
    event.preventDefault();
    first.focus();
  }
}
