// Cited quotations: why a `quoted` passage is excused, and the reader's say over it. Each span of a
// paragraph's matches and passages may carry `cited_by` = `{quotation, citation, in_previous,
// disputed}` (Unicode scalar offsets; `citation` stands in the paragraph before when `in_previous`, a
// block quotation's lead-in). The citation of an excused quotation is underlined where it stands; each
// quotation gets a button that disputes its citation (it then counts as copied) or restores it,
// through `dispute_quotation` (see ../../../API.md).

import { el } from '../../dom.js';
import * as fmt from '../../format.js';
import { t } from '../../i18n.js';
import { utf16Range } from './highlight.js';

/** Characters of a quotation shown beside its button; a longer one is cut with "…". */
const EXCERPT_CHARS = 48;

/**
 * A paragraph's cited quotations, one per `cited_by.quotation` (by its start), in text order:
 * `{start, end, citation: [start, end], inPrevious, disputed, excused}` in scalar values. `excused`
 * when one of its passages is `quoted` (not disputed). Quotations whose passages are all of another
 * kind (template, own work, references: the citation changes nothing there) are left out.
 */
export function citedQuotations(paragraph) {
  const byStart = new Map();
  for (const match of [...(paragraph?.matches ?? []), ...(paragraph?.passages ?? [])]) {
    for (const span of match.spans ?? []) {
      const cited = span.cited_by;
      if (!cited || !Array.isArray(cited.quotation) || !Array.isArray(cited.citation)) continue;
      const disputed = Boolean(cited.disputed);
      const quoted = span.kind === 'quoted' && !disputed;
      if (!quoted && !disputed) continue;
      const start = Number(cited.quotation[0]);
      if (!Number.isInteger(start) || start < 0) continue;
      const known = byStart.get(start);
      if (known) {
        known.excused = known.excused || quoted;
        known.disputed = known.disputed || disputed;
        continue;
      }
      byStart.set(start, {
        start,
        end: Number(cited.quotation[1]),
        citation: [Number(cited.citation[0]), Number(cited.citation[1])],
        inPrevious: Boolean(cited.in_previous),
        disputed,
        excused: quoted,
      });
    }
  }
  return [...byStart.values()].sort((a, b) => a.start - b.start);
}

/** The paragraph a quotation's citation stands in (its own, or the one before). */
function citationParagraph(index, quotation) {
  return quotation.inPrevious ? index - 1 : index;
}

/**
 * The citations to underline, by the index of the paragraph they stand in: `[{range (UTF-16),
 * quotation: "P:S"}]` (P the quotation's paragraph, S its start), for the excused quotations of
 * `quotations` (a Map of paragraph index → citedQuotations()).
 */
export function citationsByParagraph(paragraphs, quotations) {
  const textOf = new Map((paragraphs ?? []).map((p) => [p.index, String(p.text ?? '')]));
  const out = new Map();
  for (const [index, list] of quotations) {
    for (const quotation of list) {
      if (!quotation.excused || quotation.disputed) continue;
      const at = citationParagraph(index, quotation);
      if (!textOf.has(at)) continue;
      if (!out.has(at)) out.set(at, []);
      out.get(at).push({ range: utf16Range(textOf.get(at), quotation.citation), quotation: `${index}:${quotation.start}` });
    }
  }
  return out;
}

/** `text[start, end)` in scalar values, white space collapsed, cut to `limit` characters. */
function excerpt(text, [start, end], limit = EXCERPT_CHARS) {
  const chars = Array.from(String(text ?? '')).slice(Math.max(0, start), Math.max(0, end));
  const words = chars.join('').replace(/\s+/g, ' ').trim();
  const cut = Array.from(words);
  return cut.length > limit ? `${cut.slice(0, limit - 1).join('')}…` : words;
}

/**
 * The list of a paragraph's cited quotations (`ul.para-quotations`), each with its citation and a
 * button (`button.dispute[data-action="dispute"]`) calling `onDispute({paragraph, start})`; null when
 * it has none. `textOf(index)` is a paragraph's text (the citation may stand in the one before).
 */
export function quotationList(paragraph, quotations, { documentIndex, textOf, onDispute }) {
  if (!quotations.length) return null;
  const list = el('ul', { class: 'para-quotations', 'aria-label': t('report.quotations') });
  for (const quotation of quotations) {
    const id = `quotation-${paragraph.index}-${quotation.start}`;
    const citation = excerpt(textOf(citationParagraph(paragraph.index, quotation)), quotation.citation);
    const disputed = quotation.disputed;
    list.append(
      el(
        'li',
        { class: `quotation${disputed ? ' disputed' : ''}`, dataset: { start: quotation.start } },
        el('span', {
          class: 'quotation-text',
          id,
          lang: fmt.guessLang(paragraph.text),
          text: excerpt(paragraph.text, [quotation.start, quotation.end]),
        }),
        citation
          ? el('span', {
              class: 'quotation-citation',
              text: t(disputed ? 'report.quotationDisputed' : 'report.quotationCitedBy', { citation }),
            })
          : null,
        el('button', {
          type: 'button',
          class: 'btn small dispute',
          text: t(disputed ? 'report.restoreCitation' : 'report.dispute'),
          title: t(disputed ? 'report.restoreHint' : 'report.disputeHint'),
          'aria-describedby': id,
          dataset: {
            action: 'dispute',
            document: documentIndex,
            paragraph: paragraph.index,
            start: quotation.start,
            disputed: String(disputed),
          },
          onclick: (event) => {
            // A click on the paragraph opens the comparison; this one is not that.
            event.stopPropagation();
            onDispute?.({ paragraph: paragraph.index, start: quotation.start, button: event.currentTarget });
          },
        }),
      ),
    );
  }
  return list;
}
