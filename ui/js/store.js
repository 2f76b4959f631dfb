// The interface's shared state: a few named values and the views that listen to them.
//
//   settings     Settings as Rust stored them
//   lang         "zh" | "en", the language in use
//   tab          "library" | "check" | "class" | "settings"
//   documents    [Document], the library
//   report       Report of the last check (or null), as re-filtered at `report.threshold`
//   classReport  ClassReport of the last class comparison (or null), grouped at `classReport.threshold`
//   busy         true while an add, check, demo, class comparison or update runs (one at a time)

const state = {
  settings: null,
  lang: 'en',
  tab: 'library',
  documents: [],
  report: null,
  classReport: null,
  busy: false,
};

const listeners = new Map();

export function get(key) {
  return state[key];
}

export function set(key, value) {
  state[key] = value;
  for (const listener of listeners.get(key) ?? []) listener(value);
}

/** Calls `listener(value)` whenever `key` is set. */
export function on(key, listener) {
  if (!listeners.has(key)) listeners.set(key, []);
  listeners.get(key).push(listener);
}
