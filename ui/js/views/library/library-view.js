// The Library tab: the documents submissions are checked against. Add files or folders (dialogs or
// drag and drop), filter by name, sort, remove the selected ones, and see which files could not be
// read and why.

import * as api from '../../api.js';
import { $, clear, el, pathText } from '../../dom.js';
import * as fmt from '../../format.js';
import { errorMessage, t } from '../../i18n.js';
import * as store from '../../store.js';
import { confirmDialog } from '../shell/confirm.js';
import { showError, showStatus } from '../shell/notices.js';
import { showTab } from '../shell/tabs.js';
import { runTask } from '../shell/task.js';

const COLUMNS = [
  { key: 'title', label: 'library.col.title', compare: (a, b) => textOrder(a.title, b.title) },
  { key: 'format', label: 'library.col.format', compare: (a, b) => textOrder(a.format, b.format) },
  { key: 'paragraphs', label: 'library.col.paragraphs', numeric: true, compare: (a, b) => a.paragraphs - b.paragraphs },
  { key: 'chars', label: 'library.col.chars', numeric: true, compare: (a, b) => a.chars - b.chars },
  { key: 'added_at', label: 'library.col.added', numeric: true, compare: (a, b) => a.added_at - b.added_at },
];

let sort = { key: 'added_at', direction: -1 }; // newest first
let selected = new Set(); // document ids
let lastImport = null; // the last library_add result, shown until dismissed
let duplicates = null; // the last library_duplicates report, shown until dismissed

export function initLibraryView({ onDemo }) {
  $('#library-filter').addEventListener('input', renderTable);
  $('#library-role-filter').addEventListener('change', renderTable);
  $('#library-duplicates').addEventListener('click', findDuplicates);
  $('#duplicates-dismiss').addEventListener('click', () => {
    duplicates = null;
    renderDuplicates();
  });
  initEditDialog();
  $('#library-add-files').addEventListener('click', () => pickAndAdd(false));
  $('#library-add-folder').addEventListener('click', () => pickAndAdd(true));
  $('#library-remove').addEventListener('click', removeSelected);
  $('#library-select-all').addEventListener('change', (event) => {
    for (const doc of visibleDocuments()) {
      if (event.target.checked) selected.add(doc.id);
      else selected.delete(doc.id);
    }
    renderTable();
  });
  $('#try-sample').addEventListener('click', onDemo);
  $('#import-dismiss').addEventListener('click', () => {
    lastImport = null;
    renderImport();
  });
  for (const column of COLUMNS) {
    $(`#library-sort-${column.key}`).addEventListener('click', () => {
      sort = sort.key === column.key ? { key: column.key, direction: -sort.direction } : { key: column.key, direction: column.numeric ? -1 : 1 };
      renderTable();
    });
  }

  store.on('documents', (documents) => {
    const ids = new Set(documents.map((d) => d.id));
    selected = new Set([...selected].filter((id) => ids.has(id)));
    render();
  });
  store.on('busy', reflectBusy);
  store.on('lang', render);
  render();
}

/** Reloads the library from Rust. */
export async function refreshLibrary() {
  store.set('documents', await api.libraryList());
}

/** Adds files and folders to the library, with progress, and shows what happened to each. */
export async function addPaths(paths) {
  if (!paths.length) return;
  if (store.get('busy')) {
    showStatus(t('status.busy'));
    return;
  }
  showTab('library');
  // The role chosen beside the add buttons applies to everything added now.
  const role = $('#library-add-role').value === 'template' ? 'template' : 'source';
  const result = await runTask('task.adding', (onProgress) => api.libraryAdd(paths, onProgress, { role, tags: [] }));
  if (result) {
    lastImport = result;
    renderImport();
  }
  try {
    await refreshLibrary(); // also after a failure or a cancel: some documents may be in
  } catch (err) {
    showError(err);
  }
}

async function pickAndAdd(directory) {
  try {
    const paths = await api.pickPaths({
      directory,
      multiple: true,
      title: t(directory ? 'dialog.chooseFolders' : 'dialog.chooseFiles'),
      filters: directory ? undefined : [{ name: t('dialog.documents'), extensions: ['txt', 'docx', 'pdf'] }],
    });
    await addPaths(paths);
  } catch (err) {
    showError(err);
  }
}

async function removeSelected() {
  const documents = store.get('documents').filter((d) => selected.has(d.id));
  if (!documents.length) return;
  const ok = await confirmDialog({
    title: t('library.removeTitle'),
    message:
      documents.length === 1
        ? t('library.removeOne', { title: documents[0].title })
        : t('library.removeMany', { count: documents.length }),
    ok: t('library.remove'),
  });
  if (!ok) return;
  try {
    const removed = await api.libraryRemove(documents.map((d) => d.id));
    showStatus(t('status.removed', { count: removed?.length ?? 0 }));
    for (const doc of removed ?? []) selected.delete(doc.id);
    await refreshLibrary();
  } catch (err) {
    showError(err);
  }
}

// ---- rendering ----------------------------------------------------------------------------------

function render() {
  const documents = store.get('documents') ?? [];
  const empty = documents.length === 0;
  $('#library-empty').hidden = !empty;
  $('#library-table-wrap').hidden = empty;
  $('#library-filter').disabled = empty;
  // Nothing to compare in an empty library: no method to choose, no search for duplicates.
  $('#duplicates-method').hidden = empty;
  $('#library-duplicates').hidden = empty;
  $('#library-count').textContent = empty ? '' : t('library.count', { count: documents.length, n: fmt.integer(documents.length) });
  renderTable();
  renderImport();
  // Also on a change of language: the summary and the groups on screen are said again in the new one.
  renderDuplicates();
  reflectBusy(store.get('busy'));
}

function visibleDocuments() {
  const query = $('#library-filter').value.trim().toLocaleLowerCase();
  const role = $('#library-role-filter').value;
  const documents = store.get('documents') ?? [];
  const matches = (d) =>
    [d.title, fmt.basename(d.path), d.author ?? '', d.year ?? '', ...(d.tags ?? [])].some((v) =>
      String(v).toLocaleLowerCase().includes(query),
    );
  const shown = documents.filter((d) => (!role || (d.role ?? 'source') === role) && (!query || matches(d)));
  const column = COLUMNS.find((c) => c.key === sort.key) ?? COLUMNS[0];
  return shown.sort((a, b) => sort.direction * column.compare(a, b) || a.id - b.id);
}

function renderTable() {
  const body = clear($('#library-table tbody'));
  const documents = visibleDocuments();
  for (const doc of documents) body.append(row(doc));

  const query = $('#library-filter').value.trim();
  const noMatch = $('#library-no-match');
  noMatch.hidden = !(query && documents.length === 0 && store.get('documents').length > 0);
  noMatch.textContent = t('library.noMatch', { query });

  for (const column of COLUMNS) {
    const th = $(`#library-sort-${column.key}`).closest('th');
    if (column.key === sort.key) th.setAttribute('aria-sort', sort.direction > 0 ? 'ascending' : 'descending');
    else th.removeAttribute('aria-sort');
    $(`#library-sort-${column.key}`).textContent = t(column.label);
  }

  const all = $('#library-select-all');
  const chosen = documents.filter((d) => selected.has(d.id)).length;
  all.checked = documents.length > 0 && chosen === documents.length;
  all.indeterminate = chosen > 0 && chosen < documents.length;
  all.disabled = documents.length === 0;
  reflectBusy(store.get('busy'));
}

function row(doc) {
  const isSelected = selected.has(doc.id);
  const checkbox = el('input', {
    type: 'checkbox',
    checked: isSelected,
    'aria-label': t('library.select', { title: doc.title }),
    onchange: (event) => toggle(doc.id, event.target.checked),
  });
  const tr = el(
    'tr',
    {
      class: isSelected ? 'selected' : null,
      dataset: { id: doc.id },
      'aria-selected': String(isSelected),
      onclick: (event) => {
        if (event.target === checkbox) return;
        toggle(doc.id, !selected.has(doc.id));
      },
    },
    el('td', { class: 'col-check' }, checkbox),
    el(
      'td',
      { class: 'col-title' },
      el(
        'div',
        { class: 'doc-title' },
        el('span', { text: doc.title }),
        doc.role === 'template' ? el('span', { class: 'badge role-template', text: t('library.templateBadge') }) : null,
        el('button', {
          type: 'button',
          class: 'btn small doc-edit',
          text: t('library.edit'),
          dataset: { id: doc.id },
          onclick: (event) => {
            event.stopPropagation();
            openEditDialog(doc);
          },
        }),
      ),
      metaLine(doc),
      el('div', { class: 'doc-path', title: doc.path, text: doc.path }),
    ),
    el('td', { class: 'col-format' }, el('span', { class: `badge format-${doc.format}`, text: String(doc.format ?? '').toUpperCase() })),
    el('td', { class: 'num', text: fmt.integer(doc.paragraphs) }),
    el('td', { class: 'num', title: fmt.bytes(doc.bytes), text: fmt.integer(doc.chars) }),
    el('td', { class: 'col-date', text: fmt.dateTime(doc.added_at) }),
  );
  return tr;
}

/** Author · year · #tags, when the document has any. */
function metaLine(doc) {
  const parts = [doc.author, doc.year, ...(doc.tags ?? []).map((tag) => `#${tag}`)].filter(
    (v) => v != null && v !== '',
  );
  return parts.length ? el('div', { class: 'doc-meta muted', text: parts.join(' · ') }) : null;
}

// ---- duplicates ---------------------------------------------------------------------------------

async function findDuplicates() {
  if (store.get('busy')) {
    showStatus(t('status.busy'));
    return;
  }
  const method = $('#duplicates-method').value || 'verified';
  const report = await runTask('task.duplicates', (onProgress) =>
    api.libraryDuplicates(onProgress, 'document', method),
  );
  if (!report) return;
  duplicates = report;
  renderDuplicates();
}

/** The groups of the last search: the oldest document of each is kept, the others can be removed. */
function renderDuplicates() {
  const panel = $('#duplicates-panel');
  const list = clear($('#duplicates-groups'));
  panel.hidden = !duplicates;
  if (!duplicates) return;
  const groups = duplicates.groups ?? [];
  const params = {
    groups: groups.length,
    count: fmt.integer(duplicates.documents ?? 0),
    threshold: fmt.percent(duplicates.threshold ?? 0, 0),
  };
  $('#duplicates-summary').textContent = t(groups.length ? 'duplicates.found' : 'duplicates.none', params);
  const present = new Set((store.get('documents') ?? []).map((d) => d.id));
  groups.forEach((group, i) => {
    const members = el('ul', { class: 'file-list' });
    (group.members ?? []).forEach((member, j) => {
      const gone = !present.has(member.id);
      members.append(
        el(
          'li',
          { class: gone ? 'removed' : null, dataset: { id: member.id } },
          el('span', { class: 'failure-name', title: member.path, text: `#${member.id} ${member.title}` }),
          el('span', { class: 'failure-path' }, pathText(member.path)),
          j === 0
            ? el('span', { class: 'muted', text: t('duplicates.keep') })
            : el('button', {
                type: 'button',
                class: 'btn small danger-outline duplicate-remove',
                disabled: gone,
                text: t('duplicates.removeCopy'),
                onclick: () => removeCopy(member),
              }),
        ),
      );
    });
    const pairs = (group.pairs ?? []).map((p) =>
      t('duplicates.pair', { a: p.a, b: p.b, similarity: fmt.percent(p.similarity) }),
    );
    list.append(
      el(
        'li',
        { class: 'duplicate-group' },
        el('h3', { class: 'subhead', text: t('duplicates.group', { n: i + 1 }) }),
        members,
        el('p', { class: 'muted', text: pairs.join(t('list.separator')) }),
      ),
    );
  });
}

async function removeCopy(member) {
  const ok = await confirmDialog({
    title: t('library.removeTitle'),
    message: t('library.removeOne', { title: member.title }),
    ok: t('library.remove'),
  });
  if (!ok) return;
  try {
    const removed = await api.libraryRemove([member.id]);
    showStatus(t('status.removed', { count: removed?.length ?? 0 }));
    selected.delete(member.id);
    await refreshLibrary();
    renderDuplicates();
  } catch (err) {
    showError(err);
  }
}

// ---- editing ------------------------------------------------------------------------------------

let editing = null; // the document whose details the dialog shows

function initEditDialog() {
  const dialog = $('#doc-edit');
  $('#doc-edit-cancel').addEventListener('click', closeEditDialog);
  dialog.addEventListener('cancel', (event) => {
    event.preventDefault();
    closeEditDialog();
  });
  $('#doc-edit-form').addEventListener('submit', (event) => {
    event.preventDefault();
    saveEdit();
  });
}

function openEditDialog(doc) {
  editing = doc;
  $('#doc-edit-title').value = doc.title ?? '';
  $('#doc-edit-author').value = doc.author ?? '';
  $('#doc-edit-year').value = doc.year ?? '';
  $('#doc-edit-role').value = doc.role === 'template' ? 'template' : 'source';
  $('#doc-edit-tags').value = (doc.tags ?? []).join(', ');
  const dialog = $('#doc-edit');
  if (typeof dialog.showModal === 'function') dialog.showModal();
  else dialog.setAttribute('open', '');
  $('#doc-edit-title').focus();
}

function closeEditDialog() {
  editing = null;
  const dialog = $('#doc-edit');
  if (typeof dialog.close === 'function' && dialog.open) dialog.close();
  else dialog.removeAttribute('open');
}

async function saveEdit() {
  if (!editing) return;
  const year = $('#doc-edit-year').value.trim();
  const meta = {
    title: $('#doc-edit-title').value.trim(),
    author: $('#doc-edit-author').value.trim() || null,
    year: year === '' ? null : Number(year),
    role: $('#doc-edit-role').value === 'template' ? 'template' : 'source',
    tags: $('#doc-edit-tags')
      .value.split(/[,，]/)
      .map((tag) => tag.trim())
      .filter(Boolean),
  };
  try {
    const updated = await api.libraryEdit(editing.id, meta);
    closeEditDialog();
    showStatus(t('status.edited', { title: updated?.title ?? meta.title }));
    await refreshLibrary();
  } catch (err) {
    // The dialog stays open with what was typed; the message says what to fix.
    showError(err);
  }
}

function toggle(id, on) {
  if (on) selected.add(id);
  else selected.delete(id);
  renderTable();
}

function reflectBusy(busy) {
  const documents = store.get('documents') ?? [];
  const chosen = documents.filter((d) => selected.has(d.id)).length;
  $('#library-add-files').disabled = busy;
  $('#library-duplicates').disabled = busy || (store.get('documents') ?? []).length < 2;
  $('#library-add-folder').disabled = busy;
  $('#try-sample').disabled = busy;
  const remove = $('#library-remove');
  remove.disabled = busy || chosen === 0;
  remove.textContent = chosen ? t('library.removeCount', { count: chosen }) : t('library.remove');
}

function renderImport() {
  const box = $('#import-result');
  box.hidden = !lastImport;
  const failures = clear($('#failures'));
  const present = clear($('#present'));
  if (!lastImport) return;
  const added = lastImport.added?.length ?? 0;
  const already = lastImport.present ?? [];
  const failed = lastImport.failed ?? [];
  const parts = [t('import.added', { count: added })];
  if (already.length) parts.push(t('import.present', { count: already.length }));
  if (failed.length) parts.push(t('import.failed', { count: failed.length }));
  if (lastImport.cancelled) parts.push(t('import.cancelled'));
  $('#import-summary').textContent = parts.join(t('list.separator'));
  box.classList.toggle('has-failures', failed.length > 0);

  $('#failures-box').hidden = failed.length === 0;
  for (const failure of failed) {
    failures.append(
      el(
        'li',
        { dataset: { path: failure.path } },
        el('span', { class: 'failure-name', title: failure.path, text: fmt.basename(failure.path) }),
        el('span', { class: 'failure-path' }, pathText(failure.path)),
        el('span', { class: 'failure-reason', text: errorMessage(failure, { withFile: false }) }),
      ),
    );
  }

  $('#present-box').hidden = already.length === 0;
  $('#present-summary').textContent = t('import.presentTitle', { count: already.length });
  for (const item of already) {
    present.append(
      el(
        'li',
        { dataset: { path: item.path } },
        el('span', { class: 'failure-name', title: item.path, text: fmt.basename(item.path) }),
        el('span', { class: 'failure-reason', text: t('import.sameAs', { title: item.existing?.title ?? '' }) }),
      ),
    );
  }
}

function textOrder(a, b) {
  return String(a ?? '').localeCompare(String(b ?? ''), undefined, { numeric: true, sensitivity: 'base' });
}
