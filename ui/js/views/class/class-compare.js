// One pair of a class side by side (#class-compare, in place of the report): every paragraph of A that
// shares text with a paragraph of B, beside it, the shared passages marked on both sides (sliced with the
// `a_utf16` / `b_utf16` offsets, inserted as text nodes only). Hovering a passage lights its counterpart.
// #class-compare-back (or Esc) goes back to the report where it was; #class-compare-prev / -next
// (or k / j) move along the pair list in its current order.

import { $, clear, el } from '../../dom.js';
import * as fmt from '../../format.js';
import { t } from '../../i18n.js';
import * as store from '../../store.js';
import { guessLang } from '../check/compare-view.js';
import { highlightedText } from '../check/highlight.js';
import { orderedPairs } from './class-report.js';

let openIndex = null; // index into report.pairs, or null when closed
let onToggle = () => {};
let returnScroll = 0;

export function initClassCompare({ onToggle: toggle }) {
  onToggle = toggle;
  $('#class-compare-back').addEventListener('click', () => closePair());
  $('#class-compare-prev').addEventListener('click', () => stepPair(-1));
  $('#class-compare-next').addEventListener('click', () => stepPair(1));
  const matches = $('#class-compare-matches');
  matches.addEventListener('mouseover', (event) => lightPair(event, true));
  matches.addEventListener('mouseout', (event) => lightPair(event, false));
}

export function isPairOpen() {
  return openIndex != null;
}

/** Shows pair `index` of the report on screen. */
export function openPair(index) {
  const pair = store.get('classReport')?.pairs?.[index];
  if (!pair) return;
  if (!isPairOpen()) returnScroll = window.scrollY;
  openIndex = index;
  render();
  onToggle();
  window.scrollTo({ top: 0 });
  $('#class-compare-title').focus({ preventScroll: true });
}

/**
 * Back to the report. With `restore` (the default), where the user was: the same scroll position and
 * the pair's row focused.
 */
export function closePair({ restore = true } = {}) {
  if (!isPairOpen()) return;
  const index = openIndex;
  openIndex = null;
  clear($('#class-compare-matches'));
  onToggle();
  if (!restore) return;
  window.scrollTo({ top: returnScroll });
  const button = document.querySelector(`#class-pairs tr[data-pair="${index}"] .pair-open`);
  button?.focus({ preventScroll: true });
}

/** Moves to the next (+1) or previous (-1) pair of the list's order. */
export function stepPair(direction) {
  if (!isPairOpen()) return;
  const order = orderedPairs(store.get('classReport'));
  const at = order.indexOf(openIndex);
  const next = order[at + direction];
  if (next == null) return;
  openPair(next);
}

/** After the report changed (threshold, language): show the same pair again, or close. */
export function refreshPair() {
  if (!isPairOpen()) return;
  if (!store.get('classReport')?.pairs?.[openIndex]) {
    closePair({ restore: false });
    return;
  }
  render();
}

function render() {
  const report = store.get('classReport');
  const pair = report?.pairs?.[openIndex];
  if (!pair) return;
  const a = fmt.basename(pair.a);
  const b = fmt.basename(pair.b);
  const panel = $('#class-compare');
  panel.dataset.pair = String(openIndex);

  $('#class-compare-title').textContent = t('class.compareTitle', { a, b });
  const order = orderedPairs(report);
  const at = order.indexOf(openIndex);
  $('#class-compare-position').textContent = t('class.position', { at: fmt.integer(at + 1), total: fmt.integer(order.length) });
  $('#class-compare-prev').disabled = at <= 0;
  $('#class-compare-next').disabled = at < 0 || at >= order.length - 1;

  side('a', pair.a, pair.a_ratio, pair.a_copied);
  side('b', pair.b, pair.b_ratio, pair.b_copied);

  const list = clear($('#class-compare-matches'));
  const matches = pair.matches ?? [];
  matches.forEach((match, i) => {
    list.append(
      el(
        'article',
        { class: 'class-match', dataset: { match: i, aParagraph: match.a_paragraph, bParagraph: match.b_paragraph } },
        el(
          'div',
          { class: 'class-match-head' },
          el('span', {
            class: 'class-match-title',
            text: t('class.matchHead', {
              a: (Number(match.a_paragraph) || 0) + 1,
              b: (Number(match.b_paragraph) || 0) + 1,
            }),
          }),
          el('span', {
            class: 'match-meta',
            text: t('class.matchSimilarity', { similarity: fmt.percent(Number(match.similarity)) }),
          }),
        ),
        el(
          'div',
          { class: 'class-match-body' },
          el(
            'p',
            { class: 'compare-text class-side-a', lang: guessLang(match.a_text) },
            highlightedText(match.a_text, spans(match, 'a'), { pairs: true }),
          ),
          el(
            'p',
            { class: 'compare-text class-side-b', lang: guessLang(match.b_text) },
            highlightedText(match.b_text, spans(match, 'b'), { pairs: true }),
          ),
        ),
      ),
    );
  });
  if (!matches.length) list.append(el('p', { class: 'panel muted class-none', text: t('class.noMatches') }));
}

function side(which, file, ratio, copied) {
  const name = $(`#class-compare-${which}`);
  name.textContent = fmt.basename(file);
  name.title = file;
  $(`#class-compare-${which}-share`).textContent = t('class.share', {
    share: fmt.percent(Math.max(0, Math.min(1, Number(ratio) || 0))),
    other: t(which === 'a' ? 'class.sideB' : 'class.sideA'),
    chars: fmt.integer(Number(copied) || 0),
    count: Number(copied) || 0,
  });
}

/** One side's spans of a paragraph match ("a" or "b"), numbered to pair the two sides. */
function spans(match, which) {
  const key = `${which}_utf16`;
  return (match.spans ?? []).flatMap((span, id) => (Array.isArray(span[key]) ? [{ range: span[key], id }] : []));
}

function lightPair(event, on) {
  const mark = event.target instanceof Element ? event.target.closest('mark[data-pair]') : null;
  const article = mark?.closest('.class-match');
  if (!article) return;
  const ids = mark.dataset.pair.split(' ');
  for (const other of article.querySelectorAll('mark[data-pair]')) {
    if (other.dataset.pair.split(' ').some((id) => ids.includes(id))) other.classList.toggle('paired', on);
  }
}
