// The bridge to the Rust command layer (see ../API.md). This is the only module that touches
// `window.__TAURI__`: views call the functions below and never see `invoke`, `Channel` or the plugins.
//
// Every failure is an `ApiError` with
//   code     what the interface branches on: "bad_input", "library", "not_found", "cancelled",
//            "internal", and "unavailable" when the page runs outside the desktop shell;
//   kind     the engine's ErrorKind in snake_case ("encrypted_pdf", "library_needs_upgrade", …), or
//            null for failures that are not the engine's (IPC, the page itself);
//   path     the file concerned, when there is one;
//   params   the numbers and words of the sentence;
//   message  the English sentence Rust wrote, the fallback.
// i18n.js's errorMessage() turns it into a sentence in the interface's language.

export class ApiError extends Error {
  constructor(code, message, { kind = null, path = null, params = {} } = {}) {
    super(message);
    this.name = 'ApiError';
    this.code = code;
    this.kind = kind;
    this.path = path;
    this.params = params;
  }
}

function tauri() {
  return window.__TAURI__ ?? null;
}

/** True when the page runs inside the Tauri shell (or the development mock). */
export function available() {
  return typeof tauri()?.core?.invoke === 'function';
}

function unavailable(what) {
  return new ApiError(
    'unavailable',
    `window.__TAURI__${what} is missing: this page must run inside the Tongwen desktop app ` +
      '(app.withGlobalTauri) or in ui-dev/ with the development mock.',
  );
}

/** Turns whatever a rejected promise carried into an ApiError. */
export function toApiError(raw) {
  if (raw instanceof ApiError) return raw;
  if (raw && typeof raw === 'object' && typeof raw.code === 'string') {
    return new ApiError(raw.code, String(raw.message ?? raw.code), {
      kind: typeof raw.kind === 'string' ? raw.kind : null,
      path: typeof raw.path === 'string' ? raw.path : null,
      params: raw.params && typeof raw.params === 'object' ? raw.params : {},
    });
  }
  // Tauri itself rejects with a plain string for IPC-level failures ("command x not found", a
  // missing permission, arguments that do not deserialize).
  if (typeof raw === 'string') return new ApiError('internal', raw);
  if (raw instanceof Error) return new ApiError('internal', raw.message);
  return new ApiError('internal', String(raw));
}

async function call(command, args) {
  const core = tauri()?.core;
  if (typeof core?.invoke !== 'function') throw unavailable('.core.invoke');
  try {
    return await core.invoke(command, args);
  } catch (raw) {
    throw toApiError(raw);
  }
}

/** A Channel whose `{done, total, path}` messages go to `onProgress`. */
function progressChannel(onProgress) {
  const Channel = tauri()?.core?.Channel;
  if (typeof Channel !== 'function') throw unavailable('.core.Channel');
  const channel = new Channel();
  channel.onmessage = (message) => {
    try {
      onProgress?.(message);
    } catch (err) {
      // A broken progress display must not break the command that reports to it.
      console.error(err);
    }
  };
  return channel;
}

// ---- commands -----------------------------------------------------------------------------------

/** @returns {Promise<Document[]>} */
export const libraryList = () => call('library_list');

/** @returns {Promise<{path, documents, paragraphs, stale_paragraphs, needs_upgrade}>} */
export const libraryStatus = () => call('library_status');

/**
 * Re-fingerprints a library made by an older Tongwen; progress counts paragraphs.
 * @returns {Promise<{path, documents, paragraphs, stale_paragraphs, needs_upgrade}>} the new status
 */
export const libraryUpgrade = (onProgress) => call('library_upgrade', { onProgress: progressChannel(onProgress) });

/** @returns {Promise<{added, present, failed: [{path, message, kind, params}], cancelled}>} */
export const libraryAdd = (paths, onProgress, meta = null) =>
  call('library_add', { paths, meta, onProgress: progressChannel(onProgress) });

/** @returns {Promise<string[]>} files the app was asked to open (`tongwen-desktop FILE...`), each handed over once */
export const openedFiles = () => call('opened_files');

/** Stops a running add, check, demo, class comparison or library upgrade. */
export const cancel = () => call('cancel');

/** @returns {Promise<Document[]>} the removed documents */
export const libraryRemove = (ids) => call('library_remove', { ids });

/**
 * Near-duplicates inside the library: `{level, method, threshold, documents, groups}`; `method` is
 * `verified` (Tongwen's) or a seed paper's method name, compared at its own default threshold.
 */
export const libraryDuplicates = (onProgress, level = 'document', method = 'verified') =>
  call('library_duplicates', { level, method, onProgress: progressChannel(onProgress) });

/** Replaces a document's `{role, title, author, year, tags}`; resolves to the document as it is now. */
export const libraryEdit = (id, meta) => call('library_edit', { id, meta });

/** @returns {Promise<Report>} at the current threshold */
export const check = (paths, onProgress, author = null) =>
  call('check', { paths, author, onProgress: progressChannel(onProgress) });

/** The last check re-filtered at `threshold`, without checking again. */
export const report = (threshold, exclude = []) => call('report', { threshold, exclude });

/**
 * Disputes the cited quotation starting at character `start` (`cited_by.quotation[0]`) of paragraph
 * `paragraph` of `report.documents[document]`, or takes the dispute back when it is disputed: its
 * passages then count as copied. Resolves to the last check's report at `threshold` and `exclude`
 * (like `report`), its figures recomputed without checking again.
 */
export const disputeQuotation = (document, paragraph, start, threshold, exclude = []) =>
  call('dispute_quotation', { document, paragraph, start, threshold, exclude });

/** Writes the last report at `threshold` as HTML, in `lang` ("zh" | "en", the interface's language). */
export const exportHtml = (path, threshold, lang, exclude = []) =>
  call('export_html', { path, threshold, lang, exclude });

/** Writes the last report as a paginated PDF (font embedded). */
export const exportPdf = (path, threshold, lang, exclude = []) =>
  call('export_pdf', { path, threshold, lang, exclude });

/** @returns {Promise<Settings>} */
export const settingsGet = () => call('settings_get');

/** @returns {Promise<Settings>} the settings as stored */
export const settingsSet = (settings) => call('settings_set', { settings });

/** Writes the bundled sample class (twelve essays and their prompt); returns `{ essays, template }`. */
export const demoClass = () => call('demo_class');

/** Adds the bundled demo library and checks the demo submission. */
export const demo = (onProgress) => call('demo', { onProgress: progressChannel(onProgress) });

/**
 * Compares a class's submissions (files or folders) with each other at the settings' threshold, never
 * counting the text of `templates`. Progress counts files read, then files compared.
 * @returns {Promise<ClassReport>}
 */
export const classCompare = (paths, templates, onProgress) =>
  call('class_compare', { paths, templates, onProgress: progressChannel(onProgress) });

/** The last class comparison with its groups recomputed at `threshold` (the pairs do not change). */
export const classReport = (threshold) => call('class_report', { threshold });

/** Writes the last class comparison, grouped at `threshold`, as HTML in `lang` ("zh" | "en"). */
export const classExportHtml = (path, threshold, lang) => call('class_export_html', { path, threshold, lang });

// ---- native dialogs (plugin-dialog's global API) ------------------------------------------------

function dialogPlugin(method) {
  const dialog = tauri()?.dialog;
  if (typeof dialog?.[method] !== 'function') throw unavailable(`.dialog.${method}`);
  return dialog;
}

/**
 * The native open dialog. Returns the chosen paths, `[]` when the user cancels.
 * @param {{directory?: boolean, multiple?: boolean, filters?: {name: string, extensions: string[]}[],
 *          title?: string, defaultPath?: string}} options
 */
export async function pickPaths({ directory = false, multiple = true, filters, title, defaultPath } = {}) {
  const dialog = dialogPlugin('open');
  let picked;
  try {
    picked = await dialog.open({ multiple, directory, filters, title, defaultPath });
  } catch (raw) {
    throw toApiError(raw);
  }
  if (picked == null) return [];
  const list = Array.isArray(picked) ? picked : [picked];
  // Early plugin versions returned `{path}` objects rather than strings.
  return list.map((p) => (typeof p === 'string' ? p : p?.path)).filter(Boolean);
}

/** The native save dialog. Returns the chosen path, `null` when the user cancels. */
export async function pickSavePath({ defaultPath, filters, title } = {}) {
  const dialog = dialogPlugin('save');
  try {
    return (await dialog.save({ defaultPath, filters, title })) ?? null;
  } catch (raw) {
    throw toApiError(raw);
  }
}

// ---- files dropped on the window ----------------------------------------------------------------

// Names used by Tauri 2 release candidates, mapped to the final ones.
const DRAG_TYPES = { dragged: 'enter', hover: 'over', dropped: 'drop', cancelled: 'leave' };

/**
 * Calls `handler({type: "enter"|"over"|"drop"|"leave", paths: string[]})` for files dragged over
 * the window. Resolves to a function that stops listening. Outside the shell nothing is dropped, so
 * this resolves to a no-op rather than failing.
 */
export async function onDragDrop(handler) {
  const getCurrentWebview = tauri()?.webview?.getCurrentWebview;
  if (typeof getCurrentWebview !== 'function') return () => {};
  return getCurrentWebview().onDragDropEvent((event) => {
    const payload = event?.payload ?? {};
    const type = DRAG_TYPES[payload.type] ?? payload.type;
    handler({ type, paths: Array.isArray(payload.paths) ? payload.paths : [] });
  });
}

// ---- files opened with the app ------------------------------------------------------------------

/**
 * Calls `handler()` when the app is started again with files ("Open with Tongwen" while a window is
 * open): the second start leaves them for this window, to take with `openedFiles()`. Resolves to a
 * function that stops listening; a no-op outside the shell.
 */
export async function onOpenFiles(handler) {
  const listen = tauri()?.event?.listen;
  if (typeof listen !== 'function') return () => {};
  return listen('open-files', () => handler());
}
